// The media path end to end: clips made here with the ffmpeg command, decoded
// with FfmpegSource, filtered by the pipeline, encoded to FFV1, decoded again
// and compared with the CPU reference frame by frame. Plus the CLI's answers
// to bad input. Frames are small and few, so the suite stays quick.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "liveconv/compare.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/media/ffmpeg_sink.hpp"
#include "liveconv/media/ffmpeg_source.hpp"
#include "liveconv/pipeline.hpp"
#include "liveconv/pipeline_convert.hpp"
#include "liveconv/reference.hpp"
#include "media/media_clips.hpp"
#include "media/media_test_support.hpp"
#include "media/test_waits.hpp"
#include "silent_listener.hpp"
#include "stream.hpp"
#include "test_support.hpp"

namespace liveconv::media {
namespace {

namespace fs = std::filesystem;

using test_media::frameTimes;
using test_media::has;
using test_media::liveconv;
using test_media::Result;
using test_media::shell;
using test_media::tempDir;
using test_media::videoTick;

using test_media::makeClip;

std::vector<Image> decodeAll(const std::string& path, PixelFormat format, long long* corrupt = nullptr) {
  FfmpegSource source(parseSourceSpec(path, ""), format);
  std::vector<Image> frames;
  Frame f;
  while (source.next(f)) frames.push_back(std::move(f.image));
  if (corrupt) *corrupt = source.corruptPackets();
  return frames;
}

// The frames as the device path sees them: the decoded planes, converted by
// the CPU reference of the device conversion. Fails the test on a frame that
// did not come as planes.
std::vector<Image> decodeAllThroughTheDeviceFormula(const std::string& path, PixelFormat format,
                                                    std::string* conversion = nullptr) {
  FfmpegSource source(parseSourceSpec(path, ""), format, ConvertMode::Gpu);
  std::vector<Image> frames;
  Frame f;
  while (source.next(f)) {
    EXPECT_FALSE(f.yuv.empty()) << "frame " << frames.size() << " of " << path << " was converted "
                                << source.conversionUsed();
    if (f.yuv.empty()) return {};
    Image img(f.yuv.width, f.yuv.height, format);
    convertYuvReference(f.yuv, img.view());
    frames.push_back(std::move(img));
  }
  if (conversion) *conversion = source.conversionUsed();
  return frames;
}

// The mean and the largest |difference| of two frames of one size and format, alpha left out.
std::pair<double, int> colourDifference(const Image& a, const Image& b) {
  double sum = 0;
  int worst = 0;
  long long values = 0;
  for (std::size_t k = 0; k < a.sizeBytes(); ++k) {
    if (a.format() == PixelFormat::RGBA8 && k % 4 == 3) continue;
    const int d = std::abs(int(a.data()[k]) - int(b.data()[k]));
    sum += d;
    worst = std::max(worst, d);
    ++values;
  }
  return {values ? sum / values : 0, worst};
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

const test_media::Clip kInAvi =
    test_media::sharedClip("in.avi", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 12 -c:v mpeg4 -q:v 4");

// libavdevice (the lavfi and v4l2 inputs) is loaded when a source needs it
// (liveconv/media/device_inputs.hpp), not at every start: a file's run maps none of it,
// a lavfi source's run loads it and plays, and --version names it.
TEST(Media, DeviceInputsAreLoadedOnlyForTheSourcesThatNeedThem) {
  REQUIRE_CLIP(clip, kInAvi);
  const std::string run = "LD_DEBUG=files " + std::string(LIVECONV_BIN) + " run --variant naive -o null -i ";
  const test_media::Result file = test_media::shell(run + test_media::quoted(clip));
  ASSERT_EQ(file.exitCode, 0) << file.output;
  EXPECT_TRUE(has(file.output, "libavformat.so")) << "LD_DEBUG=files names each library loaded:\n" << file.output;
  EXPECT_FALSE(has(file.output, "libavdevice.so")) << file.output;
  const test_media::Result lavfi = test_media::shell(run + "lavfi:testsrc2=size=64x48:rate=25:d=0.2");
  ASSERT_EQ(lavfi.exitCode, 0) << lavfi.output;
  EXPECT_TRUE(has(lavfi.output, "libavdevice.so")) << lavfi.output;
  EXPECT_TRUE(has(lavfi.output, "frames: in 5, out 5")) << lavfi.output;
  const test_media::Result version = test_media::liveconv("--version");
  EXPECT_TRUE(std::regex_search(version.output, std::regex("libavdevice [0-9]+\\.[0-9]+\\.[0-9]+"))) << version.output;
}

TEST(Media, LosslessFileToFfv1KeepsEveryFrameAndEachEqualsTheReference) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kInAvi);
  for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
    const std::vector<Image> inputs = decodeAll(clip, format);
    ASSERT_EQ(inputs.size(), 12u);
    const std::string out = tempDir() + "/out_" + toString(format) + ".mkv";
    {
      FfmpegSource source(parseSourceSpec(clip, ""), format);
      EncoderSink sink(out, "ffv1", SinkOptions{});
      PipelineOptions opt;
      opt.format = format;
      Pipeline pipeline(ctx, testParams(), opt);
      const app::StreamResult r = runStream(source, sink, pipeline, test_media::quietStream());
      EXPECT_EQ(r.stats.framesIn, 12);
      EXPECT_EQ(r.stats.framesOut, 12);
    }
    expectEachFrameIsTheReference(inputs, decodeAll(out, format), testParams());
  }
}

const test_media::Clip kI420Avi =
    test_media::sharedClip("i420.avi", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 6 -c:v mpeg4 -q:v 4");
const test_media::Clip kNv12Nut = test_media::sharedClip(
    "nv12.nut", "-f lavfi -i testsrc2=size=97x63:rate=25 -frames:v 4 -pix_fmt nv12 -c:v rawvideo");
const test_media::Clip kFullAvi = test_media::sharedClip(
    "full.avi", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 4 -pix_fmt yuvj420p -c:v mjpeg");
const test_media::Clip kBt709Mkv = test_media::sharedClip(
    "bt709.mkv", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 4 -pix_fmt yuv420p -colorspace bt709 -c:v ffv1");

// The same end to end on the device conversion path: the planes go up and
// kernels/convert.cl converts them; each output frame equals the reference
// filter of the reference conversion, for yuv420p (limited range, BT.601),
// nv12 and yuvj420p (full range), BT.709-tagged input, and (from lavfi) the
// packed 4:2:2 of webcams, 10-bit p010 and packed BGR at odd sizes.
TEST(Media, DeviceConversionLosslessToFfv1EqualsItsReferenceFrameByFrame) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(i420, kI420Avi);
  REQUIRE_CLIP(nv12, kNv12Nut);
  REQUIRE_CLIP(full, kFullAvi);
  REQUIRE_CLIP(bt709, kBt709Mkv);
  const std::vector<std::pair<std::string, std::string>> clips = {
      {i420, "yuv420p, bt601, limited"},
      {nv12, "nv12, bt601, limited"},
      {full, "full range"},
      {bt709, "bt709"},
      // What webcams and 10-bit files send, at odd sizes, straight from lavfi.
      {"lavfi:testsrc2=size=97x63:rate=25:d=0.16,format=yuyv422", "yuyv422, bt601, limited"},
      {"lavfi:testsrc2=size=65x47:rate=25:d=0.16,format=p010le", "p010le"},
      {"lavfi:testsrc2=size=64x48:rate=25:d=0.16,format=bgr24", "bgr24"}};
  for (const auto& [clip, described] : clips)
    for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
      std::string conversion;
      const std::vector<Image> inputs = decodeAllThroughTheDeviceFormula(clip, format, &conversion);
      ASSERT_FALSE(inputs.empty()) << clip;
      EXPECT_TRUE(has(conversion, described)) << clip << ": " << conversion;
      const std::string out = tempDir() + "/gpu_out_" + toString(format) + ".mkv";
      {
        FfmpegSource source(parseSourceSpec(clip, ""), format, ConvertMode::Gpu);
        EncoderSink sink(out, "ffv1", SinkOptions{});
        PipelineOptions opt;
        opt.format = format;
        opt.prepareYuvConversion = true;
        Pipeline pipeline(ctx, testParams(), opt);
        const app::StreamResult r = runStream(source, sink, pipeline, test_media::quietStream());
        EXPECT_EQ(r.stats.framesOut, static_cast<long long>(inputs.size()));
        EXPECT_EQ(r.stats.stages[static_cast<int>(Stage::Convert)].samples, r.stats.framesOut);
      }
      SCOPED_TRACE(clip + " " + toString(format));
      expectEachFrameIsTheReference(inputs, decodeAll(out, format), testParams());
    }
}

const test_media::Clip kFlat601Mkv = test_media::sharedClip(
    "flat601.mkv", "-f lavfi -i color=c=0x3366cc:size=64x48 -frames:v 1 -pix_fmt yuv420p -c:v ffv1");
const test_media::Clip kFlat709Mkv =
    test_media::sharedClip("flat709.mkv",
                           "-f lavfi -i color=c=0xcc8833:size=64x48 -frames:v 1 -pix_fmt yuv420p -colorspace bt709 "
                           "-vf scale=out_color_matrix=bt709 -c:v ffv1");
// Colours and end points named: gradients draws them at random otherwise (its seed does not fix them).
const test_media::Clip kSmoothMkv = test_media::sharedClip(
    "smooth.mkv",
    "-f lavfi -i gradients=size=160x120:c0=0x2040a0:c1=0xe0a040:nb_colors=2:x0=0:y0=0:x1=159:y1=119 "
    "-frames:v 2 -pix_fmt yuv420p -c:v ffv1");
const test_media::Clip kEdgesAvi =
    test_media::sharedClip("edges.avi", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 2 -c:v mpeg4 -q:v 2");

// The two conversion paths differ only by rounding and chroma placement:
// swscale interpolates chroma, the device takes the 2x2 block's sample. On a
// flat colour (BT.601 and BT.709) they agree within 1 LSB per value (measured:
// equal), so matrix and range are the same; on smooth gradients (a fixed
// seed, yet not the same picture every run) within 6 LSB, mean under 1
// (measured up to 4 and 0.46: the chroma step between 2x2 blocks); at sharp colour edges (testsrc2's bars) single pixels
// differ by up to ~140 and the mean is ~4 LSB, which is printed, not bounded.
// Luma (GRAY8) agrees within 1 LSB everywhere (measured: equal).
TEST(Media, DeviceAndSwscaleConversionsAgreeUpToRoundingAndChromaPlacement) {
  REQUIRE_CLIP(flat601, kFlat601Mkv);
  REQUIRE_CLIP(flat709, kFlat709Mkv);
  REQUIRE_CLIP(smooth, kSmoothMkv);
  REQUIRE_CLIP(edges, kEdgesAvi);
  struct Case {
    std::string clip;
    int toleranceLsb;     // per value, or -1 for none
    double meanBoundLsb;  // or 0 for none
  };
  for (const Case& c : {Case{flat601, 1, 0}, Case{flat709, 1, 0}, Case{smooth, 6, 1.0}, Case{edges, -1, 0}})
    for (PixelFormat format : {PixelFormat::GRAY8, PixelFormat::RGBA8}) {
      const std::vector<Image> cpu = decodeAll(c.clip, format);
      const std::vector<Image> gpu = decodeAllThroughTheDeviceFormula(c.clip, format);
      ASSERT_EQ(cpu.size(), gpu.size());
      for (std::size_t i = 0; i < cpu.size(); ++i) {
        const auto [mean, worst] = colourDifference(cpu[i], gpu[i]);
        std::printf("%s %s frame %zu: swscale vs device formula, mean |difference| %.3f LSB, largest %d\n",
                    fs::path(c.clip).filename().c_str(), toString(format), i, mean, worst);
        const int tolerance = format == PixelFormat::GRAY8 ? 1 : c.toleranceLsb;
        if (tolerance >= 0) {
          const auto m = compareImages(gpu[i].view(), cpu[i].view(), tolerance);
          EXPECT_FALSE(m) << c.clip << " " << toString(format) << " frame " << i << ", tolerance " << tolerance << ": "
                          << m->toString();
        }
        if (c.meanBoundLsb > 0) {
          EXPECT_LT(mean, c.meanBoundLsb) << c.clip << " frame " << i;
        }
      }
    }
}

// Every decoded format the device converts besides 8-bit 4:2:0 (4:2:2 planar
// and packed as webcams send it, 4:4:4, 10-bit 4:2:0 planar and semi-planar,
// packed RGB) goes up as planes (the conversion says "on the device") and
// agrees with swscale's conversion of the same frame (a lavfi graph that
// ends in the format, read twice): on a flat colour at an odd size within 1
// LSB per value (2 for 10-bit, which the device rounds to 8 bits first), on a
// smooth gradient within 6 LSB with a mean under 1 (measured: up to 2, mean
// 0.01-0.5), luma (GRAY8) within 1 LSB (2 for 10-bit); RGB into RGBA exactly.
// The gradient has an odd size (161x121, cut from 162x122 after the
// subsampling, so that the last chroma column is the picture's own; measured:
// up to 5 LSB, 3 in the last column; packed 4:2:2 at 162x121). Where the last
// chroma column is itself off, see the next test.
TEST(Media, EveryDeviceLayoutAgreesWithSwscale) {
  struct Format {
    const char* pixFmt;
    int flatLsb;
  };
  for (const Format& f : {Format{"yuv422p", 1}, Format{"yuv444p", 1}, Format{"yuyv422", 1}, Format{"uyvy422", 1},
                          Format{"yuv420p10le", 2}, Format{"p010le", 2}, Format{"rgb24", 0}, Format{"bgr24", 0}}) {
    const std::string name = f.pixFmt;
    const bool packed = name == "yuyv422" || name == "uyvy422";
    const std::string flat = "lavfi:color=c=0x3366cc:size=67x49:rate=25:d=0.04,format=" + name;
    const std::string smooth =
        std::string("lavfi:gradients=size=162x122:c0=0x2040a0:c1=0xe0a040:nb_colors=2:x0=0:y0=0:x1=161:y1=121:rate=25:d=0.08,") +
        // Packed 4:2:2 is cut as planar, then packed (crop takes planes only), at an
        // even width: FFmpeg packs an odd width's last pixel without its chroma
        // (both conversions then show garbage there), and cameras send even widths.
        (packed ? "format=yuv422p,crop=162:121:0:0:exact=1,format=" + name
                : "format=" + name + ",crop=161:121:0:0:exact=1");
    for (const auto& [clip, smoothCase] : {std::pair{flat, false}, std::pair{smooth, true}})
      for (PixelFormat format : {PixelFormat::GRAY8, PixelFormat::RGBA8}) {
        std::string conversion;
        const std::vector<Image> cpu = decodeAll(clip, format);
        const std::vector<Image> gpu = decodeAllThroughTheDeviceFormula(clip, format, &conversion);
        EXPECT_TRUE(has(conversion, "on the device (" + name)) << clip << ": " << conversion;
        ASSERT_FALSE(cpu.empty()) << clip;
        ASSERT_EQ(cpu.size(), gpu.size()) << clip;
        for (std::size_t i = 0; i < cpu.size(); ++i) {
          const auto [mean, worst] = colourDifference(cpu[i], gpu[i]);
          std::printf("%s %s %s frame %zu: swscale vs device formula, mean |difference| %.3f LSB, largest %d\n",
                      name.c_str(), smoothCase ? "gradient" : "flat", toString(format), i, mean, worst);
          const bool rgb = name == "rgb24" || name == "bgr24";
          const int tolerance = rgb && format == PixelFormat::RGBA8 ? 0
                                : format == PixelFormat::GRAY8      ? std::max(1, f.flatLsb)
                                : smoothCase                        ? 6
                                                                    : f.flatLsb;
          const auto m = compareImages(gpu[i].view(), cpu[i].view(), tolerance);
          EXPECT_FALSE(m) << clip << " " << toString(format) << " frame " << i << ", tolerance " << tolerance << ": "
                          << m->toString();
          if (smoothCase) {
            EXPECT_LT(mean, 1.0) << clip << " frame " << i;
          }
        }
      }
  }
}

// At an odd width the last chroma sample of a 4:2:0 or 4:2:2 row covers one
// pixel, and an encoder's RGB -> YUV conversion (FFmpeg's own here: a 161x121
// gradient to yuv420p) can make it a poor fit for that pixel. swscale's
// interpolation spreads that sample over the last two columns; the device
// takes each pixel's own sample, so only the last column carries the error
// the file holds. Against the RGB picture the file was made from, the device
// is nowhere farther than swscale, column by column, and within 2 LSB of it
// everywhere but the last column (measured: the last column about 19 LSB off
// in both, the one before 0.5 on the device and 19 with swscale).
TEST(Media, AtAnOddWidthTheDeviceIsNoFartherFromThePictureThanSwscale) {
  const std::string picture =
      "lavfi:gradients=size=161x121:c0=0x2040a0:c1=0xe0a040:nb_colors=2:x0=0:y0=0:x1=160:y1=120:rate=25:d=0.04";
  const std::vector<Image> truth = decodeAll(picture + ",format=rgba", PixelFormat::RGBA8);
  ASSERT_EQ(truth.size(), 1u);
  for (const char* format : {"yuv420p", "yuv422p", "nv12"}) {
    SCOPED_TRACE(format);
    const std::string clip = picture + ",format=" + format;
    const std::vector<Image> cpu = decodeAll(clip, PixelFormat::RGBA8);
    const std::vector<Image> gpu = decodeAllThroughTheDeviceFormula(clip, PixelFormat::RGBA8);
    ASSERT_EQ(cpu.size(), 1u);
    ASSERT_EQ(gpu.size(), 1u);
    const Image& t = truth[0];
    // The mean |difference| from the picture in column x.
    auto columnError = [&](const Image& img, int x) {
      double sum = 0;
      for (int y = 0; y < t.height(); ++y)
        for (int c = 0; c < 3; ++c) sum += std::abs(int(img.view().row(y)[x * 4 + c]) - int(t.view().row(y)[x * 4 + c]));
      return sum / (3.0 * t.height());
    };
    double cpuMean = 0, gpuMean = 0;
    for (int x = 0; x < t.width(); ++x) {
      const double c = columnError(cpu[0], x), g = columnError(gpu[0], x);
      cpuMean += c / t.width();
      gpuMean += g / t.width();
      EXPECT_LE(g, c + 1.0) << "column " << x << ": the device " << g << " LSB from the picture, swscale " << c;
      if (x < t.width() - 1) {  // only the last column carries the file's own error
        EXPECT_LT(g, 2.0) << "column " << x << ": the device " << g << " LSB from the picture";
      }
    }
    std::printf("%s 161x121: mean |difference| from the picture: device %.3f LSB, swscale %.3f; the last two "
                "columns: device %.2f %.2f, swscale %.2f %.2f\n",
                format, gpuMean, cpuMean, columnError(gpu[0], t.width() - 2), columnError(gpu[0], t.width() - 1),
                columnError(cpu[0], t.width() - 2), columnError(cpu[0], t.width() - 1));
    EXPECT_LE(gpuMean, cpuMean);
  }
}

const test_media::Clip kATs =
    test_media::sharedClip("a.ts", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 5 -c:v mpeg2video -q:v 3");
const test_media::Clip kBTs =
    test_media::sharedClip("b.ts", "-f lavfi -i testsrc2=size=96x72:rate=25 -frames:v 5 -c:v mpeg2video -q:v 3");

TEST(Media, ResolutionChangeMidStreamIsFilteredAtEachSize) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(a, kATs);
  REQUIRE_CLIP(b, kBTs);
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
  app::runStream(source, sink, pipeline, test_media::quietStream());
  EXPECT_TRUE(sink.finished);
  expectEachFrameIsTheReference(inputs, sink.frames, testParams());

  // Through `run` into a file: every frame is kept, the later ones scaled to the first size (said once).
  const std::string out = tempDir() + "/joined_out.mkv";
  const Result r = liveconv("run " + joined + " -o " + out + " -y --mask box:3 --variant naive");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "frames are scaled to 160x120")) << r.output;
  const std::vector<Image> written = decodeAll(out, PixelFormat::RGBA8);
  EXPECT_EQ(written.size(), inputs.size());
  for (const Image& f : written) EXPECT_EQ(f.width(), 160);
}

const test_media::Clip kWholeTs = test_media::sharedClip(
    "whole.ts", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 30 -c:v mpeg2video -g 5 -q:v 3");

TEST(Media, TruncatedAndCorruptFileDecodesToTheEndCountingBadPackets) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kWholeTs);
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

const test_media::Clip kCliAvi =
    test_media::sharedClip("cli.avi", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 8 -c:v mpeg4");

TEST(Media, CliFiltersAFileEndToEnd) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kCliAvi);
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

// Starts `liveconv ARGS`, waits until a line of its output matches `waitFor`
// (by default its first progress line: frames are flowing), then sends SIGNAL
// and waits for it to end: its exit code and output.
Result signalWhileRunning(const std::string& args, const std::string& signal,
                          const std::string& waitFor = "^frames [1-9]", const std::string& env = "") {
  const std::string log = tempDir() + "/signal_" + signal + ".log";
  const Result r = shell(env + " " + LIVECONV_BIN + " " + args + " >" + log + " 2>&1 & pid=$!; n=0; " +
                         "until grep -q '" + waitFor + "' " + log + " || [ $n -ge 600 ]; do sleep 0.1; n=$((n+1)); done; " +
                         "kill -" + signal + " $pid; wait $pid; echo \"exit $?\"; cat " + log);
  Result out;
  out.output = r.output;
  const auto at = r.output.find("exit ");
  out.exitCode = at == std::string::npos ? -1 : std::atoi(r.output.c_str() + at + 5);
  return out;
}

TEST(Media, CtrlCFinishesTheFileAndExits130) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string out = tempDir() + "/interrupted.mkv";
  // A fixed variant: `auto` would race first.
  const Result r = signalWhileRunning("run -i lavfi:testsrc2=size=160x120:rate=25 -o " + out +
                                      " --mask box:3 --variant local", "INT");
  EXPECT_EQ(r.exitCode, 130) << r.output;
  EXPECT_TRUE(has(r.output, "interrupted")) << r.output;
  EXPECT_GT(decodeAll(out, PixelFormat::RGBA8).size(), 0u);  // the trailer is there: the file decodes
}

