// One step of the shell's frame side, without Qt: hand the model's newest
// snapshot to the feed, take a frame, and tell the model which variant the
// feed refused. The Qt window calls tick() from a timer; the tests call it
// directly. Opening a source builds a new feed and keeps the old one when the
// new source fails, so a bad file never leaves the window without a picture.
#pragma once

#include <memory>
#include <string>

#include "feed/frame_feed.hpp"
#include "model/frame_stats.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

class FrameLoop {
 public:
  explicit FrameLoop(ViewerModel& model) : model_(model) {}

  // Builds the feed for `source` on the model's device. Returns an empty
  // string, or the sentence that says why the source did not open (the
  // previous feed and the model's source stay as they were).
  std::string open(const std::string& source);
  bool running() const { return feed_ != nullptr; }

  // Advances (or holds, when paused and not stepping) and returns the frame.
  const FeedFrame& tick(bool step);
  const FeedFrame& frame() const { return frame_; }
  // The feed's stats with displayMs filled in by the caller through setDisplayMs().
  const FrameStats& stats() const { return stats_; }
  void setDisplayMs(double ms) { displayMs_ = ms; }
  std::uint64_t framesTicked() const { return ticks_; }

 private:
  ViewerModel& model_;
  std::unique_ptr<FrameFeed> feed_;
  FeedFrame frame_;
  FrameStats stats_;
  std::uint64_t handedVersion_ = 0, notedRejection_ = 0, ticks_ = 0;
  double displayMs_ = 0;
};

}  // namespace liveconv::ui
