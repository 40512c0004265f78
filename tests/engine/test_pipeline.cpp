// The double-buffered pipeline against the CPU reference: order, completeness,
// size and format changes, the live policy's drops, parameter switches at a
// frame boundary, YUV frames converted on the device, the decode-only
// pass-through. Small frames, so the suite stays quick on PoCL.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <future>
#include <iostream>
#include <iterator>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "liveconv/autotune.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/pipeline.hpp"
#include "liveconv/pipeline_convert.hpp"
#include "liveconv/reference.hpp"
#include "liveconv/variants.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

FilterParams paramsWith(const Mask& mask, VariantId variant) {
  FilterParams p;
  p.mask = mask;
  p.variant = variant;
  p.border = BorderMode::Mirror;
  return p;
}

Image reference(const Image& in, const FilterParams& p) {
  Image out(in.width(), in.height(), in.format());
  convolveReference(in.view(), out.view(), p.mask, p.border, p.alpha);
  return out;
}

Frame frameOf(const Image& img, int index) {
  Frame f;
  f.image = img;
  f.index = index;
  return f;
}

std::vector<Frame> drain(Pipeline& p) {
  std::vector<Frame> out;
  while (auto f = p.pop()) out.push_back(std::move(*f));
  return out;
}

// The frames pushed from a thread of their own, as a decoder pushes, and
// every frame that came out.
std::vector<Frame> runThrough(Pipeline& p, std::vector<Frame> in) {
  std::thread producer([&] {
    for (Frame& f : in) p.push(std::move(f));
    p.endOfInput();
  });
  std::vector<Frame> out = drain(p);
  producer.join();
  return out;
}

void expectMatches(const Frame& got, const Image& want, const std::string& what) {
  ASSERT_EQ(got.image.width(), want.width()) << what;
  ASSERT_EQ(got.image.height(), want.height()) << what;
  const auto mismatch = compareImages(got.image.view(), want.view(), 0);
  EXPECT_FALSE(mismatch) << what << ": " << mismatch->toString();
}

TEST(Pipeline, LosslessDeliversEveryFrameInOrderEqualToTheReference) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(5, 3), VariantId::Local);
  PipelineOptions opt;
  opt.deviceSlots = 2;
  Pipeline pipeline(ctx, params, opt);
  std::vector<Image> inputs;
  for (int i = 0; i < 10; ++i) inputs.push_back(randomImage(160, 120, PixelFormat::RGBA8, 100 + i));
  std::thread producer([&] {
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(pipeline.push(frameOf(inputs[i], i)));
    pipeline.endOfInput();
  });
  const std::vector<Frame> out = drain(pipeline);
  producer.join();
  ASSERT_EQ(out.size(), inputs.size());
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(out[i].index, i);
    expectMatches(out[i], reference(inputs[i], params), "frame " + std::to_string(i));
  }
  const StatsSnapshot s = pipeline.stats().snapshot();
  EXPECT_EQ(s.framesIn, 10);
  EXPECT_EQ(s.framesOut, 10);
  EXPECT_EQ(s.droppedTotal(), 0);
  EXPECT_EQ(s.stages[static_cast<int>(Stage::Kernel)].samples, 10);
}

// "Compare variants on this frame": a race on lc-compare for the set that
// runs, on the streaming frames' format and size, while the stream goes on
// with the variant it had.
TEST(Pipeline, ACompareRacesTheVariantsBesideTheStreamAndChangesNothingThatRuns) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  test::loadExampleUserKernel();  // a kernel of one's own is raced too
  FilterParams params = paramsWith(test::integerMask(3, 3), VariantId::Local);
  params.border = BorderMode::Zero;  // the variant sweep's mask and border: its programs, built once a run
  PipelineOptions opt;
  opt.tuner = std::make_shared<AutoTuner>("");
  Pipeline pipeline(ctx, params, opt);
  EXPECT_FALSE(pipeline.compareVariants()) << "no frame size before the first frame";
  const Image input = randomImage(120, 80, PixelFormat::GRAY8, 3);
  std::atomic<bool> enough{false};
  std::thread producer([&] {  // a stream at about 100 frames/s until the comparison is done (at most a minute)
    for (int i = 0; i < 6000 && !enough; ++i) {
      if (!pipeline.push(frameOf(input, i))) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pipeline.endOfInput();
  });
  ASSERT_TRUE(pipeline.pop().has_value());
  const bool started = pipeline.compareVariants();
  const bool second = pipeline.compareVariants();
  int during = 0;
  VariantId ran = VariantId::Invalid;
  while (std::optional<Frame> f = pipeline.pop()) {
    ran = f->variantRan;
    EXPECT_EQ(ran, VariantId::Local);
    if (pipeline.comparing()) ++during;
    enough = !pipeline.comparing();
  }
  producer.join();
  ASSERT_TRUE(started);
  EXPECT_FALSE(second) << "a second while one runs";
  EXPECT_GT(during, 0) << "no frame was filtered while the comparison ran";
  const std::shared_ptr<const RaceReport> race = pipeline.lastRace();
  ASSERT_NE(race, nullptr);
  EXPECT_EQ(race->trigger, "compare");
  EXPECT_EQ(race->format, PixelFormat::GRAY8);
  EXPECT_EQ(race->width, 120);
  EXPECT_EQ(race->height, 80);
  EXPECT_GE(race->chosen, 0);
  // Every variant that can take the mask, not auto's own list for this kind
  // of device (on a CPU device the row kernels only).
  std::set<VariantId> raced;
  for (const RaceEntry& e : race->entries) raced.insert(e.params.variant);
  for (const VariantInfo& v : variantRegistry())
    if (v.id != VariantId::Auto && (!v.needsSeparableMask || factorSeparable(params.mask, nullptr))) {
      EXPECT_TRUE(raced.count(v.id)) << v.name << " was not raced";
    }
  EXPECT_EQ(pipeline.currentParams().variant, VariantId::Local);
  EXPECT_EQ(ran, VariantId::Local);
}

TEST(Pipeline, SizeAndFormatChangeMidStreamReallocatesAndGoesOn) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(3, 3), VariantId::Naive);
  Pipeline pipeline(ctx, params, PipelineOptions());
  std::vector<Image> inputs;
  for (int i = 0; i < 3; ++i) inputs.push_back(randomImage(160, 120, PixelFormat::RGBA8, i));
  for (int i = 0; i < 3; ++i) inputs.push_back(randomImage(97, 61, PixelFormat::RGBA8, 10 + i));
  for (int i = 0; i < 3; ++i) inputs.push_back(randomImage(64, 48, PixelFormat::GRAY8, 20 + i));
  std::thread producer([&] {
    for (std::size_t i = 0; i < inputs.size(); ++i) pipeline.push(frameOf(inputs[i], int(i)));
    pipeline.endOfInput();
  });
  const std::vector<Frame> out = drain(pipeline);
  producer.join();
  ASSERT_EQ(out.size(), inputs.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    expectMatches(out[i], reference(inputs[i], params), "frame " + std::to_string(i));
}

TEST(Pipeline, LivePolicyDropsTheOldestAndCountsInsteadOfBlocking) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PipelineOptions opt;
  opt.policy = QueuePolicy::Live;
  opt.queueCapacity = 2;
  Pipeline pipeline(ctx, paramsWith(test::integerMask(3, 3), VariantId::Naive), opt);
  const Image img = randomImage(160, 120, PixelFormat::RGBA8, 7);
  // Nobody pops: a lossless pipeline would block after a few frames.
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(pipeline.push(frameOf(img, i)));
  const double pushS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(pushS, 5.0);
  pipeline.endOfInput();
  const std::vector<Frame> out = drain(pipeline);
  const StatsSnapshot s = pipeline.stats().snapshot();
  EXPECT_EQ(s.framesIn, 40);
  EXPECT_GT(s.droppedTotal(), 0);
  EXPECT_EQ(static_cast<long long>(out.size()) + s.droppedTotal(), 40) << summaryText(s);
  for (std::size_t i = 1; i < out.size(); ++i) EXPECT_LT(out[i - 1].index, out[i].index);  // still in order
  EXPECT_EQ(out.back().index, 39);  // the newest frame is the one kept
}

