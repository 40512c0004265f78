#include "model/mask_edit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <utility>

namespace liveconv::ui {

const char* toString(Symmetry mode) {
  switch (mode) {
    case Symmetry::None: return "off";
    case Symmetry::Mirror4: return "4-fold";
    case Symmetry::Mirror8: return "8-fold";
    case Symmetry::Invalid: break;
  }
  return "invalid";
}

void setCell(Mask& mask, int x, int y, float value, Symmetry symmetry) {
  const int w = mask.width, h = mask.height;
  if (x < 0 || y < 0 || x >= w || y >= h) return;
  auto put = [&](int cx, int cy) { mask.coefficients[static_cast<size_t>(cy) * w + cx] = value; };
  put(x, y);
  if (symmetry == Symmetry::None || symmetry == Symmetry::Invalid) return;
  const int mx = w - 1 - x, my = h - 1 - y;
  put(mx, y);
  put(x, my);
  put(mx, my);
  // Diagonal mirroring swaps x and y, which only maps a cell onto the grid when it is square.
  if (symmetry == Symmetry::Mirror8 && w == h) {
    put(y, x);
    put(my, x);
    put(y, mx);
    put(my, mx);
  }
}

int clampOddSide(int side) {
  side = std::clamp(side, 1, kMaxMaskSide);
  return side % 2 == 1 ? side : std::min(side + 1, kMaxMaskSide);
}

void resizeKeepingCentre(Mask& mask, int width, int height) {
  width = clampOddSide(width);
  height = clampOddSide(height);
  if (width == mask.width && height == mask.height) return;
  std::vector<float> out(static_cast<size_t>(width) * height, 0.0f);
  // Centres line up because both sides are odd: shift by the difference of the radii.
  const int dx = width / 2 - mask.width / 2, dy = height / 2 - mask.height / 2;
  for (int y = 0; y < mask.height; ++y)
    for (int x = 0; x < mask.width; ++x) {
      const int nx = x + dx, ny = y + dy;
      if (nx >= 0 && ny >= 0 && nx < width && ny < height) out[static_cast<size_t>(ny) * width + nx] = mask.at(x, y);
    }
  mask.width = width;
  mask.height = height;
  mask.coefficients = std::move(out);
}

void transpose(Mask& mask) {
  std::vector<float> out(mask.coefficients.size());
  for (int y = 0; y < mask.height; ++y)
    for (int x = 0; x < mask.width; ++x) out[static_cast<size_t>(x) * mask.height + y] = mask.at(x, y);
  std::swap(mask.width, mask.height);
  mask.coefficients = std::move(out);
}

void flipHorizontal(Mask& mask) {
  for (int y = 0; y < mask.height; ++y) {
    auto row = mask.coefficients.begin() + static_cast<std::ptrdiff_t>(y) * mask.width;
    std::reverse(row, row + mask.width);
  }
}

void flipVertical(Mask& mask) {
  for (int y = 0; y < mask.height / 2; ++y)
    for (int x = 0; x < mask.width; ++x)
      std::swap(mask.coefficients[static_cast<size_t>(y) * mask.width + x],
                mask.coefficients[static_cast<size_t>(mask.height - 1 - y) * mask.width + x]);
}

namespace {

bool describes(const std::string& spec, const Mask& mask) {
  if (spec.empty()) return false;
  try {
    return parseMaskSpec(spec) == mask;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

namespace {
// A sum or scale to read, not to type back: `digits` significant digits.
std::string roughly(float value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
  return text;
}
}  // namespace

std::string normalizationText(const Mask& mask) {
  const std::string bias = mask.bias == 0 ? "" : (mask.bias > 0 ? " + " : " - ") + numberText(std::fabs(mask.bias));
  if (mask.normalize == Normalize::None) return "\xc3\xb7 " + numberText(mask.divisor) + bias + " (normalize off)";
  const float sum = mask.sum();
  if (sum > 0) return "\xc3\xb7 " + roughly(sum, 5) + bias + " (the sum; normalize auto)";
  const std::string offset = numberText(mask.offset());
  return "+ " + offset + " (the sum is " + roughly(sum, 5) + "; normalize auto)";
}

std::string nearZeroSumWarning(const Mask& mask) {
  if (mask.normalize != Normalize::Auto) return {};
  float weight = 0;
  for (float c : mask.coefficients) weight += std::fabs(c);
  const float sum = mask.sum();
  if (!(sum > 0) || sum >= 0.01f * weight) return {};
  return "The coefficients sum to " + roughly(sum, 2) + ", nearly 0: normalize auto multiplies by " +
         roughly(mask.scale(), 4) + " and the picture saturates. Turn normalize off to divide by the divisor (" +
         numberText(mask.divisor) + ") instead.";
}

std::string specForMask(const Mask& mask, const std::string& current) {
  if (describes(current, mask)) return current;
  for (const PresetInfo& p : maskPresets()) {
    const bool sized = std::string(p.parameters).rfind(":SIZE", 0) == 0;
    const std::string spec = sized ? std::string(p.name) + ":" + std::to_string(mask.width) : p.name;
    if (describes(spec, mask)) return spec;
  }
  if (mask.coefficients.size() > 49) return {};
  std::ostringstream out;
  out << mask.width << "x" << mask.height << ":";
  for (std::size_t k = 0; k < mask.coefficients.size(); ++k) out << (k ? "," : "") << numberText(mask.coefficients[k]);
  if (mask.normalize == Normalize::None) out << ";divisor=" << numberText(mask.divisor);
  else out << ";normalize=auto";
  if (mask.bias != 0) out << ";bias=" << numberText(mask.bias);
  const std::string spec = out.str();
  return describes(spec, mask) ? spec : std::string();
}

}  // namespace liveconv::ui
