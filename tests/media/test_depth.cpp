// Every bit the source has: a source of more than 8 bits runs through the
// engine at 16 (`run --depth auto`, the default) and keeps its depth into the
// outputs that hold it. Each row is a source such a user has, made here with
// the ffmpeg command: 10-bit 4:2:0 and 4:2:2 and 12-bit 4:4:4 in FFV1 (a luma
// ramp with every level of the range, chroma that varies inside the gamut), a
// 16-bit gray PNG and an rgb48 PNG. Through `run --mask identity`:
//  - into .mkv (FFV1, lossless) the output has the input's pixel format, and
//    decoded at it, equals the input sample for sample;
//  - with --depth 8 (the engine at 8 bits, as every run was before) the same
//    output loses levels: the check sees what 8 bits do;
//  - into .rgba16 the frames are 8 bytes a pixel, as many as the input has.
// Then the 10-bit row into .mp4 (H.264 High 10, lossy) and a blur compared with
// FFmpeg's own convolution filter at 10 bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "file_text.hpp"
#include "media_clips.hpp"
#include "media_test_support.hpp"

namespace liveconv::media::test_media {
namespace {

struct DepthRow {
  const char* name;
  const char* file;    // the clip's name: its extension is its container
  const char* pixFmt;  // the input's pixel format, what both are compared at
  const char* outFmt;  // the output's (the input's, or FFV1's lossless RGB for an RGB input)
  const char* lavfi;   // the picture
  const char* codec;   // how the clip is coded
  int width, height, frames;
};

// Ramps of every luma level (64..940 at 10 bits: 877) with neutral chroma,
// and pictures whose chroma varies inside the gamut (RGBA between is not clipped).
const DepthRow kRows[] = {
    {"yuv420p10", "lumaramp420p10.mkv", "yuv420p10le", "yuv420p10le",
     "nullsrc=s=880x16:r=25,format=yuv420p10le,geq=lum='min(64+X\\,940)':cb=512:cr=512", "-c:v ffv1", 880, 16, 3},
    {"yuv422p10", "lumaramp422p10.mkv", "yuv422p10le", "yuv422p10le",
     "nullsrc=s=880x16:r=25,format=yuv422p10le,geq=lum='min(64+X\\,940)':cb=512:cr=512", "-c:v ffv1", 880, 16, 3},
    {"yuv420p10colour", "colour420p10.mkv", "yuv420p10le", "yuv420p10le",
     "nullsrc=s=880x16:r=25,format=yuv420p10le,geq=lum='200+X*0.6':cb='512+(Y-8)*3':cr='500+mod(X\\,32)'", "-c:v ffv1",
     880, 16, 3},
    {"yuv444p12colour", "colour444p12.mkv", "yuv444p12le", "yuv444p12le",
     "nullsrc=s=880x16:r=25,format=yuv444p12le,geq=lum='800+X*2.5':cb='2048+(Y-8)*12':cr='2000+mod(X\\,128)'",
     "-c:v ffv1", 880, 16, 3},
    {"gray16png", "ramp16.png", "gray16le", "gray16le", "nullsrc=s=880x16:r=25,format=gray16be,geq=lum='X*74+Y*7'",
     "-frames:v 1", 880, 16, 1},
    {"rgb48png", "ramp48.png", "rgb48le", "gbrap16le",
     "nullsrc=s=880x16:r=25,format=rgb48be,geq=r='X*74':g='65535-X*70':b='Y*4000'", "-frames:v 1", 880, 16, 1},
};

Clip clipOf(const DepthRow& row) {
  std::string args = std::string("-f lavfi -i \"") + row.lavfi + "\" " + row.codec;
  if (std::string(row.codec).find("-frames") == std::string::npos) args += " -frames:v " + std::to_string(row.frames);
  return sharedClip(row.file, args);
}

// The samples of a file's first frame, decoded by ffmpeg at `pixFmt` (16-bit little-endian formats).
std::vector<std::uint16_t> samples(const std::string& path, const std::string& pixFmt) {
  const std::string raw = tempDir() + "/samples-" + std::filesystem::path(path).filename().string() + ".raw";
  const Result r = shell("ffmpeg -v error -y -i " + quoted(path) + " -frames:v 1 -f rawvideo -pix_fmt " + pixFmt + " " +
                         quoted(raw));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  const std::string bytes = liveconv::test::readFile(raw);
  std::vector<std::uint16_t> out(bytes.size() / 2);
  std::memcpy(out.data(), bytes.data(), out.size() * 2);
  return out;
}

std::string probe(const std::string& path, const std::string& entry) {
  const Result r =
      shell("ffprobe -v error -select_streams v:0 -show_entries stream=" + entry + " -of csv=p=0 " + quoted(path));
  std::string out = r.output;
  out.erase(std::remove(out.begin(), out.end(), '\n'), out.end());
  return out;
}

std::size_t levels(const std::vector<std::uint16_t>& v, std::size_t count) {
  return std::set<std::uint16_t>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(count, v.size()))).size();
}

