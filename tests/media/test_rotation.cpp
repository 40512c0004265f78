// The rotation an input carries (its display matrix: a phone's portrait clip)
// reaches run's output. The ffmpeg command of Debian 12 cannot write one, so
// the test clip is remuxed here with libavformat and the matrix set by hand.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "media/ffmpeg_compat.hpp"
#include "test_support.hpp"

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/display.h>
}

namespace {

namespace fs = std::filesystem;

std::string shell(const std::string& cmd, int* exitCode = nullptr) {
  std::string out;
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  if (!pipe) return out;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  const int status = pclose(pipe);
  if (exitCode) *exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// Copies `in` into `out` (MP4) with a display matrix rotating by `degrees`
// (counter-clockwise; ffprobe shows 90 as rotation=-90).
bool remuxRotated(const std::string& in, const std::string& out, double degrees) {
  AVFormatContext* input = nullptr;
  if (avformat_open_input(&input, in.c_str(), nullptr, nullptr) < 0) return false;
  avformat_find_stream_info(input, nullptr);
  AVFormatContext* output = nullptr;
  avformat_alloc_output_context2(&output, nullptr, nullptr, out.c_str());
  AVStream* video = avformat_new_stream(output, nullptr);
  avcodec_parameters_copy(video->codecpar, input->streams[0]->codecpar);
  video->codecpar->codec_tag = 0;
  video->time_base = input->streams[0]->time_base;
  auto* matrix = reinterpret_cast<int32_t*>(liveconv::app::ffmpeg_compat::newStreamSideData(video, AV_PKT_DATA_DISPLAYMATRIX, 36));
  av_display_rotation_set(matrix, degrees);
  bool ok = avio_open(&output->pb, out.c_str(), AVIO_FLAG_WRITE) >= 0 && avformat_write_header(output, nullptr) >= 0;
  AVPacket* packet = av_packet_alloc();
  while (ok && av_read_frame(input, packet) >= 0) {
    if (packet->stream_index == 0) {
      av_packet_rescale_ts(packet, input->streams[0]->time_base, video->time_base);
      packet->pos = -1;
      ok = av_interleaved_write_frame(output, packet) >= 0;
    }
    av_packet_unref(packet);
  }
  ok = ok && av_write_trailer(output) >= 0;
  av_packet_free(&packet);
  avio_closep(&output->pb);
  avformat_free_context(output);
  avformat_close_input(&input);
  return ok;
}

TEST(MediaMetadata, RotationReachesTheOutput) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const fs::path dir = fs::path(::testing::TempDir()) / ("liveconv_rotation_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string plain = (dir / "plain.mp4").string(), rotated = (dir / "rotated.mp4").string();
  int rc = 0;
  shell("ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 5 -c:v libx264 "
        "-pix_fmt yuv420p " + plain, &rc);
  if (rc != 0) GTEST_SKIP() << "SKIP: the ffmpeg command could not make the test clip";
  ASSERT_TRUE(remuxRotated(plain, rotated, 90));
  const std::string probeIn = shell("ffprobe -v error -show_streams " + rotated);
  ASSERT_NE(probeIn.find("rotation=-90"), std::string::npos) << "the test clip has no rotation:\n" << probeIn;
  for (const char* container : {"mp4", "mov"}) {  // Debian 12's FFmpeg (5.1) writes no rotation into Matroska
    const std::string out = (dir / (std::string("out.") + container)).string();
    shell(std::string(LIVECONV_BIN) + " run " + rotated + " -o " + out + " -y --quiet --mask box:3 --variant naive", &rc);
    ASSERT_EQ(rc, 0);
    const std::string probe = shell("ffprobe -v error -show_streams " + out);
    EXPECT_NE(probe.find("rotation=-90"), std::string::npos) << container << ":\n" << probe;
  }
  fs::remove_all(dir);
}

}  // namespace
