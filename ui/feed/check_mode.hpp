// Check mode (E, a menu item, the script's `check on`): while the view's
// `checking` is on, the frame on screen is copied (source and filtered) and
// checked against the CPU reference on "lc-check" (FrameChecker), one check
// after another, each new frame or parameter set once. This part decides
// which frame to check and when, and keeps the filter each recent parameter
// version had (a frame on screen may carry a version older than the model's).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>

#include "feed/frame_checker.hpp"
#include "feed/frame_feed.hpp"

namespace liveconv::ui {

class DisplayLink;
class SessionLog;
class ViewerModel;
struct FrameStats;

class CheckMode {
 public:
  static constexpr std::chrono::milliseconds kCheckInterval{200};

  // Keeps the filter of the model's version for the frames that will carry it.
  void remember(const ViewerModel& model);
  // Collects a finished check (into stats.check and the log), then, when
  // `wanted`, starts one on `frame` if it or its set has not been checked;
  // pixels that live in a GL buffer are read through `link`.
  void update(bool wanted, const FeedFrame& frame, FrameStats& stats, const DisplayLink* link, SessionLog& log,
              std::uint64_t framesShown);
  // Whether a check of `frame`'s set is still to finish (the check is on and the frame plays).
  bool pending(const FeedFrame& frame) const;
  int finished() const { return checks_; }

 private:
  bool due(const FeedFrame& frame) const;

  std::map<std::uint64_t, FilterParams> paramsOf_;
  std::uint64_t rememberedVersion_ = 0;
  std::shared_ptr<const CheckReport> last_;
  std::uint64_t checkedIndex_ = 0, checkedVersion_ = 0;
  bool checkedAny_ = false;
  std::uint64_t failedVersion_ = 0;  // a check of this version could not be made
  int checks_ = 0, started_ = 0;
  // The next check of the same set starts no sooner than the last one took
  // after it ended (checks take at most half the time of the cores they
  // use), nor sooner than kCheckInterval after it started: a few a second, as
  // many as anyone reads; a new set is checked at once.
  std::chrono::steady_clock::time_point nextAt_{};
  FrameChecker checker_;  // last: its thread ends before the members above go
};

}  // namespace liveconv::ui
