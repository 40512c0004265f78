#include "liveconv/kernel_sources.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "liveconv/errors.hpp"

namespace liveconv {

std::string kernelSource(const std::string& fileName) {
  if (const char* dir = std::getenv(kKernelDirEnvVar); dir && *dir) {
    const std::string path = std::string(dir) + "/" + fileName;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("Cannot read kernel source " + path + " (" + kKernelDirEnvVar + " is set).");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  if (const char* text = embeddedKernelText(fileName.c_str())) return text;
  throw Error("No kernel source named " + fileName + " is embedded in this build.");
}

}  // namespace liveconv