// A window's pipeline (showNewest): while the device filters one frame, the
// frames that arrive replace each other in the one place that waits, so the
// frame filtered next is the newest, not the oldest of a queue. The source
// sends frames twenty times faster than the device filters them.
TEST(Pipeline, ShowNewestFiltersTheNewestFrameNextAndKeepsOneOnTheDevice) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PipelineOptions opt;
  opt.policy = QueuePolicy::Live;
  opt.queueCapacity = 2;
  opt.showNewest = true;
  const FilterParams params = paramsWith(test::integerMask(31, 31), VariantId::Naive);
  const Image img = randomImage(640, 480, PixelFormat::RGBA8, 9);
  const Image want = reference(img, params);
  // Frame 0 goes to an idle device; frames 1..9 follow in one burst (made
  // beforehand: the burst is nine moves) while it runs: each replaces the one
  // waiting, and 9 is filtered next. What the timing must give is checked on
  // the result rather than assumed: 0 came out first only if the engine had
  // taken it before 1 came (1 would have replaced it), and 0 was still on the
  // device when the burst ended if that was within one of its kernel times of
  // pushing it. An attempt on a machine too loaded for either (the pushing
  // thread stopped that long) proves nothing and is made again.
  for (int attempt = 1;; ++attempt) {
    Pipeline pipeline(ctx, params, opt);
    double kernelMs = 0;
    for (int i = 0; i < 2; ++i) {  // the second one without the first launch's costs
      ASSERT_TRUE(pipeline.push(frameOf(img, -1)));
      std::optional<Frame> warm = pipeline.pop();
      ASSERT_TRUE(warm);
      kernelMs = warm->timings.kernelMs;
    }
    if (kernelMs < 20)
      GTEST_SKIP() << "SKIP: " << ctx->info.name << " filters the frame in " << kernelMs
                   << " ms, too fast for frames to pile up behind it";
    std::vector<Frame> burst;
    for (int i = 1; i < 10; ++i) burst.push_back(frameOf(img, i));
    std::vector<Frame> out;
    std::thread consumer([&] { out = drain(pipeline); });
    const auto pushed = std::chrono::steady_clock::now();
    ASSERT_TRUE(pipeline.push(frameOf(img, 0)));
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kernelMs / 4));  // the engine takes it
    for (Frame& f : burst) ASSERT_TRUE(pipeline.push(std::move(f)));
    const double pushedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pushed).count();
    pipeline.endOfInput();
    consumer.join();
    std::vector<std::int64_t> indices;
    for (const Frame& f : out) indices.push_back(f.index);
    const double firstKernelMs = out.empty() ? 0 : out.front().timings.kernelMs;
    const bool asMeant = !indices.empty() && indices.front() == 0 && pushedMs < firstKernelMs;
    if (!asMeant) {
      std::printf("attempt %d: frame %lld first, 0 to 9 pushed in %.1f ms beside a %.1f ms kernel: not as meant\n", attempt,
                  indices.empty() ? -1LL : static_cast<long long>(indices.front()), pushedMs, firstKernelMs);
      ASSERT_LT(attempt, 5) << "five attempts on a machine too loaded to hand frame 0 over first";
      continue;
    }
    EXPECT_EQ(indices, (std::vector<std::int64_t>{0, 9}))
        << "a " << firstKernelMs << " ms kernel, ten frames pushed in " << pushedMs << " ms";
    const StatsSnapshot s = pipeline.stats().snapshot();
    EXPECT_EQ(s.dropped[static_cast<int>(DropCause::EngineLate)], 8) << summaryText(s);
    expectMatches(out.back(), want, "frame 9");
    return;
  }
}

TEST(Pipeline, ShowNewestNeedsTheLivePolicy) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PipelineOptions opt;
  opt.showNewest = true;  // with the lossless policy
  EXPECT_THROW(Pipeline(ctx, paramsWith(test::integerMask(3, 3), VariantId::Naive), opt), InvalidArgument);
}

TEST(Pipeline, ParameterSwitchTakesEffectAtAFrameBoundaryAndLosesNoFrame) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams before = paramsWith(test::integerMask(3, 3), VariantId::Naive);
  FilterParams after = paramsWith(test::integerMask(7, 5), VariantId::Local);
  after.border = BorderMode::Wrap;
  PipelineOptions options;
  options.paramsTag = 41;  // the caller's numbers for its sets (a window's model versions)
  Pipeline pipeline(ctx, before, options);
  std::vector<Image> inputs;
  for (int i = 0; i < 8; ++i) inputs.push_back(randomImage(160, 120, PixelFormat::RGBA8, 40 + i));
  std::vector<Frame> out;
  std::thread consumer([&] { out = drain(pipeline); });
  for (int i = 0; i < 4; ++i) pipeline.push(frameOf(inputs[i], i));
  pipeline.setParams(after, 57);
  // The first set is the one that runs until a frame boundary takes the new one.
  EXPECT_TRUE(pipeline.paramsState(41).current);
  EXPECT_TRUE(pipeline.paramsState(41).built);
  ASSERT_TRUE(pipeline.waitParamsBuilt(57, 60000)) << pipeline.paramsState(57).error;
  const Pipeline::ParamsState built = pipeline.paramsState(57);
  EXPECT_TRUE(built.known && built.built && !built.failed) << built.error;
  EXPECT_FALSE(pipeline.waitParamsBuilt(99, 0)) << "a tag never handed in is no set that was built";
  const Pipeline::ParamsState never = pipeline.paramsState(99);
  EXPECT_FALSE(never.known || never.built || never.failed || never.current);
  for (int i = 4; i < 8; ++i) pipeline.push(frameOf(inputs[i], i));
  pipeline.endOfInput();
  consumer.join();
  EXPECT_TRUE(pipeline.paramsState(57).current) << "the frames after the switch were filtered with set 57";
  EXPECT_FALSE(pipeline.paramsState(41).current);
  ASSERT_EQ(out.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    // Each frame is entirely the old or entirely the new filter, never a mix,
    // and once switched it stays switched.
    const bool switched = out[i].paramsTag == 57u;
    EXPECT_TRUE(switched || out[i].paramsTag == 41u) << "frame " << i << " names another set: " << out[i].paramsTag;
    if (i >= 4) {
      EXPECT_TRUE(switched) << "frame " << i << " was pushed after the new parameters were built";
    }
    if (i > 0 && out[i - 1].paramsTag == 57u) {
      EXPECT_TRUE(switched) << "frame " << i << " went back to the old parameters";
    }
    expectMatches(out[i], reference(inputs[i], switched ? after : before), "frame " + std::to_string(i));
  }
  EXPECT_EQ(pipeline.currentParams().mask, after.mask);
}

TEST(Pipeline, InvalidParametersAreRefusedAtOnceAndTheStreamGoesOn) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Pipeline pipeline(ctx, paramsWith(test::integerMask(3, 3), VariantId::Naive), PipelineOptions());
  FilterParams bad = paramsWith(test::integerMask(3, 3), VariantId::Naive);
  bad.mask.divisor = 0;
  bad.mask.normalize = Normalize::None;
  EXPECT_THROW(pipeline.setParams(bad), InvalidArgument);
  pipeline.push(frameOf(randomImage(32, 32, PixelFormat::GRAY8, 1), 0));
  pipeline.endOfInput();
  EXPECT_EQ(drain(pipeline).size(), 1u);
}

TEST(Pipeline, SyntheticPinnedSourceStreamsWithoutCopies) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(3, 3), VariantId::Local);
  SyntheticSource source(96, 64, PixelFormat::RGBA8, 6, ctx);
  Pipeline pipeline(ctx, params, PipelineOptions());
  std::vector<Image> inputs;
  std::thread producer([&] {
    Frame f;
    while (source.next(f)) {
      Image copy(f.external.width, f.external.height, f.external.format);
      for (int y = 0; y < copy.height(); ++y)
        std::copy(f.external.row(y), f.external.row(y) + f.external.rowBytes(), copy.view().row(y));
      inputs.push_back(std::move(copy));
      pipeline.push(std::move(f));
    }
    pipeline.endOfInput();
  });
  const std::vector<Frame> out = drain(pipeline);
  producer.join();
  ASSERT_EQ(out.size(), 6u);
  for (std::size_t i = 0; i < out.size(); ++i) expectMatches(out[i], reference(inputs[i], params), "synthetic frame");
}

