// The mask's frequency response (liveconv/frequency_response.hpp) against
// numpy's FFT of the same mask, and the numbers the windows say under it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "liveconv/errors.hpp"
#include "liveconv/frequency_response.hpp"

namespace liveconv {
namespace {

// A python3 that has numpy: the one on PATH, else the system's.
std::string pythonWithNumpy() {
  for (const char* python : {"python3", "/usr/bin/python3"})
    if (std::system((std::string(python) + " -c 'import numpy' > /dev/null 2>&1").c_str()) == 0) return python;
  return {};
}

// numpy's abs(fftshift(fft2(scale * mask, (n, n)))) of `mask`, row-major.
std::vector<double> numpyResponse(const std::string& python, const Mask& mask, int n) {
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream out(dir + "response_mask.txt");
    out.precision(9);
    out << mask.width << " " << mask.height << " " << mask.scale() << "\n";
    for (float c : mask.coefficients) out << c << " ";
  }
  std::ofstream(dir + "response.py") << "import numpy as np, sys\n"
                                        "v = open(sys.argv[1]).read().split()\n"
                                        "w, h, s = int(v[0]), int(v[1]), float(v[2])\n"
                                        "m = np.array([float(x) for x in v[3:]]).reshape(h, w) * s\n"
                                        "g = np.abs(np.fft.fftshift(np.fft.fft2(m, (int(sys.argv[2]), int(sys.argv[2])))))\n"
                                        "print(' '.join(repr(float(x)) for x in g.ravel()))\n";
  const std::string cmd = python + " " + dir + "response.py " + dir + "response_mask.txt " + std::to_string(n) + " > " +
                          dir + "response_numpy.txt";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(dir + "response_numpy.txt");
  std::vector<double> values;
  for (double v; in >> v;) values.push_back(v);
  return values;
}

TEST(FrequencyResponse, MatchesNumpysFftOfTheSameMask) {
  const std::string python = pythonWithNumpy();
  if (python.empty()) GTEST_SKIP() << "SKIP: no python3 with numpy (Debian's python3-numpy) to compare with";
  for (const char* spec : {"box:5", "sharpen", "gaussian:9", "motion45:7", "sobel-x", "3x7:1,2,3,4,5,6,7,1,2,3,4,5,6,7,"
                                                                                    "1,2,3,4,5,6,7;divisor=9;bias=4",
                           "unsharp:5", "identity", "box:63"}) {
    const Mask mask = parseMaskSpec(spec);
    const FrequencyResponse r = frequencyResponse(mask);
    ASSERT_EQ(r.size, kFrequencyResponseSize);
    const std::vector<double> want = numpyResponse(python, mask, r.size);
    ASSERT_EQ(want.size(), r.magnitude.size()) << spec;
    double peak = 0;
    for (double v : want) peak = std::max(peak, v);
    int worst = 0;
    for (size_t i = 0; i < want.size(); ++i)
      if (std::fabs(r.magnitude[i] - want[i]) > std::fabs(r.magnitude[worst] - want[worst])) worst = static_cast<int>(i);
    EXPECT_NEAR(r.magnitude[worst], want[worst], 1e-5 * std::max(1.0, peak))
        << spec << ": fx index " << worst % r.size << ", fy index " << worst / r.size;
    EXPECT_NEAR(r.peak, peak, 1e-5 * std::max(1.0, peak)) << spec;
  }
}

TEST(FrequencyResponse, SaysWhatTheMaskDoes) {
  const FrequencyResponse box = frequencyResponse(parseMaskSpec("box:5"));
  EXPECT_FLOAT_EQ(box.dc(), 1.0f);  // normalize auto: a flat area passes unchanged
  const float half = halfGainFrequency(box.cutX());
  // sin(5 pi f) / (5 sin(pi f)) = 0.5 at f = 0.1205...
  EXPECT_NEAR(half, 0.1205, 0.004);
  EXPECT_NE(describeResponse(box).find("a low-pass: gain 1 at DC; half at 0.12"), std::string::npos)
      << describeResponse(box);

  const FrequencyResponse sharpen = frequencyResponse(parseMaskSpec("sharpen"));
  EXPECT_NEAR(sharpen.peak, 9.0f, 1e-5);  // 5 - 2 cos(2 pi fx) - 2 cos(2 pi fy) at (0.5, 0.5)
  EXPECT_NEAR(std::fabs(sharpen.peakFx), 0.5f, 1e-6);
  EXPECT_NEAR(std::fabs(sharpen.peakFy), 0.5f, 1e-6);
  EXPECT_NE(describeResponse(sharpen).find("boosts detail: gain 1 at DC, up to 9"), std::string::npos);

  const FrequencyResponse sobel = frequencyResponse(parseMaskSpec("sobel-x"));
  EXPECT_NEAR(sobel.dc(), 0.0f, 1e-6);
  EXPECT_NEAR(sobel.peak, 8.0f, 1e-5);  // 2 sin(2 pi fx) (2 + 2 cos(2 pi fy)) at fx = 0.25, fy = 0
  // Strongest at 0.25 cycles/px, nothing at 0.5: a band-pass.
  EXPECT_EQ(describeResponse(sobel).rfind("a band-pass: gain 0 at DC (no flat area passes), strongest 8 at (0.25, 0.00)", 0), 0u)
      << describeResponse(sobel);
  // It differentiates along x: nothing passes along y.
  for (float g : sobel.cutY()) EXPECT_NEAR(g, 0.0f, 1e-6);

  // A horizontal smear: falls along x, never along y.
  const FrequencyResponse smear = frequencyResponse(parseMaskSpec("7x1:1,1,1,1,1,1,1"));
  EXPECT_GT(halfGainFrequency(smear.cutX()), 0);
  EXPECT_EQ(halfGainFrequency(smear.cutY()), -1);
  EXPECT_NE(describeResponse(smear).find("; half at 0.09 cycles/px across (x), above half up to 0.5 cycles/px down (y)"),
            std::string::npos)
      << describeResponse(smear);

  // Identity and a shift keep every frequency (before: "a low-pass ... never half cycles/px").
  for (const char* spec : {"identity", "3x3:0,0,0,0,0,1,0,0,0"})
    EXPECT_EQ(describeResponse(frequencyResponse(parseMaskSpec(spec))),
              "an all-pass: gain 1 at every frequency, so no detail is lost or added")
        << spec;
  // The Laplacian: strongest at the finest detail.
  const std::string laplacian = describeResponse(frequencyResponse(parseMaskSpec("laplacian")));
  EXPECT_EQ(laplacian.rfind("a high-pass: gain 0 at DC (no flat area passes), strongest 8 at (0.50, 0.50)", 0), 0u)
      << laplacian;
}

TEST(FrequencyResponse, RefusesAGridSmallerThanTheMask) {
  EXPECT_THROW(frequencyResponse(parseMaskSpec("box:9"), 8), InvalidArgument);
  EXPECT_THROW(frequencyResponse(parseMaskSpec("box:3"), 15), InvalidArgument);
  Mask invalid;
  invalid.divisor = 0;
  EXPECT_THROW(frequencyResponse(invalid), InvalidArgument);
}

}  // namespace
}  // namespace liveconv
