// Planes mode (`run --planes`, `--plane-mask`): the source's own planes at
// their own sizes and depth, each through the gray kernels, as FFmpeg's
// convolution filter filters them. The promises, each checked with the ffmpeg
// command against the input or against FFmpeg's own filter and encoder:
//  - identity into .mkv (FFV1) gives back every plane of every frame, bit for
//    bit, for 8- and 10-bit 4:2:0, 4:2:2 and 4:4:4 (odd sizes: chroma of
//    ceil(w/2)), saturated colours included (where RGBA mode loses them), and
//    for formats that are rearranged first (nv12, rgb24) or carry alpha;
//  - identity into .mp4 gives what FFmpeg's own transcode gives, frame for frame;
//  - a 7x7 on each plane (and a mask per plane) matches FFmpeg's convolution
//    filter within 1 LSB away from the borders, at 8 and 10 bits;
//  - a mask on Y alone leaves U and V as they were;
//  - what planes mode cannot do is refused with one sentence, exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "file_text.hpp"
#include "media_clips.hpp"
#include "media_test_support.hpp"

// A namespace of its own: the unity build compiles this file with test_depth.cpp.
namespace liveconv::media::test_media::planes_mode {
namespace {

struct PlanesRow {
  const char* name;
  const char* file;
  const char* lavfi;      // the picture, ending in the input's pixel format
  const char* codec;      // how the clip is coded
  const char* planesFmt;  // the planes' pixel format: the input's, or its planar twin
  const char* outFmt;     // the output's: the planes', or FFV1's lossless choice (8-bit RGB: bgr0)
  const char* hashFmt;    // what both are decoded at to be compared (nullptr: planesFmt)
};

// testsrc2's saturated colour bars and moving shapes: the pictures an RGB
// round trip does not give back. Odd sizes, so chroma planes are ceil(w/2).
const PlanesRow kRows[] = {
    {"yuv420p", "planes420.mkv", "testsrc2=s=161x97:r=25,format=yuv420p", "-c:v ffv1", "yuv420p", "yuv420p", nullptr},
    {"yuv422p", "planes422.mkv", "testsrc2=s=161x97:r=25,format=yuv422p", "-c:v ffv1", "yuv422p", "yuv422p", nullptr},
    {"yuv444p", "planes444.mkv", "testsrc2=s=161x97:r=25,format=yuv444p", "-c:v ffv1", "yuv444p", "yuv444p", nullptr},
    {"yuv420p10", "planes420p10.mkv", "testsrc2=s=161x97:r=25,format=yuv420p10le", "-c:v ffv1", "yuv420p10le",
     "yuv420p10le", nullptr},
    {"yuv422p10", "planes422p10.mkv", "testsrc2=s=161x97:r=25,format=yuv422p10le", "-c:v ffv1", "yuv422p10le",
     "yuv422p10le", nullptr},
    {"yuv444p10", "planes444p10.mkv", "testsrc2=s=161x97:r=25,format=yuv444p10le", "-c:v ffv1", "yuv444p10le",
     "yuv444p10le", nullptr},
    {"yuv444p12", "planes444p12.mkv", "testsrc2=s=161x97:r=25,format=yuv444p12le", "-c:v ffv1", "yuv444p12le",
     "yuv444p12le", nullptr},
    {"yuva420p", "planes420a.mkv", "testsrc2=s=161x97:r=25,format=yuva420p", "-c:v ffv1", "yuva420p", "yuva420p",
     nullptr},
    {"nv12", "planesnv12.nut", "testsrc2=s=160x96:r=25,format=nv12", "-c:v rawvideo", "yuv420p", "yuv420p", nullptr},
    {"rgb24", "planesrgb.nut", "testsrc2=s=161x97:r=25,format=rgb24", "-c:v rawvideo", "gbrp", "bgr0", nullptr},
    // Rearranged without swscale, whose conversions of these were 1 off (alpha) or changed the depth (p010le).
    {"rgba", "planesrgba.mov", "testsrc2=s=161x97:r=25,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='X+Y'",
     "-c:v png", "gbrap", "bgra", "rgba"},
    {"pal8", "planespal8.nut", "testsrc2=s=161x97:r=25,format=pal8", "-c:v rawvideo", "gbrap", "bgra", "rgba"},
};

// A failing row by its name, not its bytes.
void PrintTo(const PlanesRow& row, std::ostream* os) {
  *os << row.name;
}

Clip clipOf(const PlanesRow& row) {
  return sharedClip(row.file, std::string("-f lavfi -i \"") + row.lavfi + "\" " + row.codec + " -frames:v 3");
}
const bool kRowClipsDeclared = [] {
  for (const PlanesRow& row : kRows) clipOf(row);
  return true;
}();

// Each frame's MD5 as ffmpeg decodes the file at `pixFmt` (framemd5's last column).
// (`inputOptions`: before -i, e.g. -noautorotate for the pictures as stored.)
std::vector<std::string> frameHashes(const std::string& path, const std::string& pixFmt,
                                     const std::string& inputOptions = "") {
  const Result r =
      shell("ffmpeg -v error " + inputOptions + " -i " + quoted(path) + " -pix_fmt " + pixFmt + " -f framemd5 -");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  std::vector<std::string> hashes;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') hashes.push_back(line.substr(line.find_last_of(", ") + 1));
  return hashes;
}

std::string probe(const std::string& path, const std::string& entry) {
  Result r =
      shell("ffprobe -v error -select_streams v:0 -show_entries stream=" + entry + " -of csv=p=0 " + quoted(path));
  r.output.erase(std::remove(r.output.begin(), r.output.end(), '\n'), r.output.end());
  return r.output;
}

class Planes : public ::testing::TestWithParam<PlanesRow> {};

TEST_P(Planes, IdentityGivesBackEveryPlaneBitForBit) {
  const PlanesRow& row = GetParam();
  REQUIRE_CLIP(in, clipOf(row));
  const std::string out = tempDir() + "/planes-" + row.name + ".mkv";
  const Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(out) + " --planes all --mask identity -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, std::string("planes of ") + row.planesFmt + ": ")) << r.output;
  EXPECT_EQ(probe(out, "pix_fmt"), row.outFmt);
  const char* compared = row.hashFmt ? row.hashFmt : row.planesFmt;
  const std::vector<std::string> want = frameHashes(in, compared), got = frameHashes(out, compared);
  ASSERT_EQ(want.size(), 3u);
  EXPECT_EQ(got, want);
}

// P010 (a hardware decoder's 10 bits at the top of 16): its planes at 10
// bits, rearranged without loss (no container holds raw p010le, so FFmpeg's
// lavfi makes the frames, for both sides).
TEST(PlanesOutputs, PTenIsRearrangedIntoTenBitPlanes) {
  const std::string graph = "testsrc2=s=160x96:r=25,format=p010le";
  const std::string out = tempDir() + "/planes-p010.mkv";
  const Result r = liveconv("run -i " + quoted("lavfi:" + graph) + " -o " + quoted(out) +
                            " --planes all --mask identity --frames 3 -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "p010le rearranged into yuv420p10le planes without loss")) << r.output;
  EXPECT_EQ(probe(out, "pix_fmt"), "yuv420p10le");
  const Result want = shell("ffmpeg -v error -f lavfi -i " + quoted(graph) +
                            " -frames:v 3 -pix_fmt yuv420p10le -f framemd5 - | grep -v '^#'");
  std::vector<std::string> wanted;
  std::istringstream in(want.output);
  for (std::string line; std::getline(in, line);) wanted.push_back(line.substr(line.find_last_of(", ") + 1));
  ASSERT_EQ(wanted.size(), 3u) << want.output;
  EXPECT_EQ(frameHashes(out, "yuv420p10le"), wanted);
}

INSTANTIATE_TEST_SUITE_P(Rows, Planes, ::testing::ValuesIn(kRows),
                         [](const ::testing::TestParamInfo<PlanesRow>& info) { return std::string(info.param.name); });

// Where RGBA mode round-trips through RGB, planes mode hands the encoder the
// planes as they are: into a lossy output it writes what FFmpeg's own
// transcode at the same settings writes, 8 to 12 bits, 4:2:0 to 4:4:4 (a
// format the encoder does not take becomes the one FFmpeg picks too: 12-bit
// 4:4:4 into H.264 is yuv444p10le). H.264 (.mp4, .mov): the same frames, hash
// for hash. VP9 (.webm): libvpx's output depends on its threads, so the same
// quality (PSNR against the input within 0.1 dB) and format.
struct LossyCell {
  const char* ext;
  const char* ffmpegSettings;  // our defaults for that output, as FFmpeg's options
  bool sameFrames;
};
const LossyCell kLossy[] = {
    {".mp4", "-c:v libx264 -preset veryfast -crf 18", true},
    {".mov", "-c:v libx264 -preset veryfast -crf 18", true},
    {".webm", "-c:v libvpx-vp9 -crf 24 -b:v 0 -deadline good -cpu-used 4 -row-mt 1", false},
};
const Clip kLossyInputs[] = {
    sharedClip("lossy420.mkv", "-f lavfi -i \"testsrc2=s=160x96:r=25,format=yuv420p\" -c:v ffv1 -frames:v 5"),
    sharedClip("lossy444.mkv", "-f lavfi -i \"testsrc2=s=160x96:r=25,format=yuv444p\" -c:v ffv1 -frames:v 5"),
    sharedClip("lossy420p10.mkv", "-f lavfi -i \"testsrc2=s=160x96:r=25,format=yuv420p10le\" -c:v ffv1 -frames:v 5"),
    sharedClip("lossy422p10.mkv", "-f lavfi -i \"testsrc2=s=160x96:r=25,format=yuv422p10le\" -c:v ffv1 -frames:v 5"),
    sharedClip("lossy444p12.mkv", "-f lavfi -i \"testsrc2=s=160x96:r=25,format=yuv444p12le\" -c:v ffv1 -frames:v 5"),
};

double psnrAgainst(const std::string& file, const std::string& reference) {
  const Result r = shell("ffmpeg -i " + quoted(file) + " -i " + quoted(reference) + " -lavfi psnr -f null - 2>&1");
  const auto at = r.output.find("average:");
  return at == std::string::npos ? 0 : std::atof(r.output.c_str() + at + 8);
}

class PlanesLossy : public ::testing::TestWithParam<LossyCell> {};

TEST_P(PlanesLossy, IdentityWritesWhatFfmpegsOwnTranscodeWrites) {
  const LossyCell& cell = GetParam();
  for (const Clip& clip : kLossyInputs) {
    REQUIRE_CLIP(in, clip);
    const std::string name = std::filesystem::path(in).stem().string();
    const std::string ours = tempDir() + "/" + name + "-ours" + cell.ext,
                      theirs = tempDir() + "/" + name + "-ffmpeg" + cell.ext;
    Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(ours) + " --planes all --mask identity -y");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    r = shell("ffmpeg -v error -y -i " + quoted(in) + " " + cell.ffmpegSettings + " " + quoted(theirs));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const std::string format = probe(theirs, "pix_fmt");
    EXPECT_EQ(probe(ours, "pix_fmt"), format) << name;
    if (cell.sameFrames) {
      EXPECT_EQ(frameHashes(ours, format), frameHashes(theirs, format)) << name;
    } else {
      const double a = psnrAgainst(ours, in), b = psnrAgainst(theirs, in);
      EXPECT_GT(b, 30) << name;
      EXPECT_GE(a, b - 0.1) << name << ": ours " << a << " dB, FFmpeg's own " << b << " dB";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Containers, PlanesLossy, ::testing::ValuesIn(kLossy),
                         [](const ::testing::TestParamInfo<LossyCell>& info) {
                           return std::string(info.param.ext + 1);
                         });

// A plane's samples in a file's first frame, decoded at `pixFmt`.
struct PlaneSamples {
  std::vector<std::vector<int>> planes;  // Y, U, V
  std::vector<int> widths, heights;
};
PlaneSamples planeSamples(const std::string& path, const std::string& pixFmt, int w, int h, int chromaShiftW,
                          int chromaShiftH) {
  const std::string raw = tempDir() + "/" + std::filesystem::path(path).filename().string() + ".planes";
  const Result r = shell("ffmpeg -v error -y -i " + quoted(path) + " -frames:v 1 -f rawvideo -pix_fmt " + pixFmt + " " +
                         quoted(raw));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  const std::string bytes = liveconv::test::readFile(raw);
  const bool wide = pixFmt.find("10le") != std::string::npos;
  PlaneSamples s;
  std::size_t at = 0;
  for (int p = 0; p < 3; ++p) {
    const int pw = p ? (w + (1 << chromaShiftW) - 1) >> chromaShiftW : w;
    const int ph = p ? (h + (1 << chromaShiftH) - 1) >> chromaShiftH : h;
    std::vector<int> v(static_cast<std::size_t>(pw) * ph);
    for (int& x : v) {
      if (at + (wide ? 2 : 1) > bytes.size()) break;
      x = wide ? (static_cast<unsigned char>(bytes[at]) | static_cast<unsigned char>(bytes[at + 1]) << 8)
               : static_cast<unsigned char>(bytes[at]);
      at += wide ? 2 : 1;
    }
    s.planes.push_back(v);
    s.widths.push_back(pw);
    s.heights.push_back(ph);
  }
  EXPECT_EQ(at, bytes.size()) << "the planes' sizes";
  return s;
}

// The largest difference of two planes away from the borders (`margin` samples).
int worstInside(const PlaneSamples& a, const PlaneSamples& b, int plane, int margin) {
  const int w = a.widths[plane], h = a.heights[plane];
  int worst = 0;
  for (int y = margin; y < h - margin; ++y)
    for (int x = margin; x < w - margin; ++x)
      worst = std::max(worst, std::abs(a.planes[plane][y * w + x] - b.planes[plane][y * w + x]));
  return worst;
}

struct BlurRow {
  const char* name;
  const char* pixFmt;
  int shiftW, shiftH;  // chroma subsampling
};

// Smooth and sharp detail in every plane (a blur changes each), at 8 and 10 bits.
const Clip kBlur420p10 = sharedClip("planesblur420p10.mkv",
                                    "-f lavfi -i \"testsrc2=s=160x96:r=25,format=yuv420p10le\" -c:v ffv1 -frames:v 1");
const Clip kBlur422 =
    sharedClip("planesblur422.mkv", "-f lavfi -i \"testsrc2=s=160x96:r=25,format=yuv422p\" -c:v ffv1 -frames:v 1");

// FFmpeg's convolution filter and ours, the same mask on each plane or a
// mask per plane; integer taps with a power-of-two sum, which both take.
TEST(PlanesOutputs, SevenBySevenOnEachPlaneMatchesFfmpegsConvolution) {
  const int b[7] = {1, 6, 15, 20, 15, 6, 1};  // a 7x7 binomial, sum 4096
  std::string taps, ffTaps;
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 7; ++i) {
      taps += (taps.empty() ? "" : ",") + std::to_string(b[i] * b[j]);
      ffTaps += (ffTaps.empty() ? "" : " ") + std::to_string(b[i] * b[j]);
    }
  const std::string edge = "-1,-1,-1,-1,12,-1,-1,-1,-1";  // a 3x3 sharpen, sum 4
  const std::string ffEdge = "-1 -1 -1 -1 12 -1 -1 -1 -1";
  struct Case {
    const Clip* clip;
    BlurRow row;
    std::string ours, theirs;
  };
  const std::string same = "0m='" + ffTaps + "':0rdiv=1/4096:0mode=square:1m='" + ffTaps +
                           "':1rdiv=1/4096:1mode=square:2m='" + ffTaps + "':2rdiv=1/4096:2mode=square";
  const std::string each = "0m='" + ffTaps + "':0rdiv=1/4096:0mode=square:1m='" + ffEdge + "':1rdiv=1/4";
  const Case cases[] = {
      {&kBlur420p10, {"420p10", "yuv420p10le", 1, 1}, "--planes all --mask 7x7:" + taps, same},
      {&kBlur422, {"422", "yuv422p", 1, 0}, "--planes all --mask 7x7:" + taps, same},
      // Y a blur, U a sharpen (saturating at both ends), V as it is.
      {&kBlur420p10,
       {"420p10each", "yuv420p10le", 1, 1},
       "--plane-mask 0=7x7:" + taps + " --plane-mask 1=3x3:" + edge,
       each},
      {&kBlur422, {"422each", "yuv422p", 1, 0}, "--plane-mask 0=7x7:" + taps + " --plane-mask 1=3x3:" + edge, each},
  };
  for (const Case& c : cases) {
    REQUIRE_CLIP(in, *c.clip);
    const std::string ours = tempDir() + "/planesblur-" + c.row.name + ".mkv",
                      theirs = tempDir() + "/planesblur-" + c.row.name + "-ffmpeg.mkv";
    Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(ours) + " " + c.ours + " -y");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    r = shell("ffmpeg -v error -y -i " + quoted(in) + " -vf \"convolution=" + c.theirs + "\" -c:v ffv1 " +
              quoted(theirs));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const PlaneSamples a = planeSamples(ours, c.row.pixFmt, 160, 96, c.row.shiftW, c.row.shiftH);
    const PlaneSamples f = planeSamples(theirs, c.row.pixFmt, 160, 96, c.row.shiftW, c.row.shiftH);
    const PlaneSamples i = planeSamples(in, c.row.pixFmt, 160, 96, c.row.shiftW, c.row.shiftH);
    for (int p = 0; p < 3; ++p) {
      EXPECT_LE(worstInside(a, f, p, 3), 1) << c.row.name << " plane " << p;
      EXPECT_GT(worstInside(a, i, p, 3), p == 2 && c.ours.find("plane-mask") != std::string::npos ? -1 : 1)
          << c.row.name << " plane " << p << " was not filtered";
    }
  }
}

// A mask on Y alone: U and V come out as they went in; Y does not.
TEST(PlanesOutputs, AMaskOnLumaAloneTouchesNothingElse) {
  REQUIRE_CLIP(in, kBlur420p10);
  const std::string out = tempDir() + "/planes-luma-only.mkv";
  const Result r = liveconv("run -i " + quoted(in) + " -o " + quoted(out) + " --planes 0 --mask gaussian:5 -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "U, V as they are")) << r.output;
  const PlaneSamples a = planeSamples(out, "yuv420p10le", 160, 96, 1, 1);
  const PlaneSamples i = planeSamples(in, "yuv420p10le", 160, 96, 1, 1);
  EXPECT_GT(worstInside(a, i, 0, 0), 0);
  EXPECT_EQ(a.planes[1], i.planes[1]);
  EXPECT_EQ(a.planes[2], i.planes[2]);
}

// The promise every run keeps holds in planes mode too (the same staged
// encoder output): a file size limit mid-run (`ulimit -f`) is exit 8 with the
// old file under the name untouched and no part file; Ctrl-C mid-run is exit
// 130 with a complete, playable file of the frames so far.
const Clip kLong10 = sharedClip("planeslong10.mkv",
                                "-f lavfi -i \"testsrc2=s=320x240:r=25,format=yuv420p10le\" -c:v ffv1 -frames:v 250");

TEST(PlanesOutputs, AFullDiskOrASignalKeepsThePromise) {
  REQUIRE_CLIP(in, kLong10);
  const std::string folder = tempDir() + "/planes-promise";
  std::filesystem::create_directories(folder);
  const std::string out = folder + "/kept.mkv", old = "an earlier output the run must keep\n";
  { std::ofstream(out) << old; }
  // 2 MiB (512-byte blocks): over the kernel source PoCL writes to hash it, under the output.
  Result r = shell("ulimit -f 4096 && exec " + std::string(LIVECONV_BIN) + " run -i " + quoted(in) + " -o " +
                   quoted(out) + " --planes all --mask gaussian:5 -y");
  EXPECT_EQ(r.exitCode, 8) << r.output;
  EXPECT_TRUE(has(r.output, "File too large")) << r.output;
  EXPECT_EQ(liveconv::test::readFile(out), old) << "the old file was touched";
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(folder)) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"kept.mkv"}) << "a part file was left";

