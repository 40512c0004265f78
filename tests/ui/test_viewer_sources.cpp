// The model's source and mask-file commands: the recent list the source panel
// shows, and mask files with the parse error the editor displays.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "model/viewer_model.hpp"

using namespace liveconv;
using namespace liveconv::ui;

TEST(RecentSources, NewestFirstWithoutDuplicates) {
  ViewerModel m;
  m.setSource("a.mp4");
  m.setSource("b.mp4");
  m.setSource("a.mp4");  // reopening moves it to the front instead of listing it twice
  ASSERT_EQ(m.recentSources().size(), 2u);
  EXPECT_EQ(m.recentSources()[0], "a.mp4");
  EXPECT_EQ(m.recentSources()[1], "b.mp4");
  EXPECT_EQ(m.source(), "a.mp4");
}

TEST(RecentSources, KeepsOnlyTheLastFew) {
  ViewerModel m;
  for (int i = 0; i < 20; ++i) m.setSource("clip" + std::to_string(i) + ".mp4");
  ASSERT_EQ(m.recentSources().size(), ViewerModel::kRecentSources);
  EXPECT_EQ(m.recentSources().front(), "clip19.mp4");
  EXPECT_EQ(m.recentSources().back(), "clip" + std::to_string(20 - ViewerModel::kRecentSources) + ".mp4");
}

TEST(RecentSources, ChangingTheSourceIsNotAFilterEditButMakesANewSnapshot) {
  ViewerModel m;
  const auto before = m.version();
  const Mask mask = m.mask();
  EXPECT_TRUE(m.setSource("lavfi:testsrc2"));
  EXPECT_GT(m.version(), before);
  EXPECT_EQ(m.mask(), mask);
  EXPECT_FALSE(m.setSource("lavfi:testsrc2")) << "the same source again changes nothing";
}

namespace {
std::string tempPath(const char* name) {
  return std::string(::testing::TempDir()) + name;
}
}  // namespace

TEST(MaskFiles, SaveThenLoadGivesTheSameMask) {
  ViewerModel m;
  std::string error;
  ASSERT_TRUE(m.applySpec("sobel-x", &error)) << error;
  const Mask saved = m.mask();
  const std::string path = tempPath("liveconv_model_mask.json");
  ASSERT_TRUE(m.saveMask(path, &error)) << error;
  ASSERT_TRUE(m.applySpec("box:5", &error)) << error;
  const auto before = m.version();
  ASSERT_TRUE(m.loadMask(path, &error)) << error;
  EXPECT_EQ(m.mask(), saved);
  EXPECT_GT(m.version(), before) << "a loaded mask is an edit: the frame side must get it";
  std::remove(path.c_str());
}

TEST(MaskFiles, ParseErrorSaysWhereAndLeavesTheMaskAlone) {
  const std::string path = tempPath("liveconv_model_bad_mask.json");
  std::ofstream(path) << "{\"width\": 3,\n \"height\": 3,\n \"coefficients\": [1, 2, x]}\n";
  ViewerModel m;
  const Mask before = m.mask();
  std::string error;
  EXPECT_FALSE(m.loadMask(path, &error));
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_NE(error.find("column"), std::string::npos) << error;
  EXPECT_EQ(m.mask(), before);
  std::remove(path.c_str());
}

TEST(MaskFiles, MissingFileIsASentenceNotACrash) {
  ViewerModel m;
  std::string error;
  EXPECT_FALSE(m.loadMask("/nonexistent/mask.json", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(m.saveMask("/nonexistent/dir/mask.json", &error));
}
