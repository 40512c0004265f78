// The model's source and mask-file commands: the recent list the source panel
// shows, and mask files with the parse error the editor displays.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "full_disk.hpp"
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

// A saved mask is staged as every file liveconv writes: through a symbolic
// link to an existing 0600 file, the file it leads to is replaced (the link
// and the mode stay); into a full disk (a small tmpfs, filled; root only) the
// old file stays as it was, with the reason, and no part file is left.
TEST(MaskFiles, ASavedMaskIsWholeOrNotAtAllThroughLinksKeepingItsMode) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(::testing::TempDir()) / ("liveconv_mask_staged_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder / "full");
  const std::string old = "{\"old\": true}\n";
  std::ofstream((folder / "real.json").string()) << old;
  fs::permissions(folder / "real.json", fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
  fs::create_symlink("real.json", folder / "mask.json");
  ViewerModel m;
  std::string error;
  ASSERT_TRUE(m.applySpec("sobel-x", &error)) << error;
  ASSERT_TRUE(m.saveMask((folder / "mask.json").string(), &error)) << error;
  EXPECT_TRUE(fs::is_symlink(folder / "mask.json")) << "the link was replaced by a file";
  EXPECT_EQ(fs::status(folder / "real.json").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  ViewerModel loaded;
  ASSERT_TRUE(loaded.loadMask((folder / "real.json").string(), &error)) << error;
  EXPECT_EQ(loaded.mask(), m.mask());

  const std::string full = (folder / "full").string();
  {
    const test::FullDisk disk(full, "64k");
    if (!disk.mounted()) {
      std::cout << "[   SKIP   ] the full-disk case: " << disk.why() << "\n";
      fs::remove_all(folder);
      return;
    }
    std::ofstream(full + "/mask.json") << old;
    disk.fill();
    EXPECT_FALSE(m.saveMask(full + "/mask.json", &error));
    EXPECT_NE(error.find("No space left on device"), std::string::npos) << error;
    std::ifstream in(full + "/mask.json");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), old) << "the old mask file was touched";
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(full)) ++entries;
    EXPECT_EQ(entries, 2u) << "a part file was left";
  }  // unmounted here
  fs::remove_all(folder);
}
