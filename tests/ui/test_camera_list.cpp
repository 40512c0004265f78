// The camera list the shells show, read from the text of `liveconv cameras`
// (app::describeCameras). The texts below are what that function prints for
// two cameras, a busy device, and no device at all.
#include <gtest/gtest.h>

#include "model/camera_list.hpp"

using namespace liveconv::ui;

namespace {

const char* kTwoCameras =
    "/dev/video0: Integrated Camera: Integrated C (uvcvideo)\n"
    "    YUYV YUYV 4:2:2: 640x480 320x240 1280x720\n"
    "    MJPG Motion-JPEG: 1920x1080\n"
    "/dev/video2: cannot be opened (busy or no permission)\n"
    "/dev/video4: Virtual Camera (v4l2 loopback)\n"
    "    Y10  10-bit Greyscale: 160x120 to 1920x1080\n"
    "(use one with -i camera:N or -i /dev/videoN, optionally :WxH@FPS)\n";

TEST(CameraList, DevicesFormatsAndSizes) {
  const CameraList list = parseCameraList(kTwoCameras);
  EXPECT_TRUE(list.message.empty());
  ASSERT_EQ(list.cameras.size(), 3u);

  const CameraEntry& cam = list.cameras[0];
  EXPECT_EQ(cam.device, "/dev/video0");
  EXPECT_EQ(cam.name, "Integrated Camera: Integrated C (uvcvideo)") << "a colon in the card name stays in the name";
  EXPECT_TRUE(cam.usable());
  ASSERT_EQ(cam.formats.size(), 2u);
  EXPECT_EQ(cam.formats[0].fourcc, "YUYV");
  EXPECT_EQ(cam.formats[0].description, "YUYV 4:2:2") << "colons in the description stay in it";
  EXPECT_EQ(cam.formats[0].sizes, (std::vector<std::string>{"640x480", "320x240", "1280x720"}));
  EXPECT_EQ(cam.formats[1].fourcc, "MJPG");
  EXPECT_EQ(cam.formats[1].sizes, std::vector<std::string>{"1920x1080"});

  const CameraEntry& busy = list.cameras[1];
  EXPECT_FALSE(busy.usable());
  EXPECT_EQ(busy.problem, "cannot be opened (busy or no permission)");
  EXPECT_TRUE(busy.name.empty());

  const CameraEntry& loop = list.cameras[2];
  ASSERT_EQ(loop.formats.size(), 1u);
  EXPECT_EQ(loop.formats[0].fourcc, "Y10") << "a fourcc ending in a space";
  EXPECT_EQ(loop.formats[0].description, "10-bit Greyscale");
  EXPECT_EQ(loop.formats[0].sizes, std::vector<std::string>{"160x120 to 1920x1080"});
}

TEST(CameraList, SourceSpecsAreWhatTheCliOpens) {
  const CameraList list = parseCameraList(kTwoCameras);
  ASSERT_EQ(list.cameras.size(), 3u);
  EXPECT_EQ(list.cameras[0].sourceSpec(), "camera:0");
  EXPECT_EQ(list.cameras[0].sourceSpec("1280x720"), "camera:0:1280x720");
  EXPECT_EQ(list.cameras[2].sourceSpec("160x120 to 1920x1080"), "camera:4") << "a range is no size to ask for";
  CameraEntry odd;
  odd.device = "/dev/v4l/by-id/usb-cam";
  EXPECT_EQ(odd.sourceSpec(), "/dev/v4l/by-id/usb-cam");
  EXPECT_TRUE(isSingleSize("640x480"));
  EXPECT_FALSE(isSingleSize("640x"));
  EXPECT_FALSE(isSingleSize("160x120 to 1920x1080"));
}

TEST(CameraList, NoCameraKeepsTheEnumerationsSentence) {
  const CameraList none = parseCameraList("No camera found: there is no video capture device under /dev/video*.\n");
  EXPECT_TRUE(none.cameras.empty());
  EXPECT_EQ(none.message, "No camera found: there is no video capture device under /dev/video*.");
  const CameraList other = parseCameraList(
      "Listing cameras is implemented for V4L2 (Linux) only; on this system pass the device name FFmpeg uses.\n");
  EXPECT_TRUE(other.cameras.empty());
  EXPECT_EQ(other.message.rfind("Listing cameras is implemented", 0), 0u);
  EXPECT_EQ(parseCameraList("").message, "No camera found.");
}

// The GLFW panel's camera buttons come from the same list: usable devices only, as specs.
TEST(CameraList, SourceSpecsOfTheUsableCameras) {
  EXPECT_EQ(cameraSourceSpecs(parseCameraList(kTwoCameras)), (std::vector<std::string>{"camera:0", "camera:4"}))
      << "the busy /dev/video2 is listed with its reason in the Qt dialog, and offered by neither shell";
  EXPECT_TRUE(cameraSourceSpecs(parseCameraList("No camera found: there is no video capture device under /dev/video*.\n"))
                  .empty());
  EXPECT_TRUE(cameraSourceSpecs(parseCameraList("/dev/video1: not a V4L2 device\n")).empty());
}

}  // namespace
