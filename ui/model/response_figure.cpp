#include "model/response_figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace liveconv::ui {

Rgb responseColour(float t) {
  // Five stops of viridis, linearly between them.
  static constexpr float kStops[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f) * 4;
  const int i = std::min(3, static_cast<int>(t));
  const float f = t - static_cast<float>(i);
  Rgb c;
  for (int k = 0; k < 3; ++k) c[static_cast<size_t>(k)] = static_cast<std::uint8_t>(std::lround(kStops[i][k] + f * (kStops[i + 1][k] - kStops[i][k])));
  return c;
}

ResponseFigure responseFigure(const Mask& mask) {
  ResponseFigure f;
  if (!mask.validationError().empty()) return f;
  f.response = frequencyResponse(mask);
  const FrequencyResponse& r = f.response;
  f.scaleTop = r.peak > 0 ? r.peak : 1.0f;
  f.colours.reserve(r.magnitude.size());
  for (float g : r.magnitude) f.colours.push_back(responseColour(g / f.scaleTop));
  f.cutX = r.cutX();
  f.cutY = r.cutY();
  f.caption = describeResponse(r);
  char text[96];
  std::snprintf(text, sizeof text, "gain 0 .. %.3g (DC %.3g)", static_cast<double>(f.scaleTop),
                static_cast<double>(r.dc()));
  f.scaleText = text;
  return f;
}

Image responseImage(const ResponseFigure& figure, int cell) {
  const int n = figure.response.size;
  const int side = n * cell, bar = 12, gap = 4, plot = 96;
  Image out(side, side + gap + bar + gap + plot, PixelFormat::RGBA8);
  const ImageView v = out.view();
  auto put = [&](int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= v.width || y >= v.height) return;
    std::uint8_t* p = v.row(y) + static_cast<size_t>(x) * 4;
    p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
  };
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x) put(x, y, {24, 24, 28});
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) put(x, y, figure.colours[static_cast<size_t>(y / cell) * n + x / cell]);
  for (int y = side + gap; y < side + gap + bar; ++y)
    for (int x = 0; x < side; ++x) put(x, y, responseColour(static_cast<float>(x) / static_cast<float>(side - 1)));
  // The cuts: 0 .. 0.5 cycles/px across the width, 0 .. scaleTop up the strip.
  const int top = side + gap + bar + gap;
  auto curve = [&](const std::vector<float>& cut, Rgb colour) {
    if (cut.size() < 2) return;
    int lastY = -1;
    for (int x = 0; x < side; ++x) {
      const float pos = static_cast<float>(x) / static_cast<float>(side - 1) * static_cast<float>(cut.size() - 1);
      const size_t k = std::min(cut.size() - 2, static_cast<size_t>(pos));
      const float g = cut[k] + (pos - static_cast<float>(k)) * (cut[k + 1] - cut[k]);
      const int y = top + plot - 1 - static_cast<int>(std::lround(g / figure.scaleTop * static_cast<float>(plot - 1)));
      for (int yy = lastY < 0 ? y : std::min(y, lastY); yy <= (lastY < 0 ? y : std::max(y, lastY)); ++yy) put(x, yy, colour);
      lastY = y;
    }
  };
  curve(figure.cutY, {255, 150, 40});
  curve(figure.cutX, {240, 240, 240});
  return out;
}

std::string responsePathFor(const std::string& maskPath) {
  const size_t slash = maskPath.find_last_of('/');
  const size_t dot = maskPath.find_last_of('.');
  const bool hasExtension = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  return (hasExtension ? maskPath.substr(0, dot) : maskPath) + ".response.png";
}

}  // namespace liveconv::ui
