#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "liveconv/errors.hpp"
#include "liveconv/mask.hpp"

namespace liveconv {
namespace {

Mask make(int w, int h, std::vector<float> c) {
  Mask m;
  m.width = w;
  m.height = h;
  m.coefficients = std::move(c);
  return m;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(MaskValidation, AcceptsOddSizesUpTo63IncludingNonSquare) {
  EXPECT_EQ(make(1, 1, {1}).validationError(), "");
  EXPECT_EQ(make(3, 7, std::vector<float>(21, 1)).validationError(), "");
  EXPECT_EQ(make(63, 63, std::vector<float>(63 * 63, 1)).validationError(), "");
}

TEST(MaskValidation, RejectsEvenSizes) {
  const std::string e = make(4, 3, std::vector<float>(12, 1)).validationError();
  EXPECT_TRUE(contains(e, "width 4 is even")) << e;
  EXPECT_TRUE(contains(make(3, 2, std::vector<float>(6, 1)).validationError(), "height 2 is even"));
}

TEST(MaskValidation, RejectsOutOfRangeSizes) {
  EXPECT_TRUE(contains(make(65, 1, std::vector<float>(65, 1)).validationError(), "width 65 is out of range"));
  EXPECT_TRUE(contains(make(1, 0, {}).validationError(), "height 0 is out of range"));
  EXPECT_TRUE(contains(make(-3, 3, {}).validationError(), "width -3 is out of range"));
}

TEST(MaskValidation, RejectsWrongCoefficientCount) {
  const std::string e = make(3, 3, std::vector<float>(8, 1)).validationError();
  EXPECT_EQ(e, "Mask has 8 coefficients but 3x3 needs 9.");
}

TEST(MaskValidation, RejectsNanAndInfWithTheirPosition) {
  Mask m = make(3, 3, std::vector<float>(9, 1));
  m.coefficients[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(m.validationError(),
            "Mask coefficient at row 1, column 2 is not a finite number; write a number such as 0.25 or -2.");
  m.coefficients[5] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(contains(m.validationError(), "row 1, column 2"));
  m.coefficients[5] = 1;
  m.bias = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(contains(m.validationError(), "bias"));
}

// A zero divisor is refused in either mode: a saved auto mask can be switched back to none.
TEST(MaskValidation, RejectsZeroDivisorInEveryNormalizeMode) {
  Mask m = make(1, 1, {1});
  m.divisor = 0;
  EXPECT_TRUE(contains(m.validationError(), "divisor")) << m.validationError();
  m.normalize = Normalize::Auto;
  EXPECT_TRUE(contains(m.validationError(), "divisor")) << m.validationError();
  m.divisor = 1;
  EXPECT_EQ(m.validationError(), "");
  EXPECT_THROW(make(2, 2, {1, 1, 1, 1}).validate(), InvalidArgument);
}

TEST(MaskNormalize, AutoFollowsTheSeedRule) {
  Mask positive = make(3, 1, {1, 2, 1});
  positive.normalize = Normalize::Auto;
  EXPECT_FLOAT_EQ(positive.scale(), 0.25f);
  EXPECT_FLOAT_EQ(positive.offset(), 0.0f);

  Mask zero = make(3, 1, {-1, 0, 1});
  zero.normalize = Normalize::Auto;
  zero.bias = 2;
  EXPECT_FLOAT_EQ(zero.scale(), 1.0f);
  EXPECT_FLOAT_EQ(zero.offset(), 130.0f);

  Mask negative = make(3, 1, {-1, -1, 0});
  negative.normalize = Normalize::Auto;
  EXPECT_FLOAT_EQ(negative.scale(), 1.0f);
  EXPECT_FLOAT_EQ(negative.offset(), 255.0f);
}

TEST(MaskNormalize, NoneUsesDivisorAndBias) {
  Mask m = make(3, 1, {1, 2, 1});
  m.divisor = 8;
  m.bias = -3;
  EXPECT_FLOAT_EQ(m.scale(), 0.125f);
  EXPECT_FLOAT_EQ(m.offset(), -3.0f);
}

TEST(MaskIntegerValued, DetectsExactMasks) {
  Mask box = parseMaskSpec("box:3");
  EXPECT_TRUE(box.isIntegerValued());
  EXPECT_FALSE(parseMaskSpec("gaussian:5").isIntegerValued());
  Mask m = make(1, 1, {2});
  m.divisor = 2.5f;
  EXPECT_FALSE(m.isIntegerValued());
}

TEST(MaskSpec, PresetsParse) {
  const Mask g = parseMaskSpec("gaussian:7:sigma=1.5");
  EXPECT_EQ(g.width, 7);
  EXPECT_EQ(g.height, 7);
  EXPECT_NEAR(g.sum(), 1.0f, 1e-5f);
  EXPECT_GT(g.at(3, 3), g.at(0, 3));
  EXPECT_EQ(parseMaskSpec("box:5").coefficients, std::vector<float>(25, 1.0f));
  EXPECT_EQ(parseMaskSpec("sharpen").coefficients, (std::vector<float>{0, -1, 0, -1, 5, -1, 0, -1, 0}));
  EXPECT_NEAR(parseMaskSpec("unsharp:5").sum(), 1.0f, 1e-5f);
  EXPECT_EQ(parseMaskSpec("laplacian").offset(), 128.0f);
  for (const auto& p : maskPresets()) EXPECT_NO_THROW(parseMaskSpec(p.name)) << p.name;
}

TEST(MaskSpec, Motion45IsTheSeedMask) {
  const Mask m = parseMaskSpec("motion45:7");
  ASSERT_EQ(m.width, 7);
  EXPECT_FLOAT_EQ(m.at(5, 0), 0.0145f);
  EXPECT_FLOAT_EQ(m.at(3, 3), 0.1283f);
  EXPECT_FLOAT_EQ(m.at(0, 5), 0.0145f);
  EXPECT_EQ(m.nonZeroTaps(), 17);  // as printed in the seed chapter
  EXPECT_EQ(m.normalize, Normalize::Auto);
  const Mask line = parseMaskSpec("motion45:5");
  EXPECT_EQ(line.nonZeroTaps(), 5);
  EXPECT_EQ(line.at(4, 0), 1.0f);  // bottom-left to top-right
  EXPECT_EQ(line.at(0, 4), 1.0f);
}

TEST(MaskSpec, InlineCoefficientsAndOptions) {
  const Mask m = parseMaskSpec("3x3:1,2,1,2,4,2,1,2,1;divisor=16;bias=1");
  EXPECT_EQ(m.width, 3);
  EXPECT_EQ(m.coefficients[4], 4.0f);
  EXPECT_EQ(m.divisor, 16.0f);
  EXPECT_EQ(m.bias, 1.0f);
  EXPECT_EQ(m.normalize, Normalize::None);
  const Mask r = parseMaskSpec("3x1:1,2,3;normalize=auto");
  EXPECT_EQ(r.width, 3);
  EXPECT_EQ(r.height, 1);
  EXPECT_EQ(r.normalize, Normalize::Auto);
}

TEST(MaskSpec, BadSpecsSaySoInOneSentence) {
  auto message = [](const std::string& spec) {
    try {
      parseMaskSpec(spec);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_TRUE(contains(message("3x3:1,2,3"), "3 coefficients but 3x3 needs 9")) << message("3x3:1,2,3");
  EXPECT_TRUE(contains(message("4x4:" + std::string("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1")), "even"));
  EXPECT_TRUE(contains(message("3x3:1,2,x,1,1,1,1,1,1"), "'x' is not a number"));
  EXPECT_TRUE(contains(message("gaussian:4"), "must be odd"));
  EXPECT_TRUE(contains(message("blurry"), "neither"));
  EXPECT_TRUE(contains(message(""), "empty"));
  EXPECT_TRUE(contains(message("box:3;scale=2"), "unknown"));
  EXPECT_TRUE(contains(message("3x3:1,1,1,1,1,1,1,1,1;normalize=maybe"), "auto or none"));
}

TEST(MaskSeparable, RankOneMasksFactor) {
  SeparableFactors f;
  const Mask g = parseMaskSpec("gaussian:9");
  ASSERT_TRUE(factorSeparable(g, &f));
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(f.column[j] * f.row[i], g.at(i, j), 1e-6f);
  EXPECT_TRUE(factorSeparable(parseMaskSpec("box:5"), nullptr));
  EXPECT_TRUE(factorSeparable(parseMaskSpec("sobel-x"), nullptr));
  EXPECT_TRUE(factorSeparable(parseMaskSpec("3x5:1,2,3,2,4,6,0,0,0,-1,-2,-3,5,10,15"), &f));
  EXPECT_EQ(f.row.size(), 3u);
  EXPECT_EQ(f.column.size(), 5u);
}

TEST(MaskSeparable, OtherMasksDoNot) {
  EXPECT_FALSE(factorSeparable(parseMaskSpec("sharpen"), nullptr));
  EXPECT_FALSE(factorSeparable(parseMaskSpec("laplacian"), nullptr));
  EXPECT_FALSE(factorSeparable(parseMaskSpec("motion45:7"), nullptr));
  EXPECT_FALSE(factorSeparable(parseMaskSpec("unsharp:5"), nullptr));
}

}  // namespace
}  // namespace liveconv
