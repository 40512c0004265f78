// Mask files: round trip, and errors that say where.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "liveconv/errors.hpp"
#include "liveconv/mask_file.hpp"

namespace liveconv {
namespace {

std::string errorOf(const std::string& text) {
  try {
    parseMaskJson(text);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(MaskFile, RoundTripsEveryField) {
  Mask m = parseMaskSpec("gaussian:5:sigma=1.2");
  m.bias = 3.5f;
  m.divisor = 2;
  const Mask back = parseMaskJson(maskToJson(m));
  EXPECT_EQ(back, m);
  const std::string path = ::testing::TempDir() + "/mask_roundtrip.json";
  saveMaskFile(path, m);
  EXPECT_EQ(parseMaskArgument("@" + path), m);
  EXPECT_EQ(parseMaskArgument(path), m);
  std::remove(path.c_str());
}

TEST(MaskFile, ReadsTheDocumentedForm) {
  const Mask m = parseMaskJson(R"({"width": 3, "height": 1, "coefficients": [1, 2, 1], "normalize": "auto"})");
  EXPECT_EQ(m.width, 3);
  EXPECT_EQ(m.height, 1);
  EXPECT_EQ(m.normalize, Normalize::Auto);
  EXPECT_FLOAT_EQ(m.divisor, 1.0f);
}

TEST(MaskFile, ErrorsSayLineAndColumn) {
  EXPECT_EQ(errorOf("{\n  \"width\": 3,\n  \"height\": x3,\n}"), "line 3, column 13: expected a number");
  EXPECT_NE(errorOf(R"({"width": 3, "height": 3, "coefficents": []})").find("unknown key \"coefficents\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"width": 3, "height": 3})").find("no \"coefficients\""), std::string::npos);
  EXPECT_NE(errorOf(R"({"width": 4, "height": 3, "coefficients": [1]})").find("odd"), std::string::npos);
  EXPECT_NE(errorOf(R"({"width": 1, "height": 1, "coefficients": [1]} x)").find("after the mask object"),
            std::string::npos);
  EXPECT_THROW(loadMaskFile("/nonexistent/mask.json"), InvalidArgument);
}

// A file's error names the file, then says what is wrong, as one sentence.
TEST(MaskFile, AFilesErrorNamesTheFile) {
  const std::string path = ::testing::TempDir() + "mask_file_error.json";
  std::ofstream(path) << R"({"width": 3, "height": 3, "coefficients": [1, 2]})";
  try {
    loadMaskFile(path);
    FAIL() << "a 3x3 mask of 2 coefficients was taken";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "In mask file " + path + ": Mask has 2 coefficients but 3x3 needs 9.");
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace liveconv
