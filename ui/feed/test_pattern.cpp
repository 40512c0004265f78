#include "feed/test_pattern.hpp"

#include <cmath>
#include <cstdio>

namespace liveconv::ui {

Image makeTestPattern(int width, int height, PixelFormat format, std::uint64_t frameIndex) {
  Image img(width, height, format);
  const int bpp = bytesPerPixel(format);
  const int barX = static_cast<int>((frameIndex * 4) % static_cast<std::uint64_t>(width > 0 ? width : 1));
  for (int y = 0; y < height; ++y) {
    std::uint8_t* row = img.data() + static_cast<size_t>(y) * width * bpp;
    for (int x = 0; x < width; ++x) {
      int r = x * 255 / (width > 1 ? width - 1 : 1);
      int g = y * 255 / (height > 1 ? height - 1 : 1);
      int b = 255 - (r + g) / 2;
      // A checkerboard in the middle third: hard edges in x and y.
      if (y > height / 3 && y < 2 * height / 3 && x > width / 6 && x < width / 2 && ((x / 16 + y / 16) % 2) == 0)
        r = g = b = 235;
      // A ring on the right: curved edges for directional masks.
      const double dx = x - 0.72 * width, dy = y - 0.5 * height, d = std::sqrt(dx * dx + dy * dy);
      if (std::fabs(d - 0.22 * height) < 3.0) r = 250, g = 210, b = 40;
      // Thin diagonal lines in the top band.
      if (y < height / 6 && ((x + y) % 12) == 0) r = g = b = 20;
      // The moving bar says frames are flowing.
      if (x >= barX && x < barX + 6) r = 255, g = 40, b = 90;
      std::uint8_t* px = row + static_cast<size_t>(x) * bpp;
      if (bpp == 1) {
        px[0] = static_cast<std::uint8_t>((r * 77 + g * 150 + b * 29) >> 8);
      } else {
        px[0] = static_cast<std::uint8_t>(r);
        px[1] = static_cast<std::uint8_t>(g);
        px[2] = static_cast<std::uint8_t>(b);
        px[3] = 255;
      }
    }
  }
  return img;
}

bool parseTestPatternSpec(const std::string& spec, int* width, int* height) {
  const std::string prefix = "testpattern";
  if (spec.compare(0, prefix.size(), prefix) != 0) return false;
  *width = 1280;
  *height = 720;
  if (spec.size() == prefix.size()) return true;
  int w = 0, h = 0;
  char tail = 0;
  if (spec[prefix.size()] != ':' || std::sscanf(spec.c_str() + prefix.size() + 1, "%dx%d%c", &w, &h, &tail) != 2 ||
      w < 1 || h < 1 || w > 16384 || h > 16384)
    return false;
  *width = w;
  *height = h;
  return true;
}

}  // namespace liveconv::ui
