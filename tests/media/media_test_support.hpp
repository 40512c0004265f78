// What the media suites share: running a shell command (or liveconv) and
// reading what it printed and how it ended.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace liveconv::app::test_media {

struct Result {
  int exitCode = -1;  // -1: ended by a signal, or did not start
  std::string output;  // stdout and stderr together
};

inline Result shell(const std::string& cmd) {
  Result r;
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline Result liveconv(const std::string& args) {
  return shell(std::string(LIVECONV_BIN) + " " + args);
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// 'text' for sh, whatever it holds (spaces, ':', quotes, non-ASCII).
inline std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace liveconv::app::test_media
