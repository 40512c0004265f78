#include "liveconv/media/staged_output.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>

#include "liveconv/media/media_errors.hpp"

namespace liveconv::media {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPartTag = ".liveconv-part-";

fs::path folderOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// The file a path names once its links are followed (as ffmpeg writes through
// a link): the file the output replaces, whose folder holds the temporary so
// that the rename stays on one file system. A link that leads nowhere yet
// names the file to make.
fs::path throughLinks(const fs::path& path) {
  fs::path p = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p;
}

// The folder a target's temporaries are made in.
fs::path stagingFolderOf(const std::string& plainPath) {
  return folderOf(throughLinks(plainPath).string());
}

}  // namespace

std::string localFilePath(const std::string& target) {
  if (target.empty() || target == "-") return "";
  const std::string path = target.rfind("file:", 0) == 0 ? target.substr(5) : target;
  if (path.empty()) return "";
  std::error_code ec;
  const auto status = fs::status(path, ec);
  return !fs::exists(status) || fs::is_regular_file(status) ? path : "";
}

std::string writeStaged(const std::string& target, const std::function<std::string(const std::string& path)>& write) {
  try {
    StagedOutput out(target);
    std::string error = write(out.writePath());
    if (!error.empty()) {
      out.discard();
      return error;
    }
    // What the writer could not see: the bytes may still fail to reach the disk.
    std::error_code ec;
    if (out.staged() && !fs::is_regular_file(out.writePath(), ec)) return "Cannot write " + target + ".";
    out.commit();
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string writeStaged(const std::string& target, const std::string& bytes) {
  return writeStaged(target, [&](const std::string& path) -> std::string {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return "Cannot write " + target + ": " + std::strerror(errno) + ".";
    errno = 0;
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
    const int error = errno;
    const bool closed = std::fclose(f) == 0;
    if (written && closed) return "";
    return "Cannot write " + target + ": " + std::strerror(error ? error : errno ? errno : EIO) + ".";
  });
}

StagedOutput::StagedOutput(std::string target, bool stage) : target_(std::move(target)), write_(target_) {
  const std::string path = stage ? localFilePath(target_) : "";
  if (path.empty()) return;
  const fs::path place = throughLinks(path);
  write_ =
      (folderOf(place.string()) / ("." + place.filename().string() + kPartTag + std::to_string(::getpid()))).string();
  place_ = place.string();
  target_ = path;
  staged_ = true;
}

StagedOutput::~StagedOutput() {
  if (!done_) discard();
}

std::string StagedOutput::url() const {
  return staged_ ? "file:" + write_ : write_;
}

bool StagedOutput::commit() {
  if (failed_) {
    discard();
    return false;
  }
  done_ = true;
  if (!staged_) return true;
  // A file replaced keeps its permissions (a private 0600 output stays private).
  std::error_code ec;
  const fs::file_status old = fs::status(place_, ec);
  if (!ec && fs::is_regular_file(old)) fs::permissions(write_, old.permissions(), fs::perm_options::replace, ec);
  if (std::rename(write_.c_str(), place_.c_str()) != 0) {
    const int error = errno;
    std::remove(write_.c_str());
    throw OutputError("Cannot move the finished output into place as " + target_ + ": " + std::strerror(error) + ".");
  }
  return true;
}

void StagedOutput::discard() {
  done_ = true;
  if (staged_) std::remove(write_.c_str());
}

std::vector<std::string> leftoverParts(const std::string& target) {
  std::vector<std::string> found;
  const std::string path = localFilePath(target);
  if (path.empty()) return found;
  static const std::regex part(R"(^\..+\.liveconv-part-([0-9]+)$)");
  std::error_code ec;
  for (fs::directory_iterator it(stagingFolderOf(path), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::smatch m;
    if (!std::regex_match(name, m, part) || !it->is_regular_file(ec)) continue;
    const long pid = std::strtol(m[1].str().c_str(), nullptr, 10);
    if (pid == ::getpid()) continue;
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0) continue;  // its run is still writing it
    if (pid > 0 && errno == EPERM) continue;                           // another user's process lives
    found.push_back(name);
  }
  return found;
}

std::string sweepLeftoverParts(const std::string& target, bool remove, const std::string& howToRemove) {
  const std::vector<std::string> parts = leftoverParts(target);
  if (parts.empty()) return "";
  const fs::path folder = stagingFolderOf(localFilePath(target));
  const std::string where = folder == fs::path(".") ? "this folder" : folder.string();
  const bool one = parts.size() == 1;
  const std::string what =
      one ? "a part file left by a killed run" : std::to_string(parts.size()) + " part files left by killed runs";
  std::string names;
  for (std::size_t k = 0; k < parts.size() && k < 3; ++k) names += (k ? ", " : "") + parts[k];
  if (parts.size() > 3) names += ", ...";
  if (remove) {
    for (const std::string& name : parts) std::remove((folder / name).c_str());
    return "removed " + what + " (" + names + ") from " + where + ".";
  }
  return where + " holds " + what + " (" + names + "), " + (one ? "an incomplete output" : "incomplete outputs") +
         "; " + howToRemove + ".";
}

}  // namespace liveconv::media
