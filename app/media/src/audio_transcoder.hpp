// An input audio stream that the output's container cannot hold as it is
// (PCM or FLAC into MP4, say), decoded and encoded again with the
// container's usual audio codec (AAC for MP4/MOV), resampled where the encoder
// needs another sample format, rate or layout. The timestamps follow the
// input's first packet; the encoded packets go to the muxer interleaved.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

struct AVCodecParameters;
struct AVFormatContext;
struct AVStream;
struct AVPacket;

namespace liveconv::media {

// A copied stream the sink encodes again: packets in, encoded packets written
// to the muxer (app/media/src/subtitle_transcoder.hpp has the subtitles' kind).
class StreamTranscoder {
 public:
  virtual ~StreamTranscoder() = default;
  virtual void push(const AVPacket* packet) = 0;  // an input packet (timestamps in the input's time base)
  virtual void finish() = 0;                      // what the decoder and encoder still hold
  virtual std::string encoderName() const = 0;
};

class AudioTranscoder : public StreamTranscoder {
 public:
  // Opens the decoder for `input` and the encoder `encoderId` (an AVCodecID),
  // and sets up `output`'s parameters. Throws OutputError when either is missing.
  AudioTranscoder(const AVCodecParameters* input, int timeBaseNum, int timeBaseDen, int encoderId,
                  AVFormatContext* muxer, AVStream* output, std::string path);
  ~AudioTranscoder() override;
  AudioTranscoder(const AudioTranscoder&) = delete;
  AudioTranscoder& operator=(const AudioTranscoder&) = delete;

  void push(const AVPacket* packet) override;
  void finish() override;  // what the decoder, resampler and encoder still hold
  std::string encoderName() const override;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace liveconv::media