// SIGTERM (a service manager, `kill`) and SIGHUP (the terminal closed) finish
// the file as Ctrl-C does: an MP4 gets its index (moov) and plays; exit 128 + N.
// `timeout` delivers its signal twice (to the process, then to its group): still one clean finish.
TEST(Media, TermAndHupFinishTheFileWithTheirExitCodes) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  for (const auto& [signal, code] : {std::pair<const char*, int>{"TERM", 143}, {"HUP", 129}}) {
    const std::string out = tempDir() + "/signal_" + signal + ".mp4";
    const Result r = signalWhileRunning("run -i lavfi:testsrc2=size=160x120:rate=25 -o " + out +
                                        " --mask box:3 --variant local", signal);
    EXPECT_EQ(r.exitCode, code) << signal << ": " << r.output;
    EXPECT_TRUE(has(r.output, "finished properly")) << r.output;
    const std::size_t frames = decodeAll(out, PixelFormat::RGBA8).size();
    EXPECT_GT(frames, 0u) << signal << ": the MP4 does not decode (no moov atom?)";
    const Result probe = shell("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                               "stream=nb_read_frames -of csv=p=0 " + out);
    EXPECT_EQ(probe.exitCode, 0) << probe.output;
  }
  const std::string out = tempDir() + "/signal_timeout.mp4";
  const Result twice = shell("timeout --preserve-status -s TERM 3 " + std::string(LIVECONV_BIN) +
                             " run -i lavfi:testsrc2=size=160x120:rate=25 -o " + out + " --mask box:3 --variant local");
  EXPECT_EQ(twice.exitCode, 143) << twice.output;
  EXPECT_TRUE(has(twice.output, "interrupted by SIGTERM")) << "the second delivery killed the run:\n" << twice.output;
}

const test_media::Clip kRaceMkv =
    test_media::sharedClip("race.mkv", "-f lavfi -i testsrc2=size=1280x720:rate=25 -frames:v 5 -c:v ffv1");

