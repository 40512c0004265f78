// --hwaccel: decoding on hardware through FFmpeg, and what happens where the
// hardware is not there. Every case compares the frames with those of the CPU
// decoder (--hwaccel none): the same file, the same filter, the same bytes.
// On a machine where a hardware decoder opens (the GPU machine's cuda) the
// frames must still be those bytes; scripts/gpu-hwaccel-check.sh runs the
// same comparison there, frame by frame.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "media/media_clips.hpp"
#include "media/media_test_support.hpp"

namespace liveconv::media {
namespace {

using test_media::has;
using test_media::liveconv;
using test_media::quoted;
using test_media::Result;
using test_media::tempDir;

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The filtered frames of `clip` decoded as --hwaccel says (raw RGBA, box:3 on the device).
Result filterWith(const std::string& clip, const std::string& hwaccel, const std::string& out,
                  const std::string& extra = "") {
  return liveconv("run " + quoted(clip) + " -o " + quoted(out) + " -y --mask box:3 --hwaccel " + hwaccel + " " + extra);
}

TEST(Hwaccel, AnUnknownNameIsABadCommandLine) {
  const Result r = liveconv("run --hwaccel warp-drive -o null --frames 1");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "--hwaccel 'warp-drive' is not a hardware decoder this FFmpeg knows; use none, auto"))
      << r.output;
  EXPECT_TRUE(has(r.output, "vaapi")) << "the sentence names the decoders FFmpeg knows: " << r.output;
  EXPECT_EQ(liveconv("run --hwaccel -o null").exitCode, 2);
}

const test_media::Clip kHwaccelH264Mp4 = test_media::sharedClip(
    "hwaccel_h264.mp4", "-f lavfi -i testsrc2=size=176x100:rate=25 -frames:v 12 -c:v libx264 -pix_fmt yuv420p");

// For each hardware decoder a Linux machine may have: the frames are the CPU
// decoder's, and where the device does not open one line says why.
TEST(Hwaccel, EveryDecoderGivesTheFramesOfTheCpuDecoder) {
  REQUIRE_CLIP(clip, kHwaccelH264Mp4);
  const std::string cpu = tempDir() + "/hwaccel_none.rgba";
  const Result none = filterWith(clip, "none", cpu);
  ASSERT_EQ(none.exitCode, 0) << none.output;
  EXPECT_FALSE(has(none.output, "--hwaccel")) << "no line without --hwaccel: " << none.output;
  EXPECT_FALSE(has(none.output, "decoded")) << none.output;
  const std::string want = fileBytes(cpu);
  ASSERT_EQ(want.size(), std::size_t(176) * 100 * 4 * 12);
  for (const char* type : {"cuda", "vaapi"}) {
    SCOPED_TRACE(type);
    const std::string out = tempDir() + "/hwaccel_" + type + ".rgba";
    const Result r = filterWith(clip, type, out);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(fileBytes(out) == want) << "the frames differ from the CPU decoder's";
    const bool fellBack = has(r.output, std::string("--hwaccel ") + type + ": ");
    if (fellBack) {
      EXPECT_TRUE(has(r.output, std::string("no ") + type + " device opens here (")) << r.output;
      EXPECT_TRUE(has(r.output, "; decoding on the CPU.")) << r.output;
      EXPECT_TRUE(has(r.output, "decoded on the CPU)")) << "the run line names the decoder: " << r.output;
    } else {
      EXPECT_TRUE(has(r.output, std::string("decoded by ") + type + ")")) << r.output;
    }
  }
}

const test_media::Clip kHwaccelAutoMp4 = test_media::sharedClip(
    "hwaccel_auto.mp4", "-f lavfi -i testsrc2=size=160x96:rate=25 -frames:v 20 -c:v libx264 -pix_fmt yuv420p");

// auto on a machine with no hardware decoder: one line names each reason, the
// CPU decodes, nothing is cached (a driver installed later is measured then).
// Where a hardware decoder opens, auto measures and keeps its choice: the
// second run says it was measured before.
TEST(Hwaccel, AutoMeasuresWhereHardwareOpensAndSaysWhyNotWhereNone) {
  REQUIRE_CLIP(clip, kHwaccelAutoMp4);
  const std::string cache = tempDir() + "/decoders.tsv";
  std::filesystem::remove(cache);
  const std::string env = "LIVECONV_DECODER_CACHE=" + quoted(cache) + " ";
  const std::string cpu = tempDir() + "/auto_none.rgba", out = tempDir() + "/auto.rgba";
  ASSERT_EQ(filterWith(clip, "none", cpu).exitCode, 0);
  const Result first = test_media::shell(env + LIVECONV_BIN + " run " + quoted(clip) + " -o " + quoted(out) +
                                         " -y --mask box:3 --hwaccel auto");
  ASSERT_EQ(first.exitCode, 0) << first.output;
  EXPECT_TRUE(fileBytes(out) == fileBytes(cpu)) << "the frames differ from the CPU decoder's";
  if (has(first.output, "--hwaccel auto: no hardware decoder for h264 160x96 here (")) {
    EXPECT_TRUE(has(first.output, "no cuda device opens here")) << first.output;
    EXPECT_TRUE(has(first.output, "); decoding on the CPU.")) << first.output;
    EXPECT_FALSE(std::filesystem::exists(cache)) << "nothing measured, nothing kept";
    return;
  }
  EXPECT_TRUE(has(first.output, "(measured on its first frames: CPU ")) << first.output;
  EXPECT_TRUE(has(fileBytes(cache), "|h264|")) << fileBytes(cache);
  const Result second = test_media::shell(env + LIVECONV_BIN + " run " + quoted(clip) + " -o null --hwaccel auto");
  EXPECT_TRUE(has(second.output, "(measured before for h264 160x96 on this machine)")) << second.output;
}

}  // namespace
}  // namespace liveconv::media
