// Holds a live source to its timestamps, for every player of a live stream:
// `liveconv run` (a camera, a stream, a file with --realtime) and the
// viewer's decoded feed (a file played in real time, a camera, a stream).
//
// A frame that leaves the decoder more than lateToleranceMs after its time is
// late; with LateFrames::Drop the caller drops it (counted as decode late) and
// the clock restarts from it, so the stream skips ahead instead of drifting
// further behind. Never two in a row: the frame after a dropped one goes on
// (the clock restarts from it), so a source slower than its own frame rate
// (a 60 fps clip that takes 70 ms a frame to decode) shows every other frame
// instead of none. A jump of more than resyncMs either way (the first frame, a
// reconnect, a seek) restarts the clock without a drop.
//
// The clock only judges: the caller waits until `due` in its own way (a sleep,
// or a wait that a stop request can cut short) and counts the drop.
#pragma once

#include <chrono>

namespace liveconv {

struct LiveClockOptions {
  double lateToleranceMs = 50;  // later than this, a frame is late
  double resyncMs = 1000;       // a jump this large in timestamps or arrival restarts the clock
};

enum class LateFrames {
  Invalid = 0,
  Keep,  // late frames go on (lossless runs): they are judged on time
  Drop,  // late frames are dropped and the clock restarts from them
};

class LiveClock {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Verdict {
    Invalid = 0,
    OnTime,  // show it now
    Early,   // show it at `due`
    Late,    // drop it (LateFrames::Drop only)
  };
  struct Decision {
    Verdict verdict = Verdict::Invalid;
    Clock::time_point due;  // when the frame's timestamp falls on the clock
  };

  LiveClock(const LiveClockOptions& options, LateFrames lateFrames);

  // Judges a frame with timestamp `ptsS` that left the decoder at `now`.
  // `speed` plays the timestamps faster (> 1) or slower; a new speed restarts the clock.
  Decision judge(double ptsS, Clock::time_point now, double speed = 1);
  // The next frame starts the clock again (after a pause, or at the start of a clip).
  void restart() { anchored_ = false; }

 private:
  Decision startFrom(double ptsS, Clock::time_point now, double speed, Verdict verdict);

  double toleranceS_, resyncS_;
  LateFrames lateFrames_;
  bool anchored_ = false;
  bool droppedLast_ = false;  // the frame judged last was late and dropped
  Clock::time_point anchor_;
  double anchorPtsS_ = 0, speed_ = 1;
};

}  // namespace liveconv
