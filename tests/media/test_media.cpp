// The media path end to end: clips made here with the ffmpeg command, decoded
// with FfmpegSource, filtered by the pipeline, encoded to FFV1, decoded again
// and compared with the CPU reference frame by frame. Plus the CLI's answers
// to bad input. Frames are small and few, so the suite stays quick.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "liveconv/compare.hpp"
#include "liveconv/pipeline.hpp"
#include "liveconv/reference.hpp"
#include "media/ffmpeg_sink.hpp"
#include "media/ffmpeg_source.hpp"
#include "stream.hpp"
#include "test_support.hpp"

namespace liveconv::app {
namespace {

namespace fs = std::filesystem;

struct Result {
  int exitCode = -1;
  std::string output;
};

Result shell(const std::string& cmd) {
  Result r;
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Result liveconv(const std::string& args) {
  return shell(std::string(LIVECONV_BIN) + " " + args);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string tempDir() {
  static const std::string dir = [] {
    const fs::path p = fs::path(::testing::TempDir()) / ("liveconv_media_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p.string();
  }();
  return dir;
}

// A clip from a lavfi test source, made with the ffmpeg command; empty if there is none.
std::string makeClip(const std::string& name, const std::string& args) {
  const std::string path = tempDir() + "/" + name;
  if (fs::exists(path)) return path;
  const Result r = shell("ffmpeg -hide_banner -loglevel error -y " + args + " " + path);
  return r.exitCode == 0 ? path : "";
}

// Removes the clips when the test program ends.
class TempDirCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(tempDir(), ignored);
  }
};
const auto* const kCleanup = ::testing::AddGlobalTestEnvironment(new TempDirCleanup);

#define REQUIRE_CLIP(var, name, args)           \
  const std::string var = makeClip(name, args); \
  if (var.empty()) GTEST_SKIP() << "SKIP: the ffmpeg command could not make " name;

std::vector<Image> decodeAll(const std::string& path, PixelFormat format, long long* corrupt = nullptr) {
  FfmpegSource source(parseSourceSpec(path, ""), format);
  std::vector<Image> frames;
  Frame f;
  while (source.next(f)) frames.push_back(std::move(f.image));
  if (corrupt) *corrupt = source.corruptPackets();
  return frames;
}

FilterParams testParams() {
  FilterParams p;
  p.mask = test::integerMask(5, 5);
  p.variant = VariantId::Local;
  p.border = BorderMode::Clamp;
  return p;
}

// Collects the output frames in memory.
class CollectSink : public FrameSink {
 public:
  void write(const Frame& f) override { frames.push_back(f.image); }
  void finish() override { finished = true; }
  std::string describe() const override { return "memory"; }
  std::vector<Image> frames;
  bool finished = false;
};

void expectEachFrameIsTheReference(const std::vector<Image>& inputs, const std::vector<Image>& outputs,
                                   const FilterParams& p) {
  ASSERT_EQ(outputs.size(), inputs.size()) << "frame count in != frame count out";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    Image want(inputs[i].width(), inputs[i].height(), inputs[i].format());
    convolveReference(inputs[i].view(), want.view(), p.mask, p.border, p.alpha);
    ASSERT_EQ(outputs[i].width(), want.width()) << "frame " << i;
    ASSERT_EQ(outputs[i].height(), want.height()) << "frame " << i;
    const auto m = compareImages(outputs[i].view(), want.view(), 0);
    ASSERT_FALSE(m) << "frame " << i << ": " << m->toString();
  }
}

StreamOptions quiet() {
  StreamOptions o;
  o.progress = ProgressStyle::Quiet;
  return o;
}

TEST(Media, LosslessFileToFfv1KeepsEveryFrameAndEachEqualsTheReference) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, "in.avi", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 12 -c:v mpeg4 -q:v 4");
  for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
    const std::vector<Image> inputs = decodeAll(clip, format);
    ASSERT_EQ(inputs.size(), 12u);
    const std::string out = tempDir() + "/out_" + toString(format) + ".mkv";
    {
      FfmpegSource source(parseSourceSpec(clip, ""), format);
      EncoderSink sink(out, "ffv1", 25, 1);
      PipelineOptions opt;
      opt.format = format;
      Pipeline pipeline(ctx, testParams(), opt);
      const StreamResult r = runStream(source, sink, pipeline, quiet());
      EXPECT_EQ(r.stats.framesIn, 12);
      EXPECT_EQ(r.stats.framesOut, 12);
    }
    expectEachFrameIsTheReference(inputs, decodeAll(out, format), testParams());
  }
}

