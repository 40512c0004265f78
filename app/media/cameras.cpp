// `liveconv cameras`: the video capture devices and what they deliver. On
// Linux the V4L2 ioctls give formats and sizes directly; other systems
// (dshow, avfoundation) would list through libavdevice here.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "media/ffmpeg_source.hpp"

#if defined(__linux__)
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#endif

namespace liveconv::app {

#if defined(__linux__)
namespace {

std::string fourcc(std::uint32_t f) {
  return {char(f & 0xff), char((f >> 8) & 0xff), char((f >> 16) & 0xff), char((f >> 24) & 0xff)};
}

void describeDevice(const std::string& path, std::ostringstream& out) {
  const int fd = open(path.c_str(), O_RDWR | O_NONBLOCK);
  if (fd < 0) {
    out << path << ": cannot be opened (busy or no permission)\n";
    return;
  }
  v4l2_capability cap{};
  if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) {
    out << path << ": not a V4L2 device\n";
    close(fd);
    return;
  }
  const std::uint32_t caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
  if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {  // metadata nodes and encoders come with the same names
    close(fd);
    return;
  }
  out << path << ": " << reinterpret_cast<const char*>(cap.card) << " (" << reinterpret_cast<const char*>(cap.driver)
      << ")\n";
  v4l2_fmtdesc fmt{};
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  for (fmt.index = 0; ioctl(fd, VIDIOC_ENUM_FMT, &fmt) == 0; ++fmt.index) {
    out << "    " << fourcc(fmt.pixelformat) << " " << reinterpret_cast<const char*>(fmt.description) << ":";
    v4l2_frmsizeenum size{};
    size.pixel_format = fmt.pixelformat;
    for (size.index = 0; ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) == 0; ++size.index) {
      if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE)
        out << " " << size.discrete.width << "x" << size.discrete.height;
      else
        out << " " << size.stepwise.min_width << "x" << size.stepwise.min_height << " to " << size.stepwise.max_width
            << "x" << size.stepwise.max_height;
    }
    out << "\n";
  }
  close(fd);
}

}  // namespace

std::string describeCameras() {
  std::vector<std::string> devices;
  if (DIR* dir = opendir("/dev")) {
    while (dirent* e = readdir(dir))
      if (std::string(e->d_name).rfind("video", 0) == 0) devices.push_back(std::string("/dev/") + e->d_name);
    closedir(dir);
  }
  std::sort(devices.begin(), devices.end());
  std::ostringstream out;
  for (const auto& d : devices) describeDevice(d, out);
  if (out.str().empty()) return "No camera found: there is no video capture device under /dev/video*.\n";
  return out.str() + "(use one with -i camera:N or -i /dev/videoN, optionally :WxH@FPS)\n";
}

#else

std::string describeCameras() {
  return "Listing cameras is implemented for V4L2 (Linux) only; on this system pass the device name FFmpeg uses.\n";
}

#endif

}  // namespace liveconv::app
