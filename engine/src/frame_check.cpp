#include "liveconv/frame_check.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "liveconv/errors.hpp"

namespace liveconv {

Region checkRegionFor(int width, int height, const Mask& mask, PixelFormat format, double budget) {
  if (width <= 0 || height <= 0) return {};
  const double perPixel = static_cast<double>(mask.width) * mask.height * std::max(1, channelCount(format));
  const double pixels = static_cast<double>(width) * height;
  if (pixels * perPixel <= budget) return {0, 0, width, height};
  // The frame's shape, scaled down to the pixels the budget pays for.
  const double shrink = std::sqrt(budget / perPixel / pixels);
  const int w = std::clamp(static_cast<int>(width * shrink), 1, width);
  const int h = std::clamp(static_cast<int>(height * shrink), 1, height);
  return {(width - w) / 2, (height - h) / 2, w, h};
}

int checkToleranceLsb(const Mask& mask, PixelFormat format) {
  return mask.toleranceLsb(maxSampleValue(format));
}

FrameCheck checkFrame(const ImageView& source, const ImageView& filtered, const FilterParams& params,
                      const Region& region, int threadCount) {
  if (source.width != filtered.width || source.height != filtered.height || source.format != filtered.format)
    throw InvalidArgument("The check needs the source and the filtered frame of the same size and format.");
  FrameCheck check;
  check.region = region;
  check.frameWidth = source.width;
  check.frameHeight = source.height;
  check.format = source.format;
  check.wholeFrame = region == Region{0, 0, source.width, source.height};
  check.toleranceLsb = checkToleranceLsb(params.mask, source.format);
  Image want(region.width, region.height, source.format);
  const auto t0 = std::chrono::steady_clock::now();
  convolveReferenceRegion(source, region, want.view(), params.mask, params.border, params.alpha, threadCount);
  check.referenceMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  check.differences = Image(region.width, region.height, PixelFormat::GRAY8);
  const ImageView diff = check.differences.view();
  const int channels = channelCount(source.format);
  const bool wide = bytesPerSample(source.format) == 2;
  // Sample k of a row (8 or 16 bits).
  auto sampleAt = [wide](const std::uint8_t* row, std::size_t k) -> int {
    if (!wide) return row[k];
    std::uint16_t v;
    std::memcpy(&v, row + 2 * k, 2);
    return v;
  };
  check.pixelsCompared = region.pixels();
  for (int y = 0; y < region.height; ++y) {
    const std::uint8_t* got =
        filtered.row(region.y + y) + static_cast<std::size_t>(region.x) * bytesPerPixel(source.format);
    const std::uint8_t* ref = want.view().row(y);
    std::uint8_t* out = diff.row(y);
    for (int x = 0; x < region.width; ++x) {
      int worst = 0;
      for (int c = 0; c < channels; ++c) {
        const std::size_t k = static_cast<std::size_t>(x) * channels + c;
        worst = std::max(worst, std::abs(sampleAt(got, k) - sampleAt(ref, k)));
      }
      out[x] = static_cast<std::uint8_t>(std::min(worst, 255));  // the picture of differences saturates
      if (worst == 0) continue;
      ++check.pixelsDiffering;
      if (worst > check.toleranceLsb) ++check.pixelsBeyondTolerance;
      if (worst > check.maxDifference) {
        check.maxDifference = worst;
        check.worstX = region.x + x;
        check.worstY = region.y + y;
      }
    }
  }
  return check;
}

}  // namespace liveconv
