// The check of a frame against the CPU reference as both windows show it:
// the overlay's lines and the heat map laid over the picture; and the
// script's `check` line.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <utility>
#include <vector>
#include <string>

#include "feed/script.hpp"
#include "liveconv/reference.hpp"
#include "model/check_figure.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

Image ramp(int w, int h, PixelFormat f) {
  Image img(w, h, f);
  for (int y = 0; y < h; ++y)
    for (std::size_t x = 0; x < img.view().rowBytes(); ++x) img.view().row(y)[x] = static_cast<std::uint8_t>(x * 7 + y * 13);
  return img;
}

// A 1000x40 gray frame filtered by `spec` with `wrong` pixels off by `by`.
CheckReport report(const char* spec, std::vector<std::pair<int, int>> wrong, int by, Region region = {0, 0, 1000, 40}) {
  const Image src = ramp(1000, 40, PixelFormat::GRAY8);
  FilterParams p;
  p.mask = parseMaskSpec(spec);
  Image out(1000, 40, PixelFormat::GRAY8);
  convolveReference(src.view(), out.view(), p.mask, p.border, p.alpha);
  for (auto [x, y] : wrong) out.view().row(y)[x] = static_cast<std::uint8_t>(out.view().row(y)[x] ^ by);
  CheckReport r;
  r.number = 7;
  r.frameIndex = 41;
  r.variantAsked = VariantId::Auto;
  r.variantRan = VariantId::Local;
  r.check = checkFrame(src.view(), out.view(), p, region);
  r.copyMs = 1.5;
  return r;
}

TEST(CheckFigure, LinesSayWhatWasComparedAndWhatDiffered) {
  const std::vector<std::string> clean = checkLines(report("sharpen", {}, 0));
  ASSERT_EQ(clean.size(), 2u);
  EXPECT_EQ(clean[0], "check 7: 0 of 40000 px differ (whole frame, exact)");
  EXPECT_NE(clean[1].find("whole frame 1000x40, frame 41, auto -> local: reference "), std::string::npos) << clean[1];

  const std::vector<std::string> bad = checkLines(report("sharpen", {{10, 3}, {500, 20}}, 0x20));
  EXPECT_EQ(bad[0], "check 7: 2 of 40000 px differ by more than 0 LSB, up to 32 at (10, 3) (whole frame)");

  // Within the tolerance of a mask that is not integer-valued: said, and not a failure.
  const CheckReport within = report("gaussian:5", {{10, 3}}, 1);
  EXPECT_TRUE(within.check.passed());
  EXPECT_EQ(checkLines(within)[0], "check 7: 0 of 40000 px differ beyond 1 LSB (whole frame, 1 LSB allowed); 1 by 1 LSB");

  CheckReport part = report("sharpen", {}, 0, Region{400, 10, 200, 20});
  part.wholeFrameEstimateMs = 2500;
  const std::vector<std::string> lines = checkLines(part);
  EXPECT_EQ(lines[0], "check 7: 0 of 4000 px differ (region 200x20, exact)");
  EXPECT_NE(lines[1].find("region 200x20 at (400, 10) of 1000x40 (the whole frame: about 2.5 s of reference)"),
            std::string::npos)
      << lines[1];
}

// Every cell holding a difference beyond the tolerance is red to yellow, one
// within it blue, every other cell clear; a large region gets cells of several
// pixels, so a single wrong pixel still shows.
TEST(CheckFigure, TheHeatMapMarksEveryCellWithADifference) {
  const CheckReport r = report("gaussian:5", {{0, 0}, {997, 39}, {501, 17}}, 0x40);
  const CheckReport lsb = report("gaussian:5", {{250, 5}}, 1);
  const HeatMap map = checkHeatMap(r.check, 480);
  EXPECT_EQ(map.cell, 3);  // 1000 px in cells of 3: 334 cells across
  ASSERT_EQ(map.rgba.width(), 334);
  ASSERT_EQ(map.rgba.height(), 14);
  auto cell = [&](const HeatMap& m, int cx, int cy) { return m.rgba.view().row(cy) + cx * 4; };
  int marked = 0;
  for (int cy = 0; cy < map.rgba.height(); ++cy)
    for (int cx = 0; cx < map.rgba.width(); ++cx) marked += cell(map, cx, cy)[3] != 0;
  EXPECT_EQ(marked, 3);
  for (auto [x, y] : {std::pair{0, 0}, {997, 39}, {501, 17}}) {
    const std::uint8_t* p = cell(map, x / 3, y / 3);
    EXPECT_EQ(p[0], 255) << x << "," << y;
    EXPECT_EQ(p[2], 0);
    EXPECT_GT(p[3], 200);
    EXPECT_GT(p[1], 200) << "0x40 beyond the tolerance is yellow";
  }
  const HeatMap blue = checkHeatMap(lsb.check, 1000);
  EXPECT_EQ(blue.cell, 1);
  const std::uint8_t* p = cell(blue, 250, 5);
  EXPECT_GT(p[2], p[0]);
  EXPECT_GT(p[3], 0);
  EXPECT_EQ(heatLegend(r.check),
            "heat map: blue within 1 LSB, red to yellow beyond 1 LSB (yellow from 33); a cell is 3x3 px, its largest "
            "difference");
}

TEST(CheckFigure, AScriptTurnsCheckModeOnAndOffAndNothingElse) {
  const std::string path = ::testing::TempDir() + "check_script.txt";
  Script script;
  std::ofstream(path) << "0 check on\n5 check off\n";
  EXPECT_EQ(script.load(path), "");
  std::ofstream(path) << "0 check\n";
  EXPECT_NE(script.load(path).find("check needs an argument"), std::string::npos);
  std::ofstream(path) << "0 check maybe\n";
  EXPECT_NE(script.load(path).find("check takes on or off"), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