// ---- YUV frames converted on the device (kernels/convert.cl)

YuvImage randomYuv(int w, int h, YuvLayout layout, YuvMatrix matrix, YuvRange range, PixelFormat to, unsigned seed,
                   int bits = 0) {
  YuvImage y;
  y.layout = layout;
  y.bits = bits;
  y.matrix = matrix;
  y.range = range;
  y.convertTo = to;
  y.allocate(w, h);
  std::mt19937 rng(seed);
  for (auto& b : y.bytes) b = static_cast<std::uint8_t>(rng() >> 24);
  return y;
}

const YuvLayout kEveryLayout[] = {YuvLayout::I420,    YuvLayout::Nv12,    YuvLayout::I422,    YuvLayout::I444,
                                  YuvLayout::Yuyv422, YuvLayout::Uyvy422, YuvLayout::I420P10, YuvLayout::P010,
                                  YuvLayout::Rgb24,   YuvLayout::Bgr24,   YuvLayout::I422P10, YuvLayout::I444P10,
                                  YuvLayout::I420P16, YuvLayout::I422P16, YuvLayout::I444P16, YuvLayout::P016,
                                  YuvLayout::Rgb48,   YuvLayout::Rgb48Be, YuvLayout::Gray16,  YuvLayout::Gray16Be};
// The depths each layout is read at: the I4xxP16 layouts take 9 to 16 bits.
std::vector<int> depthsOf(YuvLayout layout) {
  if (layout == YuvLayout::I420P16 || layout == YuvLayout::I422P16 || layout == YuvLayout::I444P16) return {9, 12, 16};
  return {0};
}
const PixelFormat kEveryTarget[] = {PixelFormat::RGBA8, PixelFormat::GRAY8, PixelFormat::RGBA16, PixelFormat::GRAY16};

Image convertedReference(const YuvImage& y) {
  Image out(y.width, y.height, y.convertTo);
  convertYuvReference(y, out.view());
  return out;
}

// The integer formula against the textbook one in double precision: the fixed
// point may round the other way, so 1 LSB is allowed (and nothing more).
// `auto` in a stream: the engine thread never races. The first frames run the
// provisional kernel (built before the stream starts) while the builder races
// for the real frame size; afterwards the answer runs. One race in all (none
// for an unknown size), and every frame is the reference.
TEST(Pipeline, AutoRacesOnTheBuilderThreadWhileFramesFlow) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string cache = testing::TempDir() + "/pipeline_race.tsv";
  std::remove(cache.c_str());
  PipelineOptions opt;
  opt.policy = QueuePolicy::Live;  // hands each frame out as soon as the input is idle
  opt.tuner = std::make_shared<AutoTuner>(cache);
  const FilterParams params = paramsWith(test::integerMask(5, 5), VariantId::Auto);
  Pipeline pipeline(ctx, params, opt);
  EXPECT_EQ(opt.tuner->racesRun(), 0) << "the pipeline raced before it knew the frame size";
  const Image img = randomImage(96, 64, PixelFormat::RGBA8, 3);
  const Image want = reference(img, params);
  ASSERT_TRUE(pipeline.push(frameOf(img, 0)));
  std::optional<Frame> first = pipeline.pop();
  ASSERT_TRUE(first);
  expectMatches(*first, want, "frame 0 (provisional kernel)");
  int index = 1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  for (; std::chrono::steady_clock::now() < deadline && opt.tuner->racesRun() == 0; ++index) {  // frames keep flowing meanwhile
    ASSERT_TRUE(pipeline.push(frameOf(img, index)));
    std::optional<Frame> f = pipeline.pop();
    ASSERT_TRUE(f);
    expectMatches(*f, want, "frame " + std::to_string(index) + " (during the race)");
  }
  ASSERT_EQ(opt.tuner->racesRun(), 1) << "no race finished";
  EXPECT_EQ(opt.tuner->lastRaceThread(), "lc-build") << "the race ran on the frame path";
  for (int i = 0; i < 10; ++i, ++index) {
    ASSERT_TRUE(pipeline.push(frameOf(img, index)));
    std::optional<Frame> f = pipeline.pop();
    ASSERT_TRUE(f);
    expectMatches(*f, want, "frame " + std::to_string(index) + " (after the race)");
  }
  EXPECT_EQ(opt.tuner->racesRun(), 1) << "the same size raced twice";
  std::ifstream in(cache);
  std::string line;
  int entries = 0;
  while (std::getline(in, line)) entries += !line.empty();
  EXPECT_EQ(entries, 1) << "one answer, for 96x64";
  pipeline.endOfInput();
  std::remove(cache.c_str());
}

// With the size announced (a file whose decoder was probed), `auto` races in
// the constructor, before the stream: the first frame already runs the answer.
TEST(Pipeline, AutoWithAnAnnouncedSizeRacesBeforeTheStream) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PipelineOptions opt;
  opt.tuner = std::make_shared<AutoTuner>("");
  opt.expectedWidth = 80;
  opt.expectedHeight = 48;
  const FilterParams params = paramsWith(test::integerMask(3, 5), VariantId::Auto);
  Pipeline pipeline(ctx, params, opt);
  EXPECT_EQ(opt.tuner->racesRun(), 1);
  EXPECT_EQ(opt.tuner->lastRaceThread(), currentThreadName()) << "raced elsewhere than in the constructor";
  const Image img = randomImage(80, 48, PixelFormat::RGBA8, 5);
  std::thread producer([&] {
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(pipeline.push(frameOf(img, i)));
    pipeline.endOfInput();
  });
  const std::vector<Frame> out = drain(pipeline);
  producer.join();
  ASSERT_EQ(out.size(), 4u);
  for (const Frame& f : out) expectMatches(f, reference(img, params), "frame " + std::to_string(f.index));
  EXPECT_EQ(opt.tuner->racesRun(), 1) << "the announced size raced again";
}

// A window's pipeline (liveEdits) takes its first kernel from its
// builder, as every later one: with the size announced, `auto` starts on the
// stopgap at once (no race in the constructor, which the window's opening
// thread waits for) and races on lc-build while frames flow; every frame is exact.
TEST(Pipeline, AWindowsPipelineTakesItsFirstKernelFromTheBuilder) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PipelineOptions opt;
  opt.policy = QueuePolicy::Live;
  opt.liveEdits = true;
  opt.tuner = std::make_shared<AutoTuner>("");
  opt.expectedWidth = 80;
  opt.expectedHeight = 48;
  opt.paramsTag = 7;
  const FilterParams params = paramsWith(test::integerMask(3, 5), VariantId::Auto);
  Pipeline pipeline(ctx, params, opt);
  EXPECT_EQ(opt.tuner->racesRun(), 0) << "the constructor raced";
  EXPECT_EQ(pipeline.prepared().variant, stopgapVariant(ctx->info.kind == DeviceKind::GPU));
  const Image img = randomImage(80, 48, PixelFormat::RGBA8, 5);
  const Image want = reference(img, params);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  for (int index = 0; std::chrono::steady_clock::now() < deadline && opt.tuner->racesRun() == 0; ++index) {
    ASSERT_TRUE(pipeline.push(frameOf(img, index)));
    std::optional<Frame> f = pipeline.pop();
    ASSERT_TRUE(f);
    EXPECT_EQ(f->paramsTag, 7u);
    EXPECT_EQ(f->variantAsked, VariantId::Auto);
    EXPECT_TRUE(f->variantRan != VariantId::Auto && f->variantRan != VariantId::Invalid) << "frame " << index;
    if (index == 0) {
      EXPECT_EQ(f->variantRan, stopgapVariant(ctx->info.kind == DeviceKind::GPU));
    }
    expectMatches(*f, want, "frame " + std::to_string(index));
  }
  ASSERT_EQ(opt.tuner->racesRun(), 1) << "no race finished";
  EXPECT_EQ(opt.tuner->lastRaceThread(), "lc-build");
  pipeline.endOfInput();
}

