// The camera list's helpers and the text of `liveconv cameras`: plain C++, no
// FFmpeg and no V4L2, so every build has them (cameras.hpp).
#include <algorithm>
#include <cctype>
#include <sstream>

#include "liveconv/media/cameras.hpp"

namespace liveconv::media {
namespace {

bool allDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

bool isSingleSize(const std::string& size) {
  const auto x = size.find('x');
  return x != std::string::npos && allDigits(size.substr(0, x)) && allDigits(size.substr(x + 1));
}

std::string Camera::sourceSpec(const std::string& size) const {
  const std::string prefix = "/dev/video";
  std::string spec = device;
  if (device.rfind(prefix, 0) == 0 && allDigits(device.substr(prefix.size())))
    spec = "camera:" + device.substr(prefix.size());
  if (isSingleSize(size)) spec += ":" + size;
  return spec;
}

std::vector<std::string> cameraSourceSpecs(const CameraList& list) {
  std::vector<std::string> specs;
  for (const Camera& cam : list.cameras)
    if (cam.usable()) specs.push_back(cam.sourceSpec());
  return specs;
}

std::string describeCameras(const CameraList& list) {
  if (list.cameras.empty()) return (list.message.empty() ? std::string("No camera found.") : list.message) + "\n";
  std::ostringstream out;
  for (const Camera& cam : list.cameras) {
    out << cam.device << ": " << (cam.usable() ? cam.name : cam.problem) << "\n";
    for (const CameraFormat& f : cam.formats) {
      std::string fourcc = f.fourcc;
      fourcc.resize(std::max<std::size_t>(fourcc.size(), 4), ' ');  // the four characters of the code
      out << "    " << fourcc << " " << f.description << ":";
      for (const std::string& size : f.sizes) out << " " << size;
      out << "\n";
    }
  }
  out << "(use one with -i camera:N or -i /dev/videoN, optionally :WxH@FPS)\n";
  return out.str();
}

}  // namespace liveconv::media
