#include "media/staged_path.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "media/media_errors.hpp"

namespace liveconv::app {
namespace {

// A plain file path (existing regular file, or not there yet), as opposed to a
// protocol (pipe:, file:, URLs), a device or a FIFO.
bool isPlainFile(const std::string& path) {
  if (path.empty() || path.find(':') != std::string::npos || path == "-") return false;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  return !std::filesystem::exists(status) || std::filesystem::is_regular_file(status);
}

}  // namespace

StagedPath::StagedPath(std::string target) : target_(std::move(target)), write_(target_) {
  if (!isPlainFile(target_)) return;
  const std::filesystem::path t(target_);
  write_ = (t.parent_path() / ("." + t.filename().string() + ".liveconv-part-" + std::to_string(::getpid()))).string();
  staged_ = true;
}

StagedPath::~StagedPath() {
  if (!done_) discard();
}

void StagedPath::commit() {
  done_ = true;
  if (!staged_) return;
  if (std::rename(write_.c_str(), target_.c_str()) != 0)
    throw OutputError("Cannot move the finished output into place as " + target_ + ": " + std::strerror(errno) + ".");
}

void StagedPath::discard() {
  done_ = true;
  if (staged_) std::remove(write_.c_str());
}

}  // namespace liveconv::app
