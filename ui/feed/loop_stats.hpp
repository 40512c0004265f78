// The numbers both windows show of the playing feed: its stats with the
// counters since the last reset (R), the display stage's time the shell
// measured, the latency of each new frame from its source's hand-over to the
// screen, and the rate new frames arrive at.
#pragma once

#include "feed/frame_feed.hpp"
#include "model/frame_stats.hpp"

namespace liveconv::ui {

class SessionLog;

class LoopStats {
 public:
  const FrameStats& stats() const { return stats_; }
  FrameStats& stats() { return stats_; }
  // Takes the feed's stats after a pass (their counters since the last reset).
  void take(const FrameStats& feed);
  // What the shell measured drawing the last frame; it goes into the next take().
  void setDisplayMs(double ms) { displayMs_ = ms; }
  // The frame a pass brought: a new one counts for the rate and the latency (also into `log`).
  void passed(const FeedFrame& frame, SessionLog& log);
  // The counters start again from `feed`'s (R; null: no feed plays); latency too.
  void reset(const FrameStats* feed);
  // A new feed took over: its counters start at zero.
  void restart() { baseline_ = FrameStats{}; }
  // New source frames shown per second.
  double videoFps() const;

 private:
  FrameStats stats_;
  FrameStats baseline_;  // the counters at the last reset()
  double displayMs_ = 0;
  VideoRate videoRate_;
  LatencyWindow latency_;  // the overlay's; the log keeps every sample
};

}  // namespace liveconv::ui