// Ctrl-C while auto measures its candidates (before the first frame) stops the
// run at once: exit 130, nothing written, nothing remembered.
TEST(Media, CtrlCWhileAutoMeasuresStopsAtOnce) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kRaceMkv);
  const std::string cache = tempDir() + "/race.tsv", out = tempDir() + "/race_out.mkv";
  const auto start = std::chrono::steady_clock::now();
  const Result r = signalWhileRunning("run -i " + clip + " -o " + out + " --mask box:17 --variant auto", "INT",
                                      "finding the fastest variant", "LIVECONV_TUNING_CACHE=" + cache);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exitCode, 130) << r.output;
  EXPECT_TRUE(has(r.output, "while auto was measuring; nothing was written")) << r.output;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_LT(seconds, test_media::kHangLimitS) << r.output;
  EXPECT_FALSE(fs::exists(cache) && fs::file_size(cache) > 0) << "an interrupted race was remembered";
}

// A run whose output is a pipe that this test never reads: it writes until the
// pipe is full, then waits in write(). Its pid; `output` is the reading end.
pid_t startBlockedOnItsOutput(const std::string& log, int& output) {
  int pipeEnds[2];
  EXPECT_EQ(::pipe(pipeEnds), 0);
  const pid_t pid =
      test_media::startProcess(std::string(LIVECONV_BIN) + " run -i lavfi:testsrc2=size=160x120:rate=25 " +
                                   "-o - --container nut --mask box:3 --variant naive",
                               -1, pipeEnds[1], log);
  ::close(pipeEnds[1]);
  output = pipeEnds[0];
  EXPECT_TRUE(test_media::waitUntil([&] { return test_media::blockedWriting(pid, 1) || !test_media::running(pid); }))
      << "the run never waited on its output: " << test_media::fileText(log);
  return pid;
}

// A second Ctrl-C ends the run at once, even where the first cannot be acted
// on: finishing the output waits on a pipe whose reader (this test) stopped
// reading. Ended by the second, the run dies of SIGINT. The second comes from
// another process (`kill` in a shell), as a terminal's or a user's would.
TEST(Media, ASecondCtrlCEndsTheRunAtOnce) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string log = tempDir() + "/second_ctrl_c.log";
  int output = -1;
  const pid_t pid = startBlockedOnItsOutput(log, output);
  ::kill(pid, SIGINT);
  EXPECT_TRUE(test_media::waitUntil([&] { return test_media::signalsTaken(pid); }));
  // A second signal within half a second of the first is the same one delivered twice.
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ASSERT_TRUE(test_media::running(pid)) << "the first Ctrl-C could finish the output: " << test_media::fileText(log);
  EXPECT_EQ(shell("kill -INT " + std::to_string(pid)).exitCode, 0);
  const int status = test_media::waitExit(pid);
  ::close(output);
  EXPECT_NE(status, -1) << "a second Ctrl-C did not end the run: " << test_media::fileText(log);
  EXPECT_TRUE(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
      << "wait status " << status << ": " << test_media::fileText(log);
}

// `timeout` sends its signal to the process, then to its process group; on a
// loaded machine the second delivery can come well after the first was taken
// (CI saw more than half a second). The same signal from the same process is
// the same request: the run goes on finishing, and once its reader reads
// again it ends with the sentence and 128 + N.
TEST(Media, TheSameSignalFromTheSameSenderIsOneRequest) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string log = tempDir() + "/same_sender.log";
  int output = -1;
  const pid_t pid = startBlockedOnItsOutput(log, output);
  ::kill(pid, SIGTERM);
  EXPECT_TRUE(test_media::waitUntil([&] { return test_media::signalsTaken(pid); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ::kill(pid, SIGTERM);
  EXPECT_TRUE(test_media::waitUntil([&] { return test_media::signalsTaken(pid); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(test_media::running(pid)) << "the repeated SIGTERM ended the run: " << test_media::fileText(log);
  std::thread reader([&] {
    char buffer[65536];
    while (::read(output, buffer, sizeof buffer) > 0) {
    }
  });
  const int status = test_media::waitExit(pid);
  reader.join();
  ::close(output);
  EXPECT_TRUE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 143)
      << "wait status " << status << ": " << test_media::fileText(log);
  EXPECT_TRUE(has(test_media::fileText(log), "interrupted by SIGTERM")) << test_media::fileText(log);
}

const test_media::Clip kStallNut =
    test_media::sharedClip("stall.nut", "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 200 -c:v mpeg4 -q:v 3");

// Whether frames have reached `output`: its part file (beside it while the run writes) holds bytes.
bool partFileGrows(const std::string& output) {
  const fs::path path(output);
  for (const auto& e : fs::directory_iterator(path.parent_path()))
    if (e.path().filename().string().rfind("." + path.filename().string() + ".liveconv-part-", 0) == 0 &&
        e.is_regular_file() && e.file_size() > 0)
      return true;
  return false;
}

// An input pipe or FIFO that stalls mid-stream: the first Ctrl-C ends the run
// (exit 130), the frames filtered so far in a playable file; SIGTERM on
// standard input (-i -) likewise, without waiting for the writer. The writer
// (this test) sends 300 kB, and the signal goes once the run has read them
// all and frames reach the output; the writer then sends nothing until the
// run has ended, so a run that waited for it would wait for ever.
TEST(Media, AStalledInputPipeEndsAtTheFirstSignal) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kStallNut);
  const std::string bytes = test_media::fileText(clip).substr(0, 300000);
  const std::string fifo = tempDir() + "/stall.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const test_media::IgnoreSigpipe ignoreSigpipe;  // a run that ended early is a failure, not this test's death
  for (const std::string how : {"fifo", "stdin"}) {
    SCOPED_TRACE(how);
    const std::string out = tempDir() + "/stalled_" + how + ".mkv", log = tempDir() + "/stalled_" + how + ".log";
    const std::string run = std::string(LIVECONV_BIN) + " run -o " + out + " --mask box:3 --variant naive -i " +
                            (how == "fifo" ? fifo : "-");
    int writer = -1;
    pid_t pid = -1;
    if (how == "fifo") {
      pid = test_media::startProcess(run, -1, -1, log);
      // A FIFO opens for writing once its reader has opened it.
      EXPECT_TRUE(test_media::waitUntil([&] { return (writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK)) >= 0; }));
    } else {
      int input[2];
      ASSERT_EQ(::pipe(input), 0);
      pid = test_media::startProcess(run, input[0], -1, log);
      ::close(input[0]);
      writer = input[1];
      ::fcntl(writer, F_SETFL, O_NONBLOCK);
    }
    std::size_t sent = 0;
    const bool read = writer >= 0 && test_media::waitUntil([&] {
                        const ssize_t n = ::write(writer, bytes.data() + sent, bytes.size() - sent);
                        sent += n > 0 ? static_cast<std::size_t>(n) : 0;
                        return sent == bytes.size() && test_media::bytesInPipe(writer) == 0 && partFileGrows(out);
                      });
    EXPECT_TRUE(read) << "sent " << sent << " bytes, " << test_media::bytesInPipe(writer)
                      << " of them unread: " << test_media::fileText(log);
    ::kill(pid, how == "fifo" ? SIGINT : SIGTERM);
    const int status = test_media::waitExit(pid);
    if (writer >= 0) ::close(writer);
    const std::string said = test_media::fileText(log);
    ASSERT_NE(status, -1) << "the run waited for the writer after the signal: " << said;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == (how == "fifo" ? 130 : 143))
        << "wait status " << status << ": " << said;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(said, m, std::regex("; ([0-9]+) frames were written and the output was finished")))
        << said;
    const std::size_t written = std::stoul(m[1].str());
    EXPECT_GT(written, 0u) << said;
    EXPECT_EQ(decodeAll(out, PixelFormat::RGBA8).size(), written);
  }
}

// A stream that accepts the connection and never sends (a listening socket
// nobody reads from: the kernel completes the handshake) gives up after the
// open timeout with one sentence and the input's exit code, in `run` as in
// both windows (which pass their own timeout through the same open); with
// --open-timeout 0 it waits until a signal ends it.
TEST(Media, AStreamThatNeverSendsGivesUpAfterTheOpenTimeout) {
  const SilentListener listener;
  ASSERT_FALSE(listener.url().empty()) << "no socket could listen on 127.0.0.1";
  const std::string url = listener.url();
  const std::string run = std::string(LIVECONV_BIN) + " run -i " + url + " -o null --mask box:3";

  const auto t0 = std::chrono::steady_clock::now();
  const Result r = shell("timeout 60 " + run + " --open-timeout 2");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "Input " + url + " sent nothing to open in 2 s; gave up (the open timeout, --open-timeout).")) << r.output;
  EXPECT_GE(seconds, 1.9) << r.output;
  // Ten times the timeout for a loaded machine's start, and still less than the default's 20 s.
  EXPECT_LT(seconds, 20) << r.output;

  // 0: no limit; the wait is still ended by a signal, at once.
  const Result waited = shell("timeout --preserve-status -s INT 3 " + run + " --open-timeout 0");
  EXPECT_EQ(waited.exitCode, 130) << "waited until the signal: " << waited.output;
  EXPECT_FALSE(has(waited.output, "sent nothing")) << waited.output;
}

// A signal before the first frame ends the run as an interruption (128 + N,
// "interrupted by"), whatever it cut short on the way: an input still opening
// (a FIFO no one writes to yet: its open() returns EINTR), or a kernel build
// (a signal to the process group reaches the compiler's helpers; here the
// compiler waits on a FIFO the kernel includes, and fails once it is written).
TEST(Media, ASignalBeforeTheFirstFrameIsAnInterruptionWhateverItCutShort) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string fifo = tempDir() + "/opening.fifo", out = tempDir() + "/cut_short.mkv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Sent once the run waits on the FIFO (its handlers are in place by then).
  Result r =
      shell(std::string(LIVECONV_BIN) + " run -i " + fifo + " -o " + out + " --variant local >" + tempDir() +
            "/open.log 2>&1 & pid=$!; n=0; until ls -l /proc/$pid/fd 2>/dev/null | grep -q opening.fifo || " +
            "[ $n -ge 600 ]; do sleep 0.1; n=$((n+1)); done; kill -TERM $pid; wait $pid; echo \"exit $?\"; cat " +
            tempDir() + "/open.log");
  EXPECT_TRUE(has(r.output, "exit 143")) << r.output;
  EXPECT_TRUE(has(r.output, "interrupted by SIGTERM while the input was being opened; nothing was written."))
      << r.output;
  EXPECT_FALSE(fs::exists(out));

  const std::string kernels = tempDir() + "/gated_kernels", gate = tempDir() + "/gate.fifo";
  fs::create_directories(kernels);
  ASSERT_EQ(::mkfifo(gate.c_str(), 0600), 0);
  std::ofstream(kernels + "/common.cl") << liveconv::kernelSource("common.cl");
  std::ofstream(kernels + "/local.cl") << "#include \"" << gate << "\"\n" << liveconv::kernelSource("local.cl");
  // The compiler opens the gate (the shell's open for writing returns), then
  // the signal, then, once the run has taken it (none pending in
  // /proc/PID/status), the gate gives the compiler a line that does not
  // compile. A watchdog opens the gate after 60 s should the compiler never read it.
  r = shell(
      "(sleep 60; cat " + gate + ") >/dev/null 2>&1 & watchdog=$!; LIVECONV_KERNEL_DIR=" + kernels +
      " POCL_CACHE_DIR=" + tempDir() + "/gated_pocl " + LIVECONV_BIN +
      " run -i lavfi:testsrc2=size=160x120:rate=25 -o " + out + " --variant local >" + tempDir() +
      "/build.log 2>&1 & pid=$!; exec 3>" + gate + "; kill -TERM $pid; n=0; while grep -Eq " +
      "'^(SigPnd|ShdPnd):[[:space:]]*0*[1-9a-f]' /proc/$pid/status 2>/dev/null && [ $n -lt 600 ]; do sleep 0.1; " +
      "n=$((n+1)); done; echo '#error cut short' >&3; " +
      "exec 3>&-; wait $pid; echo \"exit $?\"; kill $watchdog 2>/dev/null; cat " + tempDir() + "/build.log");
  EXPECT_TRUE(has(r.output, "exit 143")) << r.output;
  EXPECT_TRUE(has(r.output, "interrupted by SIGTERM while a kernel was being built; nothing was written.")) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

