// The check of the frame on screen against the CPU reference, as both
// windows show it: the overlay's lines (how many pixels differ, by how much,
// where, over the whole frame or which region and why) and the heat map laid
// over the picture. Toolkit-free: the overlay and the picture renderer draw these.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "liveconv/frame_check.hpp"
#include "liveconv/variants.hpp"

namespace liveconv::ui {

// One check as the windows report it: what was compared, and on what.
struct CheckReport {
  int number = 0;  // 1, 2, ... in this window's session
  FrameCheck check;
  std::uint64_t frameIndex = 0;     // the source frame on screen
  std::uint64_t paramsVersion = 0;  // the model's version that filtered it
  double positionSeconds = -1;      // of that frame in the clip (-1: unknown)
  std::string device;
  VariantId variantAsked = VariantId::Invalid, variantRan = VariantId::Invalid;
  std::string mask;  // describe(mask)
  BorderMode border = BorderMode::Clamp;
  double copyMs = 0;  // the UI thread's copy of the frame for the check
  // The reference's time the whole frame would have taken, estimated from
  // the region's (0 when the whole frame was checked).
  double wholeFrameEstimateMs = 0;
  // Planes mode: the plane checked (each check the next one), e.g. "U"; "" for a picture.
  std::string plane;
};

// The overlay's lines: the result ("check 3: 0 of 921600 px differ (whole
// frame, exact)", or "... 3112 px differ by more than 0 LSB, up to 37 at (612,
// 340)"), then what was checked: the region and why, the variant, the times.
std::vector<std::string> checkLines(const CheckReport& report);

// The difference view: one cell per `cell` x `cell` pixels of the region
// (cells small enough that the map is at most `maxCellsAcross` wide, so a
// single wrong pixel of a large frame still shows), each the largest
// difference in it: transparent where none, a faint blue within the
// tolerance, red to yellow beyond it (yellow from 32 LSB). RGBA8,
// straight (not premultiplied) alpha.
struct HeatMap {
  Image rgba;
  int cell = 1;
};
HeatMap checkHeatMap(const FrameCheck& check, int maxCellsAcross = 480);
// The cell size checkHeatMap uses (pixels a side).
int heatCellSize(const FrameCheck& check, int maxCellsAcross = 480);
// The legend under the heat map: "heat map: blue within 1 LSB, red to yellow beyond (yellow 32 LSB and more); a cell is 4x4 px".
std::string heatLegend(const FrameCheck& check);

}  // namespace liveconv::ui
