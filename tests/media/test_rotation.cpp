// The display orientation an input carries (its display matrix: a phone's
// portrait clip is stored on its side) survives `run` in every output: the
// picture is filtered as a player shows it (the mask turns with it), and the
// output shows it the same way, through its own matrix where the container
// keeps one, else with its pixels turned. The truth is ffmpeg's autorotate:
// the clip turned upright by ffmpeg and filtered by liveconv must give the
// same pixels, exactly (FFV1 and raw frames are lossless).
//
// The ffmpeg command of Debian 12 cannot set a display matrix, so the test
// clips are remuxed with libavformat and the matrix set by hand (remuxRotated).
#include <gtest/gtest.h>

#include <string>

#include "liveconv/media/ffmpeg_compat.hpp"
#include "media_test_support.hpp"
#include "test_support.hpp"

extern "C" {
#include <libavformat/avformat.h>
}

namespace liveconv::media::test_media {
namespace {

std::string probeSize(const std::string& path) {
  return shell("ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0:s=x " + path).output;
}

// Whether two videos show the same pixels, as ffmpeg decodes them (turned by
// their display matrices unless `asStored`): PSNR inf on every frame.
bool samePixels(const std::string& a, const std::string& b, bool asStored = false) {
  const std::string noRotate = asStored ? " -noautorotate" : "";
  const Result r = shell("ffmpeg -hide_banner -nostats" + noRotate + " -i " + a + noRotate + " -i " + b +
                         " -lavfi '[0:v]format=rgba[a];[1:v]format=rgba[b];[a][b]psnr' -f null -");
  return has(r.output, "average:inf") && has(r.output, "min:inf");
}

// Asymmetric and not square: a mask that did not turn with the picture gives other pixels.
const char* const kMask = "'5x3:1,0,0,0,2,0,3,0,0,1,0,0,1,0,4;divisor=13'";

TEST(Orientation, EveryOutputShowsTheInputAsAPlayerDoesFiltered) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string dir = tempDir() + "/orientation", stored = dir + "/stored.mkv";
  std::filesystem::create_directories(dir);
  Result r = shell("ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=160x96:rate=25 -frames:v 4 "
                   "-pix_fmt yuv444p -c:v ffv1 " + stored);
  if (r.exitCode != 0) GTEST_SKIP() << "SKIP: the ffmpeg command could not make the test clip: " << r.output;
  const std::string run = " -y --mask " + std::string(kMask) + " --variant naive";
  for (const double angle : {90.0, 180.0, -90.0}) {
    const std::string tag = std::to_string(static_cast<int>(angle)), rotated = dir + "/rotated" + tag + ".mov";
    SCOPED_TRACE("display matrix of " + tag + " degrees");
    ASSERT_TRUE(remuxRotated(stored, rotated, angle));
    ASSERT_FALSE(probeRotation(rotated).empty()) << "the test clip has no rotation";
    // The truth: ffmpeg turns the clip upright (its autorotate), liveconv filters that.
    const std::string upright = dir + "/upright" + tag + ".mkv", want = dir + "/want" + tag;
    ASSERT_EQ(shell("ffmpeg -hide_banner -loglevel error -y -i " + rotated + " -c:v ffv1 " + upright).exitCode, 0);
    ASSERT_EQ(liveconv("run " + upright + " -o " + want + ".mkv --quiet" + run).exitCode, 0);
    ASSERT_EQ(liveconv("run " + upright + " -o " + want + ".rgba --quiet" + run).exitCode, 0);
    for (const std::string container : {"mov", "mkv", "nut", "avi", "rgba"}) {
      SCOPED_TRACE(container);
      const std::string out = dir + "/out" + tag + "." + container;
      r = liveconv("run " + rotated + " -o " + out + run + (container == "mov" ? " --codec ffv1" : ""));
      ASSERT_EQ(r.exitCode, 0) << r.output;
      EXPECT_TRUE(has(r.output, "the mask turns with it")) << r.output;
      if (container == "rgba") {
        EXPECT_TRUE(has(r.output, "raw frames keep no display rotation, so the frames of")) << r.output;
        EXPECT_EQ(shell("cmp " + out + " " + want + ".rgba").exitCode, 0) << "the raw frames are not the upright ones";
        continue;
      }
      AVFormatContext* probe = nullptr;
      avformat_alloc_output_context2(&probe, nullptr, nullptr, out.c_str());
      const bool keeps = ffmpeg_compat::muxerWritesDisplayMatrix(probe->oformat);
      avformat_free_context(probe);
      if (keeps) {
        EXPECT_FALSE(probeRotation(out).empty()) << "the rotation is lost";
        EXPECT_EQ(probeSize(out), probeSize(rotated)) << "the pixels are kept as stored";
      } else {
        EXPECT_EQ(probeRotation(out), "");
        EXPECT_EQ(probeSize(out), probeSize(upright)) << "the pixels are not turned";
        EXPECT_TRUE(has(r.output, "keeps no display rotation, so the frames of")) << r.output;
      }
      EXPECT_TRUE(samePixels(out, want + ".mkv")) << "what a player shows of " << out << " is not the upright clip filtered";
    }
  }
}

// --no-autorotate filters and writes the picture as stored; the matrix stays where the container keeps it.
TEST(Orientation, NoAutorotateKeepsThePixelsAsStored) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string dir = tempDir() + "/no_autorotate", stored = dir + "/stored.mkv", rotated = dir + "/rotated.mov";
  std::filesystem::create_directories(dir);
  Result r = shell("ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=160x96:rate=25 -frames:v 3 "
                   "-pix_fmt yuv444p -c:v ffv1 " + stored);
  if (r.exitCode != 0) GTEST_SKIP() << "SKIP: the ffmpeg command could not make the test clip: " << r.output;
  ASSERT_TRUE(remuxRotated(stored, rotated, 90));
  const std::string run = " -y --no-autorotate --mask " + std::string(kMask) + " --variant naive";
  ASSERT_EQ(liveconv("run " + stored + " -o " + dir + "/want.mkv --quiet" + run).exitCode, 0);
  r = liveconv("run " + rotated + " -o " + dir + "/out.nut" + run);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "--no-autorotate filters it as stored")) << r.output;
  EXPECT_TRUE(has(r.output, "nut keeps no display rotation: " + dir + "/out.nut holds the frames as stored")) << r.output;
  EXPECT_EQ(probeSize(dir + "/out.nut"), probeSize(stored));
  EXPECT_TRUE(samePixels(dir + "/out.nut", dir + "/want.mkv"));
  r = liveconv("run " + rotated + " -o " + dir + "/out.mov --codec ffv1" + run);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(probeRotation(dir + "/out.mov"), probeRotation(rotated));
  EXPECT_TRUE(samePixels(dir + "/out.mov", dir + "/want.mkv", /*asStored=*/true));
}

// H.264 in MP4, the phone's own format: the matrix is kept as it came.
TEST(Orientation, APhoneClipKeepsItsRotationInMp4) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string dir = tempDir() + "/phone", plain = dir + "/plain.mp4", rotated = dir + "/rotated.mp4";
  std::filesystem::create_directories(dir);
  Result r = shell("ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 5 "
                   "-c:v libx264 -pix_fmt yuv420p " + plain);
  if (r.exitCode != 0) GTEST_SKIP() << "SKIP: the ffmpeg command could not make the test clip: " << r.output;
  ASSERT_TRUE(remuxRotated(plain, rotated, 90));
  ASSERT_EQ(probeRotation(rotated), "rotation=-90");
  for (const char* container : {"mp4", "mov"}) {
    const std::string out = dir + "/out." + container;
    r = liveconv("run " + rotated + " -o " + out + " -y --quiet --mask box:3 --variant naive");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(probeRotation(out), "rotation=-90") << container;
  }
}

}  // namespace
}  // namespace liveconv::media::test_media
