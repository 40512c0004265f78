// A shell command run as a user's terminal runs it: what it printed (standard
// output and error together) and how it ended.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace liveconv::test {

struct Result {
  int exitCode = -1;   // -1: ended by a signal, or did not start
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

}  // namespace liveconv::test
