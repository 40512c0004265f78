// Shared helpers for the engine tests: the OpenCL device under test (or a
// visible SKIP when the machine has none) and test images and masks.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "liveconv/device.hpp"
#include "liveconv/image.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/mask.hpp"

namespace liveconv {
// How GoogleTest prints these in parameterized test names and failures.
inline void PrintTo(PixelFormat f, std::ostream* os) { *os << toString(f); }
inline void PrintTo(BorderMode b, std::ostream* os) { *os << toString(b); }
}  // namespace liveconv

namespace liveconv::test {

// The OpenCL implementation a suite is registered for (the rusticl suite
// sets LIVECONV_TEST_IMPLEMENTATION=rusticl): its ICD file in
// /etc/OpenCL/vendors says whether it is installed. Empty for the main suite.
inline std::string testImplementation() {
  const char* name = std::getenv("LIVECONV_TEST_IMPLEMENTATION");
  return name ? name : "";
}

// The device the suite runs on: $LIVECONV_DEVICE or the default; null when none.
inline std::shared_ptr<DeviceContext> testDevice() {
  static std::shared_ptr<DeviceContext> ctx = [] {
    try {
      auto device = DeviceContext::create(selectDevice(""));
      std::cout << "[          ] OpenCL device of these tests: " << device->info.name << " ("
                << device->info.platformName << ", " << device->info.driverVersion << ")\n";
      return device;
    } catch (const std::exception& e) {
      std::cout << "[          ] no OpenCL device for these tests: " << e.what() << "\n";
      return std::shared_ptr<DeviceContext>();
    }
  }();
  return ctx;
}

// Why there is no device: a SKIP where the machine lacks it, a failure where
// the suite's implementation is installed but gives no device.
struct MissingDevice {
  bool isFailure = false;
  std::string why;
};
inline MissingDevice missingTestDevice() {
  const std::string implementation = testImplementation();
  if (implementation.empty()) return {false, "SKIP: no OpenCL device on this machine"};
  const std::string icd = "/etc/OpenCL/vendors/" + implementation + ".icd";
  if (!std::ifstream(icd)) return {false, "SKIP: " + implementation + " is not installed (no " + icd + ")"};
  const char* selector = std::getenv("LIVECONV_DEVICE");
  return {true, implementation + " is installed (" + icd + ") but LIVECONV_DEVICE=" + (selector ? selector : "") +
                    " finds no device"};
}

#ifdef LIVECONV_SOURCE_DIR
// The docs' worked example of a kernel of one's own (docs/examples/skip_zero_taps.cl),
// loaded as the variant `user`: what a test of every variant runs for that row.
inline std::string exampleUserKernelPath() {
  return std::string(LIVECONV_SOURCE_DIR) + "/docs/examples/skip_zero_taps.cl";
}
inline void loadExampleUserKernel() {
  loadUserKernel(exampleUserKernelPath());
}
#endif

#define LIVECONV_REQUIRE_DEVICE(ctx)                                               \
  auto ctx = ::liveconv::test::testDevice();                                       \
  if (!ctx) {                                                                      \
    const ::liveconv::test::MissingDevice missing = ::liveconv::test::missingTestDevice(); \
    if (missing.isFailure) FAIL() << missing.why;                                  \
    GTEST_SKIP() << missing.why;                                                   \
  }

// The image's bytes, to compare whole images with EXPECT_EQ.
inline std::vector<std::uint8_t> bytesOf(const Image& img) {
  return {img.data(), img.data() + img.sizeBytes()};
}

// A w x h mask whose tap (i, j) is tap(i, j), auto-normalized.
template <class Tap>
Mask maskOfTaps(int w, int h, Tap tap) {
  Mask m;
  m.width = w;
  m.height = h;
  m.coefficients.resize(static_cast<std::size_t>(w) * h);
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) m.coefficients[static_cast<std::size_t>(j) * w + i] = tap(i, j);
  m.normalize = Normalize::Auto;
  return m;
}

// An asymmetric integer mask with negative, zero and positive taps, so a flip,
// transpose or off-by-one shows; auto-normalized. Exact on every variant. The
// centre is raised by 4: the sum stays positive and the centre strong.
inline Mask integerMask(int w, int h) {
  return maskOfTaps(
      w, h, [&](int i, int j) { return float((i * 3 + j * 5 + 1) % 7 - 1 + (i == w / 2 && j == h / 2 ? 4 : 0)); });
}

// Random float taps with a divisor and bias: results agree within 1 LSB.
inline Mask floatMask(int w, int h, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-0.25f, 1.0f);
  Mask m = maskOfTaps(w, h, [&](int, int) { return d(rng); });
  m.divisor = m.sum() * 1.1f;
  m.bias = 3.5f;
  m.normalize = Normalize::None;
  return m;
}

// Rank-1 masks for the separable variant: integer (exact) and float (1 LSB).
inline Mask separableIntegerMask(int w, int h) {
  return maskOfTaps(
      w, h, [&](int i, int j) { return float(((j * 5 + 2) % 7 - 2) * ((i * 3 + 1) % 5 + (i == w / 2 ? 3 : 0) - 1)); });
}

inline Mask separableFloatMask(int w, int h, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-0.2f, 1.0f);
  std::vector<float> col(h), row(w);
  for (float& c : col) c = d(rng);
  for (float& r : row) r = d(rng);
  Mask m = maskOfTaps(w, h, [&](int i, int j) { return col[j] * row[i]; });
  m.divisor = m.sum() * 1.2f;
  m.bias = 2.0f;
  m.normalize = Normalize::None;
  return m;
}

// The code PoCL generated for launches: one shared object per kernel and
// work-group shape (.../PROGRAM/KERNEL/SHAPE/KERNEL.so), written into its
// kernel cache ($POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl/kcache, else
// ~/.cache/pocl/kcache) as it generates it; those of kernels whose name starts
// with `kernelPrefix` (every kernel: ""). The cache is the whole run's: the
// tests beside this one add theirs too. -1 where that folder is not there.
inline long long poclGeneratedKernels(const std::string& kernelPrefix = "") {
  std::string dir;
  if (const char* e = std::getenv("POCL_CACHE_DIR"); e && *e) {
    dir = e;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = std::string(x) + "/pocl/kcache";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = std::string(h) + "/.cache/pocl/kcache";
  }
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return -1;
  long long n = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != std::filesystem::end(it);
       it.increment(ec))
    if (it->path().extension() == ".so" && it->path().filename().string().rfind(kernelPrefix, 0) == 0) ++n;
  return n;
}

// Why a test that reads PoCL's kernel cache cannot (a SKIP's sentence): the
// device is not PoCL's, its cache is off, or its folder is not there; "" when it can.
inline std::string poclKernelCacheUnreadable(const DeviceInfo& device) {
  const char* off = std::getenv("POCL_KERNEL_CACHE");
  if (device.platformName.find("Portable Computing Language") == std::string::npos || (off && std::string(off) == "0"))
    return "SKIP: seen through PoCL's kernel cache; " + device.name + " (" + device.platformName +
           ") keeps none the test can read";
  if (poclGeneratedKernels() < 0) return "SKIP: PoCL's kernel cache folder is not there";
  return "";
}

}  // namespace liveconv::test
