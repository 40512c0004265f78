// Fuzz target for the mask parsers: the spec parser (parseMaskSpec) and the
// mask file reader (parseMaskJson). The first byte picks which one reads the
// rest. Every input either is refused with InvalidArgument, or gives a mask
// that keeps the invariants every variant relies on; anything else aborts
// (a finding):
//   - sides odd, 1..63, width*height coefficients, all finite;
//   - a finite non-zero divisor, finite scale and offset, and a worst-case
//     result sum(|c|) * 255 * |scale| + |offset| within float range;
//   - maskToJson() reads back as the same mask (the round trip the UIs rely on);
//   - the CPU reference filters an extreme picture without meeting inf or NaN.
// Built with libFuzzer under clang, else with fuzz_driver.cpp; with ASan and
// UBSan (float-cast-overflow included) either way.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "liveconv/errors.hpp"
#include "liveconv/image.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/reference.hpp"

namespace {

void check(bool ok, const char* what, const std::string& detail) {
  if (ok) return;
  std::fprintf(stderr, "mask fuzz finding: %s (%s)\n", what, detail.c_str());
  std::abort();
}

void checkInvariants(const liveconv::Mask& m, const std::string& source) {
  using liveconv::kMaxMaskSide;
  check(m.validationError().empty(), "an accepted mask is invalid", m.validationError());
  check(m.width >= 1 && m.width <= kMaxMaskSide && m.width % 2 == 1, "width out of range", source);
  check(m.height >= 1 && m.height <= kMaxMaskSide && m.height % 2 == 1, "height out of range", source);
  check(m.coefficients.size() == static_cast<std::size_t>(m.width) * m.height, "coefficient count", source);
  double absSum = 0;
  for (float c : m.coefficients) {
    check(std::isfinite(c), "a coefficient is not finite", source);
    absSum += std::fabs(c);
  }
  check(std::isfinite(m.divisor) && m.divisor != 0, "divisor not finite or zero", source);
  const double scale = m.scale(), offset = m.offsetFor(liveconv::kLargestSample);
  check(std::isfinite(scale) && std::isfinite(offset), "scale or offset not finite", source);
  check(absSum * liveconv::kLargestSample * std::fabs(scale) + std::fabs(offset) <= std::numeric_limits<float>::max(),
        "worst-case result beyond float", source);

  const std::string json = liveconv::maskToJson(m);
  liveconv::Mask back;
  try {
    back = liveconv::parseMaskJson(json);
  } catch (const std::exception& e) {
    check(false, "a written mask does not read back", std::string(e.what()) + "\n" + json);
  }
  check(back == m, "a written mask reads back different", json);
  (void)liveconv::describe(m);
  (void)liveconv::saturationNote(m);

  // A 5x3 picture of 0s and 255s (the extremes), every channel filtered.
  liveconv::Image src(5, 3, liveconv::PixelFormat::RGBA8), dst(5, 3, liveconv::PixelFormat::RGBA8);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 20; ++x) src.view().row(y)[x] = ((x / 4 + y) % 2) ? 255 : 0;
  try {
    liveconv::convolveReference(src.view(), dst.view(), m, liveconv::BorderMode::Mirror, liveconv::AlphaMode::Filter,
                                1);
  } catch (const std::exception& e) {
    check(false, "the reference failed on an accepted mask", e.what());
  }
}

}  // namespace

// Whether the last input was accepted; fuzz_driver.cpp keeps such inputs to mutate further.
extern "C" {
int liveconvFuzzLastAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  liveconvFuzzLastAccepted = 0;
  if (size == 0 || size > 8192) return 0;
  const bool json = data[0] & 1;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  liveconv::Mask m;
  try {
    m = json ? liveconv::parseMaskJson(text) : liveconv::parseMaskSpec(text);
  } catch (const liveconv::InvalidArgument& e) {
    const std::string why = e.what();
    check(!why.empty() && why.find('\n') == std::string::npos, "a refusal is not one sentence", why);
    return 0;
  }
  checkInvariants(m, text);
  liveconvFuzzLastAccepted = 1;
  return 0;
}
