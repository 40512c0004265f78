// Masks that cannot lie: every accepted mask computes a finite, defined
// result; every refused one says why in one sentence and what to write
// instead; nothing written in a spec or a mask file is silently ignored.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "liveconv/errors.hpp"
#include "liveconv/image.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/reference.hpp"

namespace liveconv {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The sentence a spec is refused with; "(accepted)" when it is not.
std::string refusal(const std::string& spec) {
  try {
    parseMaskSpec(spec);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string jsonRefusal(const std::string& text) {
  try {
    parseMaskJson(text);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(accepted)";
}

// One sentence: no line break, ends with a full stop (JSON errors carry "line L, column C: ").
void expectOneSentence(const std::string& why, const std::string& input) {
  EXPECT_NE(why, "(accepted)") << input;
  EXPECT_EQ(why.find('\n'), std::string::npos) << input << ": " << why;
}

TEST(MaskLimits, ScalesBeyondFloatAreRefused) {
  for (const char* spec : {"3x3:0,0,0,0,1,0,0,0,0;divisor=1e-39", "3x3:0,0,0,0,1,0,0,0,0;divisor=-1e-40",
                           "3x3:1e-45,0,0,0,0,0,0,0,0", "1x1:1e-44;normalize=auto", "5x1:1e-45,0,0,0,1e-45"}) {
    const std::string why = refusal(spec);
    expectOneSentence(why, spec);
    EXPECT_TRUE(contains(why, "scale")) << spec << ": " << why;
  }
  EXPECT_TRUE(contains(jsonRefusal(R"({"width":1,"height":1,"coefficients":[1],"divisor":1e-40})"), "scale"));
  // Small but representable scales are fine.
  EXPECT_EQ(refusal("1x1:1;divisor=1e-30"), "(accepted)");
}

TEST(MaskLimits, AccumulationsBeyondFloatAreRefused) {
  for (const char* spec : {"3x1:3e38,0,-3e38", "3x1:1e36,1e36,1e36;normalize=none", "unsharp:63:amount=1e38",
                           "1x1:1e30;divisor=1e-8", "1x1:1e36;bias=3.4e38;normalize=none"}) {
    const std::string why = refusal(spec);
    expectOneSentence(why, spec);
    EXPECT_TRUE(contains(why, "too large") || contains(why, "beyond float") || contains(why, "bias")) << spec << ": "
                                                                                                      << why;
  }
  EXPECT_NE(jsonRefusal(R"({"width":3,"height":1,"coefficients":[3e38,0,-3e38]})"), "(accepted)");
  // The largest accumulation that fits at 16 bits is accepted: sum(|c|) * 65535 < FLT_MAX.
  EXPECT_EQ(refusal("1x1:5e33;normalize=none;divisor=1e10"), "(accepted)");
  EXPECT_TRUE(contains(refusal("1x1:6e33;normalize=none;divisor=1e10"), "65535"));
}

TEST(MaskLimits, SidesParseExactlyAsOddNumbersUpTo63) {
  for (const char* spec : {"4294967299x1:1,2,1", "4294967297x4294967297:1", "3x4294967297:1,1,1", "65x1:1",
                           "0x1:", "1x0:1", "box:4294967299", "gaussian:65", "box:-3", "box:3.0", "box:0x3"}) {
    const std::string why = refusal(spec);
    expectOneSentence(why, spec);
    EXPECT_TRUE(contains(why, "1 to 63") || contains(why, "whole number")) << spec << ": " << why;
  }
  EXPECT_TRUE(contains(refusal("4x1:1,1,1,1"), "even")) << refusal("4x1:1,1,1,1");
  EXPECT_TRUE(contains(refusal("box:4"), "for example 5")) << refusal("box:4");
  EXPECT_EQ(parseMaskSpec("003x01:1,2,1").width, 3) << "leading zeros are still the number";
  EXPECT_EQ(parseMaskSpec("box:63").width, 63);
}

TEST(MaskLimits, NoPartOfAPresetIsIgnored) {
  const struct {
    const char* spec;
    const char* says;
  } cases[] = {
      {"sharpen:99", "takes no size"},
      {"identity:foo:bar=baz", "takes no size"},
      {"laplacian:3", "takes no size"},
      {"box:5:sigma=2", "no option 'sigma'"},
      {"motion45:7:amount=2", "no option 'amount'"},
      {"gaussian:7:sigmaa=2", "no option 'sigmaa'"},
      {"gaussian:7:sigma=1:sigma=2", "twice"},
      {"gaussian:7:sigma=-1.5", "above 0"},
      {"gaussian:7:sigma=0", "above 0"},
      {"gaussian:7:sigma=nan", "above 0"},
      {"gaussian:7:sigma=1e39", "above 0"},
      {"unsharp:5:amount=inf", "finite"},
      {"unsharp:5:amount=nan", "finite"},
      {"gaussian:7:1.5", "key=value"},
      {"3x1:1,2,1:foo", "nothing after the coefficients"},
      {"3x1:1,2,1;divisor=4;divisor=2", "twice"},
      {"3x1:1,2,1;bias=1;bias=2", "twice"},
      {"3x1:1,2,1;normalize=auto;normalize=none", "twice"},
      {"3x1", "no coefficients"},
  };
  for (const auto& c : cases) {
    const std::string why = refusal(c.spec);
    expectOneSentence(why, c.spec);
    EXPECT_TRUE(contains(why, c.says)) << c.spec << ": " << why;
  }
  // The sentence names what the preset does take.
  EXPECT_TRUE(contains(refusal("gaussian:7:sigmaa=2"), "sigma")) << refusal("gaussian:7:sigmaa=2");
  EXPECT_TRUE(contains(refusal("unsharp:5:sgma=1"), "amount or sigma")) << refusal("unsharp:5:sgma=1");
  // What the presets document still works.
  EXPECT_EQ(refusal("gaussian:7:sigma=1.5"), "(accepted)");
  EXPECT_EQ(refusal("unsharp:5:amount=0.5:sigma=1"), "(accepted)");
  EXPECT_EQ(refusal("GAUSSIAN:7:SIGMA=2"), "(accepted)");
  EXPECT_EQ(refusal("motion45:9"), "(accepted)");
}

TEST(MaskLimits, DivisorMustBeFiniteAndNonZeroInEveryMode) {
  for (const char* spec : {"3x1:1,2,1;divisor=0;normalize=auto", "3x1:1,2,1;normalize=auto;divisor=0",
                           "3x1:1,2,1;divisor=inf", "3x1:1,2,1;divisor=nan;normalize=auto", "box:3;divisor=-0",
                           "3x1:1,2,1;divisor=1e39"}) {
    const std::string why = refusal(spec);
    expectOneSentence(why, spec);
    EXPECT_TRUE(contains(why, "divisor")) << spec << ": " << why;
  }
  Mask m = parseMaskSpec("box:3");
  m.divisor = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(contains(m.validationError(), "divisor"));
  EXPECT_THROW(saveMaskFile(::testing::TempDir() + "/never_written.json", m), InvalidArgument)
      << "a mask with divisor inf must not be saved (the loader would refuse the file)";
  EXPECT_NE(jsonRefusal(R"({"width":1,"height":1,"coefficients":[1],"divisor":0,"normalize":"auto"})"), "(accepted)");
}

// Inline masks blur like GIMP's convolution matrix and ffmpeg's convolution filter:
// normalized by their sum unless a divisor (or normalize=none) is given.
TEST(MaskLimits, InlineMasksAreNormalizedByDefault) {
  const Mask blur = parseMaskSpec("3x3:1,1,1,1,1,1,1,1,1");
  EXPECT_EQ(blur.normalize, Normalize::Auto);
  EXPECT_FLOAT_EQ(blur.scale(), 1.0f / 9.0f);
  const Mask divided = parseMaskSpec("3x3:1,1,1,1,1,1,1,1,1;divisor=3");
  EXPECT_EQ(divided.normalize, Normalize::None);
  EXPECT_FLOAT_EQ(divided.scale(), 1.0f / 3.0f);
  const Mask raw = parseMaskSpec("3x3:1,1,1,1,1,1,1,1,1;normalize=none");
  EXPECT_FLOAT_EQ(raw.scale(), 1.0f);
  // An explicit normalize wins over the divisor's implied none, in either order.
  EXPECT_EQ(parseMaskSpec("3x1:1,2,1;normalize=auto;divisor=2").normalize, Normalize::Auto);
  EXPECT_EQ(parseMaskSpec("3x1:1,2,1;divisor=2;normalize=auto").normalize, Normalize::Auto);

  // On a picture: the box blur of a flat grey stays grey (the raw sum would saturate to white).
  Image src(8, 6, PixelFormat::GRAY8), dst(8, 6, PixelFormat::GRAY8);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 8; ++x) src.view().row(y)[x] = 100;
  convolveReference(src.view(), dst.view(), blur, BorderMode::Clamp, AlphaMode::PassThrough);
  EXPECT_EQ(dst.view().row(3)[4], 100);
  convolveReference(src.view(), dst.view(), raw, BorderMode::Clamp, AlphaMode::PassThrough);
  EXPECT_EQ(dst.view().row(3)[4], 255);
}

TEST(MaskLimits, DescribeShowsTheEffectiveScaleAndSaturation) {
  EXPECT_TRUE(contains(describe(parseMaskSpec("3x3:1,2,1,2,4,2,1,2,1")), "scale 0.0625, offset 0"))
      << describe(parseMaskSpec("3x3:1,2,1,2,4,2,1,2,1"));
  EXPECT_EQ(saturationNote(parseMaskSpec("gaussian:5")), "");
  EXPECT_EQ(saturationNote(parseMaskSpec("identity")), "");
  const std::string sharpen = saturationNote(parseMaskSpec("sharpen"));
  EXPECT_TRUE(contains(sharpen, "-1020 to 1275")) << sharpen;
  EXPECT_TRUE(contains(saturationNote(parseMaskSpec("1x1:2;normalize=none")), "0 to 510"));
}

// Every accepted mask's worst case stays finite in float, so the reference
// never converts inf or NaN (checked here on the extreme inputs 0 and 255, and
// 0 and 65535 at 16 bits).
TEST(MaskLimits, AcceptedExtremesGiveFiniteResults) {
  int accepted = 0;
  for (const PixelFormat format : {PixelFormat::RGBA8, PixelFormat::RGBA16}) {
    Image src(7, 5, format), dst(7, 5, format);
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 28 * bytesPerSample(format); ++x)
        src.view().row(y)[x] = (x / bytesPerSample(format) + y) % 2 ? 255 : 0;
    for (const char* spec : {"1x1:5e33;normalize=none;divisor=1e10", "3x1:1e33,-1e33,1e33;normalize=none;divisor=1e30",
                             "1x1:1;divisor=3e-38;bias=-1e35", "unsharp:63:amount=1e20", "1x1:1e-38;normalize=auto"}) {
      SCOPED_TRACE(spec);
      if (refusal(spec) != "(accepted)") continue;  // refused is fine too; accepted must compute
      ++accepted;
      const Mask m = parseMaskSpec(spec);
      EXPECT_TRUE(std::isfinite(m.scale()) && std::isfinite(m.offsetFor(maxSampleValue(format))));
      EXPECT_NO_THROW(convolveReference(src.view(), dst.view(), m, BorderMode::Clamp, AlphaMode::Filter));
    }
  }
  EXPECT_GE(accepted, 8);
}

// Mask files: only regular files of at most 1 MiB, or standard input with @-.
TEST(MaskLimits, MaskFilesAreBoundedRegularFiles) {
  auto fileRefusal = [](const std::string& argument) {
    try {
      parseMaskArgument(argument);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_TRUE(contains(fileRefusal("@/tmp"), "is a directory")) << fileRefusal("@/tmp");
  EXPECT_TRUE(contains(fileRefusal("@/dev/zero"), "not a regular file")) << fileRefusal("@/dev/zero");
  EXPECT_TRUE(contains(fileRefusal("@/dev/zero"), "@-")) << fileRefusal("@/dev/zero");
  EXPECT_TRUE(contains(fileRefusal("@/no/such/mask.json"), "does not exist")) << fileRefusal("@/no/such/mask.json");
  const std::string big = ::testing::TempDir() + "/big_mask.json";
  {
    std::ofstream out(big);
    out << "{\"width\":1,\"height\":1,\"coefficients\":[1]}" << std::string((1 << 20) + 1, ' ');
  }
  EXPECT_TRUE(contains(fileRefusal("@" + big), "larger than 1 MiB")) << fileRefusal("@" + big);
  std::filesystem::remove(big);
}

TEST(MaskLimits, TruncatedJsonSaysItEndsEarly) {
  for (const char* text : {R"({"width": 3, "height": 1, "coefficients": [1, 2)", R"({"width": 3,)",
                           R"({"width": 3, "height": 1, "coefficients": [1, 2, 1])", "{", R"({"width": )"}) {
    const std::string why = jsonRefusal(text);
    EXPECT_TRUE(contains(why, "ends before the mask object is closed")) << text << ": " << why;
    EXPECT_TRUE(contains(why, "line 1")) << why;
  }
}

TEST(MaskLimits, CoefficientsMayBeWrittenAsRows) {
  const Mask rows = parseMaskJson(R"({"width": 3, "height": 3, "coefficients": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]})");
  EXPECT_EQ(rows.coefficients, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(rows, parseMaskJson(R"({"width": 3, "height": 3, "coefficients": [1, 2, 3, 4, 5, 6, 7, 8, 9]})"));
  EXPECT_EQ(parseMaskJson(R"({"coefficients": [[1], [2], [3]], "height": 3, "width": 1})").height, 3)
      << "width and height may come after the rows";
  EXPECT_TRUE(contains(jsonRefusal(R"({"width": 3, "height": 3, "coefficients": [[1, 2, 3], [4, 5], [6, 7, 8]]})"),
                       "row 2 of \"coefficients\" has 2 numbers but the width is 3"));
  EXPECT_TRUE(contains(jsonRefusal(R"({"width": 3, "height": 3, "coefficients": [[1, 2, 3], [4, 5, 6]]})"),
                       "has 2 rows but the height is 3"));
  EXPECT_NE(jsonRefusal(R"({"width": 3, "height": 1, "coefficients": [[1, 2, 3], 4]})"), "(accepted)");
}

// Every mask the program writes is read back identically: all presets, and random masks.
TEST(MaskLimits, EveryWrittenMaskReadsBackIdentically) {
  std::vector<Mask> masks;
  for (const auto& p : maskPresets()) masks.push_back(parseMaskSpec(p.name));
  for (const char* spec : {"gaussian:63:sigma=7.3", "unsharp:9:amount=2.5:sigma=1.1", "motion45:31", "box:1"})
    masks.push_back(parseMaskSpec(spec));
  std::mt19937 rng(15);
  std::uniform_int_distribution<int> side(0, 31);
  std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
  std::uniform_real_distribution<float> exponent(-30.0f, 30.0f);
  for (int k = 0; k < 200; ++k) {
    Mask m;
    m.width = 2 * side(rng) + 1;
    m.height = 2 * side(rng) + 1;
    m.coefficients.resize(static_cast<std::size_t>(m.width) * m.height);
    for (float& c : m.coefficients) c = value(rng) * std::pow(10.0f, exponent(rng)) * 1e-4f;
    m.divisor = value(rng) == 0 ? 1 : value(rng);
    m.bias = value(rng);
    m.normalize = k % 2 ? Normalize::Auto : Normalize::None;
    if (!m.validationError().empty()) continue;
    masks.push_back(m);
  }
  ASSERT_GT(masks.size(), 150u);
  for (const Mask& m : masks) {
    const std::string json = maskToJson(m);
    Mask back;
    ASSERT_NO_THROW(back = parseMaskJson(json)) << json;
    EXPECT_EQ(back, m) << json;
  }
}

}  // namespace
}  // namespace liveconv
