// Mask edits: symmetric set, centred resize, transpose, flips.
#include <gtest/gtest.h>

#include <cstdlib>

#include "model/mask_edit.hpp"
#include "model/race_figure.hpp"
#include "model/response_figure.hpp"
#include "model/viewer_model.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {
Mask zeros(int w, int h) {
  Mask m;
  m.width = w;
  m.height = h;
  m.coefficients.assign(static_cast<size_t>(w) * h, 0.0f);
  return m;
}
int countValue(const Mask& m, float v) {
  int n = 0;
  for (float c : m.coefficients) n += c == v;
  return n;
}
}  // namespace

TEST(MaskEdit, SetCellWithoutSymmetryTouchesOneCell) {
  Mask m = zeros(5, 5);
  setCell(m, 0, 1, 3.0f, Symmetry::None);
  EXPECT_EQ(m.at(0, 1), 3.0f);
  EXPECT_EQ(countValue(m, 3.0f), 1);
}

TEST(MaskEdit, Mirror4SetsFourCells) {
  Mask m = zeros(5, 5);
  setCell(m, 0, 1, 2.0f, Symmetry::Mirror4);
  EXPECT_EQ(m.at(0, 1), 2.0f);
  EXPECT_EQ(m.at(4, 1), 2.0f);
  EXPECT_EQ(m.at(0, 3), 2.0f);
  EXPECT_EQ(m.at(4, 3), 2.0f);
  EXPECT_EQ(countValue(m, 2.0f), 4);
}

TEST(MaskEdit, Mirror8SetsEightCellsOnSquareMasks) {
  Mask m = zeros(5, 5);
  setCell(m, 0, 1, 2.0f, Symmetry::Mirror8);
  EXPECT_EQ(countValue(m, 2.0f), 8);
  EXPECT_EQ(m.at(1, 0), 2.0f);
  EXPECT_EQ(m.at(3, 4), 2.0f);
  // On the centre row, mirrored cells coincide: fewer distinct cells.
  Mask c = zeros(5, 5);
  setCell(c, 2, 2, 9.0f, Symmetry::Mirror8);
  EXPECT_EQ(countValue(c, 9.0f), 1);
}

TEST(MaskEdit, Mirror8FallsBackToFourOnRectangularMasks) {
  Mask m = zeros(5, 3);
  setCell(m, 0, 0, 1.0f, Symmetry::Mirror8);
  EXPECT_EQ(countValue(m, 1.0f), 4);
}

TEST(MaskEdit, OutOfRangeCellIsIgnored) {
  Mask m = zeros(3, 3);
  setCell(m, 3, 0, 1.0f, Symmetry::Mirror4);
  setCell(m, -1, 0, 1.0f, Symmetry::None);
  EXPECT_EQ(countValue(m, 1.0f), 0);
}

TEST(MaskEdit, ResizeKeepsTheCentre) {
  Mask m = parseMaskSpec("3x3:1,2,3,4,5,6,7,8,9");
  resizeKeepingCentre(m, 5, 7);
  ASSERT_EQ(m.width, 5);
  ASSERT_EQ(m.height, 7);
  EXPECT_EQ(m.at(2, 3), 5.0f);
  EXPECT_EQ(m.at(1, 2), 1.0f);
  EXPECT_EQ(m.at(3, 4), 9.0f);
  EXPECT_EQ(m.at(0, 0), 0.0f);
  resizeKeepingCentre(m, 1, 1);
  EXPECT_EQ(m.coefficients, std::vector<float>{5.0f});
}

TEST(MaskEdit, ResizeClampsToOddSides) {
  Mask m = parseMaskSpec("box:3");
  resizeKeepingCentre(m, 4, 100);
  EXPECT_EQ(m.width, 5);
  EXPECT_EQ(m.height, kMaxMaskSide);
  EXPECT_TRUE(m.validationError().empty()) << m.validationError();
  EXPECT_EQ(clampOddSide(0), 1);
  EXPECT_EQ(clampOddSide(64), 63);
}

