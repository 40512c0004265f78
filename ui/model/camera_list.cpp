#include "model/camera_list.hpp"

#include <cctype>
#include <sstream>

namespace liveconv::ui {
namespace {

// The two sentences app/media/cameras.cpp prints instead of a device name.
constexpr const char* kProblems[] = {"cannot be opened (busy or no permission)", "not a V4L2 device"};

bool allDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// " 640x480 1280x720" or " 160x120 to 1920x1080": single sizes and ranges.
std::vector<std::string> parseSizes(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words, sizes;
  for (std::string w; in >> w;) words.push_back(w);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i + 2 < words.size() && words[i + 1] == "to") {
      sizes.push_back(words[i] + " to " + words[i + 2]);
      i += 2;
    } else {
      sizes.push_back(words[i]);
    }
  }
  return sizes;
}

}  // namespace

bool isSingleSize(const std::string& size) {
  const auto x = size.find('x');
  return x != std::string::npos && allDigits(size.substr(0, x)) && allDigits(size.substr(x + 1));
}

std::string CameraEntry::sourceSpec(const std::string& size) const {
  const std::string prefix = "/dev/video";
  std::string spec = device;
  if (device.rfind(prefix, 0) == 0 && allDigits(device.substr(prefix.size())))
    spec = "camera:" + device.substr(prefix.size());
  if (isSingleSize(size)) spec += ":" + size;
  return spec;
}

std::vector<std::string> cameraSourceSpecs(const CameraList& list) {
  std::vector<std::string> specs;
  for (const CameraEntry& cam : list.cameras)
    if (cam.usable()) specs.push_back(cam.sourceSpec());
  return specs;
}

CameraList parseCameraList(const std::string& text) {
  CameraList list;
  std::string firstOtherLine;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("/dev/", 0) == 0 && line.find(": ") != std::string::npos) {
      // "/dev/video0: Integrated Camera (uvcvideo)" or "/dev/video1: cannot be opened (...)"
      const auto colon = line.find(": ");
      CameraEntry entry;
      entry.device = line.substr(0, colon);
      const std::string rest = trim(line.substr(colon + 2));
      bool problem = false;
      for (const char* p : kProblems) problem = problem || rest == p;
      (problem ? entry.problem : entry.name) = rest;
      list.cameras.push_back(entry);
    } else if (line.rfind("    ", 0) == 0 && line.size() > 9 && !list.cameras.empty() && list.cameras.back().usable()) {
      // "    YUYV YUYV 4:2:2: 640x480 1280x720": the fourcc is 4 characters
      // (it may end in a space); the description may hold colons, the sizes do not.
      const auto colon = line.rfind(':');
      if (colon == std::string::npos || colon < 9) continue;
      CameraFormat format;
      format.fourcc = trim(line.substr(4, 4));
      format.description = trim(line.substr(9, colon - 9));
      format.sizes = parseSizes(line.substr(colon + 1));
      list.cameras.back().formats.push_back(format);
    } else if (firstOtherLine.empty() && !trim(line).empty()) {
      firstOtherLine = trim(line);
    }
  }
  if (list.cameras.empty()) list.message = firstOtherLine.empty() ? "No camera found." : firstOtherLine;
  return list;
}

}  // namespace liveconv::ui
