#include "model/check_figure.hpp"

#include <algorithm>
#include <cstdio>

#include "model/figure_text.hpp"
#include "model/frame_stats.hpp"

namespace liveconv::ui {
namespace {

std::string size(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

std::vector<std::string> checkLines(const CheckReport& r) {
  const FrameCheck& c = r.check;
  std::vector<std::string> lines;
  const std::string where = c.wholeFrame ? "whole frame" : "region " + size(c.region.width, c.region.height);
  const std::string allowed = c.toleranceLsb == 0 ? "exact" : formatNumbers("%.0f LSB allowed", c.toleranceLsb);
  std::string result = "check " + std::to_string(r.number) + (r.plane.empty() ? "" : " (plane " + r.plane + ")") + ": ";
  if (c.pixelsBeyondTolerance == 0) {
    result += "0 of " + std::to_string(c.pixelsCompared) + " px differ";
    if (c.pixelsDiffering > 0) result += " beyond " + std::to_string(c.toleranceLsb) + " LSB";
    result += " (" + where + ", " + allowed + ")";
    if (c.pixelsDiffering > 0) result += "; " + std::to_string(c.pixelsDiffering) + " by 1 LSB";
  } else {
    result += std::to_string(c.pixelsBeyondTolerance) + " of " + std::to_string(c.pixelsCompared) +
              " px differ by more than " + std::to_string(c.toleranceLsb) + " LSB, up to " +
              std::to_string(c.maxDifference) + " at (" + std::to_string(c.worstX) + ", " + std::to_string(c.worstY) +
              ") (" + where + ")";
  }
  lines.push_back(result);
  std::string what;
  if (c.wholeFrame) {
    what = "whole frame " + size(c.frameWidth, c.frameHeight);
  } else {
    what = "region " + size(c.region.width, c.region.height) + " at (" + std::to_string(c.region.x) + ", " +
           std::to_string(c.region.y) + ") of " + size(c.frameWidth, c.frameHeight) +
           formatNumbers(" (the whole frame: about %.1f s of reference)", r.wholeFrameEstimateMs / 1000);
  }
  lines.push_back(what + ", frame " + std::to_string(r.frameIndex) + ", " + variantLine(r.variantAsked, r.variantRan) +
                  formatNumbers(": reference %.0f ms, copy %.1f ms", c.referenceMs, r.copyMs));
  return lines;
}

int heatCellSize(const FrameCheck& c, int maxCellsAcross) {
  const int across = std::max(1, maxCellsAcross);
  return std::max(1, (c.region.width + across - 1) / across);
}

std::string heatLegend(const FrameCheck& c) {
  const int cell = heatCellSize(c);
  return std::string("heat map: ") + (c.toleranceLsb > 0 ? "blue within 1 LSB, " : "") +
         "red to yellow beyond " + std::to_string(c.toleranceLsb) + " LSB (yellow from " +
         std::to_string(c.toleranceLsb + 32) + ")" +
         (cell > 1 ? "; a cell is " + std::to_string(cell) + "x" + std::to_string(cell) + " px, its largest difference"
                   : "");
}

HeatMap checkHeatMap(const FrameCheck& c, int maxCellsAcross) {
  HeatMap map;
  const ImageView diff = c.differences.view();
  if (diff.width <= 0 || diff.height <= 0) return map;
  map.cell = heatCellSize(c, maxCellsAcross);
  const int w = (diff.width + map.cell - 1) / map.cell, h = (diff.height + map.cell - 1) / map.cell;
  map.rgba = Image(w, h, PixelFormat::RGBA8);
  const ImageView out = map.rgba.view();
  for (int cy = 0; cy < h; ++cy) {
    for (int cx = 0; cx < w; ++cx) {
      int worst = 0;
      for (int y = cy * map.cell; y < std::min(diff.height, (cy + 1) * map.cell); ++y)
        for (int x = cx * map.cell; x < std::min(diff.width, (cx + 1) * map.cell); ++x)
          worst = std::max(worst, static_cast<int>(diff.row(y)[x]));
      std::uint8_t* p = out.row(cy) + static_cast<std::size_t>(cx) * 4;
      if (worst == 0) {
        p[0] = p[1] = p[2] = p[3] = 0;
      } else if (worst <= c.toleranceLsb) {
        p[0] = 60, p[1] = 140, p[2] = 255, p[3] = 110;  // within what the mask allows
      } else {
        // Red at the first LSB beyond the tolerance, yellow from 32 beyond it.
        const float t = std::min(1.0f, static_cast<float>(worst - c.toleranceLsb - 1) / 31.0f);
        p[0] = 255, p[1] = static_cast<std::uint8_t>(40 + 215 * t), p[2] = 0, p[3] = 235;
      }
    }
  }
  return map;
}

}  // namespace liveconv::ui
