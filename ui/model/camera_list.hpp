// The cameras a shell offers, as data. The enumeration is the one behind
// `liveconv cameras` (app::describeCameras, V4L2 on Linux); it prints a text
// for the terminal, and parseCameraList() reads that text back, so the list in
// a window is exactly the list on the terminal, formats and sizes included.
#pragma once

#include <string>
#include <vector>

namespace liveconv::ui {

struct CameraFormat {
  std::string fourcc;              // "YUYV", "MJPG"
  std::string description;         // "YUYV 4:2:2"
  std::vector<std::string> sizes;  // "640x480", or a range "160x120 to 1920x1080"
};

struct CameraEntry {
  std::string device;   // "/dev/video0"
  std::string name;     // "Integrated Camera (uvcvideo)"; empty when the device has a problem
  std::string problem;  // why it cannot be used ("cannot be opened (busy or no permission)"); empty when usable
  std::vector<CameraFormat> formats;

  bool usable() const { return problem.empty(); }
  // The source spec that opens it: "camera:N" for /dev/videoN (else the device
  // path), with ":WxH" when `size` is a single size such as "640x480".
  std::string sourceSpec(const std::string& size = "") const;
};

struct CameraList {
  std::vector<CameraEntry> cameras;
  // Set when there is no camera: the enumeration's own sentence
  // ("No camera found: ..."), or why this system cannot list them.
  std::string message;
};

// Reads the text of app::describeCameras(). Lines it does not recognise are
// ignored, so a new hint line in the CLI's output does not break the list.
CameraList parseCameraList(const std::string& describeCamerasText);

// The source specs of the usable cameras, in the list's order ("camera:0",
// "camera:4"): the camera buttons of the GLFW source panel, so both shells
// offer the cameras `liveconv cameras` lists and no other.
std::vector<std::string> cameraSourceSpecs(const CameraList& list);

// True for a size a camera spec can carry ("640x480"), false for a range.
bool isSingleSize(const std::string& size);

}  // namespace liveconv::ui