// Ctrl-C while a network stream sends nothing (FFmpeg would probe it
// forever) ends the run at once, as an interruption: FFmpeg asks the run's
// stop between its waits.
TEST(Media, CtrlCEndsTheWaitForAStreamThatSendsNothing) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const int port = 20000 + static_cast<int>(::getpid() % 20000);
  char hexPort[8];
  std::snprintf(hexPort, sizeof hexPort, "%04X", port);
  const std::string log = tempDir() + "/silent.log";
  // Interrupted once the run listens on the port (its handlers are in place by then).
  const Result r =
      shell(std::string(LIVECONV_BIN) + " run -i udp://127.0.0.1:" + std::to_string(port) + " -o null >" + log +
            " 2>&1 & pid=$!; n=0; until grep -q ':" + hexPort +
            " ' /proc/net/udp || [ $n -ge 600 ]; do sleep 0.1; n=$((n+1)); done; kill -INT $pid; n=0; " +
            "while kill -0 $pid 2>/dev/null && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done; " +
            "kill -KILL $pid 2>/dev/null && echo still-waiting-after-ctrl-c; wait $pid; echo \"exit $?\"; cat " + log);
  EXPECT_FALSE(has(r.output, "still-waiting-after-ctrl-c")) << r.output;
  EXPECT_TRUE(has(r.output, "exit 130")) << r.output;
  EXPECT_TRUE(has(r.output, "interrupted by Ctrl-C (SIGINT) while the input was being opened")) << r.output;
}

// `liveconv run ... | head -1`: the reader leaves after one line; the run goes
// on to the end and its file is complete.
TEST(Media, AClosedStdoutPipeDoesNotKillTheRun) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string out = tempDir() + "/piped.mkv";
  const std::string status = tempDir() + "/piped.status";
  const Result r = shell("(" + std::string(LIVECONV_BIN) + " run -i lavfi:testsrc2=size=96x64:rate=25 --frames 40 -o " +
                         out + " --mask box:3 --variant local; echo $? >" + status + ") | head -c 1 >/dev/null");
  std::ifstream statusFile(status);
  int exitCode = -1;
  statusFile >> exitCode;
  EXPECT_EQ(exitCode, 0) << "liveconv ended with " << exitCode << " (141: killed by SIGPIPE)";
  EXPECT_EQ(decodeAll(out, PixelFormat::RGBA8).size(), 40u);
}

// `liveconv run ... -o - | head -c 100`: the output itself goes to a reader
// that leaves. The run stops at its next write with exit 8 and one sentence
// naming standard output, for a container and for raw frames alike.
TEST(Media, AnOutputPipeWhoseReaderLeavesEndsTheRunWithExit8) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  for (const std::string output : {"- --container nut", "raw:-"}) {
    const std::string log = tempDir() + "/reader-left.log";
    const std::string status = tempDir() + "/reader-left.status";
    const auto started = std::chrono::steady_clock::now();
    shell("(" + std::string(LIVECONV_BIN) + " run -i lavfi:testsrc2=size=96x64:rate=25 --frames 100000 -o " + output +
          " --mask box:3 --variant local 2>" + log + "; echo $? >" + status + ") | head -c 100 >/dev/null");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::ifstream statusFile(status);
    int exitCode = -1;
    statusFile >> exitCode;
    std::ifstream logFile(log);
    const std::string said((std::istreambuf_iterator<char>(logFile)), std::istreambuf_iterator<char>());
    EXPECT_EQ(exitCode, 8) << output << ": " << said;
    EXPECT_TRUE(has(said, "Writing standard output failed: Broken pipe (its reader stopped reading)."))
        << output << ": " << said;
    EXPECT_LT(seconds, test_media::kHangLimitS) << output << ": the run went on after its reader left";
  }
}

const test_media::Clip kIndexAtEndMp4 = test_media::sharedClip(
    "index_at_end.mp4", "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 25 -c:v libx264 -qp 0 -pix_fmt yuv420p");

// An MP4 written in one go (its index after the frames) cannot be read from a
// pipe: one sentence says so and what to do; no output file, and no claim of one.
TEST(Media, AnMp4WithItsIndexAtTheEndOnAPipeSaysWhy) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  // Larger than what FFmpeg reads while it probes (a few kB would be read whole and could be searched back).
  REQUIRE_CLIP(clip, kIndexAtEndMp4);
  const std::string out = tempDir() + "/from_pipe.mkv";
  fs::remove(out);
  const Result r = shell("cat " + clip + " | " + std::string(LIVECONV_BIN) + " run -i - -o " + out +
                         " --mask box:3 --variant local 2>&1");
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output,
                  "Input standard input is an MP4 or MOV whose index comes after its frames, which cannot "
                  "be read from a pipe: give its file name instead"))
      << r.output;
  EXPECT_TRUE(has(r.output, "No filtered frame reached " + out + ", so it was not written.")) << r.output;
  EXPECT_FALSE(has(r.output, "finished properly")) << r.output;
  EXPECT_FALSE(fs::exists(out));
  // The same file read by name plays.
  EXPECT_EQ(liveconv("run -i " + clip + " -o " + out + " -y --mask box:3 --variant local").exitCode, 0);
  EXPECT_EQ(decodeAll(out, PixelFormat::RGBA8).size(), 25u);
}

const test_media::Clip kWebcamNut = test_media::sharedClip(
    "webcam.nut", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 5 -pix_fmt yuyv422 -c:v rawvideo");

// A webcam's packed 4:2:2 (yuyv422) goes into FFV1 as planar 4:2:2, the
// input's sampling (FFV1 takes no packed format; it was bgra, twice the size).
TEST(Media, PackedAndSemiPlanarInputsGoToFfv1AsPlanarAtTheirDepth) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kWebcamNut);
  const std::string out = tempDir() + "/webcam_out.mkv";
  const Result r = liveconv("run -i " + clip + " -o " + out + " -y --mask box:3 --variant local");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const Result probe =
      shell("ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,pix_fmt -of csv=p=0 " + out);
  EXPECT_EQ(probe.output, "ffv1,yuv422p\n") << probe.output;
  EXPECT_EQ(decodeAll(out, PixelFormat::RGBA8).size(), 5u);
  // Semi-planar inputs likewise, at their depth: a decoder's nv12 as yuv420p,
  // its p010le as yuv420p10le (it was yuv420p16le: six bits that carry nothing).
  for (const auto& [in, want] : {std::pair{"nv12", "yuv420p"}, {"p010le", "yuv420p10le"}}) {
    const std::string semi = tempDir() + "/semi_" + in + ".mkv";
    const Result s = liveconv("run -i \"lavfi:testsrc2=size=96x64:rate=25:d=0.2,format=" + std::string(in) + "\" -o " +
                              semi + " -y --mask box:3");
    ASSERT_EQ(s.exitCode, 0) << s.output;
    const Result p = shell("ffprobe -v error -select_streams v:0 -show_entries stream=pix_fmt -of csv=p=0 " + semi);
    EXPECT_EQ(p.output, std::string(want) + "\n") << in;
  }
}

// Files the user keeps: an existing output is replaced only with -y; -n and a
// run without a terminal to ask keep it; the output is never the input, also
// through a link or another spelling of its path. Refusals are exit 2 and touch nothing.
TEST(Media, ExistingFilesAndTheInputAreNeverOverwrittenUnasked) {
  REQUIRE_CLIP(clip,
               test_media::ownClip("keep_in.avi", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 6 -c:v mpeg4"));
  const auto inputSize = fs::file_size(clip);
  const std::string out = tempDir() + "/keep_out.mkv";
  std::ofstream(out) << "precious";
  const std::string run = "run -i " + clip + " --mask box:3 --variant naive ";
  Result r = liveconv(run + "-o " + out + " </dev/null");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "exists; pass -y to overwrite it, or -n to keep it.")) << r.output;
  r = liveconv(run + "-o " + out + " -n </dev/null");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_EQ(fs::file_size(out), 8u) << "the existing file was touched";
  EXPECT_EQ(liveconv(run + "-o " + out + " -y -n").exitCode, 2);
  r = liveconv(run + "-o " + out + " -y </dev/null");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(decodeAll(out, PixelFormat::RGBA8).size(), 6u);

  const std::string link = tempDir() + "/keep_link.avi";
  fs::create_symlink(clip, link);
  for (const std::string& same : {clip, link, tempDir() + "/./../" + fs::path(tempDir()).filename().string() + "/keep_in.avi"}) {
    r = liveconv("run -i " + clip + " -o " + same + " -y --mask box:3 --variant naive");
    EXPECT_EQ(r.exitCode, 2) << same << ": " << r.output;
    EXPECT_TRUE(has(r.output, "is the input")) << same << ": " << r.output;
  }
  EXPECT_EQ(fs::file_size(clip), inputSize) << "the input was changed";
  EXPECT_EQ(decodeAll(clip, PixelFormat::RGBA8).size(), 6u);
}

const test_media::Clip kAskInMkv =
    test_media::sharedClip("ask_in.mkv", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 4 -c:v ffv1");

// An output that is a link is written through, as ffmpeg writes: the file it
// leads to (in another folder, by a relative link) gets the frames, the link
// stays a link, a private file (0600) stays private, and no temporary is left
// in either folder. Every kind of file sink: encoded, raw frames, one picture.
TEST(Media, AnOutputThatIsALinkIsWrittenThroughAndKeepsItsMode) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kAskInMkv);
  const fs::path dir = tempDir() + "/through_link";
  fs::remove_all(dir);
  fs::create_directories(dir / "real");
  const fs::perms privateMode = fs::perms::owner_read | fs::perms::owner_write;
  struct Case {
    std::string name, extra;
    std::size_t frames;
  };
  for (const Case& c : {Case{"out.mkv", "", 4}, Case{"out.rgba", "", 4}, Case{"out.png", "--frames 1", 1}}) {
    const fs::path real = dir / "real" / c.name, link = dir / c.name;
    std::ofstream(real) << "precious";
    fs::permissions(real, privateMode, fs::perm_options::replace);
    fs::create_symlink(fs::path("real") / c.name, link);
    const Result r = liveconv("run -i " + clip + " -o " + link.string() + " -y --mask box:3 --variant naive " + c.extra);
    ASSERT_EQ(r.exitCode, 0) << c.name << ": " << r.output;
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link))) << c.name << ": the link was replaced by a file";
    if (c.name == "out.rgba")
      EXPECT_EQ(fs::file_size(real), c.frames * 96 * 64 * 4) << c.name;
    else
      EXPECT_EQ(decodeAll(real.string(), PixelFormat::RGBA8).size(), c.frames) << c.name;
    EXPECT_EQ(fs::status(real).permissions() & fs::perms::all, privateMode) << c.name << ": the file's mode changed";
  }
  for (const fs::path& folder : {dir, dir / "real"})
    for (const auto& e : fs::directory_iterator(folder))
      EXPECT_EQ(e.path().filename().string().find(".liveconv-part-"), std::string::npos) << "left: " << e.path();
}

// At a terminal, an existing output is asked about: "n" keeps it, "y" replaces it.
TEST(Media, AtATerminalAnExistingOutputIsAskedAbout) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  if (shell("command -v script").exitCode != 0) GTEST_SKIP() << "SKIP: no script(1) to give the run a terminal";
  REQUIRE_CLIP(clip, kAskInMkv);
  const std::string out = tempDir() + "/ask_out.mkv";
  std::ofstream(out) << "keep me";
  const std::string run = "script -qec \"" + std::string(LIVECONV_BIN) + " run -i " + clip + " -o " + out +
                          " --quiet --mask box:3 --variant naive\" /dev/null";
  // The answer is typed once the question is asked; the keyboard stays (the
  // terminal open) until the run ends.
  const auto answer = [&](const std::string& typed) {
    int keyboard[2];
    EXPECT_EQ(::pipe(keyboard), 0);
    const std::string log = tempDir() + "/ask.log";
    const pid_t pid = test_media::startProcess(run, keyboard[0], -1, log);
    ::close(keyboard[0]);
    EXPECT_TRUE(test_media::waitUntil(
        [&] { return has(test_media::fileText(log), "Overwrite? [y/N]") || !test_media::running(pid); }));
    EXPECT_EQ(::write(keyboard[1], typed.data(), typed.size()), static_cast<ssize_t>(typed.size()));
    Result r;
    const int status = test_media::waitExit(pid);
    ::close(keyboard[1]);
    r.exitCode = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.output = test_media::fileText(log);
    return r;
  };
  const test_media::IgnoreSigpipe
      ignoreSigpipe;  // a run that ended before the answer is a failure, not this test's death
  Result r = answer("n\n");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "exists. Overwrite? [y/N]")) << r.output;
  EXPECT_EQ(fs::file_size(out), 7u);
  r = answer("y\n");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(decodeAll(out, PixelFormat::RGBA8).size(), 4u);
}

