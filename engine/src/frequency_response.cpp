#include "liveconv/frequency_response.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>

#include "liveconv/errors.hpp"

namespace liveconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

// "0.18" cycles per pixel; a grid step is 1/64, so two decimals say it.
std::string cycles(float f) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(f));
  return text;
}

std::string gain(float g) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", static_cast<double>(g));
  return text;
}

}  // namespace

std::vector<float> FrequencyResponse::cutX() const {
  std::vector<float> cut;
  for (int c = size / 2; c < size; ++c) cut.push_back(at(c, size / 2));
  cut.push_back(at(0, size / 2));  // fx = -0.5, the same gain as +0.5
  return cut;
}

std::vector<float> FrequencyResponse::cutY() const {
  std::vector<float> cut;
  for (int r = size / 2; r < size; ++r) cut.push_back(at(size / 2, r));
  cut.push_back(at(size / 2, 0));
  return cut;
}

FrequencyResponse frequencyResponse(const Mask& mask, int size) {
  mask.validate();
  if (size < mask.width || size < mask.height || size % 2 != 0 || size > 1024)
    throw InvalidArgument("A frequency response grid of " + std::to_string(size) +
                          " must be even, at most 1024, and at least the mask's " + std::to_string(mask.width) + "x" +
                          std::to_string(mask.height));
  const int n = size;
  const double scale = mask.scale();
  // The DFT on the shifted grid: column c is frequency index k = c - n/2. Rows
  // of the mask first (n x h partial sums), then down the columns.
  std::vector<std::complex<double>> twiddle(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) twiddle[static_cast<size_t>(t)] = std::polar(1.0, -2 * kPi * t / n);
  auto w = [&](int k, int i) { return twiddle[static_cast<size_t>(((k * i) % n + n) % n)]; };
  std::vector<std::complex<double>> rows(static_cast<size_t>(n) * static_cast<size_t>(mask.height));
  for (int j = 0; j < mask.height; ++j)
    for (int c = 0; c < n; ++c) {
      std::complex<double> s = 0;
      for (int i = 0; i < mask.width; ++i) s += static_cast<double>(mask.at(i, j)) * w(c - n / 2, i);
      rows[static_cast<size_t>(j) * n + c] = s;
    }
  FrequencyResponse r;
  r.size = n;
  r.magnitude.resize(static_cast<size_t>(n) * n);
  for (int row = 0; row < n; ++row)
    for (int c = 0; c < n; ++c) {
      std::complex<double> s = 0;
      for (int j = 0; j < mask.height; ++j) s += rows[static_cast<size_t>(j) * n + c] * w(row - n / 2, j);
      r.magnitude[static_cast<size_t>(row) * n + c] = static_cast<float>(std::abs(s * scale));
    }
  // The peak nearest DC among equal ones: scan outwards by distance.
  double best = -1, bestDistance = 0;
  for (int row = 0; row < n; ++row)
    for (int c = 0; c < n; ++c) {
      const double g = r.at(c, row), d = std::hypot(c - n / 2, row - n / 2);
      if (g > best * (1 + 1e-6) || (g >= best * (1 - 1e-6) && d < bestDistance)) {
        best = g;
        bestDistance = d;
        r.peakFx = static_cast<float>(c - n / 2) / n;
        r.peakFy = static_cast<float>(row - n / 2) / n;
      }
    }
  r.peak = static_cast<float>(best);
  return r;
}

float halfGainFrequency(const std::vector<float>& cut) {
  if (cut.size() < 2 || !(cut[0] > 0)) return -1;
  const float half = cut[0] / 2;
  const float step = 0.5f / static_cast<float>(cut.size() - 1);
  for (size_t k = 1; k < cut.size(); ++k)
    if (cut[k] <= half) {
      const float t = (cut[k - 1] - half) / (cut[k - 1] - cut[k]);
      return (static_cast<float>(k - 1) + t) * step;
    }
  return -1;
}

// One sentence by the response's shape: all-pass (the same gain everywhere:
// identity, a shift), high-pass (nothing at DC, strongest at the finest
// detail), band-pass (nothing at DC, strongest between), detail boost (DC
// passes, more above it: sharpen), low-pass (strongest at DC: blurs).
std::string describeResponse(const FrequencyResponse& r) {
  const float dc = r.dc(), peak = r.peak;
  const std::string where = "(" + cycles(std::fabs(r.peakFx)) + ", " + cycles(std::fabs(r.peakFy)) + ")";
  if (peak <= 0) return "passes nothing: every gain is 0";
  const float least = *std::min_element(r.magnitude.begin(), r.magnitude.end());
  if (least >= 0.99f * peak) return "an all-pass: gain " + gain(peak) + " at every frequency, so no detail is lost or added";
  if (dc < 1e-4f * peak) {
    // Strongest at the finest detail the grid has (0.5 cycles/px along x or y) or below it.
    const bool finest = std::max(std::fabs(r.peakFx), std::fabs(r.peakFy)) >= 0.5f - 1.0f / static_cast<float>(r.size);
    return std::string(finest ? "a high-pass" : "a band-pass") + ": gain 0 at DC (no flat area passes), strongest " +
           gain(peak) + " at " + where + " cycles/px" + (finest ? ": an edge or detail filter" : ", less at finer detail: an edge filter");
  }
  if (peak > dc * 1.01f)
    return "boosts detail: gain " + gain(dc) + " at DC, up to " + gain(peak) + " at " + where + " cycles/px";
  const float hx = halfGainFrequency(r.cutX()), hy = halfGainFrequency(r.cutY());
  const auto half = [](float f, const char* along) {
    return (f < 0 ? std::string("above half up to 0.5") : "half at " + cycles(f)) + " cycles/px " + along;
  };
  return "a low-pass: gain " + gain(dc) + " at DC; " + half(hx, "across (x)") + ", " + half(hy, "down (y)");
}

}  // namespace liveconv