// While the stopgap serves a window's `auto` set, frames of the size it was
// asked for do not start a race of their own: the set's later steps (its
// provisional kernel, the race) wait until the edits pause (kLiveEditSettle),
// so a stream that has just started meets no race on the device.
TEST(Pipeline, AStreamThatStartsOnTheStopgapDoesNotRaceBeforeTheEditsPause) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PipelineOptions opt;
  opt.policy = QueuePolicy::Live;
  opt.liveEdits = true;
  opt.tuner = std::make_shared<AutoTuner>("");
  opt.expectedWidth = 64;
  opt.expectedHeight = 48;
  std::atomic<bool> raced{false};  // a race asks the tuner's stop request before each candidate
  opt.tuner->setStopRequest([&raced] {
    raced = true;
    return false;
  });
  const FilterParams params = paramsWith(test::integerMask(5, 3), VariantId::Auto);
  const auto opened = std::chrono::steady_clock::now();
  Pipeline pipeline(ctx, params, opt);
  ASSERT_TRUE(pipeline.prepared().variant == stopgapVariant(ctx->info.kind == DeviceKind::GPU));
  const Image img = randomImage(64, 48, PixelFormat::RGBA8, 3);
  const Image want = reference(img, params);
  int index = 0;
  const auto quiet = kLiveEditSettle - std::chrono::milliseconds(150);
  while (std::chrono::steady_clock::now() - opened < quiet) {
    ASSERT_TRUE(pipeline.push(frameOf(img, index)));
    std::optional<Frame> f = pipeline.pop();
    ASSERT_TRUE(f);
    EXPECT_EQ(f->variantRan, stopgapVariant(ctx->info.kind == DeviceKind::GPU)) << "frame " << index;
    expectMatches(*f, want, "frame " + std::to_string(index));
    ++index;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_FALSE(raced) << "a race ran while the stream started";
  std::printf("[          ] %d frames on the stopgap in the first %lld ms\n", index,
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(quiet).count()));
  pipeline.endOfInput();
}

// What a keepOnDevice consumer sees: the frame in device memory, read on the
// consumer's own queue after ready().
Image readDeviceFrame(const std::shared_ptr<DeviceContext>& ctx, cl::CommandQueue& queue, const DeviceFrame& d) {
  const DeviceImage& img = d.image();
  Image out(img.width, img.height, img.format);
  EXPECT_EQ(img.pitchBytes, out.view().rowBytes());
  const std::vector<cl::Event> after{d.ready()};
  queue.enqueueReadBuffer(img.buffer, CL_TRUE, 0, out.sizeBytes(), out.data(), &after);
  (void)ctx;
  return out;
}

void expectImagesEqual(const Image& got, const Image& want, const std::string& what) {
  const auto mismatch = compareImages(got.view(), want.view(), 0);
  EXPECT_FALSE(mismatch) << what << ": " << mismatch->toString();
}

// keepOnDevice without host pixels: every frame comes out as a DeviceFrame,
// nothing is read back (no pixels, no readback time), and each one, read by
// the consumer, is the reference; switching host pixels on mid-stream adds
// them from the next submitted frame on.
TEST(Pipeline, KeepOnDeviceLendsEachFilteredFrameWithoutReadingBack) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(5, 3), VariantId::Local);
  PipelineOptions opt;
  opt.keepOnDevice = true;
  opt.deliverPixels = false;
  opt.deviceSlots = 2;
  Pipeline pipeline(ctx, params, opt);
  cl::CommandQueue consumer(ctx->context, ctx->info.device);
  std::vector<Image> inputs;
  for (int i = 0; i < 8; ++i) inputs.push_back(randomImage(97, 61, PixelFormat::RGBA8, 300 + i));
  std::thread producer([&] {
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(pipeline.push(frameOf(inputs[i], i)));
    // Everything before this has been submitted once frame 3 comes out (below).
    pipeline.endOfInput();
  });
  for (int i = 0; i < 4; ++i) {
    std::optional<Frame> f = pipeline.pop();
    ASSERT_TRUE(f) << "frame " << i;
    ASSERT_TRUE(f->onDevice) << "frame " << i << " came without its device buffer";
    EXPECT_EQ(f->image.sizeBytes(), 0u) << "frame " << i << " carried host pixels nobody asked for";
    EXPECT_EQ(f->timings.readbackMs, 0.0) << "frame " << i << " was read back";
    expectImagesEqual(readDeviceFrame(ctx, consumer, *f->onDevice), reference(inputs[i], params),
                      "frame " + std::to_string(i));
  }
  EXPECT_FALSE(pipeline.pop());
  producer.join();

  Pipeline withPixels(ctx, params, opt);
  withPixels.setDeliverPixels(true);
  std::thread producer2([&] {
    for (int i = 4; i < 8; ++i) ASSERT_TRUE(withPixels.push(frameOf(inputs[i], i)));
    withPixels.endOfInput();
  });
  for (int i = 4; i < 8; ++i) {
    std::optional<Frame> f = withPixels.pop();
    ASSERT_TRUE(f && f->onDevice) << "frame " << i;
    expectMatches(*f, reference(inputs[i], params), "host copy of frame " + std::to_string(i));
    expectImagesEqual(readDeviceFrame(ctx, consumer, *f->onDevice), reference(inputs[i], params),
                      "device frame " + std::to_string(i));
  }
  producer2.join();
}

// A lent buffer is not written while the consumer still uses it: the engine
// waits for the DeviceFrame to be let go, and the next kernel into that slot
// waits on the device for the consumer's last-use event (here a user event
// the test completes by hand). Cancelling while the engine waits ends it.
TEST(Pipeline, ALentBufferIsRewrittenOnlyAfterTheConsumersLastUse) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(3, 3), VariantId::Naive);
  PipelineOptions opt;
  opt.keepOnDevice = true;
  opt.deliverPixels = false;
  opt.deviceSlots = 2;
  auto pipeline = std::make_unique<Pipeline>(ctx, params, opt);
  cl::CommandQueue consumer(ctx->context, ctx->info.device);
  std::vector<Image> inputs;
  for (int i = 0; i < 4; ++i) inputs.push_back(randomImage(64, 40, PixelFormat::GRAY8, 500 + i));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(pipeline->push(frameOf(inputs[i], i)));

  std::optional<Frame> f0 = pipeline->pop();
  ASSERT_TRUE(f0 && f0->onDevice);
  // Frame 2 goes into frame 0's slot: while frame 0 is held, the engine hands
  // out frame 1 (newer frames go out while it waits) and waits for slot 0.
  std::optional<Frame> f1 = pipeline->pop();
  ASSERT_TRUE(f1 && f1->onDevice);
  const DeviceImage slot0 = f0->onDevice->image();
  cl::UserEvent stillReading(ctx->context);
  f0->onDevice->doneWith(stillReading);
  f0.reset();  // let go; the kernel of frame 2 may be queued now, but must wait for stillReading
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Image during(slot0.width, slot0.height, slot0.format);
  consumer.enqueueReadBuffer(slot0.buffer, CL_TRUE, 0, during.sizeBytes(), during.data());
  expectImagesEqual(during, reference(inputs[0], params), "slot 0 while its last use was pending");
  stillReading.setStatus(CL_COMPLETE);
  f1.reset();
  std::optional<Frame> f2 = pipeline->pop();
  ASSERT_TRUE(f2 && f2->onDevice);
  EXPECT_EQ(f2->index, 2);
  expectImagesEqual(readDeviceFrame(ctx, consumer, *f2->onDevice), reference(inputs[2], params), "frame 2");

  // Frame 3 is out or on its way; frame 2 stays held, so a fifth frame would
  // wait for its slot: the destructor must still end the pipeline.
  ASSERT_TRUE(pipeline->push(frameOf(inputs[0], 4)));
  std::optional<Frame> f3 = pipeline->pop();
  ASSERT_TRUE(f3);
  // A destructor that waited for the held slot would wait for ever: the hang
  // limit fails the test, no measure of time does.
  std::promise<void> ended;
  std::future<void> endedFuture = ended.get_future();
  std::thread ending([&] {
    pipeline.reset();
    ended.set_value();
  });
  if (endedFuture.wait_for(std::chrono::seconds(120)) != std::future_status::ready) {
    ADD_FAILURE() << "the pipeline's destructor waited for a frame still held (not ended after the hang limit)";
    std::cout.flush();
    ending.detach();
    std::_Exit(1);  // the destructor waits for ever; the failure is already written
  }
  ending.join();
  // Frames outlive their pipeline: the buffer is still theirs.
  expectImagesEqual(readDeviceFrame(ctx, consumer, *f2->onDevice), reference(inputs[2], params),
                    "frame 2 after the pipeline ended");
}

