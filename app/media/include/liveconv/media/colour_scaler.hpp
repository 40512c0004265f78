// One swscale context and the colour details set on it, kept together.
//
// sws_getCachedContext may free a context and allocate the next at the same
// address (when its own setup has rewritten a field the cache compares, as it
// does for full-range yuvj formats), so "is it the context I set the matrix
// on?" cannot be asked of the pointer: a new context kept swscale's default
// matrix and range (a full-range clip's frames after the first at 25-32 dB). This class makes a context only when
// the geometry or formats change, and sets the matrix and ranges on each new
// one and whenever they change.
//
// The context runs FFmpeg's slice threads (one per core by default), used by
// convert(): the same pixels as one thread, in about half the time on two
// cores (1080p yuv420p -> RGBA: 16.5 -> 9.1 ms here; RGBA -> yuv420p for an
// encoder: 7.9 -> 4.7 ms). Gray output keeps one thread (from YUV its dither
// depends on where a slice starts). sws_scale() on the same context converts
// on the calling thread alone.
#pragma once

#include <cstdint>

extern "C" {
#include <libavutil/frame.h>
#include <libswscale/swscale.h>
}

#include "liveconv/image.hpp"

namespace liveconv::media {

// FFmpeg's name for an engine format's memory: rgba, gray, and at 16 bits
// rgba64 and gray16 in the host's byte order (as the engine keeps them).
AVPixelFormat avPixelFormatOf(PixelFormat format);

struct ScalerShape {
  int srcWidth = 0, srcHeight = 0;
  AVPixelFormat srcFormat = AV_PIX_FMT_NONE;
  int dstWidth = 0, dstHeight = 0;
  AVPixelFormat dstFormat = AV_PIX_FMT_NONE;
  bool operator==(const ScalerShape& o) const {
    return srcWidth == o.srcWidth && srcHeight == o.srcHeight && srcFormat == o.srcFormat && dstWidth == o.dstWidth &&
           dstHeight == o.dstHeight && dstFormat == o.dstFormat;
  }
};

// The YUV side's matrix (an SWS_CS_* value) and whether each side is full range.
struct ScalerColour {
  int matrix = SWS_CS_DEFAULT;
  bool srcFullRange = false, dstFullRange = false;
  bool operator==(const ScalerColour& o) const {
    return matrix == o.matrix && srcFullRange == o.srcFullRange && dstFullRange == o.dstFullRange;
  }
};

class ColourScaler {
 public:
  // `threads`: swscale's slice threads; 0: one per core.
  explicit ColourScaler(int threads = 0) : threads_(threads) {}
  ColourScaler(const ColourScaler&) = delete;
  ColourScaler& operator=(const ColourScaler&) = delete;
  ~ColourScaler() { sws_freeContext(context_); }

  // The context for this conversion, made or updated as needed; null when
  // swscale cannot convert between these formats. Without a colour (no YUV
  // side), swscale's own defaults stay.
  SwsContext* get(const ScalerShape& shape, const ScalerColour* colour);

  // Converts `src` into `dst` on the context's slice threads, both of the
  // shape last given to get(). A frame has its own buffers (as FFmpeg's
  // decoders hand them out, or av_frame_get_buffer makes them); packed pixels
  // (one plane: RGBA, gray) are the caller's memory, rows `stride` bytes
  // apart. False when swscale refused.
  bool convert(const AVFrame* src, AVFrame* dst);
  bool convert(const AVFrame* src, std::uint8_t* dst, int dstStride);
  bool convert(const std::uint8_t* src, int srcStride, AVFrame* dst);
  bool convert(const std::uint8_t* src, int srcStride, std::uint8_t* dst, int dstStride);

 private:
  int threads_;
  SwsContext* context_ = nullptr;
  ScalerShape shape_;
  ScalerColour colour_;
  bool colourSet_ = false;
};

}  // namespace liveconv::media
