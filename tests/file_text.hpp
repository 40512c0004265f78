// A file's whole text, "" where it cannot be read: what a test reads back of
// what a program wrote (its log, stats file, output).
#pragma once

#include <fstream>
#include <iterator>
#include <string>

namespace liveconv::test {

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace liveconv::test
