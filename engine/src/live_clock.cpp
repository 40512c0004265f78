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
  if (behindS < 0) return {Verdict::Early, due};
  if (lateFrames_ == LateFrames::Drop && behindS > toleranceS_)
    return startFrom(ptsS, now, speed, Verdict::Late);  // skip it and judge the next frame from here
  return {Verdict::OnTime, due};
}

LiveClock::Decision LiveClock::startFrom(double ptsS, Clock::time_point now, double speed, Verdict verdict) {
  anchor_ = now;
  anchorPtsS_ = ptsS;
  speed_ = speed;
  anchored_ = true;
  return {verdict, now};
}

}  // namespace liveconv