const test_media::Clip kNoFramesAvi =
    test_media::sharedClip("no_frames.avi", "-f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 0 -c:v mpeg4");

// A run that fails leaves nothing under the output's name (and no temporary
// beside it); an input with no video frame is exit 7 with no file.
TEST(Media, FailedRunsLeaveNoFile) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string dir = tempDir() + "/failed";
  fs::create_directories(dir);
  // MP4 cannot hold FFV1: the header is refused on the first frame, after the file was opened.
  Result r = liveconv("run -i lavfi:testsrc2=size=64x48:rate=25 --frames 5 -o " + dir +
                      "/refused.mp4 --codec ffv1 --mask box:3 --variant naive");
  EXPECT_EQ(r.exitCode, 8) << r.output;
  REQUIRE_CLIP(empty, kNoFramesAvi);
  r = liveconv("run -i " + empty + " -o " + dir + "/from_empty.mkv --mask box:3 --variant naive");
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "no video frame")) << r.output;
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
  EXPECT_TRUE(left.empty()) << "left behind: " << (left.empty() ? "" : left.front());
}

// Where a file's first audio stream ends: its last packet's time plus duration.
double audioEnd(const std::string& path) {
  const Result r = shell("ffprobe -v error -select_streams a:0 -show_entries packet=pts_time,duration_time -of csv=p=0 " + path);
  double end = -1, pts = 0, duration = 0;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);)
    if (std::sscanf(line.c_str(), "%lf,%lf", &pts, &duration) == 2) end = std::max(end, pts + duration);
  return end;
}

double containerDuration(const std::string& path) {
  const Result r = shell("ffprobe -v error -show_entries format=duration -of csv=p=0 " + path);
  return r.exitCode == 0 && !r.output.empty() ? std::atof(r.output.c_str()) : -1;
}

const test_media::Clip kGapMkv = test_media::sharedClip(
    "gap.mkv",
    "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 30 -vf settb=1/1000,setpts='(N/25+gte(N\\,10)*0.413)/TB' "
    "-fps_mode passthrough -enc_time_base 1:1000 -c:v ffv1");

// Output frames keep their input timestamps: a variable frame rate (a gap of
// 0.453 s, on no grid of the clip's rate), in every container, every frame
// decodable (MP4/MOV included, whose last frame used to be cut), the duration
// that of the input. Each frame within one tick of the output's time base:
// exactly where the container holds any time (MP4 and MOV were put on a grid
// of 1/25 s), on its grid where it has one (AVI).
TEST(Media, EveryContainerKeepsEveryFrameAtItsInputTime) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(gap, kGapMkv);
  const std::vector<double> in = frameTimes(gap);
  ASSERT_EQ(in.size(), 30u);
  ASSERT_NEAR(in[10] - in[9], 0.453, 0.0015) << "the input has its gap";
  for (const char* container : {"mkv", "mp4", "mov", "avi", "nut"}) {
    const std::string out = tempDir() + "/times." + container;
    const Result r = liveconv("run -i " + gap + " -o " + out + " --mask box:3 --variant naive -y");
    ASSERT_EQ(r.exitCode, 0) << container << ": " << r.output;
    const std::vector<double> times = frameTimes(out);
    ASSERT_EQ(times.size(), in.size()) << container << ": frames decodable != frames written";
    const double tick = videoTick(out);
    ASSERT_GT(tick, 0) << container;
    for (std::size_t k = 0; k < in.size(); ++k)
      EXPECT_NEAR(times[k], in[k], std::max(tick, 0.0015)) << container << ", frame " << k << " (tick " << tick << " s)";
    // The duration within a frame (FFmpeg 7 counts the input's last frame as
    // lasting 0) or, on a grid, a tick and the rounding of AVI's frame count.
    EXPECT_NEAR(containerDuration(out), containerDuration(gap), std::max(tick + 0.005, 0.041)) << container;
  }
}

const test_media::Clip kLastAfterGapMkv =
    test_media::sharedClip("last_after_gap.mkv",
                           "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 21 -vf select='lt(n\\,20)+eq(n\\,70)' "
                           "-fps_mode passthrough -c:v ffv1");

// A frame after a long gap lasts what its source says, not the gap before it:
// an encoder without delay (FFV1) hands its packet out before the next frame
// is known. Here the last frame follows a 2 s gap; before, it took the 2 s
// and the file lasted 2 s too long. H.264 into MP4 (B-frames: the last frame's
// dts lag its pts by the gap) lasts what ffmpeg's own output lasts: FFmpeg 7
// reads such an MP4's duration from its sample table (0.84 s here), FFmpeg 5
// from its edit list (2.84 s), and liveconv writes both as ffmpeg does.
TEST(Media, AFrameAfterAGapKeepsItsOwnDuration) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(late, kLastAfterGapMkv);
  const std::vector<double> in = frameTimes(late);
  ASSERT_EQ(in.size(), 21u);
  ASSERT_NEAR(in[20] - in[19], 2.04, 1e-6) << "the input has its gap";
  const double inDuration = containerDuration(late);
  for (const char* output : {"mkv", "nut", "mov --codec ffv1", "mp4"}) {
    const std::string container = std::string(output).substr(0, 3);
    const std::string out = tempDir() + "/gap_last." + container;
    const Result r = liveconv("run -i " + late + " -o " + out + " --mask box:3 --variant naive -y" + (output + 3));
    ASSERT_EQ(r.exitCode, 0) << output << ": " << r.output;
    EXPECT_EQ(frameTimes(out).size(), 21u) << output;
    double want = inDuration;
    if (container == "mp4") {
      const std::string ffmpegs = tempDir() + "/gap_last_ffmpeg.mp4";
      ASSERT_EQ(shell("ffmpeg -v error -y -i " + late + " -fps_mode passthrough -c:v libx264 " + ffmpegs).exitCode, 0);
      want = containerDuration(ffmpegs);
    }
    EXPECT_NEAR(containerDuration(out), want, 0.041) << output << ": the last frame took the gap";
  }
}

// Two seconds of MPEG-2 video and AAC sound (the sizes are set by each clip).
const std::string kTwoSecondsOfTs =
    ":rate=25:duration=2 -f lavfi -i sine=frequency=440:sample_rate=48000:duration=2 -c:v mpeg2video -c:a aac";
const test_media::Clip kJumpATs =
    test_media::sharedClip("jump_a.ts", "-f lavfi -i testsrc2=size=160x120" + kTwoSecondsOfTs);
const test_media::Clip kJumpBTs =
    test_media::sharedClip("jump_b.ts", "-f lavfi -i testsrc2=size=96x64" + kTwoSecondsOfTs);

// A transport stream whose clock restarts mid-file (two recordings joined,
// the picture size changing at the join: reschange.ts) goes on where it was,
// as ffmpeg's output does, with its sound: in MKV, 45 frames shared one time
// (2 s of video played in 40 ms), MP4 and MOV had them on a grid.
TEST(Media, ATransportStreamWhoseClockJumpsBackGoesOn) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(first, kJumpATs);
  REQUIRE_CLIP(second, kJumpBTs);
  const std::string joined = tempDir() + "/jump.ts";
  ASSERT_EQ(shell("cat " + first + " " + second + " > " + joined).exitCode, 0);
  const std::vector<double> in = frameTimes(joined);
  ASSERT_GT(in.size(), 90u);
  ASSERT_TRUE(std::adjacent_find(in.begin(), in.end(), [](double a, double b) { return b < a - 1; }) != in.end())
      << "the input's clock jumps back";
  for (const char* container : {"mkv", "mp4", "mov", "nut"}) {
    const std::string out = tempDir() + "/jump_out." + container;
    const Result r = liveconv("run -i " + joined + " -o " + out + " --mask box:3 --variant naive -y");
    ASSERT_EQ(r.exitCode, 0) << container << ": " << r.output;
    const std::vector<double> times = frameTimes(out);
    ASSERT_EQ(times.size(), in.size()) << container;
    for (std::size_t k = 1; k < times.size(); ++k) {
      EXPECT_GT(times[k], times[k - 1]) << container << ", frame " << k;
      EXPECT_LT(times[k] - times[k - 1], 0.1) << container << ", frame " << k << ": a gap that is not in the input";
    }
    EXPECT_NEAR(times.back() - times.front(), 0.04 * (times.size() - 1), 0.1) << container;
    EXPECT_NEAR(audioEnd(out), times.back() + 0.04, 0.15) << container << ": the sound ends with the picture";
  }
}

const test_media::Clip kLateTs =
    test_media::sharedClip("late.ts", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 50 -c:v mpeg2video");

// A transport stream starts at 1.4 s: the output starts at 0, as ffmpeg's
// does, and lasts as long as the input.
TEST(Media, AnInputThatStartsLateGivesAnOutputFromZeroOfTheSameDuration) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(ts, kLateTs);
  const std::vector<double> in = frameTimes(ts);
  ASSERT_EQ(in.size(), 50u);
  const std::string out = tempDir() + "/late.mp4";
  const Result r = liveconv("run -i " + ts + " -o " + out + " --mask box:3 --variant naive -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::vector<double> times = frameTimes(out);
  ASSERT_EQ(times.size(), 50u);
  EXPECT_NEAR(times.front(), 0.0, 1e-6);
  EXPECT_NEAR(times.back() - times.front(), in.back() - in.front(), 0.0015);
  EXPECT_NEAR(containerDuration(out), 2.0, 0.041);
}

const test_media::Clip kEncodedByX264Mp4 =
    test_media::sharedClip("encoded_by_x264.mp4", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 5 -c:v libx264");

// The video is encoded by liveconv: its encoder tag names the encoder that
// made it, not the input's (an FFV1 stream kept ENCODER=... libx264).
TEST(Media, TheVideoTagsNameTheEncoderThatMadeIt) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kEncodedByX264Mp4);
  for (const char* container : {"mkv", "nut"}) {
    const std::string out = tempDir() + "/reencoded." + container;
    ASSERT_EQ(liveconv("run -i " + clip + " -o " + out + " --mask box:3 --variant naive -y").exitCode, 0) << container;
    const std::string tags =
        shell("ffprobe -v error -select_streams v:0 -show_entries stream_tags=encoder -of csv=p=0 " + out).output;
    EXPECT_TRUE(has(tags, " ffv1")) << container << ": " << tags;
    EXPECT_FALSE(has(tags, "libx264")) << container << ": " << tags;
  }
}

// A checksum of a file's decoded audio, and its audio packet count.
std::string audioChecksum(const std::string& path) {
  return shell("ffmpeg -v error -i " + path + " -map 0:a -f md5 -").output;
}

std::string probe(const std::string& path, const std::string& entries, const std::string& select = "") {
  return shell("ffprobe -v error " + select + " -show_entries " + entries + " -of compact " + path).output;
}

const test_media::Clip kAvMp4 = test_media::sharedClip(
    "av.mp4",
    "-f lavfi -i testsrc2=size=160x120:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000 -t 3 "
    "-c:v libx264 -pix_fmt yuv420p -c:a aac -metadata title=Harbour -metadata:s:a:0 language=fra -shortest");

