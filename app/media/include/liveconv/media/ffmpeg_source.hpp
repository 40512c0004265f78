// Frames from FFmpeg: files of any container and codec, network URLs, lavfi
// test sources and cameras (v4l2 through libavdevice), decoded on the caller's
// thread (the stream's decode thread) and converted to the engine's pixel
// format: by swscale on the CPU, or, for yuv420p and nv12, handed on as planes
// for the device to convert (Frame::yuv, kernels/convert.cl). Both paths use
// the frame's matrix (BT.601 or BT.709; BT.601 when unspecified, as swscale)
// and range. Packets the decoder refuses are skipped and counted.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "liveconv/frame.hpp"
#include "liveconv/media/stream_copy.hpp"

struct AVCodec;

namespace liveconv::media {

struct SourceSpec {
  std::string url;                             // what avformat_open_input gets
  std::string inputFormat;                     // "lavfi", "v4l2", or empty to let FFmpeg probe
  std::map<std::string, std::string> options;  // e.g. video_size, framerate
  bool live = false;                           // camera or real-time stream: live queue policy
  std::string text;                            // as the user wrote it, for messages
  // Asked while FFmpeg waits on the input (opening, probing, reading a
  // network stream that sends nothing); true gives up at once with an
  // InputError. Empty: FFmpeg waits as long as the input takes.
  std::function<bool()> stop;
  // The open (avformat_open_input and the probe) gives up after this many
  // seconds with an InputError that says so: a stream that accepts the
  // connection and never sends. 0: it waits as long as the input takes. A pipe
  // or FIFO waits for its writer whatever this says (only `stop` ends that).
  double openTimeoutSeconds = 0;
  // --hwaccel: "none" (FFmpeg's software decoder), "auto" (the faster of it and
  // the hardware decoders that open, measured: hw_decode.hpp) or a hardware
  // device type FFmpeg knows (cuda, vaapi, ...; checkHwAccel).
  std::string hwaccel = "none";
};

// What FFmpeg opens for a source spec, as its row of the source table
// (source_kinds.hpp) parses it; "" is the bundled clip (defaultClip). Throws
// the row's sentence for a malformed spec (InputError or InvalidArgument).
SourceSpec parseSourceSpec(const std::string& text, const std::string& defaultClip);

// Where decoded frames become the engine's pixel format.
enum class ConvertMode {
  Invalid = 0,
  Cpu,   // swscale, always
  Gpu,   // the layouts kernels/convert.cl takes on the device, 8- or 16-bit frames; swscale for the others
  Auto,  // the default of `run`: as Gpu for 8-bit frames (the planes are smaller to upload than RGBA), as
         // Cpu for 16-bit ones (swscale's conversion is the one the encoder's undoes exactly)
};
// Whether `mode` has the device convert decoded frames into `format` (where it takes their layout).
bool deviceConverts(ConvertMode mode, PixelFormat format);
ConvertMode parseConvertMode(const std::string& text);  // "cpu" / "gpu" / "auto"; Invalid otherwise
const char* toString(ConvertMode mode);

// The matrix of a frame that does not say (no colour tags), as players guess
// it: BT.709 for HD (1280 wide or more, or taller than 576), else BT.601. Both
// conversions from the decoder and the encoder's conversion follow it.
bool untaggedMatrixIsBt709(int width, int height);

// Sets FFmpeg's log level (its own lines only with LIVECONV_FFMPEG_LOG=1),
// once; every source and sink calls it first.
void setUpFfmpeg();

// True when cameras can be opened: FFmpeg's device inputs are in this build
// and libavdevice loads (device_inputs.hpp says why not).
bool hasCameraSupport();

class FfmpegSource : public FrameSource {
 public:
  // Opens and probes; throws InputError with a sentence (SourceUnavailable
  // for a camera that is busy).
  FfmpegSource(const SourceSpec& spec, PixelFormat format, ConvertMode convert = ConvertMode::Cpu);
  ~FfmpegSource() override;

  bool next(Frame& frame) override;
  std::string describe() const override;
  bool isLive() const override;
  long long expectedFrames() const override;
  bool frameSize(int* width, int* height) const override;  // the decoder's, as probed
  YuvLayout planesLayout() const override;                 // the decoder's format, where the device converts it
  long long corruptPackets() const override { return corrupt_; }
  bool seek(double seconds) override;
  double durationSeconds() const override;
  bool setFormat(PixelFormat format) override;  // swscale (or the device) converts to it from the next frame
  // The bits of the input's samples as its decoder gives them (8 for most
  // video, 10 for HEVC Main10 and P010, 16 for rgb48 and gray16 PNG), 8 when
  // the format does not say.
  int sampleBits() const;
  // Planes mode (`run --planes`, liveconv/media/planes.hpp): from the next
  // frame on, frames come as their own planes (Frame::planes) in
  // planesFormat(), the decoder's format or its planar twin. Returns "", or
  // (and nothing changes) the sentence why not: a decoder format with no
  // planar twin that keeps every sample (floats, bayer, gray with alpha).
  std::string setPlanes();
  int planesFormat() const;  // an AVPixelFormat; AV_PIX_FMT_NONE (-1) outside planes mode
  double startSeconds() const override;
  // Frames per second as FFmpeg guesses it (for the encoder's time base).
  void frameRate(int* numerator, int* denominator) const;
  // The video stream's time base: the unit its timestamps (Frame::ptsSeconds) come in.
  void timeBase(int* numerator, int* denominator) const;
  // Describes the input's other streams (audio and/or subtitles and data) and its
  // metadata into `copy`, and from now on hands their packets to it as they are
  // read. Call before the first next(). `chapters`: the input's chapters too
  // (a window's recording, which starts anywhere in the clip, leaves them out).
  void copyStreamsInto(std::shared_ptr<StreamCopy> copy, bool audio, bool subtitles, bool chapters = true);
  // The video's display matrix (36 bytes: how a player turns it), or empty.
  std::vector<std::uint8_t> displayMatrix() const;
  // How the frames so far were converted, e.g. "on the device (yuv420p, bt601, limited range)"
  // or "by swscale (yuv444p)"; empty before the first frame.
  std::string conversionUsed() const;
  // The decoder at work: "cuda" (or another hardware device type) or "the CPU".
  std::string decoderUsed() const;
  // With --hwaccel other than none: one line on the decoder chosen, or why the
  // hardware one could not be used ("--hwaccel cuda: no cuda device opens here
  // (Cannot load libcuda.so.1); decoding on the CPU."); else "".
  std::string decoderNote() const;
  // At the end: "" when the decoder chosen at the open decoded every frame, else
  // the line that says the hardware left this stream to the CPU decoder.
  std::string decoderFallback() const;

 private:
  void convert(Frame& out);  // the decoded frame into `out`: planes for the device, or pixels by swscale
  void convertToPlanes(Frame& out);                       // planes mode
  void setUpHardware(const AVCodec* codec);               // --hwaccel, before the decoder opens
  std::string chooseAutomatically(const AVCodec* codec);  // --hwaccel auto: the decoder's type name, or "none"

  struct State;
  std::unique_ptr<State> s_;
  long long corrupt_ = 0;
};

}  // namespace liveconv::media
