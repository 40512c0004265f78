// What the audio and the subtitle transcoders share: the output stream they
// write, the input's time base, and their decoder and encoder contexts, found
// and opened alike; a failure is one sentence that names the stream's kind.
#pragma once

#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

namespace liveconv::media {

struct TranscoderCodecs {
  // `doing`: "Re-encoding the audio", "Converting the subtitles" (the start of the failure sentence).
  TranscoderCodecs(std::string doing, std::string path, AVFormatContext* muxer, AVStream* output, AVRational timeBase);
  ~TranscoderCodecs();
  TranscoderCodecs(const TranscoderCodecs&) = delete;
  TranscoderCodecs& operator=(const TranscoderCodecs&) = delete;

  // Opens the input's decoder and allocates the encoder `encoderId`, which the
  // caller sets up and opens with openEncoder(); `cannot` is the sentence when
  // this FFmpeg has either codec ("This FFmpeg cannot re-encode the audio of").
  void openDecoderAllocateEncoder(const AVCodecParameters* input, int encoderId, const std::string& cannot);
  // Opens the encoder (with a global header where the container wants one)
  // and copies its parameters into the output stream.
  void openEncoder();

  [[noreturn]] void fail(const std::string& what, int err) const;

  std::string doing;
  std::string path;
  AVFormatContext* muxer = nullptr;
  AVStream* output = nullptr;
  AVRational inputTimeBase{1, 1};
  AVCodecContext* decoder = nullptr;
  AVCodecContext* encoder = nullptr;
};

}  // namespace liveconv::media
