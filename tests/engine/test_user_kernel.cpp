// A variant of the user's own (`--kernel-file FILE.cl`, the variant `user`):
// a file that cannot be read is one sentence; a kernel that does not build is
// refused with the compiler's log; one that computes wrong is refused with the
// first pixel that differs, before any frame; a correct one runs, matches the
// reference, and is raced by `auto` beside the built-in variants, its race
// remembered apart. docs/examples/skip_zero_taps.cl, the docs' worked example,
// is the correct one (the variant sweep runs it too, as the row `user`).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "file_text.hpp"
#include "liveconv/autotune.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/reference.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

namespace fs = std::filesystem;

const std::string kExample = std::string(LIVECONV_SOURCE_DIR) + "/docs/examples/skip_zero_taps.cl";

// A kernel file in the test's temp folder.
std::string writeKernel(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// The example's signature with a body of one's own.
std::string kernelWithBody(const std::string& body) {
  return "__kernel void convolve(__global const uchar* src, int srcPitch, __global uchar* dst, int dstPitch,\n"
         "                       int width, int height, __constant float* mask, int maskW, int maskH,\n"
         "                       float scale, float offset) {\n"
         "  const int x = get_global_id(0);\n"
         "  const int y = get_global_id(1);\n"
         "  if (x >= width || y >= height) return;\n" +
         body + "}\n";
}

// What a user kernel's build says: its sentence and its log.
struct Refusal {
  std::string sentence, log;
};
Refusal refusalOf(const std::shared_ptr<DeviceContext>& ctx, const Mask& mask, PixelFormat format) {
  Convolver conv(ctx, std::make_shared<ProgramCache>(), nullptr);
  conv.setParams({mask, BorderMode::Clamp, AlphaMode::PassThrough, VariantId::User, {}, 0, {}});
  const Image in = randomImage(40, 30, format, 3);
  Image out(40, 30, format);
  try {
    conv.process(in.view(), out.view());
  } catch (const BuildError& e) {
    return {e.what(), e.buildLog()};
  }
  return {};
}

TEST(UserKernel, AFileThatCannotBeReadIsOneSentence) {
  EXPECT_THROW(loadUserKernel(testing::TempDir() + "/no-such-kernel.cl"), InvalidArgument);
  try {
    loadUserKernel(testing::TempDir() + "/no-such-kernel.cl");
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "Cannot read the kernel file " + testing::TempDir() + "/no-such-kernel.cl: No such file or directory.");
  }
  const std::string folder = testing::TempDir() + "/a-folder.cl";
  fs::create_directories(folder);
  try {
    loadUserKernel(folder);
    ADD_FAILURE() << "a folder was taken as a kernel file";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "The kernel file " + folder + " is a folder; give a .cl file.");
  }
  const std::string empty = writeKernel("empty.cl", "\n  \n");
  try {
    loadUserKernel(empty);
    ADD_FAILURE() << "an empty file was taken as a kernel";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("is empty"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(userKernelLoaded()) << "a refused file was loaded";
}

TEST(UserKernel, TheVariantUserWithoutAFileIsRefusedInOneSentence) {
  EXPECT_FALSE(variantAvailable(variantInfo(VariantId::User)));
  EXPECT_TRUE(variantAvailable(variantInfo(VariantId::Local)));
  ParamValues values = defaultParams();
  setParam(values, ParamId::Variant, "user");
  try {
    applyKernelFile(values);
    ADD_FAILURE() << "user ran without a kernel file";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "The variant user runs a kernel of your own: give its file with --kernel-file FILE.cl.");
  }
  // Not loaded: no race has it, so no cached choice names it.
  EXPECT_TRUE(racePlan(variantInfo(VariantId::User), true).packets.empty());
  EXPECT_TRUE(racePlan(variantInfo(VariantId::User), false).packets.empty());
}

TEST(UserKernel, TheExampleMatchesTheReferenceAtEveryBorderAndFormat) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  ParamValues values = defaultParams();
  setParam(values, ParamId::KernelFile, kExample);
  setParam(values, ParamId::Variant, "user");
  applyKernelFile(values);
  ASSERT_TRUE(userKernelLoaded());
  EXPECT_TRUE(variantAvailable(variantInfo(VariantId::User)));
  auto cache = std::make_shared<ProgramCache>();
  int cases = 0;
  for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8})
    for (BorderMode border : {BorderMode::Clamp, BorderMode::Mirror, BorderMode::Wrap, BorderMode::Zero})
      for (const Mask& mask : {test::integerMask(3, 7), parseMaskSpec("motion45:7"), test::floatMask(5, 5, 9)})
        for (const auto& [w, h] : {std::pair{17, 13}, std::pair{5, 3}}) {
          Convolver conv(ctx, cache, nullptr);
          conv.setParams({mask, border, AlphaMode::PassThrough, VariantId::User, {}, 0, {}});
          const Image in = randomImage(w, h, format, 5);
          Image got(w, h, format), want(w, h, format);
          conv.process(in.view(), got.view());
          convolveReference(in.view(), want.view(), mask, border, AlphaMode::PassThrough);
          const auto mismatch = compareImages(got.view(), want.view(), mask.toleranceLsb(maxSampleValue(format)));
          EXPECT_FALSE(mismatch) << toString(format) << " " << toString(border) << " " << mask.width << "x"
                                 << mask.height << " on " << w << "x" << h << ": " << mismatch->toString();
          EXPECT_EQ(conv.activeKernel(format, w, h).variant, VariantId::User);
          ++cases;
        }
  EXPECT_EQ(cases, 48);
}

