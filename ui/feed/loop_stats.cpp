#include "feed/loop_stats.hpp"

#include <algorithm>
#include <chrono>

#include "feed/session_log.hpp"

namespace liveconv::ui {
namespace {
double secondsNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The counters of `now` since `base` was taken (a feed's counters only grow).
void subtractCounters(FrameStats& now, const FrameStats& base) {
  now.framesShown -= std::min(now.framesShown, base.framesShown);
  now.framesTotal -= std::min(now.framesTotal, base.framesTotal);
  for (DropCause& d : now.drops)
    for (const DropCause& b : base.drops)
      if (b.cause == d.cause) d.count -= std::min(d.count, b.count);
}
}  // namespace

void LoopStats::take(const FrameStats& feed) {
  stats_ = feed;
  subtractCounters(stats_, baseline_);
  stats_.stages.displayMs = displayMs_;
}

// A new frame is on its way to the screen now: from its source's hand-over to
// here, plus what the display takes to draw it (smoothed, as the overlay shows).
void LoopStats::passed(const FeedFrame& frame, SessionLog& log) {
  if (frame.fresh) videoRate_.shown(secondsNow());
  if (frame.fresh && frame.sourceAt != std::chrono::steady_clock::time_point{}) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame.sourceAt).count() +
        displayMs_;
    latency_.push(ms);
    log.latency(ms);
  }
  const Percentiles p = latency_.summary();
  stats_.latencyMedianMs = p.median;
  stats_.latencyP99Ms = p.p99;
}

void LoopStats::reset(const FrameStats* feed) {
  if (feed) baseline_ = *feed;
  subtractCounters(stats_, stats_);
  latency_.clear();
  stats_.latencyMedianMs = stats_.latencyP99Ms = 0;
}

double LoopStats::videoFps() const {
  return videoRate_.perSecond(secondsNow());
}

}  // namespace liveconv::ui