  const std::string cut = folder + "/cut.mkv";
  // The signal once frames are being written (the part file has grown), whatever the machine's load.
  r = shell("exec 2>&1; " + std::string(LIVECONV_BIN) + " run -i " + quoted(in) + " -o " + quoted(cut) +
            " --planes all --mask gaussian:5 --realtime & pid=$!; for i in $(seq 600); do "
            "[ -n \"$(find " +
            quoted(folder) +
            " -name '.cut.mkv.liveconv-part-*' -size +40k)\" ] && break; "
            "sleep 0.1; done; sleep 0.5; kill -INT $pid; wait $pid");
  EXPECT_EQ(r.exitCode, 130) << r.output;
  EXPECT_TRUE(has(r.output, "interrupted by")) << r.output;
  const Result frames = shell(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames,pix_fmt -of csv=p=0 " +
      quoted(cut));
  ASSERT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_TRUE(has(frames.output, "yuv420p10le,")) << frames.output;
  const int count = std::atoi(frames.output.substr(frames.output.find(',') + 1).c_str());
  EXPECT_GT(count, 0) << frames.output;
  EXPECT_LT(count, 250) << frames.output;
}

// A clip a player shows turned: planes mode keeps the picture as stored, so
// it writes only where the output keeps the rotation (.mov here); into .avi,
// which keeps none, it says so before anything is written (exit 2), and with
// --no-autorotate writes the picture as stored.
TEST(PlanesOutputs, ATurnedClipGoesWhereTheRotationIsKept) {
  REQUIRE_CLIP(clip, clipOf(kRows[0]));
  const std::string turned = tempDir() + "/planes-turned.mov";
  ASSERT_TRUE(remuxRotated(clip, turned, 90));
  const std::string mov = tempDir() + "/planes-turned-out.mov", avi = tempDir() + "/planes-turned-out.avi";
  Result r =
      liveconv("run -i " + quoted(turned) + " -o " + quoted(mov) + " --codec ffv1 --planes all --mask identity -y");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(probeRotation(mov), "") << "the rotation was lost";
  EXPECT_EQ(frameHashes(mov, "yuv420p", "-noautorotate"), frameHashes(clip, "yuv420p"));
  r = liveconv("run -i " + quoted(turned) + " -o " + quoted(avi) + " --planes all --mask identity -y");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "keeps no rotation to show it turned")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(avi));
  r = liveconv("run -i " + quoted(turned) + " -o " + quoted(avi) + " --planes all --mask identity --no-autorotate -y");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(frameHashes(avi, "yuv420p"), frameHashes(clip, "yuv420p"));
}