TEST(UserKernel, AKernelThatDoesNotBuildIsRefusedWithTheCompilersLog) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string path = writeKernel("broken.cl", kernelWithBody("  dst[y * dstPitch + x] = undeclared_thing;\n"));
  loadUserKernel(path);
  const Refusal r = refusalOf(ctx, test::integerMask(3, 3), PixelFormat::GRAY8);
  EXPECT_EQ(r.sentence, "The kernel file " + path + " does not build; the compiler's log follows.");
  EXPECT_NE(r.log.find("undeclared_thing"), std::string::npos) << "the log does not name the error:\n" << r.log;
}

TEST(UserKernel, AKernelThatComputesWrongIsRefusedWithTheFirstPixelThatDiffers) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  // Right everywhere but the last column, which it leaves as the source: a
  // border a kernel gets wrong is the kind of error the check is for.
  const std::string path = writeKernel(
      "wrong.cl",
      kernelWithBody("  pixf acc = (pixf)(0.0f);\n"
                     "  for (int j = 0; j < maskH; ++j)\n"
                     "    for (int i = 0; i < maskW; ++i)\n"
                     "      acc = fma((pixf)(mask[j * maskW + i]),\n"
                     "                load_bordered(src, srcPitch, x + i - maskW / 2, y + j - maskH / 2,\n"
                     "                              width, height), acc);\n"
                     "  if (x == width - 1) acc = load_bordered(src, srcPitch, x, y, width, height) / scale;\n"
                     "  store_result(dst, dstPitch, src, srcPitch, x, y, acc, scale, offset);\n"));
  loadUserKernel(path);
  const Refusal r = refusalOf(ctx, test::integerMask(3, 3), PixelFormat::GRAY8);
  EXPECT_EQ(r.sentence.rfind("The kernel file " + path + " computes wrong results: first mismatch at (52, ", 0), 0u)
      << r.sentence;
  EXPECT_NE(r.log.find("53x37"), std::string::npos) << r.log;
}

TEST(UserKernel, AutoRacesItBesideTheBuiltInVariantsAndRemembersItApart) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string cachePath = testing::TempDir() + "/user_kernel_race.tsv";
  std::remove(cachePath.c_str());
  auto tuner = std::make_shared<AutoTuner>(cachePath);
  auto cache = std::make_shared<ProgramCache>();
  const FilterParams params{
      parseMaskSpec("motion45:7"), BorderMode::Clamp, AlphaMode::PassThrough, VariantId::Auto, {}, 0, {}};
  // Raced without the user's kernel: that answer does not stand for a race with it.
  tuner->resolve(ctx, cache, params, PixelFormat::GRAY8, 64, 48);
  ASSERT_TRUE(tuner->lookup(ctx->info, params, PixelFormat::GRAY8, 64, 48).has_value());
  loadUserKernel(kExample);
  EXPECT_FALSE(tuner->lookup(ctx->info, params, PixelFormat::GRAY8, 64, 48).has_value())
      << "a race without the user's kernel answered for one with it";
  tuner->resolve(ctx, cache, params, PixelFormat::GRAY8, 64, 48);
  ASSERT_TRUE(tuner->lookup(ctx->info, params, PixelFormat::GRAY8, 64, 48).has_value());
  ASSERT_TRUE(tuner->lastReport());
  const RaceReport report = *tuner->lastReport();
  bool raced = false;
  for (const RaceEntry& e : report.entries)
    if (e.params.variant == VariantId::User) {
      raced = true;
      EXPECT_EQ(e.outcome, "ok");
      EXPECT_GT(e.kernelMs, 0);
    }
  EXPECT_TRUE(raced) << "auto did not race the user's kernel";
  EXPECT_GT(report.entries.size(), 1u) << "the built-in variants were not raced beside it";
  // Another version of the file is another candidate: raced again, not answered from the cache.
  loadUserKernel(writeKernel("edited.cl", "// edited\n" + test::readFile(kExample)));
  EXPECT_FALSE(tuner->lookup(ctx->info, params, PixelFormat::GRAY8, 64, 48).has_value());
}

// A wrong kernel in a race is left out with its reason; auto runs another.
TEST(UserKernel, AWrongKernelLosesTheRaceWithItsReason) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  loadUserKernel(
      writeKernel("zero.cl", kernelWithBody("  store_result(dst, dstPitch, src, srcPitch, x, y, (pixf)(0.0f), "
                                            "scale, offset);\n")));
  auto tuner = std::make_shared<AutoTuner>("");
  const FilterParams params{
      test::integerMask(3, 3), BorderMode::Clamp, AlphaMode::PassThrough, VariantId::Auto, {}, 0, {}};
  const RaceReport report = tuner->race(ctx, std::make_shared<ProgramCache>(), params, PixelFormat::RGBA8, 64, 48);
  ASSERT_GE(report.chosen, 0);
  EXPECT_NE(report.entries[static_cast<std::size_t>(report.chosen)].params.variant, VariantId::User);
  bool said = false;
  for (const RaceEntry& e : report.entries)
    if (e.params.variant == VariantId::User)
      said = e.outcome.find("computes wrong results: first mismatch") != std::string::npos ||
             e.outcome.find("wrong result") != std::string::npos;
  EXPECT_TRUE(said) << "the race did not say why the user's kernel was left out";
}

}  // namespace
}  // namespace liveconv
