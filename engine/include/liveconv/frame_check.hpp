// A filtered frame checked against the CPU reference: the windows' check mode
// (and anything else that holds a frame and the set that filtered it) asks how
// far the device's result is from the definition, where, and by how much.
// Plain C++ on the calling thread; the windows run it on their "lc-check" thread.
#pragma once

#include <cstdint>

#include "liveconv/convolver.hpp"
#include "liveconv/image.hpp"
#include "liveconv/reference.hpp"

namespace liveconv {

// The reference work a check may take, in multiply-adds (pixels x taps x
// channels): about half a second of the reference on two cores. A frame
// that needs more is checked in a region of it (see checkRegionFor).
constexpr double kCheckWorkBudget = 4e8;

// The whole frame when width x height x taps x channels fits `budget`; else
// a centred region of the frame's aspect ratio that fits it (at least 1x1).
Region checkRegionFor(int width, int height, const Mask& mask, PixelFormat format, double budget = kCheckWorkBudget);

// The differences the check allows: Mask::toleranceLsb() at the format's depth.
int checkToleranceLsb(const Mask& mask, PixelFormat format);

struct FrameCheck {
  Region region;            // the pixels compared, in frame coordinates
  bool wholeFrame = false;  // region is the whole frame
  int frameWidth = 0, frameHeight = 0;
  PixelFormat format = PixelFormat::Invalid;
  int toleranceLsb = 0;
  long long pixelsCompared = 0;
  long long pixelsDiffering = 0;       // a channel differs at all
  long long pixelsBeyondTolerance = 0;  // a channel differs by more than toleranceLsb
  int maxDifference = 0;               // over every channel, in LSB
  int worstX = -1, worstY = -1;        // the first pixel with maxDifference (frame coordinates); -1: none differs
  // Per pixel of the region, the largest difference over its channels (GRAY8, region-sized).
  Image differences;
  double referenceMs = 0;  // the reference's time on the region

  bool passed() const { return pixelsBeyondTolerance == 0; }
};

// Filters `region` of `source` with the reference and compares it with the
// same pixels of `filtered` (the whole frame, same size and format as
// `source`). Throws InvalidArgument for mismatched images or a region outside.
FrameCheck checkFrame(const ImageView& source, const ImageView& filtered, const FilterParams& params,
                      const Region& region, int threadCount = 0);

}  // namespace liveconv
