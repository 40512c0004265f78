// The mask's frequency response as both windows draw it beside the grid: the
// gain as colours on a scale from 0 to the peak, the cuts along x and y, the
// line that says what the mask does, and the PNG saved with the mask file.
// Toolkit-free: the ImGui panel and the Qt dock draw these numbers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "liveconv/frequency_response.hpp"
#include "liveconv/image.hpp"
#include "liveconv/mask.hpp"

namespace liveconv::ui {

using Rgb = std::array<std::uint8_t, 3>;

// The colour scale: 0 dark blue, through teal and green, to yellow at 1 (a
// perceptual ramp after viridis); t is clamped to 0..1.
Rgb responseColour(float t);

struct ResponseFigure {
  FrequencyResponse response;
  float scaleTop = 1;           // the gain at the top of the colour scale (the peak; 1 when all is 0)
  std::vector<Rgb> colours;     // N * N, row 0 is fy = -0.5 (top), column 0 fx = -0.5 (left), DC in the middle
  std::vector<float> cutX, cutY;  // 0 .. 0.5 cycles/px
  std::string caption;          // describeResponse
  std::string scaleText;        // "gain 0 .. 1 (DC 1)"
};

// Empty (size 0) for an invalid mask.
ResponseFigure responseFigure(const Mask& mask);

// The figure as a picture for a file: each frequency `cell` x `cell` pixels,
// the colour scale as a bar below it, and the two cuts drawn over a dark
// strip under the bar (x in white, y in orange; 0 .. scaleTop from bottom to top).
Image responseImage(const ResponseFigure& figure, int cell = 4);

// Where the response of a mask saved to `maskPath` goes: mask.json -> mask.response.png.
std::string responsePathFor(const std::string& maskPath);

}  // namespace liveconv::ui