class Depth : public ::testing::TestWithParam<DepthRow> {};

TEST_P(Depth, IdentityKeepsEverySampleAndEightBitsDoNot) {
  const DepthRow& row = GetParam();
  REQUIRE_CLIP(in, clipOf(row));
  const std::string out = tempDir() + "/" + row.name + "-out.mkv";
  Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(out) + " --mask identity -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, ", rgba16, on ")) << "the run line names the engine's 16-bit format: " << r.output;
  EXPECT_EQ(probe(out, "pix_fmt"), row.outFmt);
  const std::vector<std::uint16_t> want = samples(in, row.pixFmt), got = samples(out, row.pixFmt);
  ASSERT_EQ(got.size(), want.size());
  auto firstDifference = [&want](const std::vector<std::uint16_t>& v) {
    std::size_t k = 0;
    while (k < v.size() && k < want.size() && v[k] == want[k]) ++k;
    return k;
  };
  const std::size_t first = firstDifference(got);
  EXPECT_EQ(first, got.size()) << "sample " << first << ": " << got[first] << ", want " << want[first];

  // The engine at 8 bits: the same run differs from the input.
  const std::string out8 = tempDir() + "/" + row.name + "-out8.mkv";
  r = liveconv("run -i " + quoted(in) + " -o " + quoted(out8) + " --mask identity --depth 8 -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::vector<std::uint16_t> got8 = samples(out8, row.pixFmt);
  EXPECT_LT(firstDifference(got8), got8.size()) << "8 bits kept every sample of a " << row.pixFmt << " input";
  if (std::string(row.file).rfind("lumaramp", 0) == 0) {  // the luma ramps: every level, and at 8 bits a quarter
    const std::size_t firstPlane = static_cast<std::size_t>(row.width) * row.height;
    EXPECT_LT(levels(got8, firstPlane), levels(want, firstPlane));
    EXPECT_EQ(levels(got, firstPlane), levels(want, firstPlane));
  }

  // Raw 16-bit frames: 8 bytes an RGBA pixel, every frame.
  const std::string raw = tempDir() + "/" + row.name + ".rgba16";
  r = liveconv("run -i " + quoted(in) + " -o " + quoted(raw) + " --mask identity -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "-pixel_format rgba64")) << r.output;
  EXPECT_EQ(std::filesystem::file_size(raw), std::uintmax_t(8) * row.width * row.height * row.frames);
}

INSTANTIATE_TEST_SUITE_P(Rows, Depth, ::testing::ValuesIn(kRows),
                         [](const ::testing::TestParamInfo<DepthRow>& info) { return std::string(info.param.name); });

// A 10-bit clip into .mp4: H.264 High 10 at 10 bits, nearly every level kept
// (lossy: crf 18), where 8 bits keep a quarter.
TEST(DepthOutputs, TenBitIntoMp4IsHighTen) {
  REQUIRE_CLIP(in, clipOf(kRows[0]));
  const std::string out = tempDir() + "/ramp10.mp4";
  const Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(out) + " --mask identity -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(probe(out, "codec_name,profile,pix_fmt"), "h264,High 10,yuv420p10le");
  const std::size_t plane = 880 * 16;
  EXPECT_GE(levels(samples(out, "yuv420p10le"), plane), 800u);  // of 877; 8 bits: 220
}

// ProRes when asked (--codec prores_ks into .mov), as FFmpeg's own transcode
// picks it: a 12-bit 4:4:4 source is ProRes 4444 at 12 bits, a 10-bit 4:2:0
// one 422 HQ at 10 bits (no alpha plane added); the luma within 2 LSB.
TEST(DepthOutputs, ProResWhenAskedKeepsTheDepthAndSampling) {
  for (const auto& [row, want] :
       {std::pair{kRows[3], "prores,4444,yuv444p12le"}, {kRows[0], "prores,HQ,yuv422p10le"}}) {
    REQUIRE_CLIP(in, clipOf(row));
    const std::string out = tempDir() + "/" + row.name + "-prores.mov";
    const Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(out) + " --codec prores_ks --mask identity -y");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(probe(out, "codec_name,profile,pix_fmt"), want);
    const std::vector<std::uint16_t> a = samples(in, row.pixFmt), b = samples(out, row.pixFmt);
    ASSERT_EQ(a.size(), b.size());
    int worst = 0;
    for (std::size_t i = 0; i < std::size_t(row.width) * row.height; ++i)
      worst = std::max(worst, std::abs(int(a[i]) - int(b[i])));
    EXPECT_LE(worst, 2) << row.name;
  }
}

// --convert gpu at 16 bits: the device converts the planes of every depth
// (10-bit 4:2:0 and 4:2:2, 12-bit 4:4:4, 16-bit gray and RGB PNG) into rgba16
// with every bit. YUV goes through the textbook formula, not swscale's, so the
// encoder's swscale does not undo it exactly: within 3 LSB at 10 bits (12 at
// 12), and the ramps keep their levels where 8 bits keep a quarter. Gray and
// RGB are copied: exact. (auto, the default, converts with swscale at 16
// bits: the rows above, exact.)
TEST(DepthOutputs, TheDeviceConvertsEveryDepthAtSixteenWhenAsked) {
  for (const DepthRow& row : kRows) {
    if (std::string(row.name) == "yuv420p10colour") continue;  // a layout the first row has
    REQUIRE_CLIP(in, clipOf(row));
    const std::string out = tempDir() + "/" + row.name + "-gpu.mkv";
    const Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(out) + " --mask identity --convert gpu -y");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(has(r.output, "converted on the device (")) << r.output;
    EXPECT_TRUE(has(r.output, ", rgba16, on ")) << r.output;
    const std::vector<std::uint16_t> want = samples(in, row.pixFmt), got = samples(out, row.pixFmt);
    ASSERT_EQ(got.size(), want.size());
    int worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(int(got[i]) - int(want[i])));
    const std::string fmt = row.pixFmt;
    const int allowed = fmt.find("p10") != std::string::npos ? 3 : fmt.find("p12") != std::string::npos ? 12 : 0;
    EXPECT_LE(worst, allowed) << row.name;
    if (std::string(row.file).rfind("lumaramp", 0) == 0) {
      const std::size_t firstPlane = static_cast<std::size_t>(row.width) * row.height;
      EXPECT_GE(levels(got, firstPlane), 860u) << row.name << ": of " << levels(want, firstPlane);
    }
  }
}

