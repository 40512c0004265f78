// Overlay numbers: throughput, drops, the frame-time ring; and the test source.
#include <gtest/gtest.h>

#include "liveconv/media/generated_sources.hpp"
#include "model/frame_stats.hpp"

using namespace liveconv;
using namespace liveconv::ui;
using liveconv::media::makeTestPattern;
using liveconv::media::parseTestPatternSpec;

TEST(FrameStats, Throughput) {
  EXPECT_DOUBLE_EQ(megapixelsPerSecond(1000, 1000, 1.0), 1000.0);
  EXPECT_DOUBLE_EQ(gigabytesPerSecond(1000, 1000, 4, 1.0), 8.0);
  EXPECT_EQ(megapixelsPerSecond(10, 10, 0.0), 0.0);
}

TEST(FrameStats, DropsAsCountAndPercent) {
  FrameStats s;
  s.framesTotal = 200;
  s.drops = {{"decoder late", 3}, {"queue full", 1}};
  EXPECT_EQ(s.framesDropped(), 4u);
  EXPECT_DOUBLE_EQ(s.droppedPercent(), 2.0);
}

// The overlay names the fourth stage "interop" on the zero-copy path, "readback" otherwise.
TEST(FrameStats, ZeroCopyFollowsTheDisplayPath) {
  FrameStats s;
  s.displayPath = DisplayPath::ZeroCopy;
  EXPECT_TRUE(s.zeroCopy());
  s.displayPath = DisplayPath::Readback;
  EXPECT_FALSE(s.zeroCopy());
  s.displayPath = DisplayPath::Invalid;
  EXPECT_FALSE(s.zeroCopy());
}

// `auto` says what it runs once a frame has run; other variants are themselves.
TEST(FrameStats, VariantLineNamesWhatAutoRuns) {
  EXPECT_EQ(variantLine(VariantId::Local, VariantId::Local), "local");
  EXPECT_EQ(variantLine(VariantId::Auto, VariantId::Invalid), "auto");
  EXPECT_EQ(variantLine(VariantId::Auto, VariantId::Separable), "auto -> separable");
  EXPECT_EQ(variantLine(VariantId::Baked, VariantId::Rows), "rows, until baked is built") << "a stopgap serves baked";
  EXPECT_EQ(variantLine(VariantId::Invalid, VariantId::Invalid), "") << "before any frame";
  EXPECT_EQ(FrameStats().runsOnText(VariantId::Local), "local");
}

// The mask panels' "runs on variant": what runs once the frame side runs the
// model's variant (with auto's choice), the model's choice while an edit is on its way.
TEST(FrameStats, RunsOnTextFollowsTheFrameSideOnlyForTheModelsVariant) {
  FrameStats s;
  s.variantAsked = VariantId::Auto;
  s.variantRan = VariantId::RowsBaked;
  EXPECT_EQ(s.variantText(), "auto -> rows_baked");
  EXPECT_EQ(s.runsOnText(VariantId::Auto), "auto -> rows_baked");
  EXPECT_EQ(s.runsOnText(VariantId::Naive), "naive") << "an edit to naive on its way";
  s.variantAsked = VariantId::Naive;
  s.variantRan = VariantId::Naive;
  EXPECT_EQ(s.runsOnText(VariantId::Naive), "naive");
}