// The input's audio is copied, packet for packet (the same decoded samples), with
// its language and the container's title; -an leaves it out; a run stopped by
// --frames ends its audio with the video.
TEST(Media, AudioAndTagsAreCopiedIntoTheOutput) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(av, kAvMp4);
  const std::string inAudio = audioChecksum(av);
  ASSERT_FALSE(inAudio.empty());
  for (const char* container : {"mp4", "mov", "mkv"}) {
    const std::string out = tempDir() + "/av_out." + container;
    const Result r = liveconv("run -i " + av + " -o " + out + " --mask box:3 --variant naive -y");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(has(r.output, "the audio stream 1 (aac) is copied into")) << r.output;
    const std::string streams = probe(out, "stream=codec_type,codec_name:stream_tags=language:format_tags=title");
    EXPECT_TRUE(has(streams, "codec_name=aac|codec_type=audio")) << container << ": " << streams;
    EXPECT_TRUE(has(streams, "language=fra")) << container << ": " << streams;
    EXPECT_TRUE(has(streams, "title=Harbour")) << container << ": " << streams;
    EXPECT_EQ(probe(out, "stream=nb_read_packets", "-count_packets -select_streams a"),
              probe(av, "stream=nb_read_packets", "-count_packets -select_streams a"))
        << container;
    if (std::string(container) != "mkv") {  // Matroska signals AAC's priming differently, as ffmpeg -c copy does
      EXPECT_EQ(audioChecksum(out), inAudio) << container << ": the audio is not the input's";
    }
  }
  const std::string none = tempDir() + "/av_an.mkv";
  ASSERT_EQ(liveconv("run -i " + av + " -o " + none + " -an --mask box:3 --variant naive -y").exitCode, 0);
  EXPECT_FALSE(has(probe(none, "stream=codec_type"), "audio"));
  const std::string cut = tempDir() + "/av_cut.mp4";
  ASSERT_EQ(liveconv("run -i " + av + " -o " + cut + " --frames 25 --mask box:3 --variant naive -y").exitCode, 0);
  const double audioEnd = std::atof(
      shell("ffprobe -v error -select_streams a -show_entries stream=duration -of csv=p=0 " + cut).output.c_str());
  EXPECT_NEAR(audioEnd, 1.0, 0.07) << "the audio of a 25-frame run ends with its 1 s of video";
}

// Subtitles are copied where the container holds them, converted to its own
// text codec where it holds another (SubRip in MP4 becomes mov_text, as ffmpeg
// makes it), and left out with a line where it holds none (AVI); the sample
// aspect ratio reaches container and bitstream.
TEST(Media, SubtitlesAndSampleAspectRatioAreCarried) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string srt = tempDir() + "/subs.srt";
  std::ofstream(srt) << "1\n00:00:00,000 --> 00:00:01,000\nHello\n\n2\n00:00:01,500 --> 00:00:02,500\nWorld\n";
  REQUIRE_CLIP(subbed, test_media::ownClip("subbed.mkv", "-f lavfi -i testsrc2=size=160x120:rate=25 -i " + srt +
                                                             " -t 3 -vf setsar=4/3 -c:v libx264 "
                                                             "-pix_fmt yuv420p -c:s srt"));
  const std::string mkv = tempDir() + "/subbed_out.mkv";
  Result r = liveconv("run -i " + subbed + " -o " + mkv + " --mask box:3 --variant naive -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(probe(mkv, "stream=codec_type,codec_name"), "codec_name=subrip|codec_type=subtitle"));
  EXPECT_TRUE(has(probe(mkv, "stream=sample_aspect_ratio", "-select_streams v"), "4:3"));
  const std::string mp4 = tempDir() + "/subbed_out.mp4";
  r = liveconv("run -i " + subbed + " -o " + mp4 + " --mask box:3 --variant naive -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "the subtitle stream 1 (subrip) is converted to mov_text for " + mp4)) << r.output;
  EXPECT_TRUE(has(probe(mp4, "stream=codec_type,codec_name"), "codec_name=mov_text|codec_type=subtitle"));
  EXPECT_TRUE(has(probe(mp4, "stream=sample_aspect_ratio", "-select_streams v"), "4:3"));
  const std::string avi = tempDir() + "/subbed_out.avi";
  r = liveconv("run -i " + subbed + " -o " + avi + " --mask box:3 --variant naive -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "the subtitle stream 1 (subrip) cannot be copied into avi")) << r.output;
  EXPECT_FALSE(has(probe(avi, "stream=codec_type"), "subtitle"));
  r = liveconv("run -i " + subbed + " -o " + tempDir() + "/subbed_sn.mkv -sn --mask box:3 --variant naive -y");
  EXPECT_FALSE(has(probe(tempDir() + "/subbed_sn.mkv", "stream=codec_type"), "subtitle"));
}

// A file whose subtitle cues are out of order (a cue at 1.736 s stored before
// one at 1.000 s, as a damaged or hand-edited file has them): every container
// that holds subtitles gets the file with both cues, the late one written just
// after the one before it, as ffmpeg writes it, and the run says so; before,
// the converted ones (MP4, MOV, WebM) failed the whole run (exit 8, no file).
TEST(Media, ACueOutOfOrderIsWrittenAfterTheOneBeforeItAndSaid) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string srt = tempDir() + "/order.srt";
  std::ofstream(srt) << "1\n00:00:01,000 --> 00:00:01,500\nearly cue\n\n2\n00:00:01,736 --> 00:00:01,900\nlate cue\n";
  // One cluster (a single keyframe), so that both cues' times count from the same cluster time.
  REQUIRE_CLIP(inOrder, test_media::ownClip("in_order.mkv", "-f lavfi -i testsrc2=size=160x120:rate=25 -i " + srt +
                                                                " -map 0:v -map 1:s -t 3 -c:v libx264 -g 100 "
                                                                "-pix_fmt yuv420p -c:s srt -write_crc32 0"));
  // The two cues' times swapped in place: each Block's 16-bit time (relative
  // to its cluster's) is the two bytes before its flags byte, just before the text.
  std::string bytes;
  {
    std::ifstream in(inOrder, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto early = bytes.find("early cue"), late = bytes.find("late cue");
  ASSERT_NE(early, std::string::npos);
  ASSERT_NE(late, std::string::npos);
  for (int k = 3; k >= 2; --k) std::swap(bytes[early - k], bytes[late - k]);
  const std::string swapped = tempDir() + "/out_of_order.mkv";
  std::ofstream(swapped, std::ios::binary) << bytes;
  ASSERT_EQ(probe(swapped, "packet=pts_time", "-select_streams s"), "packet|pts_time=1.736000\npacket|pts_time=1.000000\n")
      << "the clip's cues are not out of order as meant";
  for (const char* container : {"mkv", "mp4", "mov", "webm", "nut"}) {
    const std::string out = tempDir() + "/out_of_order_out." + container;
    const Result r = liveconv("run -i " + swapped + " -o " + out + " --mask identity --variant naive -y");
    ASSERT_EQ(r.exitCode, 0) << container << ": " << r.output;
    EXPECT_TRUE(has(r.output, "a subtitle cue at 1.000 s comes after one at 1.736 s; it is written just after that one in " +
                                  out + ", as ffmpeg writes it."))
        << container << ": " << r.output;
    EXPECT_EQ(frameTimes(out).size(), 75u) << container;
    // Both cues, in order: the late one at its time, the early one just after it.
    const std::string cues = probe(out, "packet=pts_time,size", "-select_streams s");
    std::vector<double> starts;
    std::istringstream lines(cues);
    for (std::string line; std::getline(lines, line);) {
      const auto t = line.find("pts_time="), z = line.find("size=");
      if (t != std::string::npos && z != std::string::npos && std::atoi(line.c_str() + z + 5) > 2)  // MP4's empty gap samples are no cues
        starts.push_back(std::atof(line.c_str() + t + 9));
    }
    ASSERT_EQ(starts.size(), 2u) << container << ": " << cues;
    EXPECT_NEAR(starts[0], 1.736, 0.002) << container;
    EXPECT_GT(starts[1], starts[0]) << container;
    EXPECT_LT(starts[1], starts[0] + 0.01) << container;
  }
}

// PSNR of a's pixels against b's. FFmpeg 7 converts between inputs whose
// colour tags differ before it compares (an untagged input against a tagged
// output reads 29 dB where the values match to 48 dB), so `tags` (setparams
// options, e.g. "range=tv:colorspace=bt709") gives both the same, and the
// pixel values alone are compared.
double psnrAverage(const std::string& a, const std::string& b, const std::string& tags = "") {
  const std::string graph = tags.empty() ? "psnr"
                                         : "[0:v]setparams=" + tags + "[a];[1:v]setparams=" + tags + "[b];[a][b]psnr";
  const std::string out =
      shell("ffmpeg -hide_banner -i " + a + " -i " + b + " -lavfi '" + graph + "' -f null -").output;
  const auto at = out.rfind("average:");
  return at == std::string::npos ? 0 : std::atof(out.c_str() + at + 8);
}

const std::string kHdArgs =
    "-f lavfi -i testsrc2=size=1280x720:rate=25 -frames:v 6 -vf hue=s=0.5 -c:v libx264 -pix_fmt yuv420p";
const test_media::Clip kHd709Mp4 = test_media::sharedClip(
    "hd709.mp4", kHdArgs + " -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv");
const test_media::Clip kHdUntaggedMp4 = test_media::sharedClip("hd_untagged.mp4", kHdArgs);
const test_media::Clip kSdUntaggedMp4 = test_media::sharedClip(
    "sd_untagged.mp4",
    "-f lavfi -i testsrc2=size=640x480:rate=25 -frames:v 6 -vf hue=s=0.5 -c:v libx264 -pix_fmt yuv420p");
const test_media::Clip kHd709FullMp4 = test_media::sharedClip(
    "hd709_full.mp4",
    "-f lavfi -i testsrc2=size=1280x720:rate=25 -frames:v 6 -vf hue=s=0.5 -c:v libx264 -pix_fmt yuvj420p "
    "-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range pc");

// H.264 output is converted with the input's matrix and range and tagged:
// BT.709 for HD that says so or says nothing (as players assume), BT.601 for
// untagged SD. The identity mask's round trip stays above 40 dB at the default quality.
TEST(Media, ColourFollowsTheInputAndTheOutputIsTagged) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(tagged, kHd709Mp4);
  REQUIRE_CLIP(untagged, kHdUntaggedMp4);
  REQUIRE_CLIP(sd, kSdUntaggedMp4);
  REQUIRE_CLIP(full, kHd709FullMp4);
  const std::string hdTags = "range=tv:colorspace=bt709:color_primaries=bt709:color_trc=bt709";
  const std::string fullTags = "range=pc:colorspace=bt709:color_primaries=bt709:color_trc=bt709";
  const struct {
    std::string input, tags, setTags, convert;
  } cases[] = {
      {tagged, "color_range=tv|color_space=bt709|color_transfer=bt709|color_primaries=bt709", hdTags, "auto"},
      {untagged, "color_range=tv|color_space=bt709|color_transfer=bt709|color_primaries=bt709", hdTags, "auto"},
      {sd, "color_range=tv|color_space=smpte170m", "range=tv:colorspace=smpte170m", "auto"},
      // Full range, on the device and through swscale: every frame, not the first alone, keeps its range.
      {full, "color_range=pc|color_space=bt709|color_transfer=bt709|color_primaries=bt709", fullTags, "auto"},
      {full, "color_range=pc|color_space=bt709|color_transfer=bt709|color_primaries=bt709", fullTags, "cpu"},
  };
  for (const auto& c : cases) {
    const std::string out = c.input + "." + c.convert + ".identity.mp4";
    const Result r =
        liveconv("run -i " + c.input + " -o " + out + " --mask identity --variant naive -y --convert " + c.convert);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const std::string tags = probe(out, "stream=color_space,color_primaries,color_transfer,color_range", "-select_streams v");
    EXPECT_TRUE(has(tags, c.tags)) << c.input << ": " << tags;
    EXPECT_GE(psnrAverage(out, c.input, c.setTags), 40.0) << c.input << ", convert " << c.convert;
  }
}

const test_media::Clip kSettingsMp4 = test_media::sharedClip(
    "settings.mp4", "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 10 -c:v libx264 -pix_fmt yuv420p");

// --crf, --preset, -b:v, --codec-opt and --pix-fmt reach the encoder; what the
// encoder does not have is a bad command line (exit 2) before any frame.
TEST(Media, EncoderSettingsReachTheEncoder) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kSettingsMp4);
  const std::string base = "run -i " + clip + " --mask identity --variant naive -y -o " + tempDir() + "/settings_";
  ASSERT_EQ(liveconv(base + "fine.mp4 --crf 8 --preset medium").exitCode, 0);
  ASSERT_EQ(liveconv(base + "coarse.mp4 --crf 45 --codec-opt tune=film --codec-opt tune=grain").exitCode, 0);
  EXPECT_GT(fs::file_size(tempDir() + "/settings_fine.mp4"), 2 * fs::file_size(tempDir() + "/settings_coarse.mp4"));
  ASSERT_EQ(liveconv(base + "444.mp4 --pix-fmt yuv444p").exitCode, 0);
  EXPECT_TRUE(has(probe(tempDir() + "/settings_444.mp4", "stream=pix_fmt", "-select_streams v"), "yuv444p"));
  ASSERT_EQ(liveconv(base + "rate.mp4 -b:v 50k").exitCode, 0);
  for (const char* bad : {"--codec-opt nope=1", "--codec-opt novalue", "--pix-fmt rgb24", "--preset nosuch", "--codec nosuchcodec"}) {
    const Result r = liveconv(base + "bad.mp4 " + bad);
    EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.output;
    EXPECT_FALSE(fs::exists(tempDir() + "/settings_bad.mp4")) << bad;
  }
  // A preset x264 does not know: one sentence listing its presets, none of x264's own log lines.
  const Result preset = liveconv(base + "bad.mp4 --preset superduper");
  EXPECT_TRUE(has(preset.output,
                  "The libx264 encoder has no preset 'superduper'; its presets are ultrafast, superfast, "
                  "veryfast, faster, fast, medium, slow, slower, veryslow, placebo."))
      << preset.output;
  EXPECT_FALSE(has(preset.output, "x264 [error]")) << preset.output;
}

