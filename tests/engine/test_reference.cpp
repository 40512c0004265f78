// The CPU reference itself, against values worked out by hand.
#include <gtest/gtest.h>

#include <cstring>

#include "liveconv/compare.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/reference.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

Image grayRow(std::vector<std::uint8_t> values) {
  Image img(static_cast<int>(values.size()), 1, PixelFormat::GRAY8);
  std::copy(values.begin(), values.end(), img.data());
  return img;
}

TEST(BorderIndex, EachModeMapsAsDocumented) {
  // n = 4: positions -3..6
  const int clamp[] = {0, 0, 0, 0, 1, 2, 3, 3, 3, 3};
  const int mirror[] = {2, 1, 0, 0, 1, 2, 3, 3, 2, 1};
  const int wrap[] = {1, 2, 3, 0, 1, 2, 3, 0, 1, 2};
  const int zero[] = {-1, -1, -1, 0, 1, 2, 3, -1, -1, -1};
  for (int k = 0; k < 10; ++k) {
    EXPECT_EQ(borderIndex(k - 3, 4, BorderMode::Clamp), clamp[k]);
    EXPECT_EQ(borderIndex(k - 3, 4, BorderMode::Mirror), mirror[k]);
    EXPECT_EQ(borderIndex(k - 3, 4, BorderMode::Wrap), wrap[k]);
    EXPECT_EQ(borderIndex(k - 3, 4, BorderMode::Zero), zero[k]);
  }
}

TEST(BorderIndex, FarOffsetsOnTinyImages) {
  for (int i = -40; i <= 40; ++i) {
    EXPECT_EQ(borderIndex(i, 1, BorderMode::Mirror), 0);
    EXPECT_EQ(borderIndex(i, 1, BorderMode::Wrap), 0);
    const int m = borderIndex(i, 2, BorderMode::Mirror);
    EXPECT_TRUE(m == 0 || m == 1);
  }
  EXPECT_EQ(borderIndex(-5, 2, BorderMode::Mirror), 0);  // ..|01|10|01|: -5 -> period 4 -> 3 -> 0
}

TEST(Reference, IdentityReturnsTheInput) {
  const Image src = randomImage(13, 7, PixelFormat::RGBA8, 4);
  Image dst(13, 7, PixelFormat::RGBA8);
  convolveReference(src.view(), dst.view(), parseMaskSpec("identity"), BorderMode::Zero, AlphaMode::Filter);
  EXPECT_EQ(test::bytesOf(dst), test::bytesOf(src));
}

TEST(Reference, BoxOnARowWithEachBorder) {
  const Image src = grayRow({10, 20, 30, 40});
  Image dst(4, 1, PixelFormat::GRAY8);
  const Mask m = parseMaskSpec("3x1:1,1,1;divisor=3");
  convolveReference(src.view(), dst.view(), m, BorderMode::Clamp, AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{13, 20, 30, 37}));  // 40/3=13.3, 110/3=36.7
  convolveReference(src.view(), dst.view(), m, BorderMode::Zero, AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{10, 20, 30, 23}));
  convolveReference(src.view(), dst.view(), m, BorderMode::Wrap, AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{23, 20, 30, 27}));
  convolveReference(src.view(), dst.view(), m, BorderMode::Mirror, AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{13, 20, 30, 37}));
}

TEST(Reference, AppliesCorrelationNotConvolution) {
  // An asymmetric mask that picks the right-hand neighbour.
  const Image src = grayRow({1, 2, 3, 4});
  Image dst(4, 1, PixelFormat::GRAY8);
  convolveReference(src.view(), dst.view(), parseMaskSpec("3x1:0,0,1"), BorderMode::Clamp, AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{2, 3, 4, 4}));
}

TEST(Reference, RoundsHalfToEvenAndSaturates) {
  const Image src = grayRow({5, 7, 250, 3});
  Image dst(4, 1, PixelFormat::GRAY8);
  convolveReference(src.view(), dst.view(), parseMaskSpec("1x1:1;divisor=2"), BorderMode::Clamp,
                    AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{2, 4, 125, 2}));  // 2.5->2, 3.5->4, 1.5->2
  convolveReference(src.view(), dst.view(), parseMaskSpec("1x1:-1;bias=10;normalize=none"), BorderMode::Clamp,
                    AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{5, 3, 0, 7}));
  convolveReference(src.view(), dst.view(), parseMaskSpec("1x1:2;normalize=none"), BorderMode::Clamp, AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), (std::vector<std::uint8_t>{10, 14, 255, 6}));
}

TEST(Reference, LaplacianOfFlatImageIs128UnderAuto) {
  Image src(5, 5, PixelFormat::GRAY8);
  std::fill(src.data(), src.data() + src.sizeBytes(), 77);
  Image dst(5, 5, PixelFormat::GRAY8);
  convolveReference(src.view(), dst.view(), parseMaskSpec("laplacian"), BorderMode::Mirror, AlphaMode::PassThrough);
  EXPECT_EQ(test::bytesOf(dst), std::vector<std::uint8_t>(25, 128));
}