TEST(MaskEdit, TransposeAndFlips) {
  Mask m = parseMaskSpec("3x1:1,2,3");
  transpose(m);
  EXPECT_EQ(m.width, 1);
  EXPECT_EQ(m.height, 3);
  EXPECT_EQ(m.coefficients, (std::vector<float>{1, 2, 3}));
  flipVertical(m);
  EXPECT_EQ(m.coefficients, (std::vector<float>{3, 2, 1}));
  Mask s = parseMaskSpec("sobel-x");
  const Mask original = s;
  flipHorizontal(s);
  for (size_t i = 0; i < s.coefficients.size(); ++i) EXPECT_EQ(s.coefficients[i], -original.coefficients[i]);
  Mask r = parseMaskSpec("3x3:1,2,3,4,5,6,7,8,9");
  transpose(r);
  EXPECT_EQ(r.coefficients, (std::vector<float>{1, 4, 7, 2, 5, 8, 3, 6, 9}));
}

// The spec field names what runs: what was typed while it still describes the
// mask, else the preset that makes it, else the inline spec, else nothing.
TEST(MaskEdit, TheSpecFieldNamesTheMaskThatRuns) {
  Mask m = parseMaskSpec("gaussian:9:sigma=2");
  EXPECT_EQ(specForMask(m, "gaussian:9:sigma=2"), "gaussian:9:sigma=2");
  EXPECT_EQ(specForMask(parseMaskSpec("box:5"), "motion45:7"), "box:5") << "a stale preset name is replaced";
  EXPECT_EQ(specForMask(parseMaskSpec("sharpen"), ""), "sharpen");
  Mask edited = parseMaskSpec("sharpen");
  setCell(edited, 0, 0, 2.0f, Symmetry::None);
  const std::string inlineSpec = specForMask(edited, "sharpen");
  EXPECT_EQ(inlineSpec.rfind("3x3:2,-1,0,", 0), 0u) << inlineSpec;
  EXPECT_EQ(parseMaskSpec(inlineSpec), edited) << inlineSpec;
  Mask big = parseMaskSpec("box:15");
  setCell(big, 0, 0, 3.0f, Symmetry::None);
  EXPECT_EQ(specForMask(big, "box:15"), "") << "225 numbers are not spelled out";
}


// Numbers as a person writes them (GIMP's matrix): the shortest decimal that
// is the same float, in the spec field, the grids and the lines under them.
TEST(MaskEdit, NumbersAreWrittenWithoutFloatNoise) {
  EXPECT_EQ(numberText(0.0145f), "0.0145");
  EXPECT_EQ(numberText(16.0f), "16");
  EXPECT_EQ(numberText(-1.0f), "-1");
  EXPECT_EQ(numberText(1.0f / 3), "0.33333334");  // a float that needs eight digits keeps them
  EXPECT_EQ(std::strtof(numberText(0.128f).c_str(), nullptr), 0.128f);
  Mask m = parseMaskSpec("motion45:7");
  setCell(m, 3, 3, 0.5f, Symmetry::None);
  const std::string spec = specForMask(m, "motion45:7");
  EXPECT_NE(spec.find(",0.0145,"), std::string::npos) << spec;
  EXPECT_EQ(spec.find("0.0144999"), std::string::npos) << spec;
  EXPECT_EQ(parseMaskSpec(spec), m) << spec;
}

