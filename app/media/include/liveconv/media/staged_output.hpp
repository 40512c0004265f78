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
//
// Plain C++ and POSIX, in every build: the windows' pictures and stats files,
// saved masks, bench's tables and the JSON log go through writeStaged(); the
// FFmpeg sinks through StagedOutput, told by plainFilePath() which targets
// are files.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace liveconv::media {

// A file name as the user wrote it ("file:" stripped), or "" for "-", a
// device, a FIFO or a folder: where a file would be written.
std::string localFilePath(const std::string& target);

// As localFilePath(), and "" for an FFmpeg protocol too (liveconv_media, with
// FFmpeg). "take 1:2.mov" and "12:30.mkv" are files: a name is a protocol only
// when FFmpeg has a protocol of that name.
std::string plainFilePath(const std::string& target);

// Writes a whole file the staged way: `write` writes it at the path it is
// given (the temporary, or `target` itself where that is no plain file) and
// returns "" or why it could not. Then the temporary takes the target's
// name, through its links, keeping an existing file's permissions; on a
// failure (or an exception) it is removed and a file already there is left as
// it was. Returns "" or the sentence why the file was not written.
std::string writeStaged(const std::string& target, const std::function<std::string(const std::string& path)>& write);
// writeStaged() of these bytes.
std::string writeStaged(const std::string& target, const std::string& bytes);

class StagedOutput {
 public:
  // `stage` false writes in place (a muxer that names its own files, an
  // FFmpeg protocol: the caller asks plainFilePath()).
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

}  // namespace liveconv::media