// `--depth 16` asks of a source that cannot give it one sentence; a raw name
// and --depth that disagree are a bad command line.
TEST(DepthOutputs, WhatCannotBeSixteenBitsSaysWhy) {
  Result r = liveconv("run -i testpattern:64x48 --frames 1 -o null --depth 16");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "gives 8-bit frames; --depth 16")) << r.output;
  r = liveconv("run -i testpattern:64x48 --frames 1 -o " + quoted(tempDir() + "/x.gray16") + " --depth 8");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "holds gray16 frames, but --depth is 8")) << r.output;
  r = liveconv("run -i testpattern:64x48 --frames 1 -o null --depth 12");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Unknown depth '12'")) << r.output;
}

// HDR10 from a phone: HEVC Main10, PQ, BT.2020, the mastering display and the
// light levels in its SEI. The output keeps the tags and the metadata, at the
// container level (Matroska's MasteringMetadata and MaxCLL/MaxFALL).
TEST(DepthOutputs, HdrTenKeepsItsMasteringDisplayAndLightLevels) {
  const Clip clip = sharedClip(
      "hdr10.mp4",
      // The tags on the frames too (setparams): FFmpeg 7 tags the stream by the frames.
      "-f lavfi -i \"testsrc2=size=320x240:rate=25\" -t 0.4 -vf hue=s=0.6,scale=out_color_matrix=bt2020:out_range=tv,"
      "setparams=color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc -c:v libx265 -preset ultrafast "
      "-x265-params \"log-level=error:hdr10=1:master-display=G(13250,34500)B(7500,3000)"
      "R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400\" -pix_fmt yuv420p10le -colorspace bt2020nc "
      "-color_primaries bt2020 -color_trc smpte2084");
  REQUIRE_CLIP(in, clip);
  const std::string out = tempDir() + "/hdr10.mkv";
  const Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(out) + " --mask identity -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::string tags = probe(out, "pix_fmt,color_space,color_transfer,color_primaries");
  EXPECT_EQ(tags.rfind("yuv420p10le,bt2020nc,smpte2084,bt2020", 0), 0u) << tags;
  const std::string streams = shell("ffprobe -v error -show_streams " + quoted(out)).output;
  EXPECT_TRUE(has(streams, "Mastering display metadata")) << streams;
  EXPECT_TRUE(has(streams, "max_luminance=1000/1") && has(streams, "min_luminance=1/10000")) << streams;
  EXPECT_TRUE(has(streams, "Content light level metadata")) << streams;
  EXPECT_TRUE(has(streams, "max_content=1000") && has(streams, "max_average=400")) << streams;
}

