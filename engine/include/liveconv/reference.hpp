// The CPU reference: the definition of the result every variant is tested
// against. Plain C++, multithreaded over rows.
#pragma once

#include "liveconv/image.hpp"
#include "liveconv/mask.hpp"

namespace liveconv {

// dst must have src's size and format. threadCount 0 means hardware concurrency.
// Per output channel: acc = sum of m(i,j) * in(x+i-rx, y+j-ry) in float, in
// row-major tap order; out = saturate(round_half_even(fma(acc, scale, offset))).
void convolveReference(const ImageView& src, const ImageView& dst, const Mask& mask,
                       BorderMode border, AlphaMode alpha, int threadCount = 0);

// A rectangle of an image, in pixels from its top-left corner.
struct Region {
  int x = 0, y = 0, width = 0, height = 0;
  long long pixels() const { return static_cast<long long>(width) * height; }
  bool operator==(const Region& o) const { return x == o.x && y == o.y && width == o.width && height == o.height; }
};

// The same result for the pixels of `region` only: dst has the region's size
// and src's format, and holds exactly what convolveReference would write
// there (the taps read the whole of src, its borders included).
void convolveReferenceRegion(const ImageView& src, const Region& region, const ImageView& dst, const Mask& mask,
                             BorderMode border, AlphaMode alpha, int threadCount = 0);

}  // namespace liveconv
