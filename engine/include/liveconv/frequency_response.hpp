// What a mask does to the picture's frequencies: the magnitude of its 2-D
// discrete Fourier transform, scaled as the kernels scale the sum.
//
// A mask m (w x h, applied as a correlation, see mask.hpp) with the scale s
// that every variant multiplies the sum by passes the spatial frequency
// (fx, fy), in cycles per pixel, with the gain
//   |H(fx, fy)| = |s * sum over (i, j) of m(i, j) * exp(-2 pi i (fx i + fy j))|
// (a correlation's transfer function is the conjugate of the mask's DFT, so
// the magnitude is the same; the mask's centre only turns the phase). The
// bias and the offset of normalize auto add a constant and leave every
// frequency's gain alone. Sampled on an N x N grid (N >= the mask's sides),
// this is numpy's abs(fftshift(fft2(s * m, (N, N)))), DC in the middle.
#pragma once

#include <string>
#include <vector>

#include "liveconv/mask.hpp"

namespace liveconv {

struct FrequencyResponse {
  int size = 0;                  // N: the grid is N x N
  std::vector<float> magnitude;  // N * N, row-major; row r is fy = (r - N/2) / N, column c is fx = (c - N/2) / N
  float peak = 0;                // the largest gain
  float peakFx = 0, peakFy = 0;  // where it is (the first found from DC outwards along rows)

  float at(int column, int row) const { return magnitude[static_cast<size_t>(row) * size + column]; }
  float dc() const { return at(size / 2, size / 2); }
  // The cuts through DC: the gain along fx at fy = 0 and along fy at fx = 0,
  // from 0 to 0.5 cycles per pixel (N/2 + 1 values; a real mask's gain is the
  // same at -f).
  std::vector<float> cutX() const;
  std::vector<float> cutY() const;
};

constexpr int kFrequencyResponseSize = 64;  // >= kMaxMaskSide: every mask fits the grid

// Throws InvalidArgument when the mask is invalid or `size` is smaller than a
// side of the mask or not even.
FrequencyResponse frequencyResponse(const Mask& mask, int size = kFrequencyResponseSize);

// The first frequency (cycles per pixel) on a cut where the gain falls to half
// of its value at DC, linearly interpolated; -1 when it never does or the gain
// at DC is 0 (an edge or a sharpen's detail: nothing to fall from).
float halfGainFrequency(const std::vector<float>& cut);

// One line, as the windows say it under the figure: "a low-pass: gain 1 at
// DC, half at 0.18 cycles/px across (x) and 0.18 down (y)", "boosts detail up
// to 3x (at 0.5 cycles/px)", "passes no flat area (gain 0 at DC): an edge or
// detail filter, strongest 4 at (0.5, 0.5)".
std::string describeResponse(const FrequencyResponse& response);

}  // namespace liveconv