TEST(YuvConversion, ReferenceFollowsTheBt601AndBt709Formulas) {
  for (YuvMatrix matrix : {YuvMatrix::Bt601, YuvMatrix::Bt709})
    for (YuvRange range : {YuvRange::Limited, YuvRange::Full}) {
      const double kr = matrix == YuvMatrix::Bt709 ? 0.2126 : 0.299, kb = matrix == YuvMatrix::Bt709 ? 0.0722 : 0.114;
      const double kg = 1 - kr - kb;
      const bool limited = range == YuvRange::Limited;
      int worst = 0;
      for (int Y = 0; Y < 256; Y += 5)
        for (int U = 0; U < 256; U += 15)
          for (int V = 0; V < 256; V += 15) {
            YuvImage in;
            in.layout = YuvLayout::I420;
            in.matrix = matrix;
            in.range = range;
            in.convertTo = PixelFormat::RGBA8;
            in.allocate(1, 1);
            in.bytes = {std::uint8_t(Y), std::uint8_t(U), std::uint8_t(V)};
            Image got(1, 1, PixelFormat::RGBA8);
            convertYuvReference(in, got.view());
            const double y = limited ? (Y - 16) * 255.0 / 219 : Y;
            const double u = (U - 128) * (limited ? 255.0 / 224 : 1.0), v = (V - 128) * (limited ? 255.0 / 224 : 1.0);
            const double want[3] = {y + 2 * (1 - kr) * v, y - 2 * (1 - kb) * kb / kg * u - 2 * (1 - kr) * kr / kg * v,
                                    y + 2 * (1 - kb) * u};
            for (int c = 0; c < 3; ++c) {
              const int w = int(std::lround(std::min(255.0, std::max(0.0, want[c]))));
              const int d = std::abs(int(got.data()[c]) - w);
              ASSERT_LE(d, 1) << toString(matrix) << " " << toString(range) << " Y " << Y << " U " << U << " V " << V
                              << " channel " << c << ": got " << int(got.data()[c]) << ", want " << w;
              worst = std::max(worst, d);
            }
            EXPECT_EQ(got.data()[3], 255);
          }
      // Black and white land exactly on 0 and 255.
      YuvImage grey = randomYuv(1, 1, YuvLayout::I420, matrix, range, PixelFormat::GRAY8, 1);
      Image g(1, 1, PixelFormat::GRAY8);
      grey.bytes[0] = limited ? 16 : 0;
      convertYuvReference(grey, g.view());
      EXPECT_EQ(g.data()[0], 0);
      grey.bytes[0] = limited ? 235 : 255;
      convertYuvReference(grey, g.view());
      EXPECT_EQ(g.data()[0], 255);
    }
}

// Into RGBA16 a 10-bit sample keeps its bits: the integer formula against the
// textbook one in double precision at 16 bits, within 2 LSB of 65535 (the
// fixed-point coefficients' rounding), and 4 more levels of the 10-bit source
// are 4 distinct outputs where 8 bits would give one.
TEST(YuvConversion, SixteenBitsFollowTheFormulasWithEveryBit) {
  for (YuvMatrix matrix : {YuvMatrix::Bt601, YuvMatrix::Bt709})
    for (YuvRange range : {YuvRange::Limited, YuvRange::Full}) {
      const double kr = matrix == YuvMatrix::Bt709 ? 0.2126 : 0.299, kb = matrix == YuvMatrix::Bt709 ? 0.0722 : 0.114;
      const double kg = 1 - kr - kb;
      const bool limited = range == YuvRange::Limited;
      for (int Y = 0; Y < 1024; Y += 7)
        for (int U = 0; U < 1024; U += 61)
          for (int V = 0; V < 1024; V += 61) {
            YuvImage in;
            in.layout = YuvLayout::I444P10;
            in.matrix = matrix;
            in.range = range;
            in.convertTo = PixelFormat::RGBA16;
            in.allocate(1, 1);
            in.bytes = {std::uint8_t(Y & 255), std::uint8_t(Y >> 8),  std::uint8_t(U & 255),
                        std::uint8_t(U >> 8),  std::uint8_t(V & 255), std::uint8_t(V >> 8)};
            Image got(1, 1, PixelFormat::RGBA16);
            convertYuvReference(in, got.view());
            const double y = limited ? (Y / 4.0 - 16) * 255.0 / 219 : Y / 4.0;
            const double cs = limited ? 255.0 / 224 : 1.0, u = (U / 4.0 - 128) * cs, v = (V / 4.0 - 128) * cs;
            const double want[3] = {y + 2 * (1 - kr) * v, y - 2 * (1 - kb) * kb / kg * u - 2 * (1 - kr) * kr / kg * v,
                                    y + 2 * (1 - kb) * u};
            const auto* px = reinterpret_cast<const std::uint16_t*>(got.data());
            for (int c = 0; c < 3; ++c) {
              const int w = int(std::lround(std::min(65535.0, std::max(0.0, want[c] * 257))));
              ASSERT_LE(std::abs(int(px[c]) - w), 2)
                  << toString(matrix) << " " << toString(range) << " Y " << Y << " U " << U << " V " << V << " channel "
                  << c << ": got " << px[c] << ", want " << w;
            }
            EXPECT_EQ(px[3], 65535);
          }
      // Four neighbouring 10-bit greys: four levels at 16 bits (one at 8).
      std::set<int> levels;
      for (int Y = 400; Y < 404; ++Y) {
        YuvImage grey;
        grey.layout = YuvLayout::I420P10;
        grey.matrix = matrix;
        grey.range = range;
        grey.convertTo = PixelFormat::GRAY16;
        grey.allocate(1, 1);
        grey.bytes[0] = std::uint8_t(Y & 255), grey.bytes[1] = std::uint8_t(Y >> 8);
        Image g(1, 1, PixelFormat::GRAY16);
        convertYuvReference(grey, g.view());
        levels.insert(reinterpret_cast<const std::uint16_t*>(g.data())[0]);
      }
      EXPECT_EQ(levels.size(), 4u);
    }
}

