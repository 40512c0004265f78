// The camera list both shells show and `liveconv cameras` prints, as data
// (liveconv/media/cameras.hpp): the source specs a camera opens as, and the text
// describeCameras() writes for two cameras and a busy device, and for no
// camera at all.
#include <gtest/gtest.h>

#include "liveconv/media/cameras.hpp"

using namespace liveconv::media;

namespace {

// Two cameras and a busy device, as listCameras() returns them.
CameraList twoCameras() {
  CameraList list;
  Camera integrated;
  integrated.device = "/dev/video0";
  integrated.name = "Integrated Camera: Integrated C (uvcvideo)";
  integrated.formats = {{"YUYV", "YUYV 4:2:2", {"640x480", "320x240", "1280x720"}},
                        {"MJPG", "Motion-JPEG", {"1920x1080"}}};
  Camera busy;
  busy.device = "/dev/video2";
  busy.problem = kCameraBusy;
  Camera loopback;
  loopback.device = "/dev/video4";
  loopback.name = "Virtual Camera (v4l2 loopback)";
  loopback.formats = {{"Y10", "10-bit Greyscale", {"160x120 to 1920x1080"}}};
  list.cameras = {integrated, busy, loopback};
  return list;
}

TEST(CameraList, DescribeCamerasWritesTheTerminalText) {
  EXPECT_EQ(describeCameras(twoCameras()),
            "/dev/video0: Integrated Camera: Integrated C (uvcvideo)\n"
            "    YUYV YUYV 4:2:2: 640x480 320x240 1280x720\n"
            "    MJPG Motion-JPEG: 1920x1080\n"
            "/dev/video2: cannot be opened (busy or no permission)\n"
            "/dev/video4: Virtual Camera (v4l2 loopback)\n"
            "    Y10  10-bit Greyscale: 160x120 to 1920x1080\n"
            "(use one with -i camera:N or -i /dev/videoN, optionally :WxH@FPS)\n")
      << "a fourcc of three letters keeps its fourth character, a space";

  CameraList notV4l2;
  notV4l2.cameras.push_back({"/dev/video1", "", kCameraNotV4l2, {}});
  EXPECT_EQ(describeCameras(notV4l2),
            "/dev/video1: not a V4L2 device\n"
            "(use one with -i camera:N or -i /dev/videoN, optionally :WxH@FPS)\n");

  Camera noFormats;
  noFormats.device = "/dev/video3";
  noFormats.name = "Grabber (em28xx)";
  noFormats.formats = {{"GREY", "8-bit Greyscale", {}}};
  EXPECT_EQ(describeCameras({{noFormats}, ""}),
            "/dev/video3: Grabber (em28xx)\n"
            "    GREY 8-bit Greyscale:\n"
            "(use one with -i camera:N or -i /dev/videoN, optionally :WxH@FPS)\n");
}

TEST(CameraList, NoCameraPrintsTheListsMessage) {
  EXPECT_EQ(describeCameras({{}, kNoCameraFound}),
            "No camera found: there is no video capture device under /dev/video*.\n");
  EXPECT_EQ(describeCameras({{}, "Listing cameras is implemented for V4L2 (Linux) only; on this system pass the "
                                 "device name FFmpeg uses."}),
            "Listing cameras is implemented for V4L2 (Linux) only; on this system pass the device name FFmpeg uses.\n");
  EXPECT_EQ(describeCameras({}), "No camera found.\n");
}

TEST(CameraList, SourceSpecsAreWhatTheCliOpens) {
  const CameraList list = twoCameras();
  EXPECT_TRUE(list.cameras[0].usable());
  EXPECT_FALSE(list.cameras[1].usable());
  EXPECT_EQ(list.cameras[0].sourceSpec(), "camera:0");
  EXPECT_EQ(list.cameras[0].sourceSpec("1280x720"), "camera:0:1280x720");
  EXPECT_EQ(list.cameras[2].sourceSpec("160x120 to 1920x1080"), "camera:4") << "a range is no size to ask for";
  Camera twoDigits;
  twoDigits.device = "/dev/video12";
  EXPECT_EQ(twoDigits.sourceSpec("640x480"), "camera:12:640x480");
  Camera odd;
  odd.device = "/dev/v4l/by-id/usb-cam";
  EXPECT_EQ(odd.sourceSpec(), "/dev/v4l/by-id/usb-cam");
  EXPECT_EQ(odd.sourceSpec("320x240"), "/dev/v4l/by-id/usb-cam:320x240");
  Camera notNumbered;
  notNumbered.device = "/dev/videoX";
  EXPECT_EQ(notNumbered.sourceSpec(), "/dev/videoX");
  EXPECT_TRUE(isSingleSize("640x480"));
  EXPECT_FALSE(isSingleSize("640x"));
  EXPECT_FALSE(isSingleSize("x480"));
  EXPECT_FALSE(isSingleSize("640 x 480"));
  EXPECT_FALSE(isSingleSize("160x120 to 1920x1080"));
  EXPECT_FALSE(isSingleSize(""));
}

// The GLFW panel's camera buttons come from the same list: usable devices only, as specs.
TEST(CameraList, SourceSpecsOfTheUsableCameras) {
  EXPECT_EQ(cameraSourceSpecs(twoCameras()), (std::vector<std::string>{"camera:0", "camera:4"}))
      << "the busy /dev/video2 is listed with its reason in the Qt dialog, and offered by neither shell";
  EXPECT_TRUE(cameraSourceSpecs({{}, kNoCameraFound}).empty());
  CameraList notV4l2;
  notV4l2.cameras.push_back({"/dev/video1", "", kCameraNotV4l2, {}});
  EXPECT_TRUE(cameraSourceSpecs(notV4l2).empty());
}

}  // namespace