TEST(Reference, AlphaPassesThroughByDefault) {
  const Image src = randomImage(9, 9, PixelFormat::RGBA8, 2);
  Image dst(9, 9, PixelFormat::RGBA8);
  convolveReference(src.view(), dst.view(), parseMaskSpec("box:3"), BorderMode::Clamp, AlphaMode::PassThrough);
  for (int k = 3; k < 9 * 9 * 4; k += 4) ASSERT_EQ(dst.data()[k], src.data()[k]) << "pixel " << k / 4;
}

TEST(Reference, ThreadCountDoesNotChangeTheResult) {
  const Image src = randomImage(61, 47, PixelFormat::RGBA8, 6);
  Image one(61, 47, PixelFormat::RGBA8), many(61, 47, PixelFormat::RGBA8);
  const Mask m = test::floatMask(7, 5, 3);
  convolveReference(src.view(), one.view(), m, BorderMode::Wrap, AlphaMode::Filter, 1);
  convolveReference(src.view(), many.view(), m, BorderMode::Wrap, AlphaMode::Filter, 5);
  EXPECT_EQ(test::bytesOf(one), test::bytesOf(many));
}

TEST(Reference, RejectsMismatchedImages) {
  Image a(4, 4, PixelFormat::GRAY8), b(4, 5, PixelFormat::GRAY8);
  EXPECT_THROW(convolveReference(a.view(), b.view(), parseMaskSpec("box:3"), BorderMode::Clamp, AlphaMode::PassThrough),
               InvalidArgument);
}

Image grayRow16(std::vector<std::uint16_t> values) {
  Image img(static_cast<int>(values.size()), 1, PixelFormat::GRAY16);
  std::memcpy(img.data(), values.data(), values.size() * 2);
  return img;
}

std::vector<std::uint16_t> samples16(const Image& img) {
  std::vector<std::uint16_t> out(img.sizeBytes() / 2);
  std::memcpy(out.data(), img.data(), img.sizeBytes());
  return out;
}

// 16 bits: the same arithmetic, rounding and saturation at 65535; the bias and
// the auto offsets are in 8-bit levels, times 257 (so a mask gives the same
// picture at both depths).
TEST(Reference, SixteenBitSamplesRoundSaturateAndScaleTheOffset) {
  const Image src = grayRow16({10, 20, 30, 40000, 65535});
  Image dst(5, 1, PixelFormat::GRAY16);
  convolveReference(src.view(), dst.view(), parseMaskSpec("3x1:1,1,1;divisor=3"), BorderMode::Clamp,
                    AlphaMode::PassThrough);
  // 40/3=13.3, 60/3=20, 40050/3=13350, 105565/3=35188.3, 171070/3=57023.3
  EXPECT_EQ(samples16(dst), (std::vector<std::uint16_t>{13, 20, 13350, 35188, 57023}));
  convolveReference(src.view(), dst.view(), parseMaskSpec("1x1:1;divisor=2"), BorderMode::Clamp,
                    AlphaMode::PassThrough);
  EXPECT_EQ(samples16(dst), (std::vector<std::uint16_t>{5, 10, 15, 20000, 32768}));  // 32767.5 -> even
  convolveReference(src.view(), dst.view(), parseMaskSpec("1x1:2;normalize=none"), BorderMode::Clamp,
                    AlphaMode::PassThrough);
  EXPECT_EQ(samples16(dst), (std::vector<std::uint16_t>{20, 40, 60, 65535, 65535}));
  // bias=1 is one 8-bit level: 257 at 16 bits.
  convolveReference(src.view(), dst.view(), parseMaskSpec("1x1:-1;bias=1;normalize=none"), BorderMode::Clamp,
                    AlphaMode::PassThrough);
  EXPECT_EQ(samples16(dst), (std::vector<std::uint16_t>{247, 237, 227, 0, 0}));

  Image flat(5, 5, PixelFormat::GRAY16), out(5, 5, PixelFormat::GRAY16);
  for (int k = 0; k < 25; ++k) reinterpret_cast<std::uint16_t*>(flat.data())[k] = 12345;
  convolveReference(flat.view(), out.view(), parseMaskSpec("laplacian"), BorderMode::Mirror, AlphaMode::PassThrough);
  EXPECT_EQ(samples16(out), std::vector<std::uint16_t>(25, 128 * 257));
}

TEST(Reference, SixteenBitAlphaPassesThroughAndMatchesEightBitScaled) {
  // A picture at 8 bits and the same levels times 257: a mask with integer
  // taps and bias gives the same levels times 257 (no rounding either way).
  const Image src8 = randomImage(9, 7, PixelFormat::RGBA8, 3);
  Image src16(9, 7, PixelFormat::RGBA16);
  auto* wide = reinterpret_cast<std::uint16_t*>(src16.data());
  for (std::size_t k = 0; k < src8.sizeBytes(); ++k) wide[k] = static_cast<std::uint16_t>(src8.data()[k] * 257);
  Image dst8(9, 7, PixelFormat::RGBA8), dst16(9, 7, PixelFormat::RGBA16);
  const Mask m = parseMaskSpec("3x3:0,-1,0,-1,5,-1,0,-1,0;bias=3");
  convolveReference(src8.view(), dst8.view(), m, BorderMode::Clamp, AlphaMode::PassThrough);
  convolveReference(src16.view(), dst16.view(), m, BorderMode::Clamp, AlphaMode::PassThrough);
  const std::vector<std::uint16_t> got = samples16(dst16);
  for (std::size_t k = 0; k < dst8.sizeBytes(); ++k) ASSERT_EQ(got[k], dst8.data()[k] * 257) << "value " << k;
  for (std::size_t k = 3; k < got.size(); k += 4) ASSERT_EQ(got[k], wide[k]) << "alpha of pixel " << k / 4;
}