// The picture (8-bit Y, U, V a pixel, chroma alike over each 2x2 block)
// written into `in`'s layout at its depth (the deep samples v << (depth - 8)).
void writePicture(YuvImage& in, const std::vector<int>& Y, const std::vector<int>& U, const std::vector<int>& V) {
  const int w = in.width, h = in.height, cw = (w + 1) / 2, ch = (h + 1) / 2;
  const int up = in.depth() - 8;
  std::uint8_t* p = in.bytes.data();
  auto put16 = [&](std::size_t i, int v) {
    p[2 * i] = std::uint8_t(v & 0xff);
    p[2 * i + 1] = std::uint8_t(v >> 8);
  };
  const std::size_t n = std::size_t(w) * h;
  const YuvLayout layout = in.layout;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int i = y * w + x, yy = Y[i], u = U[i], v = V[i];
      const std::size_t c420 = std::size_t(y / 2) * cw + x / 2, c422 = std::size_t(y) * cw + x / 2;
      switch (layout) {
        case YuvLayout::I420:
          p[i] = yy, p[n + c420] = u, p[n + cw * ch + c420] = v;
          break;
        case YuvLayout::Nv12:
          p[i] = yy, p[n + 2 * c420] = u, p[n + 2 * c420 + 1] = v;
          break;
        case YuvLayout::I422:
          p[i] = yy, p[n + c422] = u, p[n + std::size_t(cw) * h + c422] = v;
          break;
        case YuvLayout::I444:
          p[i] = yy, p[n + i] = u, p[2 * n + i] = v;
          break;
        case YuvLayout::Yuyv422:
        case YuvLayout::Uyvy422: {
          std::uint8_t* m = p + std::size_t(y) * 4 * cw + 4 * (x / 2);
          const bool yuyv = layout == YuvLayout::Yuyv422;
          m[yuyv ? 2 * (x & 1) : 1 + 2 * (x & 1)] = std::uint8_t(yy);
          m[yuyv ? 1 : 0] = std::uint8_t(u);
          m[yuyv ? 3 : 2] = std::uint8_t(v);
          // An odd width leaves the last macropixel's second Y to the padding pixel.
          break;
        }
        case YuvLayout::I420P10:
          put16(i, yy * 4), put16(n + c420, u * 4), put16(n + cw * ch + c420, v * 4);
          break;
        case YuvLayout::I422P10:
          put16(i, yy * 4), put16(n + c422, u * 4), put16(n + std::size_t(cw) * h + c422, v * 4);
          break;
        case YuvLayout::I444P10:
          put16(i, yy * 4), put16(n + i, u * 4), put16(2 * n + i, v * 4);
          break;
        case YuvLayout::P010:
          put16(i, yy * 4 << 6), put16(n + 2 * c420, u * 4 << 6), put16(n + 2 * c420 + 1, v * 4 << 6);
          break;
        case YuvLayout::I420P16:
          put16(i, yy << up), put16(n + c420, u << up), put16(n + cw * ch + c420, v << up);
          break;
        case YuvLayout::I422P16:
          put16(i, yy << up), put16(n + c422, u << up), put16(n + std::size_t(cw) * h + c422, v << up);
          break;
        case YuvLayout::I444P16:
          put16(i, yy << up), put16(n + i, u << up), put16(2 * n + i, v << up);
          break;
        case YuvLayout::P016:
          put16(i, yy << 8), put16(n + 2 * c420, u << 8), put16(n + 2 * c420 + 1, v << 8);
          break;
        default:
          break;
      }
    }
}

// One picture written in every YUV layout (its chroma the same over each 2x2
// block, its samples of depth d the 8-bit ones times 2^(d - 8)) converts to
// the same pixels from each, at every depth: every layout's planes are read
// where they lie, and no depth rounds otherwise than another.
TEST(YuvConversion, EveryLayoutOfOnePictureConvertsAlike) {
  for (auto [w, h] : {std::pair{7, 5}, {8, 6}, {1, 1}}) {
    std::mt19937 rng(w * 100 + h);
    std::vector<int> Y(w * h), U(w * h), V(w * h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        Y[y * w + x] = int(rng() >> 24);
        if (x % 2 == 0 && y % 2 == 0) {
          U[y * w + x] = int(rng() >> 24);
          V[y * w + x] = int(rng() >> 24);
        } else {
          U[y * w + x] = U[(y & ~1) * w + (x & ~1)];
          V[y * w + x] = V[(y & ~1) * w + (x & ~1)];
        }
      }
    for (PixelFormat to : kEveryTarget) {
      Image want;
      for (YuvLayout layout : kEveryLayout)
        for (int bits : depthsOf(layout)) {
          if (isRgbLayout(layout)) continue;
          YuvImage in;
          in.layout = layout;
          in.bits = bits;
          in.matrix = YuvMatrix::Bt709;
          in.range = YuvRange::Limited;
          in.convertTo = PixelFormat::RGBA8;  // every plane, also for gray
          in.allocate(w, h);
          writePicture(in, Y, U, V);
          Image got(w, h, to);
          convertYuvReference(in, got.view());
          if (want.width() == 0) {
            want = std::move(got);
            continue;
          }
          const auto m = compareImages(got.view(), want.view(), 0);
          EXPECT_FALSE(m) << w << "x" << h << " " << toString(layout) << " at " << in.depth() << " bits to "
                          << toString(to) << " differs from yuv420p: " << m->toString();
        }
    }
  }
}

// Packed RGB is the picture itself; its gray is the BT.601 luma.
TEST(YuvConversion, PackedRgbIsCopiedAndItsGrayIsTheLuma) {
  YuvImage rgb;
  rgb.layout = YuvLayout::Rgb24;
  rgb.convertTo = PixelFormat::RGBA8;
  rgb.allocate(3, 1);
  rgb.bytes = {255, 0, 0, 0, 255, 0, 10, 20, 30};
  Image out(3, 1, PixelFormat::RGBA8);
  convertYuvReference(rgb, out.view());
  EXPECT_EQ(std::vector<std::uint8_t>(out.data(), out.data() + 12),
            (std::vector<std::uint8_t>{255, 0, 0, 255, 0, 255, 0, 255, 10, 20, 30, 255}));
  YuvImage bgr = rgb;
  bgr.layout = YuvLayout::Bgr24;
  bgr.bytes = {0, 0, 255, 0, 255, 0, 30, 20, 10};
  Image out2(3, 1, PixelFormat::RGBA8);
  convertYuvReference(bgr, out2.view());
  EXPECT_EQ(std::vector<std::uint8_t>(out2.data(), out2.data() + 12),
            std::vector<std::uint8_t>(out.data(), out.data() + 12));
  Image gray(3, 1, PixelFormat::GRAY8);
  convertYuvReference(rgb, gray.view());
  EXPECT_EQ(gray.data()[0], 76);   // 0.299 * 255
  EXPECT_EQ(gray.data()[1], 150);  // 0.587 * 255
  EXPECT_EQ(gray.data()[2], 18);   // 0.299 * 10 + 0.587 * 20 + 0.114 * 30 = 18.1
}

// 16-bit RGB (TIFF's rgb48le, PNG's rgb48be) and gray (gray16le, gray16be)
// keep every bit into the 16-bit formats, and round to nearest into the 8-bit ones.
TEST(YuvConversion, SixteenBitRgbAndGrayAreCopied) {
  const std::uint16_t r = 0x1234, g = 0xfedc, b = 0x0080;  // 0x80 rounds up to 1 at 8 bits
  YuvImage rgb;
  rgb.layout = YuvLayout::Rgb48;
  rgb.convertTo = PixelFormat::RGBA16;
  rgb.allocate(1, 1);
  rgb.bytes = {0x34, 0x12, 0xdc, 0xfe, 0x80, 0x00};
  YuvImage rgbBe = rgb;
  rgbBe.layout = YuvLayout::Rgb48Be;
  rgbBe.bytes = {0x12, 0x34, 0xfe, 0xdc, 0x00, 0x80};
  for (const YuvImage* in : {&rgb, &rgbBe}) {
    Image out(1, 1, PixelFormat::RGBA16);
    convertYuvReference(*in, out.view());
    const auto* px = reinterpret_cast<const std::uint16_t*>(out.data());
    EXPECT_EQ(std::vector<std::uint16_t>(px, px + 4), (std::vector<std::uint16_t>{r, g, b, 65535}))
        << toString(in->layout);
    Image out8(1, 1, PixelFormat::RGBA8);
    convertYuvReference(*in, out8.view());
    EXPECT_EQ(std::vector<std::uint8_t>(out8.data(), out8.data() + 4),
              (std::vector<std::uint8_t>{0x12, 0xff, 0x01, 255}))
        << toString(in->layout);
    Image gray(1, 1, PixelFormat::GRAY16);
    convertYuvReference(*in, gray.view());
    EXPECT_EQ(reinterpret_cast<const std::uint16_t*>(gray.data())[0],
              (19595LL * r + 38470LL * g + 7471LL * b + 32768) >> 16);
  }
  for (YuvLayout layout : {YuvLayout::Gray16, YuvLayout::Gray16Be}) {
    YuvImage grey;
    grey.layout = layout;
    grey.convertTo = PixelFormat::GRAY16;
    grey.allocate(3, 1);
    grey.bytes = {0x01, 0x02, 0xff, 0xfe, 0x7f, 0x00};
    const bool le = layout == YuvLayout::Gray16;
    const int want[3] = {le ? 0x0201 : 0x0102, le ? 0xfeff : 0xfffe, le ? 0x007f : 0x7f00};
    Image g16(3, 1, PixelFormat::GRAY16);
    convertYuvReference(grey, g16.view());
    Image rgba16(3, 1, PixelFormat::RGBA16);
    convertYuvReference(grey, rgba16.view());
    Image g8(3, 1, PixelFormat::GRAY8);
    convertYuvReference(grey, g8.view());
    for (int x = 0; x < 3; ++x) {
      const auto w16 = static_cast<std::uint16_t>(want[x]);
      EXPECT_EQ(reinterpret_cast<const std::uint16_t*>(g16.data())[x], w16) << toString(layout) << " " << x;
      const auto* px = reinterpret_cast<const std::uint16_t*>(rgba16.data()) + 4 * x;
      EXPECT_EQ(std::vector<std::uint16_t>(px, px + 4), (std::vector<std::uint16_t>{w16, w16, w16, 65535}));
      EXPECT_EQ(g8.data()[x], std::min((want[x] + 128) >> 8, 255)) << toString(layout) << " " << x;
    }
  }
}

