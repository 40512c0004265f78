// Planes mode's channel against the CPU reference: each plane of each frame
// filtered with its own mask at its own size (GRAY8 and GRAY16), a plane
// without a mask handed on untouched, frames out in order and whole; the live
// policy drops whole frames, never a plane; a frame that does not bring the
// announced planes is refused with a sentence.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "liveconv/compare.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/planes_channel.hpp"
#include "liveconv/reference.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

Image filtered(const Image& in, const FilterParams& p) {
  Image out(in.width(), in.height(), in.format());
  convolveReference(in.view(), out.view(), p.mask, p.border, p.alpha);
  return out;
}

FilterParams paramsOf(const Mask& mask, VariantId variant) {
  FilterParams p;
  p.mask = mask;
  p.variant = variant;
  p.border = BorderMode::Clamp;
  return p;
}

// A 4:2:0 frame of odd size (chroma ceil(w/2)) with an alpha plane.
std::vector<PlanesOptions::Plane> planes420a(int w, int h, PixelFormat f) {
  return {{w, h, f}, {(w + 1) / 2, (h + 1) / 2, f}, {(w + 1) / 2, (h + 1) / 2, f}, {w, h, f}};
}

Frame frameOf(const std::vector<PlanesOptions::Plane>& shape, unsigned seed, int index) {
  Frame frame;
  for (const PlanesOptions::Plane& p : shape)
    frame.planes.push_back(randomImage(p.width, p.height, p.format, seed + static_cast<unsigned>(frame.planes.size())));
  frame.planesFormat = 1234;  // the ends' own name for the layout, carried as it is
  frame.index = index;
  return frame;
}

class PlanesChannelFormats : public ::testing::TestWithParam<PixelFormat> {};

TEST_P(PlanesChannelFormats, EachPlaneItsOwnMaskAndTheRestUntouched) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const PixelFormat format = GetParam();
  PlanesOptions options;
  options.planes = planes420a(37, 23, format);
  // Y a 5x5, U a 3x7, V as it is, alpha a 1x3.
  const std::vector<std::optional<FilterParams>> filters = {
      paramsOf(test::integerMask(5, 5), VariantId::Local), paramsOf(test::floatMask(3, 7, 7), VariantId::Naive),
      std::nullopt, paramsOf(test::integerMask(1, 3), VariantId::Auto)};
  PlanesChannel channel(ctx, filters, options);
  EXPECT_EQ(channel.plane(2), nullptr);
  std::vector<Frame> sent;
  for (int i = 0; i < 5; ++i) sent.push_back(frameOf(options.planes, 100u * static_cast<unsigned>(i), i));
  std::thread producer([&] {
    for (const Frame& f : sent) channel.push(f);
    channel.endOfInput();
  });
  int count = 0;
  while (std::optional<Frame> out = channel.pop()) {
    ASSERT_EQ(out->index, count);
    ASSERT_EQ(out->planes.size(), 4u);
    EXPECT_EQ(out->planesFormat, 1234);
    const Frame& in = sent[static_cast<std::size_t>(count)];
    for (std::size_t p = 0; p < 4; ++p) {
      const Image want = filters[p] ? filtered(in.planes[p], *filters[p]) : in.planes[p];
      const std::optional<Mismatch> m = compareImages(
          out->planes[p].view(), want.view(), filters[p] ? filters[p]->mask.toleranceLsb(maxSampleValue(format)) : 0);
      EXPECT_FALSE(m) << "frame " << count << " plane " << p << ": " << m->toString();
    }
    ++count;
  }
  producer.join();
  EXPECT_EQ(count, 5);
  const StatsSnapshot stats = channel.stats().snapshot();
  EXPECT_EQ(stats.framesOut, 5);
  EXPECT_EQ(stats.width, 37);
  EXPECT_EQ(stats.height, 23);
}

INSTANTIATE_TEST_SUITE_P(Formats, PlanesChannelFormats, ::testing::Values(PixelFormat::GRAY8, PixelFormat::GRAY16));

