// A file output written under a hidden temporary name in the target's folder
// (.NAME.liveconv-part-PID) and renamed to NAME when it is finished, so a
// failed run never leaves a 0-byte or half-written file under the user's name,
// and an interrupted one (finished properly) leaves its playable part. Targets
// that are not plain files (pipe:, URLs, devices, FIFOs, "-") are written in place.
#pragma once

#include <string>

namespace liveconv::app {

class StagedPath {
 public:
  explicit StagedPath(std::string target);
  ~StagedPath();  // removes the temporary unless committed
  StagedPath(const StagedPath&) = delete;
  StagedPath& operator=(const StagedPath&) = delete;
  const std::string& target() const { return target_; }
  const std::string& writePath() const { return write_; }  // where the bytes go now
  void commit();   // renames the temporary to the target (throws OutputError)
  void discard();  // removes the temporary (nothing under the target's name)

 private:
  std::string target_, write_;
  bool staged_ = false, done_ = false;
};

}  // namespace liveconv::app
