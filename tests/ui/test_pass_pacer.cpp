// The viewer's pacing where it keeps to the refresh rate itself: a pass that
// found no frame looks again a refresh after it began, and the pass that
// draws the frame once it comes swaps as soon as a refresh has passed since
// the last swap, not a refresh after the pass that found nothing.
#include <gtest/gtest.h>

#include "model/pass_pacer.hpp"

using namespace liveconv::ui;
using std::chrono::microseconds;
using std::chrono::milliseconds;

namespace {

const PassPacer::Clock::time_point t0{};

TEST(PassPacer, AFrameThatComesAfterAnEmptyPassIsSwappedWithoutWaitingForThatPassesRefresh) {
  PassPacer pacer(microseconds(15000));
  pacer.passBegan(t0);
  pacer.swapped(t0 + milliseconds(5));  // the last frame
  pacer.passBegan(t0 + milliseconds(25));  // no new frame yet
  EXPECT_EQ(pacer.nextLook(), t0 + milliseconds(40));
  pacer.passBegan(t0 + milliseconds(27));  // woken: the frame is ready
  EXPECT_EQ(pacer.swapAllowed(), t0 + milliseconds(20)) << "the swap would wait for the empty pass's refresh";
}

TEST(PassPacer, SwapsStayARefreshApart) {
  PassPacer pacer(microseconds(15000));
  pacer.passBegan(t0);
  pacer.swapped(t0 + milliseconds(2));
  pacer.passBegan(t0 + milliseconds(3));  // the next frame came at once
  EXPECT_EQ(pacer.swapAllowed(), t0 + milliseconds(17));
}

TEST(PassPacer, WithoutPacingAnEmptyPassLooksAgainSoonAndSwapsDoNotWait) {
  PassPacer pacer(microseconds(0));
  pacer.passBegan(t0 + milliseconds(10));
  pacer.swapped(t0 + milliseconds(10));
  EXPECT_EQ(pacer.nextLook(), t0 + milliseconds(12));
  EXPECT_LE(pacer.swapAllowed(), t0 + milliseconds(10));
}

}  // namespace
