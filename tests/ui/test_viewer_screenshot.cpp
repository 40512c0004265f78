// Runs liveconv-viewer under Xvfb (Mesa llvmpipe) on the test pattern, takes
// the --screenshot PNG and checks it: inside the picture the pixels are the
// CPU reference filter of the source frame, and the overlay is drawn.
// Without Xvfb (and no $DISPLAY) or without an OpenCL device: a visible SKIP.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "file_text.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/media/generated_sources.hpp"
#include "liveconv/reference.hpp"
#include "png/png_io.hpp"

using namespace liveconv;
using namespace liveconv::ui;
using liveconv::media::makeTestPattern;

namespace {

constexpr int kFrameW = 480, kFrameH = 320;

struct Rect {
  int x = 0, y = 0, w = 0, h = 0;
  bool contains(int px, int py) const { return px >= x && py >= y && px < x + w && py < y + h; }
};

struct Layout {
  Rect picture, overlay;
  std::uint64_t frame = 0;
  std::string source;  // the source frame as PNG, written by the viewer next to the screenshot
  int clear[3] = {0, 0, 0};
  std::string display;  // the overlay's display-path line
  long pixelBufferUploads = -1;
  std::string frameIn;  // "host" (readback) or "shared-buffer" (zero-copy)
  long framesWhileOpening = -1;
};

bool onPath(const char* tool) {
  const std::string cmd = std::string("command -v ") + tool + " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

// Runs the viewer; returns its exit code, or -1 with a SKIP reason in *skip.
int runViewer(const std::string& args, const std::string& png, std::string* skip) {
  if (!onPath("Xvfb") && !std::getenv("DISPLAY")) {
    *skip = "no Xvfb and no $DISPLAY: cannot open a window";
    return -1;
  }
  // A virtual X server of its own (tests/xvfb_run.sh; without Xvfb, $DISPLAY).
  const std::string prefix = std::string(LIVECONV_XVFB_RUN) + " --screen 1280x1024x24 ";
  const std::string cmd = "LIBGL_ALWAYS_SOFTWARE=1 LIVECONV_SCREENSHOT_LAYOUT=1 " + prefix + LIVECONV_VIEWER_BIN + " " + args +
                          " --size 960x720 --zoom native --frames 4 --quit --screenshot " + png + " > " + png +
                          ".log 2>&1";
  std::printf("running: %s\n", cmd.c_str());
  const int status = std::system(cmd.c_str());
  std::ifstream log(png + ".log");
  std::printf("%s", std::string(std::istreambuf_iterator<char>(log), {}).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

Layout readLayout(const std::string& path) {
  Layout l;
  std::ifstream in(path);
  std::string key;
  while (in >> key) {
    if (key == "picture")
      in >> l.picture.x >> l.picture.y >> l.picture.w >> l.picture.h;
    else if (key == "overlay")
      in >> l.overlay.x >> l.overlay.y >> l.overlay.w >> l.overlay.h;
    else if (key == "frame")
      in >> l.frame;
    else if (key == "source")
      in >> l.source;
    else if (key == "clear")
      in >> l.clear[0] >> l.clear[1] >> l.clear[2];
    else if (key == "display")
      std::getline(in >> std::ws, l.display);
    else if (key == "pixel_buffer_uploads")
      in >> l.pixelBufferUploads;
    else if (key == "frame_in")
      in >> l.frameIn;
    else if (key == "frames_while_opening")
      in >> l.framesWhileOpening;
  }
  return l;
}

// This process's folder (tests run side by side, and build trees share the
// temporary folder); each test names its own files in it.
std::string shotFolder() {
  return std::string(::testing::TempDir()) + "liveconv_viewer_" + std::to_string(getpid()) + "/";
}

std::string shotPath(const char* name) { return shotFolder() + name + ".png"; }

class ViewerScreenshot : public ::testing::Test {
 protected:
  void SetUp() override {
    if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
    std::filesystem::create_directories(shotFolder());
  }
  // The pictures of a test that failed stay to be looked at.
  void TearDown() override {
    std::error_code ignored;
    if (!HasFailure()) std::filesystem::remove_all(shotFolder(), ignored);
  }

  // Shoots and loads; fails or skips the test when that is not possible.
  bool shoot(const char* name, const std::string& args, Image* shot, Layout* layout) {
    const std::string png = shotPath(name);
    std::remove(png.c_str());
    std::string skip;
    const int rc = runViewer(args, png, &skip);
    if (rc == -1) {
      skipReason_ = skip;
      return false;
    }
    EXPECT_EQ(rc, 0) << "the viewer failed";
    if (rc != 0) return false;
    const std::string error = readPng(png, shot);
    EXPECT_EQ(error, "");
    if (!error.empty()) return false;
    *layout = readLayout(png + ".layout");
    EXPECT_EQ(layout->picture.w, kFrameW) << "native zoom shows one frame pixel per screen pixel";
    EXPECT_EQ(layout->picture.h, kFrameH);
    return layout->picture.w == kFrameW && layout->picture.h == kFrameH;
  }
  std::string skipReason_;
};

// Compares RGB of `shot` inside the picture (overlay excluded) with `expected`
// at columns/rows `keep` accepts; reports the first mismatch.
template <typename Keep>
void expectPicture(const Image& shot, const Layout& l, const Image& expected, Keep keep, const char* what) {
  const int tolerance = 1;  // GL's byte -> float -> byte round trip
  long compared = 0, bad = 0;
  std::string first;
  for (int y = 0; y < l.picture.h; ++y)
    for (int x = 0; x < l.picture.w; ++x) {
      const int sx = l.picture.x + x, sy = l.picture.y + y;
      if (l.overlay.contains(sx, sy) || !keep(x, y)) continue;
      const std::uint8_t* got = shot.data() + (static_cast<size_t>(sy) * shot.width() + sx) * 4;
      const std::uint8_t* want = expected.data() + (static_cast<size_t>(y) * expected.width() + x) * 4;
      ++compared;
      for (int c = 0; c < 3; ++c)
        if (std::abs(got[c] - want[c]) > tolerance) {
          if (bad++ == 0) {
            std::ostringstream s;
            s << "first mismatch at (" << x << ", " << y << ") channel " << c << ": got " << int(got[c]) << ", want "
              << int(want[c]) << " (tolerance " << tolerance << ")";
            first = s.str();
          }
          break;
        }
    }
  EXPECT_GT(compared, l.picture.w * l.picture.h / 3) << "the overlay should not hide most of the picture";
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << compared << " pixels differ; " << first;
}

// The overlay: a good share of its pixels differ from what lies beneath it.
void expectOverlayDrawn(const Image& shot, const Layout& l, const Image& want) {
  ASSERT_GT(l.overlay.w * l.overlay.h, 0) << "no overlay rectangle reported";
  long inside = 0, changed = 0;
  for (int y = l.overlay.y; y < l.overlay.y + l.overlay.h && y < shot.height(); ++y)
    for (int x = l.overlay.x; x < l.overlay.x + l.overlay.w && x < shot.width(); ++x) {
      const std::uint8_t* got = shot.data() + (static_cast<size_t>(y) * shot.width() + x) * 4;
      int under[3] = {l.clear[0], l.clear[1], l.clear[2]};
      if (l.picture.contains(x, y)) {
        const std::uint8_t* p = want.data() + (static_cast<size_t>(y - l.picture.y) * kFrameW + (x - l.picture.x)) * 4;
        under[0] = p[0], under[1] = p[1], under[2] = p[2];
      }
      ++inside;
      for (int c = 0; c < 3; ++c)
        if (std::abs(got[c] - under[c]) > 24) {
          ++changed;
          break;
        }
    }
  EXPECT_GT(changed, inside / 10) << "the overlay region looks empty: " << changed << " of " << inside
                                  << " pixels differ from the picture beneath";
}

}  // namespace

TEST_F(ViewerScreenshot, PictureIsTheReferenceFilterAndOverlayIsDrawn) {
  Image shot;
  Layout l;
  if (!shoot("filtered", "--source testpattern:480x320 --mask sharpen --border mirror", &shot, &l)) {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    return;
  }
  const Image source = makeTestPattern(kFrameW, kFrameH, PixelFormat::RGBA8, l.frame);
  Image want(kFrameW, kFrameH, PixelFormat::RGBA8);
  convolveReference(source.view(), want.view(), parseMaskSpec("sharpen"), BorderMode::Mirror, AlphaMode::PassThrough);
  expectPicture(
      shot, l, want, [](int, int) { return true; }, "filtered picture");

  expectOverlayDrawn(shot, l, want);
}

// What S saves: the filtered frame at its own size (no window, overlay or
// letterbox), exactly the reference filter of the frame on screen, one file.
TEST_F(ViewerScreenshot, SaveFrameWritesTheFilteredFrameAtItsOwnSize) {
  const std::string frame = shotPath("frame_only");
  std::remove(frame.c_str());
  Image shot;
  Layout l;
  if (!shoot("with_frame", "--source testpattern:480x320 --mask sharpen --border mirror --save-frame " + frame, &shot, &l)) {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    return;
  }
  Image saved;
  ASSERT_EQ(readPng(frame, &saved), "");
  ASSERT_EQ(saved.width(), kFrameW);
  ASSERT_EQ(saved.height(), kFrameH);
  const Image source = makeTestPattern(kFrameW, kFrameH, PixelFormat::RGBA8, l.frame);
  Image want(kFrameW, kFrameH, PixelFormat::RGBA8);
  convolveReference(source.view(), want.view(), parseMaskSpec("sharpen"), BorderMode::Mirror, AlphaMode::PassThrough);
  const auto mismatch = compareImages(saved.view(), want.view(), 0);
  EXPECT_FALSE(mismatch.has_value()) << (mismatch ? mismatch->toString() : "");
  std::ifstream sidecar(frame + ".layout");
  EXPECT_FALSE(sidecar.good()) << "a saved frame comes alone";
}

#ifdef LIVECONV_WITH_MEDIA
// A decoded source through PipelineFeed: the viewer writes the source frame it
// shows next to the screenshot; the picture must be the reference filter of it.
TEST_F(ViewerScreenshot, DecodedSourceThroughThePipelineIsTheReferenceFilter) {
  Image shot;
  Layout l;
  if (!shoot("lavfi", "--source lavfi:testsrc2=size=480x320:rate=30 --mask gaussian:5 --border wrap", &shot, &l)) {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    return;
  }
  ASSERT_FALSE(l.source.empty()) << "the viewer did not write the source frame next to the screenshot";
  Image source;
  ASSERT_EQ(readPng(l.source, &source), "");
  ASSERT_EQ(source.width(), kFrameW);
  ASSERT_EQ(source.height(), kFrameH);
  Image want(kFrameW, kFrameH, PixelFormat::RGBA8);
  convolveReference(source.view(), want.view(), parseMaskSpec("gaussian:5"), BorderMode::Wrap, AlphaMode::PassThrough);
  expectPicture(
      shot, l, want, [](int, int) { return true; }, "filtered lavfi frame");
  expectOverlayDrawn(shot, l, want);
}

// A file that does not exist: the window says so over the picture area, and
// the screenshot run (nobody watches) ends with the input's exit code, 7.
TEST_F(ViewerScreenshot, MissingFileShowsAMessageAndTheViewerStaysUp) {
  const std::string png = shotPath("missing");
  std::remove(png.c_str());
  std::string skip;
  const int rc = runViewer("/nonexistent/clip.mp4", png, &skip);
  if (rc == -1) GTEST_SKIP() << skip;
  ASSERT_EQ(rc, 7) << "the screenshot is taken, and the run says its source never played";
  Image shot;
  ASSERT_EQ(readPng(png, &shot), "");
  const Layout l = readLayout(png + ".layout");
  // The message box sits in the middle of the picture area (right of the 400-pixel panel).
  const int cx = 400 + (shot.width() - 400) / 2, cy = shot.height() / 2;
  long changed = 0;
  for (int y = cy - 20; y < cy + 20; ++y)
    for (int x = cx - 150; x < cx + 150; ++x) {
      const std::uint8_t* p = shot.data() + (static_cast<size_t>(y) * shot.width() + x) * 4;
      changed += std::abs(p[0] - l.clear[0]) + std::abs(p[1] - l.clear[1]) + std::abs(p[2] - l.clear[2]) > 24;
    }
  EXPECT_GT(changed, 50) << "no message drawn in the middle of the window";
}
#endif

// The filtered test pattern, to compare a screenshot of `--source testpattern:480x320 --mask sharpen` with.
Image sharpenedPattern(std::uint64_t frame) {
  const Image source = makeTestPattern(kFrameW, kFrameH, PixelFormat::RGBA8, frame);
  Image want(kFrameW, kFrameH, PixelFormat::RGBA8);
  convolveReference(source.view(), want.view(), parseMaskSpec("sharpen"), BorderMode::Clamp, AlphaMode::PassThrough);
  return want;
}

using liveconv::test::readFile;

// Which display path the default device gets. Under Xvfb the GL context is
// Mesa's, which no OpenCL driver shares, so the readback path is the one that
// can be exercised here; where zero-copy is live the line and the frame say so.
TEST_F(ViewerScreenshot, TheOverlayNamesTheLiveDisplayPathAndTheFrameArrivesThroughIt) {
  Image shot;
  Layout l;
  if (!shoot("path_auto", "--source testpattern:480x320 --mask sharpen", &shot, &l)) {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    return;
  }
  expectPicture(
      shot, l, sharpenedPattern(l.frame), [](int, int) { return true; }, "filtered picture");
  ASSERT_EQ(l.display.rfind("interop: ", 0), 0u) << "display line: " << l.display;
  if (l.display.rfind("interop: readback + PBO (", 0) == 0) {
    EXPECT_EQ(l.frameIn, "host");
    EXPECT_GE(l.pixelBufferUploads, 1) << "readback frames go through the renderer's pixel buffer";
    const DeviceInfo device = selectDevice("");
    if (!deviceHasExtension(device, "cl_khr_gl_sharing")) {
      EXPECT_EQ(l.display, "interop: readback + PBO (device has no cl_khr_gl_sharing)");
    }
  } else {
    EXPECT_EQ(l.display.rfind("interop: zero-copy (cl_khr_gl_sharing", 0), 0u) << l.display;
    EXPECT_EQ(l.frameIn, "shared-buffer");
    EXPECT_EQ(l.pixelBufferUploads, 0) << "zero-copy frames never pass through host memory";
  }
}

// --display-path interop where the device cannot share: one sentence, then the readback path.
TEST_F(ViewerScreenshot, InteropAskedForWithoutSharingSaysSoAndFallsBack) {
  const DeviceInfo device = selectDevice("");
  if (deviceHasExtension(device, "cl_khr_gl_sharing"))
    GTEST_SKIP() << device.name << " has cl_khr_gl_sharing: the fallback cannot be forced on it";
  Image shot;
  Layout l;
  if (!shoot("path_interop", "--source testpattern:480x320 --mask sharpen --display-path interop", &shot, &l)) {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    return;
  }
  const std::string log = readFile(shotPath("path_interop") + ".log");
  const std::string sentence = "liveconv-viewer: --display-path interop cannot run on " + device.name +
                               " (device has no cl_khr_gl_sharing), so frames are shown through readback + PBO.\n";
  EXPECT_NE(log.find(sentence), std::string::npos) << "log:\n" << log;
  EXPECT_EQ(log.find(sentence), log.rfind(sentence)) << "said once, not per frame";
  EXPECT_EQ(l.display, "interop: readback + PBO (device has no cl_khr_gl_sharing)");
  EXPECT_EQ(l.frameIn, "host");
  EXPECT_GE(l.pixelBufferUploads, 1);
  expectPicture(
      shot, l, sharpenedPattern(l.frame), [](int, int) { return true; }, "filtered picture after the fallback");
}

TEST_F(ViewerScreenshot, ReadbackAskedForIsUsedAndNamed) {
  Image shot;
  Layout l;
  if (!shoot("path_readback", "--source testpattern:480x320 --mask sharpen --display-path readback", &shot, &l)) {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    return;
  }
  EXPECT_EQ(l.display, "interop: readback + PBO (--display-path readback)");
  EXPECT_EQ(l.frameIn, "host");
  EXPECT_GE(l.pixelBufferUploads, 1);
  expectPicture(
      shot, l, sharpenedPattern(l.frame), [](int, int) { return true; }, "filtered picture");
}

// A source picked while the viewer runs opens in the background and replaces
// the playing one at a frame boundary: the window ends on the new source,
// filtered as the reference says, and kept drawing while it opened.
TEST_F(ViewerScreenshot, ASourcePickedWhilePlayingOpensInTheBackgroundAndTakesOver) {
  const std::string png = shotPath("switch");
  std::remove(png.c_str());
  std::string skip;
  const int rc = runViewer("--source testpattern:480x320 --switch-to testpattern:320x240 --mask sharpen", png, &skip);
  if (rc == -1) GTEST_SKIP() << skip;
  ASSERT_EQ(rc, 0);
  Image shot;
  ASSERT_EQ(readPng(png, &shot), "");
  const Layout l = readLayout(png + ".layout");
  ASSERT_EQ(l.picture.w, 320) << "the new source did not take over";
  ASSERT_EQ(l.picture.h, 240);
  const Image source = makeTestPattern(320, 240, PixelFormat::RGBA8, l.frame);
  Image want(320, 240, PixelFormat::RGBA8);
  convolveReference(source.view(), want.view(), parseMaskSpec("sharpen"), BorderMode::Clamp, AlphaMode::PassThrough);
  expectPicture(
      shot, l, want, [](int, int) { return true; }, "picture after the switch");
  EXPECT_GE(l.framesWhileOpening, 0);
  std::printf("frames drawn while the new source opened: %ld\n", l.framesWhileOpening);
}

TEST(ViewerOptions, AnUnknownDisplayPathIsAUsageError) {
  const std::string cmd = std::string(LIVECONV_VIEWER_BIN) + " --display-path fast > /dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

TEST_F(ViewerScreenshot, CompareSplitShowsSourceLeftAndFilteredRight) {
  Image shot;
  Layout l;
  if (!shoot("compare", "--source testpattern:480x320 --mask box:5 --compare --no-overlay", &shot, &l)) {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    return;
  }
  const Image source = makeTestPattern(kFrameW, kFrameH, PixelFormat::RGBA8, l.frame);
  Image filtered(kFrameW, kFrameH, PixelFormat::RGBA8);
  convolveReference(source.view(), filtered.view(), parseMaskSpec("box:5"), BorderMode::Clamp, AlphaMode::PassThrough);
  const int split = kFrameW / 2, margin = 3;  // the divider line is drawn on the split
  expectPicture(
      shot, l, source, [&](int x, int) { return x < split - margin; }, "source half");
  expectPicture(
      shot, l, filtered, [&](int x, int) { return x >= split + margin; }, "filtered half");
}
