#include "liveconv/compare.hpp"

#include <cstdlib>
#include <cstring>
#include <sstream>

#include "liveconv/errors.hpp"

namespace liveconv {

std::string Mismatch::toString() const {
  std::ostringstream out;
  out << "first mismatch at (" << x << ", " << y << ") channel " << channel << ": got " << got << ", want " << want
      << " (" << count << " values differ)";
  return out.str();
}

std::optional<Mismatch> compareImages(const ImageView& got, const ImageView& want, int toleranceLsb) {
  if (got.width != want.width || got.height != want.height || got.format != want.format)
    throw InvalidArgument("Cannot compare images of different size or format.");
  const int channels = channelCount(got.format);
  const bool wide = bytesPerSample(got.format) == 2;
  std::optional<Mismatch> first;
  long long count = 0;
  for (int y = 0; y < got.height; ++y) {
    const std::uint8_t* g = got.row(y);
    const std::uint8_t* w = want.row(y);
    for (int k = 0; k < got.width * channels; ++k) {
      int a, b;
      if (wide) {
        std::uint16_t ga, wa;
        std::memcpy(&ga, g + 2 * k, 2);
        std::memcpy(&wa, w + 2 * k, 2);
        a = ga, b = wa;
      } else {
        a = g[k], b = w[k];
      }
      if (std::abs(a - b) <= toleranceLsb) continue;
      if (!first) first = Mismatch{k / channels, y, k % channels, a, b, 0};
      ++count;
    }
  }
  if (first) first->count = count;
  return first;
}

}  // namespace liveconv