const test_media::Clip kPipesMkv =
    test_media::sharedClip("pipes.mkv", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 7 -c:v ffv1");

// Standard output is the output's alone: messages, progress and summary go to
// stderr, --quiet leaves only errors; - is standard input and output; a lone
// argument is the input; .gray names the raw format, and --format may not contradict it.
TEST(Media, RunTalksOnStderrAndTakesPipesAndPositionalInput) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kPipesMkv);
  const std::string bin = LIVECONV_BIN, dir = tempDir();
  Result r = shell("(" + bin + " run " + clip + " -o " + dir + "/pos.mkv -y --mask box:3 --variant naive 2>/dev/null)");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.output, "") << "stdout is not the output's";
  EXPECT_EQ(decodeAll(dir + "/pos.mkv", PixelFormat::RGBA8).size(), 7u);
  r = shell(bin + " run -i " + clip + " -o " + dir + "/quiet.mkv -y --quiet --mask box:3 --variant naive");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.output, "") << "--quiet printed:\n" << r.output;
  EXPECT_EQ(liveconv("run " + clip + " " + clip).exitCode, 2);

  r = shell("cat " + clip + " | " + bin + " run -i - -o - --container nut --quiet --mask box:3 --variant naive >" + dir +
            "/piped.nut");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(decodeAll(dir + "/piped.nut", PixelFormat::RGBA8).size(), 7u);
  EXPECT_EQ(liveconv("run -i " + clip + " -o - --mask box:3").exitCode, 2) << "-o - needs --container";

  r = shell(bin + " run -i " + clip + " -o raw:- --format gray --quiet --mask box:3 --variant naive | wc -c");
  EXPECT_EQ(std::atol(r.output.c_str()), 7L * 96 * 64);
  r = liveconv("run -i " + clip + " -o " + dir + "/frames.gray -y --mask box:3 --variant naive");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(fs::file_size(dir + "/frames.gray"), 7u * 96 * 64) << "a .gray file holds gray frames";
  EXPECT_TRUE(has(r.output, "wrote gray 96x64, 7 frames")) << r.output;
  EXPECT_EQ(liveconv("run -i " + clip + " -o " + dir + "/x.gray --format rgba -y").exitCode, 2);
}

const test_media::Clip kAutoMkv =
    test_media::sharedClip("auto.mkv", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 4 -c:v ffv1");

// With auto, the run says it measures (or, the next time, that it measured
// before), and the run line and --json-log name the variant chosen.
TEST(Media, AutoSaysWhatItChose) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kAutoMkv);
  const std::string log = tempDir() + "/auto.jsonl", cache = tempDir() + "/auto-said.tsv";
  fs::remove(cache);
  const std::string run =
      "LIVECONV_TUNING_CACHE=" + cache + " " + LIVECONV_BIN + " run -i " + clip + " --mask box:3 --variant auto ";
  const Result r = shell(run + "--json-log " + log + " 2>&1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "auto: finding the fastest variant for 96x64 rgba frames")) << r.output;
  std::smatch chosen;
  ASSERT_TRUE(std::regex_search(r.output, chosen, std::regex("-> auto -> ([a-z_0-9]+) \\(workgroup"))) << r.output;
  std::ifstream in(log);
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  EXPECT_TRUE(has(json, "\"variant\":\"" + chosen[1].str() + "\"")) << json;
  // The second run finds the answer in the cache and does not claim to measure.
  const Result again = shell(run + "2>&1");
  ASSERT_EQ(again.exitCode, 0) << again.output;
  EXPECT_TRUE(has(again.output, "auto: the fastest variant for 96x64 rgba frames")) << again.output;
  EXPECT_TRUE(has(again.output, "was measured before (" + cache + ")")) << again.output;
  EXPECT_FALSE(has(again.output, "finding the fastest variant")) << again.output;
  EXPECT_TRUE(has(again.output, "-> auto -> " + chosen[1].str() + " (workgroup")) << again.output;
}

const test_media::Clip kPcmMov = test_media::sharedClip(
    "pcm.mov",
    "-f lavfi -i testsrc2=size=96x64:rate=25 -f lavfi -i sine=frequency=440:sample_rate=44100 -t 3 "
    "-c:v libx264 -pix_fmt yuv420p -c:a pcm_s16le -shortest");

// Audio the container cannot hold (PCM into MP4) is encoded again as its
// usual codec (AAC), with the input's duration and loudness; --quiet keeps the run silent.
TEST(Media, AudioTheContainerCannotHoldIsReencoded) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(pcm, kPcmMov);
  const std::string out = tempDir() + "/pcm_out.mp4";
  Result r = liveconv("run " + pcm + " -o " + out + " -y --mask box:3 --variant naive");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "the audio stream 1 (pcm_s16le) is re-encoded as aac")) << r.output;
  const std::string audio = probe(out, "stream=codec_name,sample_rate,duration", "-select_streams a");
  EXPECT_TRUE(has(audio, "codec_name=aac|sample_rate=44100")) << audio;
  const auto at = audio.find("duration=");
  ASSERT_NE(at, std::string::npos) << audio;
  EXPECT_NEAR(std::atof(audio.c_str() + at + 9), 3.0, 0.05) << audio;
  auto loudness = [](const std::string& file) {
    const std::string text = shell("ffmpeg -hide_banner -i " + file + " -map 0:a -af volumedetect -f null -").output;
    const auto m = text.find("mean_volume: ");
    return m == std::string::npos ? 0.0 : std::atof(text.c_str() + m + 13);
  };
  EXPECT_NEAR(loudness(out), loudness(pcm), 0.5);
  EXPECT_LT(loudness(out), -1.0) << "no audio measured";
  r = shell("(" + std::string(LIVECONV_BIN) + " run " + pcm + " -o " + out + " -y --quiet --mask box:3 --variant naive 2>&1)");
  EXPECT_EQ(r.output, "") << "--quiet printed:\n" << r.output;
}

const test_media::Clip kOpusMkv = test_media::sharedClip(
    "opus.mkv",
    "-f lavfi -i testsrc2=size=96x64:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000 -frames:v 10 "
    "-t 0.4 -c:v ffv1 -c:a libopus");

// Each container gets the codecs it holds, chosen before its header is
// written, as ffmpeg chooses them: VP9 for WebM (FFV1 made the header fail),
// GIF for .gif, H.264 for MP4/MOV, lossless FFV1 for MKV/NUT/AVI; Opus, which
// FFmpeg's list lets into MOV but its MOV muxer refuses, becomes AAC there;
// audio that GIF cannot hold is left out with one line. Every output opens
// and holds every frame.
TEST(Media, EachContainerGetsTheCodecsItHolds) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kOpusMkv);
  const struct {
    const char* container;
    const char* streams;  // ffprobe's codec_name of each stream, in order
    const char* said;     // what the run says about the audio
  } cases[] = {
      {"webm", "vp9,opus", "the audio stream 1 (opus) is copied"},
      {"mov", "h264,aac", "the audio stream 1 (opus) is re-encoded as aac"},
      {"mp4", "h264,opus", "the audio stream 1 (opus) is copied"},
      {"gif", "gif", "the audio stream 1 (opus) cannot be copied into gif, so"},
      {"mkv", "ffv1,opus", "the audio stream 1 (opus) is copied"},
      {"avi", "ffv1,mp3", "the audio stream 1 (opus) is re-encoded as libmp3lame"},
  };
  for (const auto& c : cases) {
    const std::string out = tempDir() + "/codecs." + c.container;
    const Result r = liveconv("run -i " + clip + " -o " + out + " --mask box:3 --variant naive -y");
    ASSERT_EQ(r.exitCode, 0) << c.container << ": " << r.output;
    EXPECT_TRUE(has(r.output, c.said)) << c.container << ": " << r.output;
    std::string streams = shell("ffprobe -v error -show_entries stream=codec_name -of csv=p=0 " + out).output;
    std::replace(streams.begin(), streams.end(), '\n', ',');
    EXPECT_EQ(streams, std::string(c.streams) + ",") << c.container;
    EXPECT_EQ(frameTimes(out).size(), 10u) << c.container;
  }
}

