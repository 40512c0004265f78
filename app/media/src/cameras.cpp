// The video capture devices and what they deliver (listCameras). On Linux the
// V4L2 ioctls give formats and sizes directly; other systems (dshow,
// avfoundation) would list through libavdevice here.
#include "liveconv/media/cameras.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#endif

namespace liveconv::media {

#if defined(__linux__)
namespace {

std::string fourcc(std::uint32_t f) {
  std::string code = {char(f & 0xff), char((f >> 8) & 0xff), char((f >> 16) & 0xff), char((f >> 24) & 0xff)};
  code.erase(code.find_last_not_of(' ') + 1);  // "Y10 " is Y10
  return code;
}

std::vector<std::string> frameSizes(int fd, std::uint32_t pixelFormat) {
  std::vector<std::string> sizes;
  v4l2_frmsizeenum size{};
  size.pixel_format = pixelFormat;
  for (size.index = 0; ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) == 0; ++size.index) {
    if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE)
      sizes.push_back(std::to_string(size.discrete.width) + "x" + std::to_string(size.discrete.height));
    else
      sizes.push_back(std::to_string(size.stepwise.min_width) + "x" + std::to_string(size.stepwise.min_height) +
                      " to " + std::to_string(size.stepwise.max_width) + "x" +
                      std::to_string(size.stepwise.max_height));
  }
  return sizes;
}

// The device, or nothing for a node that captures no video.
std::optional<Camera> describeDevice(const std::string& path) {
  Camera cam;
  cam.device = path;
  const int fd = open(path.c_str(), O_RDWR | O_NONBLOCK);
  if (fd < 0) {
    cam.problem = kCameraBusy;
    return cam;
  }
  v4l2_capability cap{};
  if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) {
    close(fd);
    cam.problem = kCameraNotV4l2;
    return cam;
  }
  const std::uint32_t caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
  if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {  // metadata nodes and encoders come with the same names
    close(fd);
    return std::nullopt;
  }
  cam.name =
      std::string(reinterpret_cast<const char*>(cap.card)) + " (" + reinterpret_cast<const char*>(cap.driver) + ")";
  v4l2_fmtdesc fmt{};
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  for (fmt.index = 0; ioctl(fd, VIDIOC_ENUM_FMT, &fmt) == 0; ++fmt.index)
    cam.formats.push_back(
        {fourcc(fmt.pixelformat), reinterpret_cast<const char*>(fmt.description), frameSizes(fd, fmt.pixelformat)});
  close(fd);
  return cam;
}

}  // namespace

CameraList listCameras() {
  std::vector<std::string> devices;
  if (DIR* dir = opendir("/dev")) {
    while (dirent* e = readdir(dir))
      if (std::string(e->d_name).rfind("video", 0) == 0) devices.push_back(std::string("/dev/") + e->d_name);
    closedir(dir);
  }
  std::sort(devices.begin(), devices.end());
  CameraList list;
  for (const auto& d : devices)
    if (auto cam = describeDevice(d)) list.cameras.push_back(std::move(*cam));
  if (list.cameras.empty()) list.message = kNoCameraFound;
  return list;
}

#else

CameraList listCameras() {
  return {{}, "Listing cameras is implemented for V4L2 (Linux) only; on this system pass the device name FFmpeg uses."};
}

#endif

}  // namespace liveconv::media
