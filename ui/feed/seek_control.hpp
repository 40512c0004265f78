// Seeking a file that plays (the arrow keys, Home, End, the seek bars, a
// script's `seek`): where a relative seek counts from, a seek on its way until
// the picture reaches it, and the place a file was at when a device or format
// switch replaced its feed, where the new feed goes on.
#pragma once

#include <cstdint>

#include "feed/frame_feed.hpp"
#include "model/frame_stats.hpp"

namespace liveconv::ui {

class SessionLog;

class SeekControl {
 public:
  // A seek still on its way, else the frame on screen: Left pressed twice
  // goes 10 s back, however slow the decoder.
  double origin(const FrameStats& s) const { return awaited_ >= 0 ? awaited_ : s.positionSeconds; }
  // Asks `feed` for the frame at `seconds` (past the end: the last half
  // second); false, with a notice in `log`, where the source cannot seek.
  bool to(FrameFeed& feed, double seconds, const FrameStats& s, SessionLog& log, std::uint64_t frame);
  // A new feed took over; `sameFile`: it plays the file the old one did, from where that one was.
  void replaced(bool sameFile, const FrameStats& old) {
    resumeAt_ = sameFile && old.durationSeconds > 0 ? origin(old) : -1;
  }
  // After a pass: a seek reached the picture; a new feed that knows its file now goes back to its place.
  void passed(FrameFeed& feed, const FrameStats& s);
  // No seek on its way, nor a switched file's return to its place.
  bool settled() const { return awaited_ < 0 && resumeAt_ < 0; }
  // Grows each time a seek was refused (the shells say so where the user looks).
  std::uint64_t refusals() const { return refusals_; }

 private:
  double awaited_ = -1;   // a seek on its way (a script's wait holds for it); -1: none
  double resumeAt_ = -1;  // where the file was when a device or format switch replaced its feed
  std::uint64_t refusals_ = 0;
};

}  // namespace liveconv::ui
