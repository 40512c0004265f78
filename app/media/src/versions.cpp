#include "liveconv/media/versions.hpp"

#include "liveconv/media/device_inputs.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libswscale/swscale.h>
}

namespace liveconv::media {
namespace {

std::string libraryVersion(const char* name, unsigned version) {
  return std::string(name) + " " + std::to_string(AV_VERSION_MAJOR(version)) + "." +
         std::to_string(AV_VERSION_MINOR(version)) + "." + std::to_string(AV_VERSION_MICRO(version));
}

}  // namespace

std::string ffmpegVersionText() {
  std::string text = std::string(av_version_info()) + " (" + libraryVersion("libavformat", avformat_version()) + ", " +
                     libraryVersion("libavcodec", avcodec_version()) + ", " +
                     libraryVersion("libswscale", swscale_version()) + ", " +
                     libraryVersion("libavutil", avutil_version());
  // Loaded on first use (device_inputs.hpp); a build without it says so.
  const std::string& why = deviceInputsFailure();
  text += ", " + (why.empty() ? libraryVersion("libavdevice", deviceInputsVersion()) : why);
  return text + ")";
}

}  // namespace liveconv::media