// Tolerance 0: the kernel and the reference share the integer formula.
TEST(YuvConversion, DeviceEqualsTheReferenceExactly) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  unsigned seed = 1;
  const auto cache = std::make_shared<ProgramCache>();
  // Both builds of the kernels on this device: one pixel a work-item (a GPU's)
  // and eight in vectors (a CPU's), whose rows end in a partial group at 7, 33.
  for (int pixelsPerItem : {1, 8})
    for (auto [w, h] : {std::pair{1, 1}, {7, 5}, {33, 18}, {160, 90}})
      for (YuvLayout layout : kEveryLayout)
        for (int bits : depthsOf(layout))
          for (YuvMatrix matrix : {YuvMatrix::Bt601, YuvMatrix::Bt709})
            for (YuvRange range : {YuvRange::Limited, YuvRange::Full})
              for (PixelFormat to : kEveryTarget) {
                // Packed RGB and gray carry no matrix or range: once is enough.
                if (isRgbLayout(layout) && (matrix != YuvMatrix::Bt601 || range != YuvRange::Limited)) continue;
                const YuvImage in = randomYuv(w, h, layout, matrix, range, to, seed++, bits);
                const Image got = convertYuvOnDevice(ctx, in, cache, pixelsPerItem);
                const Image want = convertedReference(in);
                const auto m = compareImages(got.view(), want.view(), 0);
                ASSERT_FALSE(m) << w << "x" << h << " " << toString(layout) << " at " << in.depth() << " bits "
                                << toString(matrix) << " " << toString(range) << " to " << toString(to) << ", "
                                << pixelsPerItem << " pixels a work-item, tolerance 0: " << m->toString();
              }
}

// A frame size the stream changes to generates no code on the engine thread:
// on a CPU device the conversion's work-groups have one shape at every size
// (PoCL generates a kernel's code for each work-group shape it is launched
// with; left to choose, it picked one per frame size). Sizes no other test
// converts, each kernel of both builds first launched at one, then at others.
TEST(YuvConversion, ANewFrameSizeGeneratesNoCodeOnACpuDevice) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  if (const std::string why = test::poclKernelCacheUnreadable(ctx->info); !why.empty()) GTEST_SKIP() << why;
  const auto cache = std::make_shared<ProgramCache>();
  unsigned seed = 7;
  const auto convertAt = [&](int w, int h) {
    for (int pixelsPerItem : {1, 8})
      for (PixelFormat to : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
        const YuvImage in = randomYuv(w, h, YuvLayout::I420, YuvMatrix::Bt709, YuvRange::Limited, to, seed++);
        const Image got = convertYuvOnDevice(ctx, in, cache, pixelsPerItem);
        const auto m = compareImages(got.view(), convertedReference(in).view(), 0);
        ASSERT_FALSE(m) << w << "x" << h << ", " << pixelsPerItem << " pixels a work-item: " << m->toString();
      }
  };
  // The kernels this test launches, by their whole names (KERNEL.so): the tests
  // beside this one fill the same cache with theirs, the 16-bit ones of the same
  // layout too (convert_yuv420p_to_rgba16), so no prefix of a name will do.
  const auto generated = [] {
    return test::poclGeneratedKernels("convert_yuv420p_to_rgba.") +
           test::poclGeneratedKernels("convert_yuv420p_to_gray.");
  };
  convertAt(206, 118);
  const long long first = generated();
  EXPECT_GT(first, 0) << "no code of the conversion in PoCL's cache";
  for (auto [w, h] : {std::pair{94, 54}, {302, 166}, {1002, 38}, {58, 374}}) convertAt(w, h);
  EXPECT_EQ(generated(), first) << "a new frame size generated code for the conversion";
}

TEST(Pipeline, YuvFramesAreConvertedOnTheDeviceThenFiltered) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(5, 3), VariantId::Local);
  for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
    PipelineOptions opt;
    opt.format = format;
    opt.prepareYuvConversion = true;
    Pipeline pipeline(ctx, params, opt);
    // Planes of both layouts and ready pixels interleaved, and an odd size
    // midway: the slots are shared by both kinds of frame.
    std::vector<Image> want;
    std::vector<Frame> in;
    for (int i = 0; i < 8; ++i) {
      const int w = i < 5 ? 64 : 45, h = i < 5 ? 48 : 31;
      Frame f;
      f.index = i;
      if (i % 3 == 2) {
        f.image = randomImage(w, h, format, 300 + i);
        want.push_back(reference(f.image, params));
      } else {
        // Every layout in turn: the slots' buffers hold the largest.
        f.yuv = randomYuv(w, h, kEveryLayout[(i + (format == PixelFormat::GRAY8 ? 5 : 0)) % std::size(kEveryLayout)],
                          i % 4 < 2 ? YuvMatrix::Bt709 : YuvMatrix::Bt601, i < 4 ? YuvRange::Limited : YuvRange::Full,
                          format, 200 + i);
        want.push_back(reference(convertedReference(f.yuv), params));
      }
      in.push_back(std::move(f));
    }
    const std::vector<Frame> out = runThrough(pipeline, std::move(in));
    ASSERT_EQ(out.size(), want.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      expectMatches(out[i], want[i], std::string(toString(format)) + " frame " + std::to_string(i));
    const StatsSnapshot s = pipeline.stats().snapshot();
    EXPECT_EQ(s.stages[static_cast<int>(Stage::Convert)].samples, 8);
  }
}

