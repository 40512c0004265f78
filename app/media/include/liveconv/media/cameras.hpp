// The video capture devices and what they deliver, as data: listCameras()
// enumerates them (V4L2 on Linux), describeCameras() writes the text of
// `liveconv cameras`, and both shells show the same list (the Qt camera
// dialog, the GLFW source panel's camera buttons).
//
// The structs and their helpers are plain C++ (library liveconv_cameras, in
// every build: the Qt dialog takes a CameraList also when there is no FFmpeg);
// listCameras() is the media library's (liveconv_media).
#pragma once

#include <string>
#include <vector>

namespace liveconv::media {

struct CameraFormat {
  std::string fourcc;              // "YUYV", "MJPG"; "Y10" for the code "Y10 " (trailing spaces taken off)
  std::string description;         // "YUYV 4:2:2"
  std::vector<std::string> sizes;  // "640x480", or a range "160x120 to 1920x1080"
};

struct Camera {
  std::string device;   // "/dev/video0"
  std::string name;     // "Integrated Camera (uvcvideo)": card (driver); empty when the device has a problem
  std::string problem;  // why it cannot be used (kCameraBusy, kCameraNotV4l2); empty when usable
  std::vector<CameraFormat> formats;

  bool usable() const { return problem.empty(); }
  // The source spec that opens it: "camera:N" for /dev/videoN (else the device
  // path), with ":WxH" when `size` is a single size such as "640x480".
  std::string sourceSpec(const std::string& size = "") const;
};

// Camera::problem as the enumeration sets it.
inline constexpr const char* kCameraBusy = "cannot be opened (busy or no permission)";
inline constexpr const char* kCameraNotV4l2 = "not a V4L2 device";

struct CameraList {
  std::vector<Camera> cameras;  // in device order; devices that capture no video are left out
  // Set when there is no camera: "No camera found: ...", or why this system
  // cannot list them.
  std::string message;
};

// The message of a list without cameras on a system that has /dev/video* (Linux).
inline constexpr const char* kNoCameraFound = "No camera found: there is no video capture device under /dev/video*.";

// The video capture devices on this machine (media build only: liveconv_media).
CameraList listCameras();

// The text of `liveconv cameras`: a line per device ("/dev/video0: NAME" or
// "/dev/video2: PROBLEM"), a line per format ("    YUYV YUYV 4:2:2: 640x480 1280x720")
// and a hint how to open one; or the list's message when it has no camera.
std::string describeCameras(const CameraList& list);

// The source specs of the usable cameras, in the list's order ("camera:0",
// "camera:4"): the camera buttons of the GLFW source panel, so both shells
// offer the cameras `liveconv cameras` lists and no other.
std::vector<std::string> cameraSourceSpecs(const CameraList& list);

// True for a size a camera spec can carry ("640x480"), false for a range.
bool isSingleSize(const std::string& size);

}  // namespace liveconv::media
