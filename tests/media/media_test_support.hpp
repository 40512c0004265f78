// What the media suites share: running a shell command (or liveconv) and
// reading what it printed and how it ended.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "liveconv/media/ffmpeg_compat.hpp"
#include "shell.hpp"
#include "stream.hpp"

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/display.h>
}

namespace liveconv::media::test_media {

using liveconv::test::Result;
using liveconv::test::shell;

inline Result liveconv(const std::string& args) {
  return shell(std::string(LIVECONV_BIN) + " " + args);
}

// Options for runStream that print no progress line.
inline app::StreamOptions quietStream() {
  app::StreamOptions o;
  o.progress = app::ProgressStyle::Quiet;
  return o;
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// 'text' for sh, whatever it holds (spaces, ':', quotes, non-ASCII).
inline std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The media suites' folder, one per test program (outputs, the clips a test makes for
// itself), removed when the program ends.
inline std::string tempDir() {
  static const std::string dir = [] {
    const std::filesystem::path p =
        std::filesystem::path(::testing::TempDir()) / ("liveconv_media_" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p.string();
  }();
  return dir;
}

class TempDirCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(tempDir(), ignored);
  }
};
inline const auto* const kTempDirCleanup = ::testing::AddGlobalTestEnvironment(new TempDirCleanup);

// The presentation times of a file's video frames, as ffprobe decodes them.
inline std::vector<double> frameTimes(const std::string& path) {
  const Result r = shell("ffprobe -v error -select_streams v:0 -show_entries frame=pts_time -of csv=p=0 " + path);
  std::vector<double> times;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && (std::isdigit(static_cast<unsigned char>(line[0])) || line[0] == '-')) times.push_back(std::stod(line));
  return times;
}

// One tick of a file's video time base, in seconds (-1: none).
inline double videoTick(const std::string& path) {
  const Result r = shell("ffprobe -v error -select_streams v:0 -show_entries stream=time_base -of csv=p=0 " + path);
  int num = 0, den = 0;
  return std::sscanf(r.output.c_str(), "%d/%d", &num, &den) == 2 && den > 0 ? double(num) / den : -1;
}

// Copies `in`'s video into `out` with a display matrix rotating by `degrees`
// (av_display_rotation_set's angle, counter-clockwise: 90 reads rotation=-90 in ffprobe).
inline bool remuxRotated(const std::string& in, const std::string& out, double degrees) {
  av_log_set_level(AV_LOG_ERROR);  // FFV1 in MOV has no QuickTime tag: said at every header
  AVFormatContext* input = nullptr;
  if (avformat_open_input(&input, in.c_str(), nullptr, nullptr) < 0) return false;
  avformat_find_stream_info(input, nullptr);
  AVFormatContext* output = nullptr;
  avformat_alloc_output_context2(&output, nullptr, nullptr, out.c_str());
  AVStream* video = avformat_new_stream(output, nullptr);
  avcodec_parameters_copy(video->codecpar, input->streams[0]->codecpar);
  video->codecpar->codec_tag = 0;
  video->time_base = input->streams[0]->time_base;
  auto* matrix = reinterpret_cast<int32_t*>(ffmpeg_compat::newStreamSideData(video, AV_PKT_DATA_DISPLAYMATRIX, 36));
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

// ffprobe's line for the video's display matrix ("rotation=-90"), or "" when it has none.
inline std::string probeRotation(const std::string& path) {
  const Result r = shell("ffprobe -v error -select_streams v:0 -show_streams " + path);
  const auto at = r.output.find("rotation=");
  return at == std::string::npos ? "" : r.output.substr(at, r.output.find('\n', at) - at);
}

}  // namespace liveconv::media::test_media