TEST(Compare, SixteenBitValuesAreComparedWhole) {
  // 256 and 0 share their low byte: a byte compare would call them equal.
  const Image a = grayRow16({1, 256, 3}), b = grayRow16({1, 0, 4});
  auto mm = compareImages(a.view(), b.view(), 1);
  ASSERT_TRUE(mm.has_value());
  EXPECT_EQ(mm->toString(), "first mismatch at (1, 0) channel 0: got 256, want 0 (1 values differ)");
}

TEST(Compare, ReportsTheFirstMismatch) {
  Image a = grayRow({1, 2, 3, 4}), b = grayRow({1, 2, 9, 5});
  auto mm = compareImages(a.view(), b.view(), 0);
  ASSERT_TRUE(mm.has_value());
  EXPECT_EQ(mm->x, 2);
  EXPECT_EQ(mm->got, 3);
  EXPECT_EQ(mm->want, 9);
  EXPECT_EQ(mm->count, 2);
  EXPECT_EQ(mm->toString(), "first mismatch at (2, 0) channel 0: got 3, want 9 (2 values differ)");
  mm = compareImages(a.view(), b.view(), 1);
  ASSERT_TRUE(mm.has_value());
  EXPECT_EQ(mm->count, 1);
  EXPECT_FALSE(compareImages(a.view(), a.view(), 0).has_value());
}

// A picture a player shows turned (a phone's portrait clip) is filtered as
// shown: `run` filters the stored picture with the mask turned the other way
// and turns the result (or keeps the turn as metadata). That is the same
// picture, for every border and a mask that is not square.
TEST(Turning, FilteringTheTurnedPictureIsTurningTheFilteredOne) {
  const Image stored = randomImage(23, 14, PixelFormat::RGBA8, 7);
  const Mask mask = test::integerMask(5, 3);  // not square, no symmetry
  for (int q = 0; q < 4; ++q)
    for (BorderMode border : {BorderMode::Clamp, BorderMode::Mirror, BorderMode::Wrap, BorderMode::Zero}) {
      SCOPED_TRACE("quarter turns " + std::to_string(q) + ", border " + toString(border));
      const Image shown = turnedClockwise(stored.view(), q);
      Image filteredShown(shown.width(), shown.height(), shown.format());
      convolveReference(shown.view(), filteredShown.view(), mask, border, AlphaMode::Filter);
      const Mask back = turnedClockwise(mask, 4 - q);
      EXPECT_EQ(back.width, q % 2 ? mask.height : mask.width);
      Image filteredStored(stored.width(), stored.height(), stored.format());
      convolveReference(stored.view(), filteredStored.view(), back, border, AlphaMode::Filter);
      const Image turnedAfter = turnedClockwise(filteredStored.view(), q);
      ASSERT_EQ(turnedAfter.width(), shown.width());
      const auto mismatch = compareImages(turnedAfter.view(), filteredShown.view(), 0);
      EXPECT_FALSE(mismatch) << mismatch->toString();
    }
}

TEST(Turning, QuarterTurnsAsAPlayerMakesThem) {
  Image img(3, 2, PixelFormat::GRAY8);  // 0 1 2 / 3 4 5
  for (int i = 0; i < 6; ++i) img.data()[i] = static_cast<std::uint8_t>(i);
  const std::vector<std::vector<std::uint8_t>> want = {
      {0, 1, 2, 3, 4, 5},   // as stored
      {3, 0, 4, 1, 5, 2},   // clockwise: the left column, bottom up, is the top row
      {5, 4, 3, 2, 1, 0},   // upside down
      {2, 5, 1, 4, 0, 3}};  // counter-clockwise
  for (int q = 0; q < 4; ++q) {
    const Image turned = turnedClockwise(img.view(), q);
    EXPECT_EQ(turned.width(), q % 2 ? 2 : 3) << q;
    EXPECT_EQ(test::bytesOf(turned), want[q]) << q;
    Mask m;
    m.width = 3, m.height = 1, m.coefficients = {1, 2, 3};
    const Mask t = turnedClockwise(m, q);
    EXPECT_EQ(t.width, q % 2 ? 1 : 3) << q;
    EXPECT_EQ(t.coefficients, (q == 1 ? std::vector<float>{1, 2, 3} : q == 2 ? std::vector<float>{3, 2, 1}
                               : q == 3 ? std::vector<float>{3, 2, 1} : std::vector<float>{1, 2, 3})) << q;
  }
}

}  // namespace
}  // namespace liveconv
