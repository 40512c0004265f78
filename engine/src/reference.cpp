#include "liveconv/reference.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include "liveconv/errors.hpp"

namespace liveconv {
namespace {

// Round half to even, as convert_uchar_sat_rte and convert_ushort_sat_rte do
// on the device. `value` is finite for every mask that passes Mask::validate()
// (it bounds sum(|c|) * 65535 * |scale| + |offset| within float range);
// converting inf or NaN to an integer would be undefined, so a non-finite
// value is reported and written as 0.
template <typename Sample>
Sample saturateRound(float value, float maxSample, std::atomic<bool>& nonFinite) {
  if (!std::isfinite(value)) {
    nonFinite = true;
    return 0;
  }
  const float rounded = std::nearbyint(value);
  return static_cast<Sample>(std::clamp(rounded, 0.0f, maxSample));
}

// Writes the outputs (region.x + i, y) for y in [yBegin, yEnd) into dst's
// row y - region.y, column i. Sample: std::uint8_t or std::uint16_t.
template <typename Sample>
void convolveRows(const ImageView& src, const Region& region, const ImageView& dst, const Mask& mask, BorderMode border,
                  AlphaMode alpha, int yBegin, int yEnd, std::atomic<bool>& nonFinite) {
  const int channels = channelCount(src.format);
  const int rx = mask.radiusX();
  const int ry = mask.radiusY();
  const float scale = mask.scale();
  const int maxSample = maxSampleValue(src.format);
  const float offset = mask.offsetFor(maxSample);
  const bool copyAlpha = channels == 4 && alpha == AlphaMode::PassThrough;
  std::vector<int> columns(static_cast<std::size_t>(region.width) * mask.width);
  for (int x = 0; x < region.width; ++x)
    for (int i = 0; i < mask.width; ++i) columns[static_cast<std::size_t>(x) * mask.width + i] =
        borderIndex(region.x + x + i - rx, src.width, border);

  for (int y = yBegin; y < yEnd; ++y) {
    auto* out = reinterpret_cast<Sample*>(dst.row(y - region.y));
    for (int x = 0; x < region.width; ++x) {
      float acc[4] = {0, 0, 0, 0};
      for (int j = 0; j < mask.height; ++j) {
        const int sy = borderIndex(y + j - ry, src.height, border);
        if (sy < 0) continue;  // zero border: the whole row contributes 0
        const auto* in = reinterpret_cast<const Sample*>(src.row(sy));
        const int* cols = &columns[static_cast<std::size_t>(x) * mask.width];
        for (int i = 0; i < mask.width; ++i) {
          const int sx = cols[i];
          if (sx < 0) continue;
          const float m = mask.at(i, j);
          const Sample* p = in + static_cast<std::size_t>(sx) * channels;
          for (int c = 0; c < channels; ++c) acc[c] += m * static_cast<float>(p[c]);
        }
      }
      Sample* o = out + static_cast<std::size_t>(x) * channels;
      for (int c = 0; c < channels; ++c)
        o[c] = saturateRound<Sample>(std::fma(acc[c], scale, offset), static_cast<float>(maxSample), nonFinite);
      if (copyAlpha) o[3] = reinterpret_cast<const Sample*>(src.row(y))[static_cast<std::size_t>(region.x + x) * 4 + 3];
    }
  }
}

}  // namespace

void convolveReference(const ImageView& src, const ImageView& dst, const Mask& mask, BorderMode border,
                       AlphaMode alpha, int threadCount) {
  if (src.width != dst.width || src.height != dst.height || src.format != dst.format)
    throw InvalidArgument("The reference needs source and destination of the same size and format.");
  convolveReferenceRegion(src, Region{0, 0, src.width, src.height}, dst, mask, border, alpha, threadCount);
}

void convolveReferenceRegion(const ImageView& src, const Region& region, const ImageView& dst, const Mask& mask,
                             BorderMode border, AlphaMode alpha, int threadCount) {
  mask.validate();
  if (region.width != dst.width || region.height != dst.height || src.format != dst.format)
    throw InvalidArgument("The reference needs a destination of the region's size and the source's format.");
  if (region.x < 0 || region.y < 0 || region.width < 0 || region.height < 0 || region.x + region.width > src.width ||
      region.y + region.height > src.height)
    throw InvalidArgument("The reference got a region outside the image.");
  if (bytesPerPixel(src.format) == 0) throw InvalidArgument("The reference got an image with no pixel format.");
  if (border == BorderMode::Invalid) throw InvalidArgument("The reference got no border mode.");
  if (region.width <= 0 || region.height <= 0) return;

  int threads = threadCount > 0 ? threadCount : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::clamp(threads, 1, region.height);
  std::atomic<bool> nonFinite{false};
  const auto rows = bytesPerSample(src.format) == 2 ? convolveRows<std::uint16_t> : convolveRows<std::uint8_t>;
  if (threads == 1) {
    rows(src, region, dst, mask, border, alpha, region.y, region.y + region.height, nonFinite);
  } else {
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      const int begin = region.y + region.height * t / threads;
      const int end = region.y + region.height * (t + 1) / threads;
      workers.emplace_back(rows, std::cref(src), std::cref(region), std::cref(dst), std::cref(mask), border, alpha,
                           begin, end, std::ref(nonFinite));
    }
    for (auto& w : workers) w.join();
  }
  if (nonFinite)
    throw Error("The CPU reference met a result that is not a finite number; the mask's arithmetic leaves float range.");
}

}  // namespace liveconv
