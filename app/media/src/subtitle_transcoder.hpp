// An input text subtitle stream that the output's container cannot hold as it
// is (SubRip or ASS into MP4, mov_text into Matroska), decoded and encoded
// again with the container's usual subtitle codec (mov_text for MP4/MOV,
// WebVTT for WebM, ASS for Matroska), as ffmpeg converts them: each cue keeps
// its start and duration; styling the target cannot express is dropped.
// Picture subtitles (DVD, PGS) cannot become text: the sink leaves them out.
// A cue that starts before the one written last (a file whose cues are out of
// order) is written just after it, as ffmpeg writes it, and said on `notices`.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>

#include "audio_transcoder.hpp"  // StreamTranscoder and FFmpeg's types

namespace liveconv::media {

// The line said of a cue out of order (`cueSeconds` before `lastSeconds`, the
// cue written last) and written just after it; copied cues are said alike.
std::string cueOutOfOrder(double cueSeconds, double lastSeconds, const std::string& path);

class SubtitleTranscoder : public StreamTranscoder {
 public:
  // Whether `input` (text subtitles) can be encoded with `encoderId` (text too) by this FFmpeg.
  static bool converts(const AVCodecParameters* input, int encoderId);
  // Opens the decoder and the encoder and sets up `output`'s parameters.
  // Throws OutputError when either does not open.
  SubtitleTranscoder(const AVCodecParameters* input, int timeBaseNum, int timeBaseDen, int encoderId,
                     AVFormatContext* muxer, AVStream* output, std::string path, std::ostream& notices);
  ~SubtitleTranscoder() override;

  void push(const AVPacket* packet) override;  // timestamps in the input's time base
  void finish() override {}                    // a subtitle decoder holds nothing back
  std::string encoderName() const override;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace liveconv::media
