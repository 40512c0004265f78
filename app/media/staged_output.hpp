// The one place an output file is written safely, for every sink kind
// (containers, single pictures, raw frames): the bytes go to a hidden
// temporary in the target's folder (.NAME.liveconv-part-PID), whatever
// characters NAME holds (spaces, ':', non-ASCII), and become NAME only at
// commit(), once complete. An existing file under NAME is touched only
// there. A write error marks the output failed: commit() then removes the
// temporary and leaves the old file (or none). A run killed outright
// (SIGKILL, a crash) leaves its temporary, never a broken NAME;
// leftoverParts() finds such temporaries for the next run in that folder.
//
// Targets that are not plain files are written in place: FFmpeg protocols
// (pipe:, URLs), standard output, devices and FIFOs.
#pragma once

#include <string>
#include <vector>

namespace liveconv::app {

// A plain file name as the user wrote it ("file:" stripped), or "" for a
// protocol, "-", a device or a FIFO. "take 1:2.mov" and "12:30.mkv" are files:
// a name is a protocol only when FFmpeg has a protocol of that name.
std::string plainFilePath(const std::string& target);

class StagedOutput {
 public:
  // `stage` false writes a plain file in place too (a muxer that names its own files).
  explicit StagedOutput(std::string target, bool stage = true);
  ~StagedOutput();  // removes the temporary unless committed
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  const std::string& target() const { return target_; }
  bool staged() const { return staged_; }
  const std::string& writePath() const { return write_; }  // where the bytes go now (a plain path, or the target)
  // The same for FFmpeg's avio_open ("file:" before a temporary, so a ':' in it names no protocol).
  std::string url() const;

  void fail() { failed_ = true; }  // a write failed: the output is incomplete
  bool failed() const { return failed_; }
  // Renames the temporary to the target (through its links: the file a link
  // leads to is replaced, the link stays; a file replaced keeps its
  // permissions); a failed output is discarded instead (false). Throws
  // OutputError when the rename fails.
  bool commit();
  void discard();  // removes the temporary; nothing under the target's name

 private:
  std::string target_, write_;
  std::string place_;  // the file the rename replaces: the target, its links followed
  bool staged_ = false, done_ = false, failed_ = false;
};

// Temporaries in `target`'s folder that no running process owns (their PID is
// gone): what runs killed outright left. Names, not paths.
std::vector<std::string> leftoverParts(const std::string& target);

// One line about the leftovers of leftoverParts(): with `remove` they are
// deleted ("removed 2 part files ..."), else named, followed by `howToRemove`
// (e.g. "pass -y to remove them"). Empty when there are none.
std::string sweepLeftoverParts(const std::string& target, bool remove, const std::string& howToRemove);

}  // namespace liveconv::app