// What the coefficients are divided by, under the grid in both windows; and
// the warning when normalize auto divides by a sum of almost nothing.
TEST(MaskEdit, TheDivisorIsShownAndANearZeroSumIsSaid) {
  EXPECT_EQ(normalizationText(parseMaskSpec("box:5")), "\xc3\xb7 25 (the sum; normalize auto)");
  EXPECT_EQ(normalizationText(parseMaskSpec("3x3:1,2,1,2,4,2,1,2,1;divisor=16;bias=-8")), "\xc3\xb7 16 - 8 (normalize off)");
  EXPECT_EQ(normalizationText(parseMaskSpec("laplacian")), "+ 128 (the sum is 0; normalize auto)");
  EXPECT_EQ(nearZeroSumWarning(parseMaskSpec("box:5")), "");
  EXPECT_EQ(nearZeroSumWarning(parseMaskSpec("laplacian")), "") << "a sum of exactly 0 adds 128 by design";
  EXPECT_EQ(nearZeroSumWarning(parseMaskSpec("sharpen")), "");
  // The default mask with a zero cell typed -1: the sum is 0.0003 and the scale over 3000.
  Mask m = parseMaskSpec("motion45:7");
  setCell(m, 0, 0, -1.0f, Symmetry::None);
  const std::string warning = nearZeroSumWarning(m);
  EXPECT_EQ(warning.rfind("The coefficients sum to 0.0003, nearly 0: normalize auto multiplies by 3334 ", 0), 0u)
      << warning;
  EXPECT_GT(m.scale(), 1000);
  m.normalize = Normalize::None;
  EXPECT_EQ(nearZeroSumWarning(m), "") << "normalize off divides by the divisor";
}

// The frequency response both windows draw beside the grid: one colour per
// frequency on the scale from 0 to the peak, the cuts, and the file name it
// is saved under beside a mask file.
TEST(ResponseFigure, ColoursTheGainFromZeroToThePeakAndFollowsTheMask) {
  const ResponseFigure sharpen = responseFigure(parseMaskSpec("sharpen"));
  const int n = sharpen.response.size;
  ASSERT_EQ(n, kFrequencyResponseSize);
  ASSERT_EQ(sharpen.colours.size(), static_cast<size_t>(n * n));
  EXPECT_FLOAT_EQ(sharpen.scaleTop, sharpen.response.peak);
  EXPECT_EQ(sharpen.colours[0], responseColour(1.0f)) << "the peak, 9 at (-0.5, -0.5), is the top of the scale";
  EXPECT_EQ(sharpen.colours[static_cast<size_t>(n / 2) * n + n / 2], responseColour(1.0f / 9)) << "DC: gain 1 of 9";
  EXPECT_EQ(sharpen.cutX.size(), static_cast<size_t>(n / 2 + 1));
  EXPECT_EQ(sharpen.scaleText, "gain 0 .. 9 (DC 1)");
  EXPECT_NE(responseColour(0.0f), responseColour(1.0f));
  EXPECT_EQ(responseColour(-3.0f), responseColour(0.0f));  // clamped

  ViewerModel model;
  model.applySpec("box:3", nullptr);
  const std::string blur = model.responseFigure().caption;
  EXPECT_EQ(blur.rfind("a low-pass", 0), 0u) << blur;
  model.setCell(1, 1, 9.0f);  // a strong centre: no longer a plain blur
  EXPECT_NE(model.responseFigure().caption, blur) << "the figure follows each edit";
  model.setDivisor(0);
  Mask invalid = model.mask();
  invalid.divisor = 0;
  EXPECT_EQ(responseFigure(invalid).response.size, 0) << "an invalid mask has no figure";

  const Image picture = responseImage(sharpen, 2);
  EXPECT_EQ(picture.width(), 2 * n);
  const std::uint8_t* dc = picture.data() + (static_cast<size_t>(n) * picture.width() + n) * 4;  // pixel (n, n)
  EXPECT_EQ(dc[0], responseColour(1.0f / 9)[0]);
  EXPECT_EQ(dc[1], responseColour(1.0f / 9)[1]);
}

TEST(ResponseFigure, IsSavedBesideTheMaskFile) {
  EXPECT_EQ(responsePathFor("mask.json"), "mask.response.png");
  EXPECT_EQ(responsePathFor("dir/blur 5:5.json"), "dir/blur 5:5.response.png");
  EXPECT_EQ(responsePathFor("my.masks/sharpen"), "my.masks/sharpen.response.png");
  EXPECT_EQ(responsePathFor("dir/.hidden"), "dir/.hidden.response.png");
}

