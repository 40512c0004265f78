// The check of a filtered frame against the CPU reference (the windows'
// check mode): the reference of a region is the whole frame's reference
// there, the region fits the budget, and every altered pixel is counted,
// located and mapped.
#include <gtest/gtest.h>

#include <algorithm>

#include "liveconv/errors.hpp"
#include "liveconv/frame_check.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

Image crop(const Image& img, const Region& r) {
  Image out(r.width, r.height, img.format());
  const int bpp = bytesPerPixel(img.format());
  for (int y = 0; y < r.height; ++y)
    std::copy_n(img.view().row(r.y + y) + static_cast<std::size_t>(r.x) * bpp, static_cast<std::size_t>(r.width) * bpp,
                out.view().row(y));
  return out;
}

// Regions on every edge and corner, inside, and the whole image, with every
// border: a tap near a region's edge reads the frame (or its border), not the region's.
TEST(ReferenceRegion, IsTheWholeFramesReferenceThere) {
  const Mask mask = parseMaskSpec("5x3:1,-2,3,0,4,2,1,-1,5,7,-3,2,2,1,6;divisor=9;bias=4");
  for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
    const Image src = randomImage(37, 23, format, 11);
    for (BorderMode border : {BorderMode::Clamp, BorderMode::Mirror, BorderMode::Wrap, BorderMode::Zero}) {
      Image whole(37, 23, format);
      convolveReference(src.view(), whole.view(), mask, border, AlphaMode::PassThrough);
      for (const Region r : {Region{0, 0, 37, 23}, Region{0, 0, 4, 3}, Region{33, 20, 4, 3}, Region{10, 0, 9, 2},
                             Region{0, 8, 1, 15}, Region{12, 7, 13, 9}, Region{36, 22, 1, 1}}) {
        Image part(r.width, r.height, format);
        convolveReferenceRegion(src.view(), r, part.view(), mask, border, AlphaMode::PassThrough, 3);
        EXPECT_EQ(test::bytesOf(part), test::bytesOf(crop(whole, r)))
            << toString(format) << " " << toString(border) << " region " << r.width << "x" << r.height << " at (" << r.x
            << ", " << r.y << ")";
      }
    }
  }
  Image out(4, 4, PixelFormat::GRAY8);
  const Image src = randomImage(8, 8, PixelFormat::GRAY8, 1);
  EXPECT_THROW(convolveReferenceRegion(src.view(), Region{5, 5, 4, 4}, out.view(), mask, BorderMode::Clamp,
                                       AlphaMode::PassThrough),
               InvalidArgument);
}

TEST(FrameCheck, TheWholeFrameWhenItFitsTheBudgetElseACentredRegionOfItsShape) {
  const Mask box5 = parseMaskSpec("box:5");
  EXPECT_EQ(checkRegionFor(1280, 720, box5, PixelFormat::RGBA8), (Region{0, 0, 1280, 720}));
  const Mask big = parseMaskSpec("gaussian:31");
  const Region r = checkRegionFor(1920, 1080, big, PixelFormat::RGBA8);
  const double work = static_cast<double>(r.pixels()) * 31 * 31 * 4;
  EXPECT_LE(work, kCheckWorkBudget);
  EXPECT_GT(work, kCheckWorkBudget * 0.95);  // as large as the budget allows
  EXPECT_NEAR(static_cast<double>(r.width) / r.height, 1920.0 / 1080, 0.02);
  EXPECT_NEAR(r.x + r.width / 2.0, 960, 1);
  EXPECT_NEAR(r.y + r.height / 2.0, 540, 1);
  // A budget too small for one pixel still checks one.
  EXPECT_EQ(checkRegionFor(64, 48, big, PixelFormat::GRAY8, 1).pixels(), 1);
}

TEST(FrameCheck, CountsLocatesAndMapsEveryDifference) {
  const Image src = randomImage(64, 40, PixelFormat::RGBA8, 5);
  for (const char* spec : {"sharpen", "gaussian:5"}) {
    FilterParams p;
    p.mask = parseMaskSpec(spec);
    Image filtered(64, 40, PixelFormat::RGBA8);
    convolveReference(src.view(), filtered.view(), p.mask, p.border, p.alpha);
    const Region whole{0, 0, 64, 40};
    FrameCheck clean = checkFrame(src.view(), filtered.view(), p, whole);
    EXPECT_TRUE(clean.passed());
    EXPECT_TRUE(clean.wholeFrame);
    EXPECT_EQ(clean.pixelsDiffering, 0);
    EXPECT_EQ(clean.worstX, -1);

    auto bump = [&](int x, int y, int c, int by) {
      std::uint8_t& v = filtered.view().row(y)[x * 4 + c];
      v = static_cast<std::uint8_t>(v >= 128 ? v - by : v + by);
    };
    bump(3, 2, 0, 1);
    bump(40, 30, 2, 37);
    bump(63, 39, 1, 5);
    const FrameCheck bad = checkFrame(src.view(), filtered.view(), p, whole);
    const bool integer = std::string(spec) == "sharpen";
    EXPECT_EQ(bad.toleranceLsb, integer ? 0 : 1) << spec;
    EXPECT_EQ(bad.pixelsCompared, 64 * 40);
    EXPECT_EQ(bad.pixelsDiffering, 3);
    EXPECT_EQ(bad.pixelsBeyondTolerance, integer ? 3 : 2) << spec;
    EXPECT_FALSE(bad.passed());
    EXPECT_EQ(bad.maxDifference, 37);
    EXPECT_EQ(bad.worstX, 40);
    EXPECT_EQ(bad.worstY, 30);
    EXPECT_EQ(bad.differences.view().row(30)[40], 37);
    EXPECT_EQ(bad.differences.view().row(2)[3], 1);
    EXPECT_EQ(bad.differences.view().row(39)[63], 5);
    EXPECT_EQ(bad.differences.view().row(0)[0], 0);

    // A region sees what lies in it, in frame coordinates.
    const FrameCheck part = checkFrame(src.view(), filtered.view(), p, Region{32, 20, 32, 20});
    EXPECT_FALSE(part.wholeFrame);
    EXPECT_EQ(part.pixelsDiffering, 2);
    EXPECT_EQ(part.worstX, 40);
    EXPECT_EQ(part.differences.view().row(10)[8], 37);
  }
}

}  // namespace
}  // namespace liveconv