// A blur at 10 bits against FFmpeg's convolution filter on the same input: the
// luma within 1 LSB away from the borders. (FFmpeg filters the Y plane; the
// engine filters RGB at 16 bits, which for neutral chroma is the same linear
// map of luma: the two agree up to rounding.)
TEST(DepthOutputs, ABlurAtTenBitsMatchesFfmpegsConvolution) {
  const Clip clip = sharedClip("blur10.mkv",
                               "-f lavfi -i \"nullsrc=s=160x96:r=25,format=yuv420p10le,"
                               "geq=lum='64+mod(X*7+Y*13\\,877)':cb=512:cr=512\" -c:v ffv1 -frames:v 1");
  REQUIRE_CLIP(in, clip);
  // A 7x7 binomial (1 6 15 20 15 6 1 each way, sum 4096): integer taps, which FFmpeg's filter takes.
  const int b[7] = {1, 6, 15, 20, 15, 6, 1};
  std::string taps, ffTaps;
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 7; ++i) {
      taps += (taps.empty() ? "" : ",") + std::to_string(b[i] * b[j]);
      ffTaps += (ffTaps.empty() ? "" : " ") + std::to_string(b[i] * b[j]);
    }
  const std::string ours = tempDir() + "/blur10-ours.mkv", theirs = tempDir() + "/blur10-ffmpeg.mkv";
  Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(ours) + " --mask 7x7:" + taps + " -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  r = shell("ffmpeg -v error -y -i " + quoted(in) + " -vf \"convolution=0m='" + ffTaps +
            "':0rdiv=1/4096:0mode=square\" -c:v ffv1 " + quoted(theirs));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::vector<std::uint16_t> a = samples(ours, "yuv420p10le"), f = samples(theirs, "yuv420p10le");
  ASSERT_EQ(a.size(), f.size());
  int worst = 0, compared = 0;
  for (int y = 3; y < 96 - 3; ++y)
    for (int x = 3; x < 160 - 3; ++x, ++compared)
      worst = std::max(worst, std::abs(int(a[y * 160 + x]) - int(f[y * 160 + x])));
  EXPECT_LE(worst, 1) << "of " << compared << " luma samples";
}

}  // namespace
}  // namespace liveconv::media::test_media
