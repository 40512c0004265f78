#include "liveconv/kernel_sources.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
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

namespace {

std::mutex gUserKernelMutex;
UserKernel gUserKernel;
std::map<std::string, UserKernel> gUserKernelVersions;  // by digest

std::string digestOf(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

}  // namespace

void loadUserKernel(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InvalidArgument("The kernel file " + path + " is a folder; give a .cl file.");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("Cannot read the kernel file " + path + ": " + std::strerror(errno) + ".");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InvalidArgument("Cannot read the kernel file " + path + ": " + std::strerror(errno) + ".");
  UserKernel loaded{path, text.str(), ""};
  if (loaded.text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InvalidArgument("The kernel file " + path + " is empty; it should define __kernel void convolve(...).");
  loaded.digest = digestOf(loaded.text);
  std::lock_guard<std::mutex> lock(gUserKernelMutex);
  gUserKernelVersions[loaded.digest] = loaded;
  gUserKernel = std::move(loaded);
}

UserKernel userKernel(const std::string& digest) {
  std::lock_guard<std::mutex> lock(gUserKernelMutex);
  if (digest.empty()) return gUserKernel;
  const auto it = gUserKernelVersions.find(digest);
  return it == gUserKernelVersions.end() ? UserKernel() : it->second;
}

UserKernel userKernel() {
  std::lock_guard<std::mutex> lock(gUserKernelMutex);
  return gUserKernel;
}

bool userKernelLoaded() {
  std::lock_guard<std::mutex> lock(gUserKernelMutex);
  return !gUserKernel.path.empty();
}

}  // namespace liveconv
