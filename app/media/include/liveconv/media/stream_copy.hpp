// What `run` carries from the input into its output besides the filtered
// picture: the input's other streams (audio, subtitles), copied packet for
// packet without re-encoding, and the metadata (container tags, the video
// stream's tags and sample aspect ratio; its rotation is the sink's Orientation).
//
// The source fills it when it opens and pushes the other streams' packets from
// the decode thread; the encoder sink adds the streams to its container when it
// writes the header and writes their packets, shifted by the same start time as
// the video, as the video frames come.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

struct AVCodecParameters;
struct AVDictionary;
struct AVPacket;

namespace liveconv::media {

class StreamCopy {
 public:
  struct Stream {
    int inputIndex = -1;
    AVCodecParameters* parameters = nullptr;  // owned
    int timeBaseNum = 0, timeBaseDen = 1;
    AVDictionary* metadata = nullptr;  // owned (language, title, ...)
    int disposition = 0;
    std::string kind;         // "audio", "subtitle", "data"
    std::string codec;        // e.g. "aac"
    bool hasStart = false;    // the input says when the stream starts:
    double startSeconds = 0;  // its first timestamp, in seconds (the same clock as the video's frames)
  };

  struct Chapter {
    std::int64_t id = 0, start = 0, end = 0;
    int timeBaseNum = 1, timeBaseDen = 1;
    AVDictionary* metadata = nullptr;  // owned (title)
  };

  StreamCopy() = default;
  ~StreamCopy();
  StreamCopy(const StreamCopy&) = delete;
  StreamCopy& operator=(const StreamCopy&) = delete;

  // Set up by the source before the stream starts; read by the sink afterwards.
  std::vector<Stream> streams;
  std::vector<Chapter> chapters;
  AVDictionary* containerMetadata = nullptr;  // owned
  AVDictionary* videoMetadata = nullptr;      // owned
  int sampleAspectNum = 0, sampleAspectDen = 1;
  // The video's colour tags (FFmpeg's AVColorSpace, AVColorRange, AVColorPrimaries,
  // AVColorTransferCharacteristic values; 0 / 2 = unspecified).
  int colorSpace = 2, colorRange = 0, colorPrimaries = 2, colorTransfer = 2;
  int pixelFormat = -1;  // the decoded video's AVPixelFormat (-1: unknown)
  // HDR10's static metadata, FFmpeg's AVMasteringDisplayMetadata and
  // AVContentLightMetadata as bytes (empty: none): from the input stream, or
  // from the first decoded frame (HEVC carries them in SEI). The decode thread
  // writes them before it hands on that frame; the sink reads them when it
  // opens, at that frame.
  std::vector<std::uint8_t> masteringDisplay, contentLight;

  bool copies(int inputIndex) const;
  // Decode thread: a packet of a copied stream (referenced, not taken). Bounded:
  // past kMaxQueued packets the oldest is dropped and counted.
  void push(const AVPacket* packet);
  void markInputEnded();  // the source read its input to the end
  // Output side: the packets queued so far, oldest first (free with av_packet_free).
  std::vector<AVPacket*> take();
  bool inputEnded() const;
  long long droppedPackets() const;

  static constexpr std::size_t kMaxQueued = 20000;

 private:
  mutable std::mutex mutex_;
  std::deque<AVPacket*> queued_;
  bool ended_ = false;
  long long dropped_ = 0;
};

}  // namespace liveconv::media
