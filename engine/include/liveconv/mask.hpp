// The convolution mask: size, coefficients, divisor, bias and normalization,
// its validation, the presets and the text spec the CLI and UIs share.
//
// liveconv applies CORRELATION, as OpenCV's filter2D and GIMP's convolution
// matrix do: out(x, y) = sum over (i, j) of m(i, j) * in(x + i - rx, y + j - ry),
// with m stored row-major, (0, 0) at the top left. A mask is therefore applied
// as it is drawn; asymmetric presets (sobel, emboss, motion) are written so they
// look as their names say under this rule.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace liveconv {

enum class Normalize {
  Invalid = 0,
  None,  // result = sum / divisor + bias
  Auto,  // seed rule for 8-bit images, from the coefficient sum S:
         //   S > 0: divide by S;  S = 0: add 128;  S < 0: add 255
         // (applied on top of divisor 1 and the user's bias)
};

const char* toString(Normalize mode);

constexpr int kMaxMaskSide = 63;
// The largest sample of any format the engine filters (16 bits): the bound the
// mask validation checks the float arithmetic against.
constexpr int kLargestSample = 65535;

struct Mask {
  int width = 1;
  int height = 1;
  std::vector<float> coefficients{1.0f};  // width * height, row-major
  float divisor = 1.0f;
  float bias = 0.0f;
  Normalize normalize = Normalize::None;

  int radiusX() const { return width / 2; }
  int radiusY() const { return height / 2; }
  float at(int x, int y) const { return coefficients[static_cast<size_t>(y) * width + x]; }
  float sum() const;

  // Empty when valid, else one sentence saying what is wrong. Valid means: odd
  // sides 1..63, width*height finite coefficients, a finite non-zero divisor
  // (in either normalize mode), a finite bias, and float arithmetic that stays
  // finite for every input at every depth: sum(|c|) * 65535 and
  // sum(|c|) * 65535 * |scale| + |offsetFor(65535)| fit in a float. Every path
  // (specs, mask files, UI edits) goes through it.
  std::string validationError() const;
  // Throws InvalidArgument with validationError() when invalid.
  void validate() const;

  // The affine map every variant applies after accumulation:
  //   out = saturate(round_to_nearest_even(fma(acc, scale, offset)))
  // Both the CPU reference and the kernels use exactly these two floats.
  float scale() const;
  float offset() const;
  // The offset for samples of `maxSample` levels (255 or 65535): the bias and
  // the auto offsets (128, 255) are in 8-bit levels, scaled by maxSample / 255,
  // so a mask gives the same picture at 16 bits as at 8 (bias 128 is 32896).
  float offsetFor(int maxSample) const;

  // True when every coefficient, the divisor (after normalization) and the bias
  // are integers: results are then exact on every variant.
  bool isIntegerValued() const;
  // The difference from the CPU reference every variant keeps to, for
  // samples up to `maxSample`: 0 (exact) where the mask is integer-valued and
  // every partial sum is an integer below 2^24, which float holds exactly in
  // any order; else 1 LSB (a variant may sum in another order; docs/masks.md).
  int toleranceLsb(int maxSample) const;

  // Number of coefficients that are not zero.
  int nonZeroTaps() const;

  bool operator==(const Mask& other) const;
  bool operator!=(const Mask& other) const { return !(*this == other); }
};

// The shortest decimal that reads back as the same float: 0.0145, not
// 0.0144999996; 16, not 16.000. Specs, grids and messages print coefficients so.
std::string numberText(float value);

// Rank-1 test: when the mask is (within tolerance) column * row, fills them.
struct SeparableFactors {
  std::vector<float> column;  // height entries, applied vertically
  std::vector<float> row;     // width entries, applied horizontally
};
bool factorSeparable(const Mask& mask, SeparableFactors* factors, float relativeTolerance = 1e-5f);

// A preset the CLI and UIs list: "gaussian", "box", "sharpen", ...
struct PresetInfo {
  const char* name;
  const char* parameters;  // e.g. ":SIZE[:sigma=S]"; empty when none
  const char* description;
};
const std::vector<PresetInfo>& maskPresets();

// Parses a mask spec: a preset with parameters ("gaussian:7:sigma=1.5",
// "box:5", "sharpen", "motion45:7"), or inline coefficients
// ("3x3:0,-1,0,-1,5,-1,0,-1,0", optionally followed by ";divisor=D;bias=B;normalize=none").
// Inline coefficients are normalized by their sum (normalize=auto, as GIMP's
// convolution matrix and ffmpeg's convolution filter do) unless a divisor or
// normalize=none is given. Nothing is ignored: a size or option a preset does
// not take, an option given twice, a side that is not exactly an odd number
// 1..63 are refused. Throws InvalidArgument with a sentence that says what is
// wrong and what to write instead.
Mask parseMaskSpec(std::string_view spec);

// The mask turned by quarter turns clockwise (as turnedClockwise turns an
// image: a 3x5 mask turned once is 5x3). Filtering a picture turned by q with
// a mask gives the same pixels as filtering the stored picture with the mask
// turned by -q and turning the result by q: every border mode is the same on
// all four sides.
Mask turnedClockwise(const Mask& mask, int quarterTurns);

// A short text form with the effective affine map, e.g.
// "3x3 (9 non-zero of 9 taps), normalize auto (sum 9), bias 0: scale 0.111111, offset 0".
std::string describe(const Mask& mask);

// The lowest and highest result before the clamp to 0..255, over all inputs 0..255.
struct OutputRange {
  double low = 0, high = 0;
};
OutputRange outputRange(const Mask& mask);
// A sentence when results can leave 0..255 (the picture will saturate); empty when they cannot.
std::string saturationNote(const Mask& mask);

// The bench's mask of a size: positive integer taps (1 to 9, no symmetry, not
// separable), auto-normalized. Every sum of 8-bit values it makes up to 7x7
// fits 16 unsigned bits, which the row kernels sum in, so it is exact on every
// variant.
Mask benchMask(int w, int h);

}  // namespace liveconv
