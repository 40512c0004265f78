#include "liveconv/live_clock.hpp"

#include "liveconv/errors.hpp"

namespace liveconv {

LiveClock::LiveClock(const LiveClockOptions& options, LateFrames lateFrames)
    : toleranceS_(options.lateToleranceMs / 1000), resyncS_(options.resyncMs / 1000), lateFrames_(lateFrames) {
  if (lateFrames == LateFrames::Invalid) throw InvalidArgument("A live clock needs a policy for late frames.");
}

LiveClock::Decision LiveClock::judge(double ptsS, Clock::time_point now, double speed) {
  if (!anchored_ || speed != speed_) return startFrom(ptsS, now, speed, Verdict::OnTime);
  const auto due = anchor_ + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>((ptsS - anchorPtsS_) / speed_));
  const double behindS = std::chrono::duration<double>(now - due).count();
  if (behindS > resyncS_ || behindS < -resyncS_)
    return startFrom(ptsS, now, speed, Verdict::OnTime);  // a reconnect or a jump in the timestamps
  if (behindS < 0) {
    droppedLast_ = false;
    return {Verdict::Early, due};
  }
  if (lateFrames_ == LateFrames::Drop && behindS > toleranceS_) {
    // Skip it and judge the next frame from here; but never two in a row: a
    // source that takes longer than its frame interval to make each frame is
    // late by itself after every restart, and skipping on would show nothing.
    droppedLast_ = !droppedLast_;
    return startFrom(ptsS, now, speed, droppedLast_ ? Verdict::Late : Verdict::OnTime);
  }
  droppedLast_ = false;
  return {Verdict::OnTime, due};
}

LiveClock::Decision LiveClock::startFrom(double ptsS, Clock::time_point now, double speed, Verdict verdict) {
  if (verdict != Verdict::Late) droppedLast_ = false;
  anchor_ = now;
  anchorPtsS_ = ptsS;
  speed_ = speed;
  anchored_ = true;
  return {verdict, now};
}

}  // namespace liveconv
