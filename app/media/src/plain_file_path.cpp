// Which output targets are files (staged) and which are FFmpeg protocols
// (written in place): the one part of liveconv/media/staged_output.hpp that needs FFmpeg.
#include <cstring>

#include "liveconv/media/staged_output.hpp"

extern "C" {
#include <libavformat/avio.h>
}

namespace liveconv::media {

std::string plainFilePath(const std::string& target) {
  // FFmpeg reads "NAME:" as a protocol when NAME is one it has; any other
  // ':' ("take 1:2.mov", "12:30.mkv") is part of a file name.
  if (target.rfind("file:", 0) != 0) {
    const char* protocol = avio_find_protocol_name(target.c_str());
    if (protocol && std::strcmp(protocol, "file") != 0) return "";
  }
  return localFilePath(target);
}

}  // namespace liveconv::media