TEST(FrameTimeHistory, KeepsTheNewestOldestFirst) {
  FrameTimeHistory h(3);
  for (float v : {1.f, 2.f, 3.f, 4.f, 5.f}) h.push(v);
  EXPECT_EQ(h.values(), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(h.maxMs(), 5.f);
}

TEST(TestPattern, DeterministicAndMoving) {
  const Image a = makeTestPattern(64, 48, PixelFormat::RGBA8, 3);
  const Image b = makeTestPattern(64, 48, PixelFormat::RGBA8, 3);
  const Image c = makeTestPattern(64, 48, PixelFormat::RGBA8, 4);
  EXPECT_TRUE(std::equal(a.data(), a.data() + a.sizeBytes(), b.data()));
  EXPECT_FALSE(std::equal(a.data(), a.data() + a.sizeBytes(), c.data()));
  int w = 0, h = 0;
  EXPECT_TRUE(parseTestPatternSpec("testpattern:320x200", &w, &h));
  EXPECT_EQ(w, 320);
  EXPECT_EQ(h, 200);
  EXPECT_FALSE(parseTestPatternSpec("testpattern:320", &w, &h));
  EXPECT_FALSE(parseTestPatternSpec("clip.mp4", &w, &h));
}

// The source the windows and `run` play hands out frame N as makeTestPattern(N)
// (the screenshot tests rebuild it so), in either format, across a switch,
// with timestamps 1/60 s apart; its bar wraps at the right edge (4 px a frame).
TEST(TestPattern, TheSourceHandsOutMakeTestPatternsFramesInEitherFormat) {
  media::TestPatternSource source(97, 31, PixelFormat::RGBA8);
  int w = 0, h = 0;
  ASSERT_TRUE(source.frameSize(&w, &h));
  EXPECT_EQ(w, 97);
  EXPECT_EQ(h, 31);
  for (std::uint64_t n = 0; n < 40; ++n) {
    if (n == 10) {
      ASSERT_TRUE(source.setFormat(PixelFormat::GRAY8));
    }
    if (n == 20) {
      ASSERT_TRUE(source.setFormat(PixelFormat::RGBA8));
    }
    const PixelFormat format = n >= 10 && n < 20 ? PixelFormat::GRAY8 : PixelFormat::RGBA8;
    Frame f;
    ASSERT_TRUE(source.next(f));
    EXPECT_EQ(f.index, static_cast<std::int64_t>(n));
    EXPECT_TRUE(f.hasPts);
    EXPECT_DOUBLE_EQ(f.ptsSeconds, n / 60.0);
    ASSERT_EQ(f.image.format(), format) << "frame " << n;
    const Image want = makeTestPattern(97, 31, format, n);
    EXPECT_TRUE(std::equal(want.data(), want.data() + want.sizeBytes(), f.image.data())) << "frame " << n;
  }
  EXPECT_FALSE(source.setFormat(PixelFormat::Invalid));
}

// Median and p99 by nearest rank, of any order of samples.
TEST(Percentiles, MedianP99AndMaxOfUnsortedTimes) {
  std::vector<double> ms;
  for (int k = 100; k >= 1; --k) ms.push_back(k);  // 1..100, reversed
  const liveconv::ui::Percentiles p = liveconv::ui::percentiles(ms);
  EXPECT_EQ(p.median, 51);
  EXPECT_EQ(p.p99, 100);
  EXPECT_EQ(p.max, 100);
  EXPECT_EQ(liveconv::ui::percentiles({}).median, 0);
  EXPECT_EQ(liveconv::ui::percentiles({7}).p99, 7);
}

// The overlay's latency: the newest frames only, the oldest replaced first.
TEST(LatencyWindow, SummarisesTheNewestFrames) {
  liveconv::ui::LatencyWindow window(4);
  EXPECT_EQ(window.summary().median, 0) << "nothing measured yet";
  for (double ms : {500.0, 500.0, 10.0, 20.0, 30.0, 40.0}) window.push(ms);  // the two 500s are pushed out
  EXPECT_EQ(window.summary().median, 30);
  EXPECT_EQ(window.summary().max, 40);
  window.clear();
  EXPECT_EQ(window.summary().p99, 0);
}

// The display's share of each frame's latency: one slow pass (the first,
// which compiles shaders and rasterises the panels) does not stay in it for
// the frames after, as a moving average with a 1/30 weight kept it (a 156 ms
// first pass still added over 90 ms twenty frames later); a lasting change
// is taken within a few passes.
TEST(DisplayTime, OneSlowPassDoesNotWeighOnTheFramesAfterIt) {
  liveconv::ui::DisplayTime display;
  EXPECT_EQ(display.ms(), 0) << "nothing drawn yet";
  display.push(156);
  EXPECT_EQ(display.ms(), 156) << "the first pass is all there is";
  for (int k = 0; k < 3; ++k) display.push(15);
  EXPECT_EQ(display.ms(), 15) << "three ordinary passes later";
  for (int k = 0; k < 20; ++k) display.push(k % 5 == 0 ? 60 : 16);  // every fifth pass slow
  EXPECT_EQ(display.ms(), 16);
  for (int k = 0; k < 8; ++k) display.push(40);  // the window grew: every pass slower
  EXPECT_EQ(display.ms(), 40);
}

// The overlay's headline: new source frames per second, not redraws.
TEST(VideoRate, CountsTheFreshFramesOfTheLastSecond) {
  liveconv::ui::VideoRate rate;
  EXPECT_EQ(rate.perSecond(0), 0);
  for (int k = 0; k < 25; ++k) rate.shown(10.0 + k * 0.04);  // a 25 fps clip
  EXPECT_EQ(rate.perSecond(10.97), 25);
  EXPECT_EQ(rate.perSecond(11.5), 12) << "half a second after, half of them";
  EXPECT_EQ(rate.perSecond(13.0), 0) << "paused: nothing new";
}
