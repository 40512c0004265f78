// The double-buffered pipeline against the CPU reference: order, completeness,
// size and format changes, the live policy's drops, parameter switches at a
// frame boundary. Small frames, so the suite stays quick on PoCL.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "liveconv/compare.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/pipeline.hpp"
#include "liveconv/reference.hpp"
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
  for (int i = 0; i < 10; ++i) inputs.push_back(test::randomImage(160, 120, PixelFormat::RGBA8, 100 + i));
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

TEST(Pipeline, SizeAndFormatChangeMidStreamReallocatesAndGoesOn) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams params = paramsWith(test::integerMask(3, 3), VariantId::Naive);
  Pipeline pipeline(ctx, params, PipelineOptions());
  std::vector<Image> inputs;
  for (int i = 0; i < 3; ++i) inputs.push_back(test::randomImage(160, 120, PixelFormat::RGBA8, i));
  for (int i = 0; i < 3; ++i) inputs.push_back(test::randomImage(97, 61, PixelFormat::RGBA8, 10 + i));
  for (int i = 0; i < 3; ++i) inputs.push_back(test::randomImage(64, 48, PixelFormat::GRAY8, 20 + i));
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
  const Image img = test::randomImage(160, 120, PixelFormat::RGBA8, 7);
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

TEST(Pipeline, ParameterSwitchTakesEffectAtAFrameBoundaryAndLosesNoFrame) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const FilterParams before = paramsWith(test::integerMask(3, 3), VariantId::Naive);
  FilterParams after = paramsWith(test::integerMask(7, 5), VariantId::Local);
  after.border = BorderMode::Wrap;
  Pipeline pipeline(ctx, before, PipelineOptions());
  std::vector<Image> inputs;
  for (int i = 0; i < 8; ++i) inputs.push_back(test::randomImage(160, 120, PixelFormat::RGBA8, 40 + i));
  std::vector<Frame> out;
  std::thread consumer([&] { out = drain(pipeline); });
  for (int i = 0; i < 4; ++i) pipeline.push(frameOf(inputs[i], i));
  const std::uint64_t generation = pipeline.setParams(after);
  ASSERT_TRUE(pipeline.waitParamsBuilt(generation, 60000)) << pipeline.paramsError();
  for (int i = 4; i < 8; ++i) pipeline.push(frameOf(inputs[i], i));
  pipeline.endOfInput();
  consumer.join();
  ASSERT_EQ(out.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    // Each frame is entirely the old or entirely the new filter, never a mix,
    // and once switched it stays switched.
    const bool switched = out[i].paramsGeneration == generation;
    if (i >= 4) {
      EXPECT_TRUE(switched) << "frame " << i << " was pushed after the new parameters were built";
    }
    if (i > 0 && out[i - 1].paramsGeneration == generation) {
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
  pipeline.push(frameOf(test::randomImage(32, 32, PixelFormat::GRAY8, 1), 0));
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

}  // namespace
}  // namespace liveconv