const test_media::Clip kPf420Mp4 = test_media::sharedClip(
    "pf420.mp4", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 5 -c:v libx264 -pix_fmt yuv420p");
const test_media::Clip kPf444Mp4 = test_media::sharedClip(
    "pf444.mp4", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 5 -c:v libx264 -pix_fmt yuv444p");
const test_media::Clip kPfj420Mp4 = test_media::sharedClip(
    "pfj420.mp4", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 5 -c:v libx264 -pix_fmt yuvj420p");
const test_media::Clip kPfGrayMkv = test_media::sharedClip(
    "pfgray.mkv", "-f lavfi -i testsrc2=size=160x120:rate=25 -frames:v 5 -pix_fmt gray -c:v ffv1");

// The output's pixel format follows the input's where the encoder takes it
// (yuv420p in, yuv420p out, also for FFV1; yuv444p into H.264), a gray run
// stays gray, a gray input into FFV1 is gray (exactly the frames of a gray
// run: R, G and B are filtered alike) while H.264 keeps 4:2:0 for players,
// and --pix-fmt bgra keeps the filtered pixels exactly.
TEST(Media, TheOutputPixelFormatFollowsTheInput) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(yuv420, kPf420Mp4);
  REQUIRE_CLIP(yuv444, kPf444Mp4);
  const std::string dir = tempDir() + "/";
  auto pixFmt = [](const std::string& file) { return probe(file, "stream=pix_fmt", "-select_streams v"); };
  const std::string run = " -y --quiet --mask box:3 --variant naive";
  ASSERT_EQ(liveconv("run " + yuv420 + " -o " + dir + "pf420.mkv" + run).exitCode, 0);
  EXPECT_TRUE(has(pixFmt(dir + "pf420.mkv"), "pix_fmt=yuv420p")) << pixFmt(dir + "pf420.mkv");
  ASSERT_EQ(liveconv("run " + yuv420 + " -o " + dir + "pfbgra.mkv --pix-fmt bgra" + run).exitCode, 0);
  EXPECT_TRUE(has(pixFmt(dir + "pfbgra.mkv"), "pix_fmt=bgra"));
  EXPECT_GT(fs::file_size(dir + "pfbgra.mkv"), fs::file_size(dir + "pf420.mkv"));
  // Full range (yuvj420p, FFmpeg's old name for it) stays yuv420p, tagged full range, not RGB.
  REQUIRE_CLIP(yuvj, kPfj420Mp4);
  ASSERT_EQ(liveconv("run " + yuvj + " -o " + dir + "pfj420.mkv" + run).exitCode, 0);
  EXPECT_TRUE(has(probe(dir + "pfj420.mkv", "stream=pix_fmt,color_range", "-select_streams v"), "pix_fmt=yuv420p|color_range=pc"))
      << probe(dir + "pfj420.mkv", "stream=pix_fmt,color_range", "-select_streams v");
  ASSERT_EQ(liveconv("run " + yuv444 + " -o " + dir + "pf444_out.mp4" + run).exitCode, 0);
  EXPECT_TRUE(has(pixFmt(dir + "pf444_out.mp4"), "pix_fmt=yuv444p")) << pixFmt(dir + "pf444_out.mp4");
  ASSERT_EQ(liveconv("run " + yuv420 + " -o " + dir + "pfgray.mkv --format gray" + run).exitCode, 0);
  EXPECT_TRUE(has(pixFmt(dir + "pfgray.mkv"), "pix_fmt=gray")) << pixFmt(dir + "pfgray.mkv");
  REQUIRE_CLIP(gray, kPfGrayMkv);
  ASSERT_EQ(liveconv("run " + gray + " -o " + dir + "gray_rgba_run.mkv" + run).exitCode, 0);
  EXPECT_TRUE(has(pixFmt(dir + "gray_rgba_run.mkv"), "pix_fmt=gray")) << pixFmt(dir + "gray_rgba_run.mkv");
  ASSERT_EQ(liveconv("run " + gray + " -o " + dir + "gray_gray_run.mkv --format gray" + run).exitCode, 0);
  const auto pixels = [](const std::string& file) {
    return shell("ffmpeg -v error -i " + file + " -fps_mode passthrough -f rawvideo -pix_fmt gray - | md5sum").output;
  };
  EXPECT_EQ(pixels(dir + "gray_rgba_run.mkv"), pixels(dir + "gray_gray_run.mkv")) << "a gray input's frames changed";
  ASSERT_EQ(liveconv("run " + gray + " -o " + dir + "gray.mp4" + run).exitCode, 0);
  EXPECT_TRUE(has(pixFmt(dir + "gray.mp4"), "420p")) << pixFmt(dir + "gray.mp4");  // yuvj420p: gray is full range
}

const test_media::Clip kOpusH264Mkv = test_media::sharedClip(
    "opus_h264.mkv",
    "-f lavfi -i testsrc2=size=96x64:rate=25 -f lavfi -i sine=frequency=330:sample_rate=48000 -t 2 "
    "-c:v libx264 -pix_fmt yuv420p -c:a libopus -shortest");
const test_media::Clip kOneFrameMkv =
    test_media::sharedClip("one_frame.mkv", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 1 -c:v ffv1");

// Opus audio reaches MP4 and Matroska outputs (copied, or encoded again where
// the container would not take it), and a one-frame input gives a one-frame output.
TEST(Media, OpusAudioAndASingleFrameComeThrough) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(opus, kOpusH264Mkv);
  for (const char* container : {"mp4", "mkv"}) {
    const std::string out = tempDir() + "/opus_out." + container;
    const Result r = liveconv("run " + opus + " -o " + out + " -y --mask box:3 --variant naive");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const std::string audio = probe(out, "stream=codec_type,duration", "-select_streams a");
    EXPECT_TRUE(has(audio, "codec_type=audio")) << container << ": " << r.output;
  }
  REQUIRE_CLIP(one, kOneFrameMkv);
  const std::string out = tempDir() + "/one_out.mp4";
  ASSERT_EQ(liveconv("run " + one + " -o " + out + " -y --quiet --mask box:3 --variant naive").exitCode, 0);
  EXPECT_EQ(frameTimes(out).size(), 1u);
}

// Chapters (titles and times) reach every container that holds them.
TEST(Media, ChaptersAreCarried) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string meta = tempDir() + "/chapters.txt";
  std::ofstream(meta) << ";FFMETADATA1\ntitle=With chapters\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=Opening\n"
                         "[CHAPTER]\nTIMEBASE=1/1000\nSTART=1000\nEND=3000\ntitle=Rest\n";
  REQUIRE_CLIP(clip,
               test_media::ownClip("chapters.mkv",
                                   "-f lavfi -i testsrc2=size=96x64:rate=25 -i " + meta +
                                       " -t 3 -map 0:v -map_metadata 1 -map_chapters 1 -c:v libx264 -pix_fmt yuv420p"));
  for (const char* container : {"mkv", "mp4"}) {
    const std::string out = tempDir() + "/chapters_out." + container;
    ASSERT_EQ(liveconv("run " + clip + " -o " + out + " -y --mask box:3 --variant naive").exitCode, 0);
    const std::string chapters = shell("ffprobe -v error -show_chapters -of compact " + out).output;
    EXPECT_TRUE(has(chapters, "end_time=1.000000|tag:title=Opening")) << container << ": " << chapters;
    EXPECT_TRUE(has(chapters, "start_time=1.000000|") && has(chapters, "end_time=3.000000|tag:title=Rest"))
        << container << ": " << chapters;
  }
}

const test_media::Clip kConvAvi =
    test_media::sharedClip("conv.avi", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 5 -c:v mpeg4");
const test_media::Clip kRgbNut = test_media::sharedClip(
    "rgb.nut", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 3 -pix_fmt bgr24 -c:v rawvideo");
const test_media::Clip kBgraNut = test_media::sharedClip(
    "bgra.nut", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 3 -pix_fmt bgra -c:v rawvideo");

TEST(Media, CliConvertOptionPicksThePathAndSaysWhichRan) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  REQUIRE_CLIP(clip, kConvAvi);
  Result r = liveconv("run -i " + clip + " --convert gpu --variant local --mask box:3");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "converted on the device (yuv420p, bt601, limited range)")) << r.output;
  EXPECT_TRUE(has(r.output, "frames: in 5, out 5, dropped 0")) << r.output;
  r = liveconv("run -i " + clip + " --convert cpu --variant local --mask box:3");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "converted by swscale (yuv420p)")) << r.output;
  REQUIRE_CLIP(rgb, kRgbNut);
  r = liveconv("run -i " + rgb + " --convert gpu --variant local --mask box:3");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "converted on the device (bgr24)")) << r.output;
  REQUIRE_CLIP(bgra, kBgraNut);
  r = liveconv("run -i " + bgra + " --convert gpu --variant local --mask box:3");  // no device path: swscale
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "converted by swscale (bgra)")) << r.output;
  r = liveconv("run -i " + clip + " --convert fpga");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Unknown conversion 'fpga'; use gpu, cpu or auto.")) << r.output;
}

const test_media::Clip kDecAvi =
    test_media::sharedClip("dec.avi", "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 7 -c:v mpeg4");

// Decode-only needs no OpenCL at all: a device selector that matches nothing is not even looked at.
TEST(Media, DecodeOnlyRunsTheSameStreamWithoutADevice) {
  REQUIRE_CLIP(clip, kDecAvi);
  const std::string log = tempDir() + "/decode_only.jsonl";
  Result r = liveconv("run -i " + clip + " --decode-only --convert cpu --device nosuchdevice --json-log " + log);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "decode only (no OpenCL)")) << r.output;
  EXPECT_TRUE(has(r.output, "frames: in 7, out 7, dropped 0")) << r.output;
  EXPECT_TRUE(has(r.output, "stage medians (ms): decode")) << r.output;
  std::ifstream in(log);
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  EXPECT_TRUE(has(json, "\"frames_out\":7")) << json;
  r = liveconv("run -i " + clip + " --decode-only -o " + tempDir() + "/x.mkv");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "use it with -o null")) << r.output;
}

// A camera that is not there at all fails at once, with no attempt again (a
// busy or unplugged one is waited for, a line each attempt "trying again in":
// tests/media/test_stream.cpp drives that with fakes).
TEST(Media, AbsentCameraFailsAtOnceWithExit7) {
  const Result r = liveconv("run -i /dev/video97 -o " + tempDir() + "/cam.mkv --device 0");
  if (has(r.output, "built without camera support")) {
    EXPECT_EQ(r.exitCode, 7) << r.output;
    return;
  }
  if (has(r.output, "No OpenCL")) GTEST_SKIP() << "SKIP: no OpenCL device on this machine";
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "Camera /dev/video97 (/dev/video97) cannot be opened")) << r.output;
  EXPECT_FALSE(has(r.output, "trying again")) << r.output;
}

// Options as an ffmpeg user expects: a repeated -i or -o is refused (which
// one was meant?), a repeatable one (--codec-opt) is not; a number outside
// what the encoder takes is refused before anything is written; a JSON log
// that cannot be written ends the run with exit 8 (the output still finished).
TEST(Media, RepeatedOptionsNumbersOutOfRangeAndAnUnwritableLogAreRefused) {
  const std::string dir = tempDir();
  Result r = liveconv("run -i synthetic:64x48 -i synthetic:32x32 --frames 3 -o null");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Option -i is given twice ('synthetic:64x48', then 'synthetic:32x32'); give it once."))
      << r.output;
  r = liveconv("run -i synthetic:64x48 --frames 3 -o " + dir + "/one.mkv --output " + dir + "/two.mkv");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Option --output is given twice")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/one.mkv") || std::filesystem::exists(dir + "/two.mkv"));

  for (const char* crf : {"999", "-1", "52"}) {
    r = liveconv("run -i synthetic:64x48 --frames 3 --variant naive --crf " + std::string(crf) + " -o " + dir +
                 "/crf.mp4");
    EXPECT_EQ(r.exitCode, 2) << crf << ": " << r.output;
    EXPECT_TRUE(has(r.output, "outside what the libx264 encoder takes: 0 to 51.")) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir + "/crf.mp4"));
  }
  r = liveconv("run -i synthetic:64x48 --frames 3 --variant naive --crf 51 --codec-opt tune=film "
               "--codec-opt bf=0 -o " + dir + "/crf.mp4");
  EXPECT_EQ(r.exitCode, 0) << r.output;

  r = liveconv("run -i synthetic:64x48 --frames 3 --variant naive --json-log /dev/full -o " + dir + "/logged.mkv");
  EXPECT_EQ(r.exitCode, 8) << r.output;
  EXPECT_TRUE(has(r.output, "Cannot write the JSON log /dev/full: No space left on device.")) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/logged.mkv")) << "the output is finished whatever the log does";
  r = liveconv("bench --pipeline --size 64x48 --frames 3 --variant naive --json-log /dev/full");
  EXPECT_EQ(r.exitCode, 8) << r.output;
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

  // A y4m header with width 0: FFmpeg's own reason, not its error code's ("Device or resource busy").
  const std::string y4m = tempDir() + "/width0.y4m";
  std::ofstream(y4m) << "YUV4MPEG2 W0 H64 F25:1 Ip A1:1 C420jpeg\nFRAME\n" << std::string(100, '\0');
  r = liveconv("run -i " + y4m + " -o " + tempDir() + "/width0.mkv");
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "Input " + y4m + " cannot be opened: Picture size 0x64 is invalid.")) << r.output;

  r = liveconv("run -i camera:9");
  EXPECT_EQ(r.exitCode, 7) << r.output;
  EXPECT_TRUE(has(r.output, "Camera camera:9")) << r.output;

  r = liveconv("run -i lavfi:testsrc2 -o /nonexistent/dir/out.mkv");
  EXPECT_EQ(r.exitCode, 8) << r.output;
  EXPECT_TRUE(has(r.output, "Cannot write /nonexistent/dir/out.mkv")) << r.output;

  r = liveconv("run -i lavfi:testsrc2 -o " + tempDir() + "/x.mkv --codec nosuchcodec");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Unknown video encoder 'nosuchcodec'")) << r.output;

  r = liveconv("run --mask 3x3:1,2");
  EXPECT_EQ(r.exitCode, 2) << r.output;

  r = liveconv("run -i lavfi:testsrc2 --device nosuchdevice");
  EXPECT_EQ(r.exitCode, 3) << r.output;

  r = liveconv("cameras");
  EXPECT_EQ(r.exitCode, 0) << r.output;
}

}  // namespace
}  // namespace liveconv::media
