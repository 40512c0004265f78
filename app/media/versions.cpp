#include "media/versions.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libswscale/swscale.h>
#if LIVECONV_WITH_AVDEVICE
#include <libavdevice/avdevice.h>
#endif
}

namespace liveconv::app {
namespace {

std::string libraryVersion(const char* name, unsigned version) {
  return std::string(name) + " " + std::to_string(AV_VERSION_MAJOR(version)) + "." +
         std::to_string(AV_VERSION_MINOR(version)) + "." + std::to_string(AV_VERSION_MICRO(version));
}

}  // namespace

std::string ffmpegVersionText() {
  std::string text = std::string(av_version_info()) + " (" + libraryVersion("libavformat", avformat_version()) +
                     ", " + libraryVersion("libavcodec", avcodec_version()) + ", " +
                     libraryVersion("libswscale", swscale_version()) + ", " +
                     libraryVersion("libavutil", avutil_version());
#if LIVECONV_WITH_AVDEVICE
  text += ", " + libraryVersion("libavdevice", avdevice_version());
#endif
  return text + ")";
}

}  // namespace liveconv::app