// returnSource (the windows): a frame that came as planes comes out with the
// picture they were converted into as its source pixels, exactly the
// reference conversion, beside its filtered result; a lent frame keeps its
// own pixels as before. Both ways into the device (mapped and copied), both
// formats, every layout, and sizes whose device rows are padded.
TEST(Pipeline, PlanesComeBackAsThePictureTheyWereConvertedInto) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(5, 3), VariantId::Local);
  // local_aligned pads the device's rows: the picture comes back row by row.
  for (const VariantId variant : {VariantId::Local, VariantId::LocalAligned})
  for (const bool map : {true, false})
    for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
      const FilterParams params = paramsWith(test::integerMask(5, 3), variant);
      const std::string what = std::string(variantInfo(variant).name) + ", " + (map ? "mapped" : "copied") + ", " +
                               toString(format);
      PipelineOptions opt;
      opt.format = format;
      opt.prepareYuvConversion = true;
      opt.returnSource = true;
      opt.mapHostMemory = map;
      opt.mapMinFrameBytes = 0;
      Pipeline pipeline(ctx, params, opt);
      std::vector<Image> sources, want;
      std::vector<Frame> in;
      auto lent = std::make_shared<std::vector<Image>>();
      lent->reserve(12);
      for (int i = 0; i < 12; ++i) {
        const int w = i < 6 ? 64 : 45, h = i < 6 ? 48 : 31;
        Frame f;
        f.index = i;
        if (i % 4 == 3) {
          lent->push_back(randomImage(w, h, format, 700 + i));
          f.external = lent->back().view();
          f.externalOwner = lent;
          sources.push_back(lent->back());
        } else {
          f.yuv = randomYuv(w, h, kEveryLayout[i % std::size(kEveryLayout)], YuvMatrix::Bt709, YuvRange::Limited,
                            format, 800 + i);
          sources.push_back(convertedReference(f.yuv));
        }
        want.push_back(reference(sources.back(), params));
        in.push_back(std::move(f));
      }
      const std::vector<Frame> out = runThrough(pipeline, std::move(in));
      ASSERT_EQ(out.size(), want.size()) << what;
      for (std::size_t i = 0; i < out.size(); ++i) {
        const std::string frame = what + " frame " + std::to_string(i);
        expectMatches(out[i], want[i], frame);
        ASSERT_TRUE(out[i].sourceOwner) << frame;
        ASSERT_EQ(out[i].sourcePixels.width, sources[i].width()) << frame;
        ASSERT_EQ(out[i].sourcePixels.height, sources[i].height()) << frame;
        ASSERT_EQ(out[i].sourcePixels.format, format) << frame;
        const auto mismatch = compareImages(out[i].sourcePixels, sources[i].view(), 0);
        EXPECT_FALSE(mismatch) << frame << ": " << mismatch->toString();
      }
    }
  // Off (`run`): planes come out with no source pixels.
  PipelineOptions opt;
  opt.prepareYuvConversion = true;
  Pipeline pipeline(ctx, params, opt);
  Frame f;
  f.yuv = randomYuv(32, 24, YuvLayout::I420, YuvMatrix::Bt709, YuvRange::Limited, PixelFormat::RGBA8, 9);
  std::thread producer([&] {
    pipeline.push(std::move(f));
    pipeline.endOfInput();
  });
  const std::vector<Frame> out = drain(pipeline);
  producer.join();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].sourceOwner);
  EXPECT_EQ(out[0].sourcePixels.data, nullptr);
}

// A device that shares host memory (PoCL's CPU device, an integrated GPU) gets
// its frames through maps of the buffers the kernel uses, not through staging
// and copies; both ways give the reference's pixels, for ready pixels and YUV
// planes, across a size change and with every slot reused several times.
// Frames under the mapping threshold (2 MiB by default) are copied.
TEST(Pipeline, FramesAreMappedIntoDevicesThatShareHostMemory) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const bool shares = ctx->info.kind == DeviceKind::CPU ||
                      ctx->info.device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>() == CL_TRUE;
  const FilterParams params = paramsWith(test::integerMask(3, 5), VariantId::Naive);
  for (const bool map : {true, false}) {
    PipelineOptions opt;
    opt.mapHostMemory = map;
    opt.mapMinFrameBytes = 0;
    opt.prepareYuvConversion = true;
    Pipeline pipeline(ctx, params, opt);
    std::vector<Image> want;
    std::vector<Frame> in;
    for (int i = 0; i < 12; ++i) {
      const int w = i < 6 ? 80 : 37, h = i < 6 ? 60 : 23;
      Frame f;
      f.index = i;
      if (i % 2) {
        f.image = randomImage(w, h, PixelFormat::RGBA8, 500 + i);
        want.push_back(reference(f.image, params));
      } else {
        f.yuv = randomYuv(w, h, YuvLayout::I420, YuvMatrix::Bt709, YuvRange::Limited, PixelFormat::RGBA8, 600 + i);
        want.push_back(reference(convertedReference(f.yuv), params));
      }
      in.push_back(std::move(f));
    }
    const std::vector<Frame> out = runThrough(pipeline, std::move(in));
    ASSERT_EQ(out.size(), want.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      expectMatches(out[i], want[i], std::string(map ? "mapped" : "copied") + " frame " + std::to_string(i));
    EXPECT_EQ(pipeline.mapsHostMemory(), map && shares);
  }
  // The default threshold: a small frame is copied, a 2 MiB one mapped.
  for (const int side : {64, 725}) {
    Pipeline pipeline(ctx, params, PipelineOptions{});
    std::thread producer([&] {
      Frame f;
      f.image = randomImage(side, side, PixelFormat::RGBA8, 700);
      pipeline.push(std::move(f));
      pipeline.endOfInput();
    });
    EXPECT_EQ(drain(pipeline).size(), 1u);
    producer.join();
    EXPECT_EQ(pipeline.mapsHostMemory(), shares && side == 725) << side << "x" << side;
  }
  if (!shares) std::cout << "[  SKIPPED ] the mapped path: " << ctx->info.name << " does not share host memory\n";
}

// Decode-only runs: no device, the same queue policy and counters.
TEST(PassThrough, HandsFramesOnInOrderAndCountsThem) {
  PassThrough lossless(QueuePolicy::Lossless, 2);
  std::thread producer([&] {
    for (int i = 0; i < 20; ++i) {
      Frame f;
      f.index = i;
      f.image = Image(8, 4, PixelFormat::GRAY8);
      f.decodeMs = 1;
      lossless.push(std::move(f));
    }
    lossless.endOfInput();
  });
  std::vector<Frame> out;
  while (auto f = lossless.pop()) out.push_back(std::move(*f));
  producer.join();
  ASSERT_EQ(out.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(out[i].index, i);
  StatsSnapshot s = lossless.stats().snapshot();
  EXPECT_EQ(s.framesIn, 20);
  EXPECT_EQ(s.framesOut, 20);
  EXPECT_EQ(s.width, 8);
  EXPECT_EQ(s.stages[static_cast<int>(Stage::Decode)].samples, 20);

  PassThrough live(QueuePolicy::Live, 2);
  for (int i = 0; i < 10; ++i) {
    Frame f;
    f.index = i;
    ASSERT_TRUE(live.push(std::move(f)));  // nobody pops: never blocks
  }
  live.endOfInput();
  out.clear();
  while (auto f = live.pop()) out.push_back(std::move(*f));
  s = live.stats().snapshot();
  EXPECT_EQ(out.size(), 2u);
  EXPECT_EQ(s.dropped[static_cast<int>(DropCause::EngineLate)], 8);
}

// A variant that wants its rows padded (local_aligned) gets them in the
// Pipeline as in Convolver::process: the device buffers' pitch is the
// variant's, and frames, owned or lent, staged or mapped, come out as the
// reference at their own tight size.
TEST(Pipeline, AVariantWithARowAlignmentGetsPaddedDeviceRows) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const VariantInfo& aligned = variantInfo(VariantId::LocalAligned);
  ASSERT_GT(aligned.rowAlignBytes, 0);
  for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
    for (bool mapped : {false, true}) {
      const std::string what = std::string(toString(format)) + (mapped ? ", mapped" : ", staged");
      const FilterParams params = paramsWith(test::integerMask(5, 3), VariantId::LocalAligned);
      PipelineOptions opt;
      opt.format = format;
      opt.keepOnDevice = true;
      opt.deliverPixels = true;
      opt.mapHostMemory = mapped;
      opt.mapMinFrameBytes = 0;
      Pipeline pipeline(ctx, params, opt);
      auto lent = std::make_shared<Image>(randomImage(97, 61, format, 500));
      const Image owned = randomImage(97, 61, format, 501);
      Frame first = frameOf(owned, 0);
      Frame second;
      second.external = lent->view();
      second.externalOwner = lent;
      second.index = 1;
      ASSERT_TRUE(pipeline.push(std::move(first)));
      ASSERT_TRUE(pipeline.push(std::move(second)));
      pipeline.endOfInput();
      const std::vector<Frame> out = drain(pipeline);
      ASSERT_EQ(out.size(), 2u) << what;
      const std::size_t tight = 97 * static_cast<std::size_t>(bytesPerPixel(format));
      for (const Frame& f : out) {
        ASSERT_TRUE(f.onDevice) << what;
        const std::size_t pitch = f.onDevice->image().pitchBytes;
        EXPECT_GT(pitch, tight) << what << ": rows not padded";
        EXPECT_EQ(pitch % static_cast<std::size_t>(aligned.rowAlignBytes), 0u) << what;
        expectMatches(f, reference(f.index == 0 ? owned : *lent, params), what + ", frame " + std::to_string(f.index));
      }
    }
  }
}

}  // namespace
}  // namespace liveconv