TEST(Media, ResolutionChangeMidStreamIsFilteredAtEachSize) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(a, "a.ts", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 5 -c:v mpeg2video -q:v 3");
  REQUIRE_CLIP(b, "b.ts", "-f lavfi -i testsrc2=size=96x72:rate=25 -frames:v 5 -c:v mpeg2video -q:v 3");
  const std::string joined = tempDir() + "/joined.ts";
  {
    std::ofstream out(joined, std::ios::binary);
    out << std::ifstream(a, std::ios::binary).rdbuf() << std::ifstream(b, std::ios::binary).rdbuf();
  }
  const std::vector<Image> inputs = decodeAll(joined, PixelFormat::RGBA8);
  // The decoder may lose the last frame of the first part at the seam; what
  // matters is that every frame it delivers comes out, at its own size.
  ASSERT_GE(inputs.size(), 9u);
  ASSERT_EQ(inputs.front().width(), 160);
  ASSERT_EQ(inputs.back().width(), 96);
  FfmpegSource source(parseSourceSpec(joined, ""), PixelFormat::RGBA8);
  CollectSink sink;
  Pipeline pipeline(ctx, testParams(), PipelineOptions());
  runStream(source, sink, pipeline, quiet());
  EXPECT_TRUE(sink.finished);
  expectEachFrameIsTheReference(inputs, sink.frames, testParams());
}

TEST(Media, TruncatedAndCorruptFileDecodesToTheEndCountingBadPackets) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, "whole.ts", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 30 -c:v mpeg2video -g 5 -q:v 3");
  std::string bytes;
  {
    std::ifstream in(clip, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // Garbage in the middle, and the last 40% cut off mid-packet.
  for (std::size_t i = bytes.size() / 4; i < bytes.size() / 4 + 3000 && i < bytes.size(); i += 7)
    bytes[i] = char(i * 31);
  const std::string broken = tempDir() + "/broken.ts";
  std::ofstream(broken, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() * 6 / 10));
  long long corrupt = 0;
  const std::vector<Image> frames = decodeAll(broken, PixelFormat::RGBA8, &corrupt);
  EXPECT_GT(frames.size(), 5u);
  EXPECT_LT(frames.size(), 30u);
  const Result r = liveconv("run -i " + broken + " -o " + tempDir() + "/broken_out.mkv --device 0 --mask box:3");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "out " + std::to_string(frames.size()) + ",")) << r.output;
  EXPECT_EQ(decodeAll(tempDir() + "/broken_out.mkv", PixelFormat::RGBA8).size(), frames.size());
}

TEST(Media, CliFiltersAFileEndToEnd) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, "cli.avi", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 8 -c:v mpeg4");
  const std::string log = tempDir() + "/log.jsonl";
  const Result r = liveconv("run -i " + clip + " -o " + tempDir() +
                            "/cli_out.nut --mask sharpen --variant naive --border mirror --json-log " + log);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "frames: in 8, out 8, dropped 0")) << r.output;
  EXPECT_TRUE(has(r.output, "stage medians")) << r.output;
  std::ifstream in(log);
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  EXPECT_TRUE(has(json, "\"frames_out\":8")) << json;
  EXPECT_EQ(decodeAll(tempDir() + "/cli_out.nut", PixelFormat::RGBA8).size(), 8u);
}

TEST(Media, CtrlCFinishesTheFileAndExits130) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string out = tempDir() + "/interrupted.mkv";
  // A fixed variant: `auto` would race first, and an interrupt during the race
  // leaves nothing to finish. 4 s leaves room for kernel builds on a loaded machine.
  const Result r = shell("timeout --preserve-status -s INT 4 " + std::string(LIVECONV_BIN) +
                         " run -i lavfi:testsrc2=size=160x120:rate=25 -o " + out + " --mask box:3 --variant local");
  EXPECT_EQ(r.exitCode, 130) << r.output;
  EXPECT_TRUE(has(r.output, "interrupted")) << r.output;
  EXPECT_GT(decodeAll(out, PixelFormat::RGBA8).size(), 0u);  // the trailer is there: the file decodes
}

TEST(Media, BadInputGetsOneSentenceAndItsExitCode) {
  Result r = liveconv("run -i /nonexistent/clip.mp4");
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "Input /nonexistent/clip.mp4 does not exist.")) << r.output;

  const std::string text = tempDir() + "/not_video.mp4";
  std::ofstream(text) << "this is not a video\n";
  r = liveconv("run -i " + text);
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "is not a video file")) << r.output;

  r = liveconv("run -i camera:9");
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "Camera camera:9")) << r.output;

  r = liveconv("run -i lavfi:testsrc2 -o /nonexistent/dir/out.mkv");
  EXPECT_EQ(r.exitCode, 8) << r.output;
  EXPECT_TRUE(has(r.output, "Cannot write /nonexistent/dir/out.mkv")) << r.output;

  r = liveconv("run -i lavfi:testsrc2 -o " + tempDir() + "/x.mkv --codec nosuchcodec");
  EXPECT_EQ(r.exitCode, 8) << r.output;
  EXPECT_TRUE(has(r.output, "Unknown video encoder 'nosuchcodec'")) << r.output;

  r = liveconv("run --mask 3x3:1,2");
  EXPECT_EQ(r.exitCode, 2) << r.output;

  r = liveconv("run -i lavfi:testsrc2 --device nosuchdevice");
  EXPECT_EQ(r.exitCode, 3) << r.output;

  r = liveconv("cameras");
  EXPECT_EQ(r.exitCode, 0) << r.output;
}

}  // namespace
}  // namespace liveconv::app
