// The clock that holds live sources to their timestamps (`liveconv run` and
// the viewer's decoded feed), judged at made-up arrival times, so no test
// here sleeps or depends on the machine's load.
#include <gtest/gtest.h>

#include "liveconv/live_clock.hpp"
#include "liveconv/pipeline_stats.hpp"

using namespace liveconv;

namespace {

using Clock = LiveClock::Clock;

Clock::time_point at(double seconds) {
  return Clock::time_point() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double secondsOf(Clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

LiveClockOptions options() {
  LiveClockOptions o;
  o.lateToleranceMs = 50;
  o.resyncMs = 1000;
  return o;
}

}  // namespace

TEST(LiveClock, EarlyFramesWaitForTheirTimeAndLateOnesAreDroppedFromWhereTheClockRestarts) {
  LiveClock clock(options(), LateFrames::Drop);
  EXPECT_EQ(clock.judge(10.0, at(100)).verdict, LiveClock::Verdict::OnTime);  // the first frame starts the clock
  const LiveClock::Decision early = clock.judge(10.1, at(100.02));
  EXPECT_EQ(early.verdict, LiveClock::Verdict::Early);
  EXPECT_NEAR(secondsOf(early.due), 100.1, 1e-6);
  EXPECT_EQ(clock.judge(10.2, at(100.24)).verdict, LiveClock::Verdict::OnTime);  // 40 ms late: within the tolerance
  EXPECT_EQ(clock.judge(10.3, at(100.36)).verdict, LiveClock::Verdict::Late);    // 60 ms late
  // The clock restarted from the dropped frame: 10.4 is due at 100.46.
  EXPECT_EQ(clock.judge(10.4, at(100.45)).verdict, LiveClock::Verdict::Early);
  EXPECT_EQ(clock.judge(10.5, at(100.60)).verdict, LiveClock::Verdict::OnTime);  // 40 ms late again
}

// A source that needs longer than its frame interval plus the tolerance for
// every frame (60 fps, 80 ms a frame) is late again after each restart: every
// other frame goes on, never none.
TEST(LiveClock, AFrameAfterADroppedOneGoesOnSoASlowSourceShowsEveryOtherFrame) {
  LiveClock clock(options(), LateFrames::Drop);
  int shown = 0, dropped = 0;
  LiveClock::Verdict previous = LiveClock::Verdict::Invalid;
  for (int k = 0; k < 60; ++k) {
    const LiveClock::Verdict v = clock.judge(k / 60.0, at(100 + 0.08 * k)).verdict;
    ASSERT_NE(v, LiveClock::Verdict::Early) << k;
    if (v == LiveClock::Verdict::Late) {
      EXPECT_NE(previous, LiveClock::Verdict::Late) << "frame " << k << ": two dropped in a row";
      ++dropped;
    } else {
      ++shown;
    }
    previous = v;
  }
  EXPECT_GE(shown, 30);
  EXPECT_GE(dropped, 25) << "it still skips ahead";
  // Back on time, the next late frame is dropped again.
  EXPECT_EQ(clock.judge(2.0, at(200)).verdict, LiveClock::Verdict::OnTime);  // a jump: restarts
  EXPECT_EQ(clock.judge(2.1, at(200.1)).verdict, LiveClock::Verdict::OnTime);
  EXPECT_EQ(clock.judge(2.2, at(200.26)).verdict, LiveClock::Verdict::Late);
}

TEST(LiveClock, AJumpOfMoreThanTheResyncRestartsTheClockWithoutADrop) {
  LiveClock clock(options(), LateFrames::Drop);
  clock.judge(0, at(0));
  EXPECT_EQ(clock.judge(0.1, at(2.0)).verdict, LiveClock::Verdict::OnTime);   // 1.9 s late: a reconnect
  EXPECT_EQ(clock.judge(0.2, at(2.11)).verdict, LiveClock::Verdict::OnTime);  // judged from 2.0
  EXPECT_EQ(clock.judge(5.0, at(2.2)).verdict, LiveClock::Verdict::OnTime);   // 4.7 s early: a seek
  EXPECT_EQ(clock.judge(5.1, at(2.31)).verdict, LiveClock::Verdict::OnTime);  // judged from 2.2
}

TEST(LiveClock, KeepLetsLateFramesGoOnWithoutRestarting) {
  LiveClock clock(options(), LateFrames::Keep);
  clock.judge(0, at(0));
  EXPECT_EQ(clock.judge(0.1, at(0.3)).verdict, LiveClock::Verdict::OnTime);  // 200 ms late
  // Not restarted: 0.5 is still due at 0.5 on the first frame's clock.
  const LiveClock::Decision d = clock.judge(0.5, at(0.4));
  EXPECT_EQ(d.verdict, LiveClock::Verdict::Early);
  EXPECT_NEAR(secondsOf(d.due), 0.5, 1e-6);
}

TEST(LiveClock, SpeedScalesTheTimestampsAndAChangeRestartsTheClock) {
  LiveClock clock(options(), LateFrames::Drop);
  clock.judge(0, at(0), 2);
  LiveClock::Decision d = clock.judge(1.0, at(0.1), 2);
  EXPECT_EQ(d.verdict, LiveClock::Verdict::Early);
  EXPECT_NEAR(secondsOf(d.due), 0.5, 1e-6);
  EXPECT_EQ(clock.judge(1.2, at(0.66), 2).verdict, LiveClock::Verdict::Late);  // due at 0.6
  EXPECT_EQ(clock.judge(1.4, at(5), 1).verdict, LiveClock::Verdict::OnTime);   // new speed: a new start
  d = clock.judge(1.5, at(5), 1);
  EXPECT_NEAR(secondsOf(d.due), 5.1, 1e-6);
  clock.restart();
  EXPECT_EQ(clock.judge(9.0, at(6), 1).verdict, LiveClock::Verdict::OnTime);
}

// "out" counts what reached the output: a frame the full output queue drops
// (live policy) moves from out to output late.
TEST(PipelineStatsCounts, AFrameTheOutputQueueDropsIsNotCountedOut) {
  liveconv::PipelineStats stats;
  for (int k = 0; k < 3; ++k) stats.frameOut(16, 8, 0);
  stats.outputDroppedOldest();
  const liveconv::StatsSnapshot s = stats.snapshot();
  EXPECT_EQ(s.framesOut, 2);
  EXPECT_EQ(s.dropped[static_cast<int>(liveconv::DropCause::OutputLate)], 1);
  EXPECT_EQ(s.droppedTotal(), 1);
}