// The live policy: a consumer that does not keep up loses whole frames, and
// every frame that comes out has every plane filtered from the same frame.
TEST(PlanesChannel, TheLivePolicyDropsWholeFrames) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PlanesOptions options;
  options.policy = QueuePolicy::Live;
  options.queueCapacity = 2;
  options.planes = planes420a(16, 8, PixelFormat::GRAY8);
  options.planes.pop_back();
  const FilterParams identity = paramsOf(parseMaskSpec("identity"), VariantId::Naive);
  PlanesChannel channel(ctx, {identity, identity, identity}, options);
  // Each plane filled with its frame's number: a plane from another frame shows.
  for (int i = 0; i < 40; ++i) {
    Frame f = frameOf(options.planes, 0, i);
    for (Image& plane : f.planes) std::fill(plane.data(), plane.data() + plane.sizeBytes(), std::uint8_t(i));
    channel.push(std::move(f));
  }
  channel.endOfInput();
  int out = 0, last = -1;
  while (std::optional<Frame> f = channel.pop()) {
    EXPECT_GT(f->index, last);
    last = static_cast<int>(f->index);
    for (const Image& plane : f->planes)
      EXPECT_EQ(plane.data()[plane.sizeBytes() - 1], std::uint8_t(f->index)) << "frame " << f->index;
    ++out;
  }
  const StatsSnapshot stats = channel.stats().snapshot();
  EXPECT_EQ(stats.framesIn, 40);
  EXPECT_EQ(stats.framesOut, out);
  EXPECT_EQ(stats.framesOut + stats.dropped[static_cast<int>(DropCause::EngineLate)], 40);
  EXPECT_EQ(last, 39) << "the newest frame always comes out";
}

TEST(PlanesChannel, AFrameWithoutTheAnnouncedPlanesIsRefused) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PlanesOptions options;
  options.planes = planes420a(16, 8, PixelFormat::GRAY8);
  PlanesChannel channel(ctx, {paramsOf(parseMaskSpec("identity"), VariantId::Naive)}, options);
  Frame f;
  f.image = randomImage(16, 8, PixelFormat::RGBA8, 1);
  channel.push(std::move(f));
  channel.endOfInput();
  try {
    channel.pop();
    FAIL() << "a frame of pixels went through planes mode";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("did not come as planes"), std::string::npos) << e.what();
  }
}

// A window's live edit: setParams hands a new mask to every plane while
// frames flow (the first kernels from the builders); every picture that comes
// out was filtered, each of its planes, by the one set its tag names, against
// the planes it carries as its source; and the new set takes over.
TEST(PlanesChannel, ALiveEditReachesEveryPlaneAndNoPictureMixesTwoSets) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  PlanesOptions options;
  options.policy = QueuePolicy::Live;
  options.queueCapacity = 2;
  options.liveEdits = true;
  options.returnSource = true;
  options.paramsTag = 1;
  options.planes = planes420a(33, 21, PixelFormat::GRAY16);
  options.planes.pop_back();
  const FilterParams first = paramsOf(test::integerMask(3, 3), VariantId::Local);
  const FilterParams second = paramsOf(test::integerMask(5, 7), VariantId::Naive);
  PlanesChannel channel(ctx, {first, first, first}, options);
  std::atomic<bool> enough{false};
  std::thread producer([&] {  // frames keep coming, as a source's do, until the consumer has seen enough
    for (int i = 0; i < 2000 && !enough; ++i) {
      channel.push(frameOf(options.planes, 10u * static_cast<unsigned>(i), i));
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    channel.endOfInput();
  });
  int seen[3] = {0, 0, 0};
  bool edited = false;
  while (std::optional<Frame> out = channel.pop()) {
    if (enough) continue;  // draining
    ASSERT_TRUE(out->sourcePlanes) << "no source planes";
    ASSERT_EQ(out->sourcePlanes->size(), 3u);
    ASSERT_TRUE(out->paramsTag == 1 || out->paramsTag == 2) << out->paramsTag;
    const FilterParams& used = out->paramsTag == 1 ? first : second;
    for (std::size_t p = 0; p < 3; ++p) {
      const Image& source = (*out->sourcePlanes)[p];
      const Image sent = randomImage(source.width(), source.height(), source.format(),
                                     10u * static_cast<unsigned>(out->index) + static_cast<unsigned>(p));
      EXPECT_FALSE(compareImages(source.view(), sent.view(), 0)) << "source plane " << p;
      const std::optional<Mismatch> m = compareImages(out->planes[p].view(), filtered(source, used).view(),
                                                      used.mask.toleranceLsb(maxSampleValue(PixelFormat::GRAY16)));
      EXPECT_FALSE(m) << "frame " << out->index << " (set " << out->paramsTag << ") plane " << p << ": "
                      << m->toString();
    }
    ++seen[out->paramsTag];
    if (!edited && seen[1] >= 2) {
      channel.setParams(second, 2);
      edited = true;
    }
    if (seen[2] >= 3) enough = true;
  }
  producer.join();
  EXPECT_GE(seen[1], 2);
  EXPECT_GE(seen[2], 3) << "the new set never came out";
  EXPECT_TRUE(channel.paramsState(2).built);
}

}  // namespace
}  // namespace liveconv