// What planes mode cannot do: one sentence, a bad command line (exit 2), nothing written.
TEST(PlanesOutputs, WhatPlanesModeCannotDoSaysWhy) {
  REQUIRE_CLIP(in, clipOf(kRows[0]));
  const std::string out = tempDir() + "/planes-refused.mkv";
  const struct {
    std::string args, says;
  } refusals[] = {
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes all --depth 16", "leave out --depth"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes all --format gray", "leave out --format"},
      {"-i testpattern:64x48 --frames 1 -o " + quoted(out) + " --planes all", "makes RGBA frames"},
      {"-i " + quoted(in) + " -o " + quoted(tempDir() + "/planes.rgba") + " --planes all", "would hold rgba"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes 4", "plane numbers 0 to 3"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --plane-mask 0", "takes PLANE=MASK"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --plane-mask 1=nonsense", "nonsense"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes ''", "not ''"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes 0,", "not ''"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes 0,0", "Plane 0 is named twice"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes 0 --plane-mask 0=box:3", "Plane 0 is named twice"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --plane-mask 1=box:3 --mask sharpen", "--mask filters no plane"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes 3 --mask box:3", "has no plane 3: its yuv420p has 3"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes all --alpha filter", "leave out --alpha"},
      {"-i " + quoted(in) + " -o " + quoted(out) + " --planes all --convert gpu", "leave out --convert"},
  };
  for (const auto& refusal : refusals) {
    const Result r = liveconv("run " + refusal.args);
    EXPECT_EQ(r.exitCode, 2) << refusal.args << "\n" << r.output;
    EXPECT_TRUE(has(r.output, refusal.says)) << r.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << refusal.args;
  }
}

}  // namespace
}  // namespace liveconv::media::test_media::planes_mode
