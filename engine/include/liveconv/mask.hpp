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

  // Empty when valid, else one sentence saying what is wrong.
  std::string validationError() const;
  // Throws InvalidArgument with validationError() when invalid.
  void validate() const;

  // The affine map every variant applies after accumulation:
  //   out = saturate(round_to_nearest_even(fma(acc, scale, offset)))
  // Both the CPU reference and the kernels use exactly these two floats.
  float scale() const;
  float offset() const;

  // True when every coefficient, the divisor (after normalization) and the bias
  // are integers: results are then exact on every variant.
  bool isIntegerValued() const;

  // Number of coefficients that are not zero.
  int nonZeroTaps() const;

  bool operator==(const Mask& other) const;
  bool operator!=(const Mask& other) const { return !(*this == other); }
};

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
// ("3x3:0,-1,0,-1,5,-1,0,-1,0", optionally followed by ";divisor=D;bias=B;normalize=auto").
// Throws InvalidArgument with a sentence that says what is wrong.
Mask parseMaskSpec(std::string_view spec);

// A short text form, e.g. "7x7 (49 taps, 49 non-zero), divisor 1, bias 0, normalize auto".
std::string describe(const Mask& mask);

}  // namespace liveconv
