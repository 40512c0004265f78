// A kernel file of one's own followed while a window plays (KernelFileWatch):
// a save is a new version for the model, looked for once a second; a file
// that is gone for a moment (an editor that saves by renaming) changes
// nothing; one that cannot be read is a sentence. And the model: a new
// version that fails goes back to the one before, `user` stays chosen.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "feed/kernel_file_watch.hpp"
#include "liveconv/kernel_sources.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {
namespace {

using Clock = KernelFileWatch::Clock;

std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(KernelFileWatch, ASaveIsANewVersionForTheModelLookedForOnceASecond) {
  ViewerModel model;
  KernelFileWatch watch;
  const std::string path = writeFile("watched.cl", "__kernel void convolve() {}\n");
  ASSERT_EQ(watch.load(model, path), "");
  const std::string first = model.filter().userKernel;
  EXPECT_EQ(first, userKernel().digest);
  EXPECT_FALSE(first.empty());
  const Clock::time_point t0 = Clock::now();
  watch.poll(model, t0);  // nothing changed
  EXPECT_EQ(model.filter().userKernel, first);

  writeFile("watched.cl", "__kernel void convolve() { /* saved again */ }\n");
  watch.poll(model, t0 + std::chrono::milliseconds(500));  // within the second: not looked at yet
  EXPECT_EQ(model.filter().userKernel, first);
  watch.poll(model, t0 + std::chrono::milliseconds(1100));
  const std::string second = model.filter().userKernel;
  EXPECT_NE(second, first) << "the save was not seen";
  EXPECT_EQ(userKernel(second).text, "__kernel void convolve() { /* saved again */ }\n");
  EXPECT_EQ(userKernel(first).text, "__kernel void convolve() {}\n") << "the version before is kept";

  // Gone for a moment (a save by rename), then back with new text.
  std::remove(path.c_str());
  watch.poll(model, t0 + std::chrono::milliseconds(2200));
  EXPECT_EQ(model.filter().userKernel, second);
  EXPECT_EQ(watch.error(), "");
  writeFile("watched.cl", "__kernel void convolve() { /* third */ }\n");
  watch.poll(model, t0 + std::chrono::milliseconds(3300));
  EXPECT_NE(model.filter().userKernel, second) << "the file that came back was not read";
}

TEST(KernelFileWatch, AFileThatCannotBeReadIsASentenceAndChangesNothing) {
  ViewerModel model;
  KernelFileWatch watch;
  const std::string before = model.filter().userKernel;
  const std::string missing = testing::TempDir() + "/missing-kernel.cl";
  EXPECT_EQ(watch.load(model, missing), "Cannot read the kernel file " + missing + ": No such file or directory.");
  EXPECT_EQ(watch.error(), "Cannot read the kernel file " + missing + ": No such file or directory.");
  EXPECT_EQ(model.filter().userKernel, before);
}

TEST(ViewerModel, ANewVersionOfTheUsersKernelThatFailsGivesWayToTheOneBefore) {
  ViewerModel model;
  KernelFileWatch watch;
  ASSERT_EQ(watch.load(model, writeFile("good.cl", "__kernel void convolve() { /* good */ }\n")), "");
  ASSERT_TRUE(model.setVariant(VariantId::User));
  const std::string good = model.filter().userKernel;
  const std::uint64_t before = model.notices();
  ASSERT_EQ(watch.load(model, writeFile("bad.cl", "__kernel void convolve() { typo }\n")), "");
  ASSERT_NE(model.filter().userKernel, good);
  EXPECT_EQ(model.notices(), before + 1) << "a new version while user plays is not said";
  EXPECT_NE(model.notice().find("its new version is built beside what plays"), std::string::npos) << model.notice();
  const std::uint64_t version = model.version(), notices = model.notices();
  model.noteVariantFailure(VariantId::User, "The kernel file bad.cl does not build; the compiler's log follows.");
  EXPECT_EQ(model.filter().userKernel, good) << "the last good version does not run on";
  EXPECT_EQ(model.variant(), VariantId::User) << "user gave way to another variant";
  EXPECT_TRUE(model.variantUnusableReason(VariantId::User).empty()) << "the next save would not be tried";
  EXPECT_GT(model.version(), version);
  EXPECT_EQ(model.notices(), notices + 1);
  EXPECT_NE(model.notice().find("last one that built runs on"), std::string::npos) << model.notice();
}

}  // namespace
}  // namespace liveconv::ui
