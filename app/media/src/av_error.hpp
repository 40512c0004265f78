// FFmpeg's text for an error code, for the sentences of media_errors.hpp.
#pragma once

#include <string>

extern "C" {
#include <libavutil/error.h>
}

namespace liveconv::media {

// E.g. "No such file or directory".
inline std::string avError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

// The last error line FFmpeg logged on this thread, and the first since
// clearLastFfmpegError() ("Cannot load libcuda.so.1", then "Could not
// dynamically load CUDA"), kept by the log callback setUpFfmpeg() installs.
std::string lastFfmpegError();
std::string firstFfmpegError();
void clearLastFfmpegError();

}  // namespace liveconv::media
