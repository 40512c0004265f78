// Hardware decoding (--hwaccel) through FFmpeg's hwaccel API: the decoder
// decodes into the device's memory (NVDEC through cuda, VA-API, ...), each
// frame is brought back to host memory in the decoder's own planes (NV12,
// P010, ...: copyTo() straight into the planes the OpenCL device converts, or
// toHost() into a frame of FFmpeg's), and those go on as any decoded frame
// does: to the OpenCL device for conversion (kernels/convert.cl), or through
// swscale.
//
// Where the hardware cannot decode (no device, no driver, a codec or profile
// it lacks) FFmpeg's software decoder decodes, and the reason is one line
// (FfmpegSource::decoderNote). `auto` decodes the first frames of a file with
// the CPU decoder and with each hardware decoder that opens, and keeps the
// faster for this codec, size and machine (measured once, then cached).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/pixfmt.h>
}

struct AVBufferRef;
struct AVCodec;
struct AVCodecContext;
struct AVFrame;

namespace liveconv {
class PixelMemoryLocker;
}

namespace liveconv::media {

// "" where `name` is a --hwaccel value this FFmpeg takes ("none", "auto" or a
// hardware device type it knows), else the sentence that says what it takes.
std::string checkHwAccel(const std::string& name);

// The device types `auto` tries, in order (those of a Linux desktop or server
// that decode video: cuda, vaapi).
std::vector<AVHWDeviceType> autoHwTypes();

// The hardware side of one decoder: attached before avcodec_open2.
class HwDecode {
 public:
  HwDecode() = default;
  HwDecode(const HwDecode&) = delete;
  HwDecode& operator=(const HwDecode&) = delete;
  ~HwDecode();

  // Sets `decoder` up to decode on a device of `type`; "" when it is, else
  // why not in a few words ("no cuda device: Could not dynamically load CUDA",
  // "the hevc decoder has no vaapi path in this FFmpeg"). Call once, before
  // avcodec_open2.
  std::string attach(AVCodecContext* decoder, const AVCodec* codec, AVHWDeviceType type);

  bool attached() const { return hwFormat_ != AV_PIX_FMT_NONE; }
  const char* typeName() const;

  // The frame to convert: `frame` itself where it is in host memory (the
  // decoder fell back to software for this stream), else a copy of it in
  // host memory, with its timestamps and colour details. Throws InputError
  // when the device's frame cannot be copied back.
  AVFrame* toHost(AVFrame* frame, const std::string& what);

  // The format of the planes `frame` holds: for a frame in the device's
  // memory, the planes it comes back in (NV12, P010, ...), else its own.
  static AVPixelFormat planesFormat(const AVFrame* frame);

  // Copies a frame in the device's memory straight into the caller's planes
  // (`data`, rows `linesize` bytes apart, as planesFormat() lays them out, in
  // one block of `bytes` from data[0]), one copy and no allocation; false
  // where `frame` is in host memory (nothing copied: take toHost()). Throws
  // InputError as toHost() does. On cuda, data[0] must be a block of the
  // engine's pixel memory (allocatePixelMemory) of `bytes`: it is page-locked
  // on its first frame and stays so, which makes the copy
  // from the device a DMA at the bus's speed.
  bool copyTo(AVFrame* frame, std::uint8_t* const data[4], const int linesize[4], std::size_t bytes,
              const std::string& what);

  // True once a frame came in host memory although the device was attached:
  // FFmpeg's hwaccel refused the stream (a profile or size the hardware does
  // not decode) and the software decoder took over.
  bool fellBack() const { return fellBack_; }

 private:
  static AVPixelFormat pickFormat(AVCodecContext* decoder, const AVPixelFormat* offered);

  AVBufferRef* device_ = nullptr;
  AVHWDeviceType type_ = AV_HWDEVICE_TYPE_NONE;
  AVPixelFormat hwFormat_ = AV_PIX_FMT_NONE;
  AVFrame* host_ = nullptr;
  bool fellBack_ = false;
  std::unique_ptr<PixelMemoryLocker> locker_;  // cuda: page-locks the blocks copyTo() writes
};

// The decoders `auto` chose before, per machine, codec, size and pixel format
// (a file beside the variant race's: $XDG_CACHE_HOME/liveconv/decoders.tsv,
// or LIVECONV_DECODER_CACHE). "" when this key has no choice yet.
std::string cachedDecoderChoice(const std::string& key);
void rememberDecoderChoice(const std::string& key, const std::string& choice, const std::string& measured);

}  // namespace liveconv::media
