// FrameLoop::redrawDue: the loop turns every pass, but a window draws only
// when something it shows changed (a new frame, an edit, a view setting, a
// message, input), and otherwise every kRedrawInterval for the overlay's
// numbers. The feed here hands out the same picture until the test says a
// new one came.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "feed/frame_loop.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

class StillFeed final : public FrameFeed {
 public:
  void setParams(std::shared_ptr<const ParamsSnapshot>) override {}
  FeedFrame advance(Advance) override {
    FeedFrame f;
    f.filtered = ImageView{pixels_, 1, 1, 4, PixelFormat::RGBA8};
    f.fresh = newFrame;
    newFrame = false;
    return f;
  }
  FrameStats stats() const override {
    FrameStats s;
    s.sourceMessage = message;
    return s;
  }
  bool newFrame = false;
  std::string message;  // what the source says (the end of a clip, a stream that stopped)

 private:
  std::uint8_t pixels_[4] = {1, 2, 3, 4};
};

struct Loop {
  ViewerModel model;
  FrameLoop loop{model};
  StillFeed* feed = nullptr;

  Loop() {
    auto f = std::make_unique<StillFeed>();
    feed = f.get();
    loop.adopt(std::move(f), "testpattern");
    model.setSource("testpattern");
    loop.tick();
    loop.drew();
  }
  // One pass: true when it draws (and then it does).
  bool pass() {
    loop.tick();
    if (!loop.redrawDue()) return false;
    loop.drew();
    return true;
  }
};

TEST(FrameLoopRedraw, AnUnchangedWindowIsDrawnOnlyEveryInterval) {
  Loop l;
  ASSERT_TRUE(l.loop.frame().hasPicture());
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(l.pass()) << "pass " << i << " drew a window where nothing changed";
  std::this_thread::sleep_for(FrameLoop::kRedrawInterval + std::chrono::milliseconds(20));
  EXPECT_TRUE(l.pass()) << "the overlay's numbers were not drawn again after the interval";
  EXPECT_FALSE(l.pass());
}

TEST(FrameLoopRedraw, ANewFrameAnEditAViewSettingAndAMessageAreDrawnAtOnce) {
  Loop l;
  EXPECT_FALSE(l.pass());
  l.feed->newFrame = true;
  EXPECT_TRUE(l.pass()) << "a new frame";
  EXPECT_FALSE(l.pass());
  ASSERT_TRUE(l.model.setCell(0, 0, 7.0f));
  EXPECT_TRUE(l.pass()) << "a mask edit";
  EXPECT_FALSE(l.pass());
  l.model.view().paused = true;
  EXPECT_TRUE(l.pass()) << "pausing";
  EXPECT_FALSE(l.pass());
  l.model.view().splitPosition = 0.25f;
  EXPECT_TRUE(l.pass()) << "the compare divider";
  EXPECT_FALSE(l.pass());
  l.feed->message = "The stream stopped sending.";
  EXPECT_TRUE(l.pass()) << "a message on the picture";
  EXPECT_FALSE(l.pass());
}

TEST(FrameLoopRedraw, AfterInputEveryPassDrawsForAWhile) {
  Loop l;
  EXPECT_FALSE(l.pass());
  l.loop.inputCame();
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(l.pass()) << "pass " << i << " after input";
  std::this_thread::sleep_for(FrameLoop::kInputRedraw + std::chrono::milliseconds(20));
  EXPECT_TRUE(l.pass()) << "the interval passed meanwhile";
  EXPECT_FALSE(l.pass()) << "input long gone";
}

TEST(FrameLoopRedraw, AnExposedWindowDrawsOnce) {
  Loop l;
  EXPECT_FALSE(l.pass());
  l.loop.exposed();
  EXPECT_TRUE(l.pass());
  EXPECT_FALSE(l.pass());
}

TEST(FrameLoopRedraw, TheUiRateIsTheLoopsWhetherItDrawsOrNot) {
  Loop l;
  for (int i = 0; i < 12; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    l.pass();
  }
  const std::vector<float> times = l.loop.uiFrameTimes().values();
  ASSERT_GE(times.size(), 8u);
  for (float ms : times) EXPECT_GE(ms, 9.0f);
  EXPECT_GT(l.loop.uiFps(), 10.0);
  EXPECT_LT(l.loop.uiFps(), 110.0);
  EXPECT_LE(l.loop.redraws(), 3u) << "passes drew that had nothing new to show";
}

}  // namespace
