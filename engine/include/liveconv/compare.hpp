// Image comparison for tests and `liveconv bench --verify`: the first pixel
// whose difference exceeds the tolerance, with coordinates and both values.
#pragma once

#include <optional>
#include <string>

#include "liveconv/image.hpp"

namespace liveconv {

struct Mismatch {
  int x = 0, y = 0, channel = 0;
  int got = 0, want = 0;
  long long count = 0;  // how many channel values exceed the tolerance in all
  std::string toString() const;  // "first mismatch at (x, y) channel c: got G, want W (N values differ)"
};

// Compares `got` against `want` (same size and format); nullopt when every
// channel differs by at most `toleranceLsb`.
std::optional<Mismatch> compareImages(const ImageView& got, const ImageView& want, int toleranceLsb);

}  // namespace liveconv
