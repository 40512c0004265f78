#include "feed/seek_control.hpp"

#include <algorithm>
#include <cmath>

#include "feed/session_log.hpp"

namespace liveconv::ui {

bool SeekControl::to(FrameFeed& feed, double seconds, const FrameStats& s, SessionLog& log, std::uint64_t frame) {
  // Past the end goes to the last half second (a frame is there to show; beyond it the clip would loop).
  const double last = std::max(0.0, s.durationSeconds - 0.5);
  if (s.durationSeconds <= 0 || !feed.seek(std::clamp(seconds, 0.0, last))) {
    log.message("notice", "This source cannot seek (a live or generated source).", frame);
    ++refusals_;
    return false;
  }
  awaited_ = std::clamp(seconds, 0.0, last);
  return true;
}

void SeekControl::passed(FrameFeed& feed, const FrameStats& s) {
  if (awaited_ >= 0 && std::abs(s.positionSeconds - awaited_) < 0.25) awaited_ = -1;
  if (resumeAt_ >= 0 && s.durationSeconds > 0) {  // the new feed knows its file now
    if (feed.seek(resumeAt_)) awaited_ = resumeAt_;
    resumeAt_ = -1;
  }
}

}  // namespace liveconv::ui