// The race chart both windows draw: fastest first, the winner marked, the
// candidates that did not run last with their reason, bars as long as their time.
TEST(RaceFigure, ChartsEveryCandidateFastestFirstWithTheWinnerAndTheReasons) {
  RaceReport r;
  r.number = 3;
  r.trigger = "compare";
  r.device = "the device";
  r.format = PixelFormat::RGBA8;
  r.mask = "5x5";
  r.width = r.sampleWidth = 1000;
  r.height = r.sampleHeight = 1000;
  r.copyBytesPerSecond = 8e9;  // 1000 Mpix/s of RGBA read and written
  r.fma.fmaPerSecond = 1e12;
  r.maskWidth = r.maskHeight = 5;
  auto entry = [](VariantId v, double ms, const char* outcome) {
    RaceEntry e;
    e.params.variant = v;
    e.params.workgroup = {16, 16};
    e.kernelMs = ms;
    e.outcome = outcome;
    return e;
  };
  r.entries = {entry(VariantId::Naive, 4.0, "ok"), entry(VariantId::Image, 0, "unavailable: no images"),
               entry(VariantId::Local, 2.0, "ok"), entry(VariantId::Unrolled, 2.5, "ok"),
               entry(VariantId::MultiPixel, 2.5, "ok")};
  r.chosen = 2;
  const RaceFigure f = raceFigure(r);
  ASSERT_EQ(f.bars.size(), 5u);
  EXPECT_EQ(f.bars[0].label, "local 16x16");
  EXPECT_TRUE(f.bars[0].chosen);
  EXPECT_EQ(f.bars[1].label, "unrolled 16x16");
  EXPECT_EQ(f.bars[2].label, "multi_pixel 16x16");
  EXPECT_EQ(f.bars[3].label, "naive 16x16");
  EXPECT_FLOAT_EQ(f.bars[3].length, 1.0f);
  EXPECT_FLOAT_EQ(f.bars[0].length, 0.5f);
  EXPECT_EQ(f.bars[4].label, "image 16x16");
  EXPECT_EQ(f.bars[4].ms, 0);
  EXPECT_EQ(f.bars[4].reason, "unavailable: no images");
  // 1e6 pixels in 2 ms: 500 Mpix/s, half the copy's 1000; 25 taps x 4 channels x 5e8 / 1e12 = 5 %: the
  // bandwidth is its roof.
  EXPECT_EQ(f.bars[0].numbers, "2 ms  500 Mpix/s  50% of copy  5% of FMA  at 50% of its bandwidth roof");
  // The packet kernel computes three channels where alpha is copied: 25 x 3 x 4e8 / 1e12 = 3 %.
  EXPECT_EQ(f.bars[2].numbers, "2.5 ms  400 Mpix/s  40% of copy  3% of FMA  at 40% of its bandwidth roof");
  EXPECT_EQ(f.title, "local 16x16 won: 2 ms, 1.25x faster than the next (4 of 5 ran)");
  EXPECT_NE(f.context.find("race 3 (compare) on the device: rgba 1000x1000, border clamp, 5x5"), std::string::npos)
      << f.context;
  // The race behind a choice auto took from its cache: an earlier run's, said with when it ran.
  RaceReport kept = r;
  kept.trigger = "auto";
  kept.cached = true;
  kept.racedAt = "2026-11-29T16:00:00Z";
  EXPECT_EQ(raceFigure(kept).context.rfind("auto's race of 2026-11-29T16:00:00Z (kept with its choice) on the device: ", 0),
            0u)
      << raceFigure(kept).context;
  r.chosen = -1;
  for (RaceEntry& e : r.entries) e.kernelMs = 0;
  EXPECT_EQ(raceFigure(r).title, "No candidate ran (5 tried)");
}
