#include "media/colour_scaler.hpp"

extern "C" {
#include <libavutil/buffer.h>
#include <libavutil/opt.h>
}

namespace liveconv::app {
namespace {

SwsContext* makeContext(const ScalerShape& shape, int flags, int threads) {
  SwsContext* c = sws_alloc_context();
  if (!c) return nullptr;
  const bool set = av_opt_set_int(c, "srcw", shape.srcWidth, 0) >= 0 && av_opt_set_int(c, "srch", shape.srcHeight, 0) >= 0 &&
                   av_opt_set_int(c, "src_format", shape.srcFormat, 0) >= 0 &&
                   av_opt_set_int(c, "dstw", shape.dstWidth, 0) >= 0 && av_opt_set_int(c, "dsth", shape.dstHeight, 0) >= 0 &&
                   av_opt_set_int(c, "dst_format", shape.dstFormat, 0) >= 0 && av_opt_set_int(c, "sws_flags", flags, 0) >= 0 &&
                   av_opt_set_int(c, "threads", threads, 0) >= 0;
  if (!set || sws_init_context(c, nullptr, nullptr) < 0) {
    sws_freeContext(c);
    return nullptr;
  }
  return c;
}

void keepBuffer(void*, std::uint8_t*) {}  // the destination's memory is the caller's

}  // namespace

SwsContext* ColourScaler::get(const ScalerShape& shape, const ScalerColour* colour) {
  if (!context_ || !(shape == shape_)) {
    sws_freeContext(context_);
    // At the same size, chroma is taken from its sample (point), as the
    // device conversion does: 4:2:0 -> RGBA -> 4:2:0 then gives the chroma
    // back (an interpolated chroma, averaged again, lost 3-4 dB of PSNR at
    // sharp colour edges); a resize interpolates (bicubic).
    const bool sameSize = shape.srcWidth == shape.dstWidth && shape.srcHeight == shape.dstHeight;
    // Slices convert exactly as one thread does where the output is RGBA; a
    // gray output's dither depends on where a slice starts (a few pixels at
    // the slice edges moved by one), so it keeps one thread.
    const int threads = shape.dstFormat == AV_PIX_FMT_RGBA ? threads_ : 1;
    context_ = makeContext(shape, (sameSize ? SWS_POINT : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, threads);
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

bool ColourScaler::convert(const AVFrame* src, std::uint8_t* dst, int dstStride) {
  if (!context_) return false;
  AVFrame* out = av_frame_alloc();
  if (!out) return false;
  out->width = shape_.dstWidth;
  out->height = shape_.dstHeight;
  out->format = shape_.dstFormat;
  out->data[0] = dst;
  out->linesize[0] = dstStride;
  out->buf[0] = av_buffer_create(dst, static_cast<std::size_t>(dstStride) * shape_.dstHeight, keepBuffer, nullptr, 0);
  const bool ok = out->buf[0] && sws_scale_frame(context_, out, src) >= 0;
  av_frame_free(&out);
  return ok;
}

}  // namespace liveconv::app
