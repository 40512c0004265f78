// The FFmpeg this program runs with (the shared libraries loaded at run time).
#pragma once

#include <string>

namespace liveconv::media {

// e.g. "5.1.6-0+deb12u1 (libavformat 59.27.100, libavcodec 59.37.100, ...)".
std::string ffmpegVersionText();

}  // namespace liveconv::media
