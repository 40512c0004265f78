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

}  // namespace liveconv
