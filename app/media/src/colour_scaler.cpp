#include "liveconv/media/colour_scaler.hpp"

extern "C" {
#include <libavutil/buffer.h>
#include <libavutil/opt.h>
}

namespace liveconv::media {

AVPixelFormat avPixelFormatOf(PixelFormat format) {
  switch (format) {
    case PixelFormat::RGBA8:
      return AV_PIX_FMT_RGBA;
    case PixelFormat::GRAY8:
      return AV_PIX_FMT_GRAY8;
    case PixelFormat::RGBA16:
      return AV_PIX_FMT_RGBA64;
    case PixelFormat::GRAY16:
      return AV_PIX_FMT_GRAY16;
    case PixelFormat::Invalid:
      break;
  }
  return AV_PIX_FMT_NONE;
}

namespace {

SwsContext* makeContext(const ScalerShape& shape, int flags, int threads) {
  SwsContext* c = sws_alloc_context();
  if (!c) return nullptr;
  const bool set =
      av_opt_set_int(c, "srcw", shape.srcWidth, 0) >= 0 && av_opt_set_int(c, "srch", shape.srcHeight, 0) >= 0 &&
      av_opt_set_int(c, "src_format", shape.srcFormat, 0) >= 0 && av_opt_set_int(c, "dstw", shape.dstWidth, 0) >= 0 &&
      av_opt_set_int(c, "dsth", shape.dstHeight, 0) >= 0 && av_opt_set_int(c, "dst_format", shape.dstFormat, 0) >= 0 &&
      av_opt_set_int(c, "sws_flags", flags, 0) >= 0 && av_opt_set_int(c, "threads", threads, 0) >= 0;
  if (!set || sws_init_context(c, nullptr, nullptr) < 0) {
    sws_freeContext(c);
    return nullptr;
  }
  return c;
}

void keepBuffer(void*, std::uint8_t*) {}  // the pixels' memory is the caller's

// A frame over the caller's packed pixels (one plane), counted as a buffer so
// that swscale takes a reference rather than a copy; null when out of memory.
AVFrame* wrapPacked(const std::uint8_t* data, int stride, int width, int height, AVPixelFormat format) {
  AVFrame* f = av_frame_alloc();
  if (!f) return nullptr;
  f->width = width;
  f->height = height;
  f->format = format;
  f->data[0] = const_cast<std::uint8_t*>(data);  // swscale only reads a source
  f->linesize[0] = stride;
  f->buf[0] = av_buffer_create(f->data[0], static_cast<std::size_t>(stride) * height, keepBuffer, nullptr, 0);
  if (!f->buf[0]) av_frame_free(&f);
  return f;
}

}  // namespace

SwsContext* ColourScaler::get(const ScalerShape& shape, const ScalerColour* colour) {
  if (!context_ || !(shape == shape_)) {
    sws_freeContext(context_);
    // At the same size, chroma is taken from its sample (point), as the
    // device conversion does: 4:2:0 -> RGBA -> 4:2:0 then gives the chroma
    // back (an interpolated chroma, averaged again, lost 3-4 dB of PSNR at
    // sharp colour edges); a resize interpolates (bicubic).
    const bool sameSize = shape.srcWidth == shape.dstWidth && shape.srcHeight == shape.dstHeight;
    // Slices convert exactly as one thread does (RGBA from the decoders'
    // formats, the encoders' formats from RGBA and gray, resizes); a gray
    // output from YUV dithers by where a slice starts (a few pixels at the
    // slice edges moved by one), so gray output keeps one thread.
    const int threads = shape.dstFormat == AV_PIX_FMT_GRAY8 ? 1 : threads_;
    context_ =
        makeContext(shape, (sameSize ? SWS_POINT : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, threads);
    shape_ = shape;
    colourSet_ = false;
    if (!context_) return nullptr;
  }
  if (!colour || (colourSet_ && *colour == colour_)) return context_;
  const int* table = sws_getCoefficients(colour->matrix);
  sws_setColorspaceDetails(context_, table, colour->srcFullRange ? 1 : 0, table, colour->dstFullRange ? 1 : 0, 0,
                           1 << 16, 1 << 16);
  colour_ = *colour;
  colourSet_ = true;
  return context_;
}

bool ColourScaler::convert(const AVFrame* src, AVFrame* dst) {
  return context_ && src && dst && sws_scale_frame(context_, dst, src) >= 0;
}

bool ColourScaler::convert(const AVFrame* src, std::uint8_t* dst, int dstStride) {
  AVFrame* out = wrapPacked(dst, dstStride, shape_.dstWidth, shape_.dstHeight, shape_.dstFormat);
  const bool ok = convert(src, out);
  av_frame_free(&out);
  return ok;
}

bool ColourScaler::convert(const std::uint8_t* src, int srcStride, AVFrame* dst) {
  AVFrame* in = wrapPacked(src, srcStride, shape_.srcWidth, shape_.srcHeight, shape_.srcFormat);
  const bool ok = convert(in, dst);
  av_frame_free(&in);
  return ok;
}

bool ColourScaler::convert(const std::uint8_t* src, int srcStride, std::uint8_t* dst, int dstStride) {
  AVFrame* in = wrapPacked(src, srcStride, shape_.srcWidth, shape_.srcHeight, shape_.srcFormat);
  AVFrame* out = wrapPacked(dst, dstStride, shape_.dstWidth, shape_.dstHeight, shape_.dstFormat);
  const bool ok = convert(in, out);
  av_frame_free(&in);
  av_frame_free(&out);
  return ok;
}

}  // namespace liveconv::media
