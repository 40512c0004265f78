#include "liveconv/media/planes.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/pixdesc.h>
}

namespace liveconv::media {
namespace {

// 0 for 8-bit samples, else how far a sample moves up to fill 16 bits.
int shiftOf(const AVPixFmtDescriptor* d) {
  return d->comp[0].depth > 8 ? 16 - d->comp[0].depth : 0;
}

// FFmpeg's old full-range names: the same planes as their twins.
AVPixelFormat withoutJ(AVPixelFormat f) {
  switch (f) {
    case AV_PIX_FMT_YUVJ420P:
      return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P:
      return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P:
      return AV_PIX_FMT_YUV444P;
    case AV_PIX_FMT_YUVJ440P:
      return AV_PIX_FMT_YUV440P;
    case AV_PIX_FMT_YUVJ411P:
      return AV_PIX_FMT_YUV411P;
    default:
      return f;
  }
}

const std::vector<AVPixelFormat>& filterableFormats() {
  static const std::vector<AVPixelFormat> list = [] {
    std::vector<AVPixelFormat> formats;
    for (const AVPixFmtDescriptor* d = av_pix_fmt_desc_next(nullptr); d; d = av_pix_fmt_desc_next(d)) {
      const AVPixelFormat f = av_pix_fmt_desc_get_id(d);
      if (withoutJ(f) == f && isFilterablePlanar(f)) formats.push_back(f);
    }
    formats.push_back(AV_PIX_FMT_NONE);
    return formats;
  }();
  return list;
}

}  // namespace

bool isFilterablePlanar(AVPixelFormat format) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  constexpr auto refused = AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                           AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER;
  if (!d || (d->flags & refused) || d->nb_components < 1) return false;
  if (av_pix_fmt_count_planes(format) != d->nb_components) return false;  // each component a plane of its own
  const int depth = d->comp[0].depth, bytes = depth > 8 ? 2 : 1;
  for (int c = 0; c < d->nb_components; ++c) {
    const AVComponentDescriptor& k = d->comp[c];
    if (k.depth != depth || k.step != bytes || k.offset != 0 || k.shift != 0 || depth > 16) return false;
  }
  return true;
}

AVPixelFormat planarFormatFor(AVPixelFormat format) {
  const AVPixelFormat plain = withoutJ(format);
  if (isFilterablePlanar(plain)) return plain;
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  if (!d || (d->flags & (AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER)))
    return AV_PIX_FMT_NONE;
  const AVPixelFormat best = avcodec_find_best_pix_fmt_of_list(filterableFormats().data(), format, 1, nullptr);
  // Only one that keeps every sample: the same components, sampling and depth.
  const AVPixFmtDescriptor* b = av_pix_fmt_desc_get(best);
  if (!b || b->nb_components != d->nb_components || b->log2_chroma_w != d->log2_chroma_w ||
      b->log2_chroma_h != d->log2_chroma_h || (b->flags & AV_PIX_FMT_FLAG_RGB) != (d->flags & AV_PIX_FMT_FLAG_RGB) ||
      b->comp[0].depth < d->comp[0].depth)
    return AV_PIX_FMT_NONE;
  return best;
}

std::vector<PlanesOptions::Plane> planesOf(AVPixelFormat format, int width, int height) {
  std::vector<PlanesOptions::Plane> planes;
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  if (!d || !isFilterablePlanar(format)) return planes;
  const PixelFormat engine = d->comp[0].depth > 8 ? PixelFormat::GRAY16 : PixelFormat::GRAY8;
  planes.resize(static_cast<std::size_t>(d->nb_components));
  for (int c = 0; c < d->nb_components; ++c) {
    // Chroma is the second and third component of a YUV format (not of RGB, gray or alpha).
    const bool chroma = !(d->flags & AV_PIX_FMT_FLAG_RGB) && d->nb_components >= 3 && (c == 1 || c == 2);
    PlanesOptions::Plane& p = planes[static_cast<std::size_t>(d->comp[c].plane)];
    p.width = chroma ? AV_CEIL_RSHIFT(width, d->log2_chroma_w) : width;
    p.height = chroma ? AV_CEIL_RSHIFT(height, d->log2_chroma_h) : height;
    p.format = engine;
  }
  return planes;
}

std::string planeNames(AVPixelFormat format) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  if (!d) return "";
  const bool rgb = d->flags & AV_PIX_FMT_FLAG_RGB;
  static const char* const yuv[] = {"Y", "U", "V", "A"};
  static const char* const rgbNames[] = {"R", "G", "B", "A"};
  if (d->nb_components == 1) return "gray";
  if (d->nb_components == 2) return "gray, A";
  std::vector<std::string> names(static_cast<std::size_t>(d->nb_components));
  for (int c = 0; c < d->nb_components; ++c)
    names[static_cast<std::size_t>(d->comp[c].plane)] = rgb ? rgbNames[c] : yuv[c];
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

void copyIntoPlanes(const AVFrame* frame, std::vector<Image>* planes) {
  const auto format = static_cast<AVPixelFormat>(frame->format);
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  const int shift = shiftOf(d);
  const std::vector<PlanesOptions::Plane> shape = planesOf(format, frame->width, frame->height);
  planes->resize(shape.size());
  for (std::size_t i = 0; i < shape.size(); ++i) {
    Image& img = (*planes)[i];
    if (img.width() != shape[i].width || img.height() != shape[i].height || img.format() != shape[i].format)
      img = Image(shape[i].width, shape[i].height, shape[i].format);
    const ImageView v = img.view();
    for (int y = 0; y < v.height; ++y) {
      const std::uint8_t* from = frame->data[i] + static_cast<std::ptrdiff_t>(y) * frame->linesize[i];
      if (shift == 0) {
        std::memcpy(v.row(y), from, v.rowBytes());
        continue;
      }
      const auto* in = reinterpret_cast<const std::uint16_t*>(from);
      auto* out = reinterpret_cast<std::uint16_t*>(v.row(y));
      for (int x = 0; x < v.width; ++x) out[x] = static_cast<std::uint16_t>(in[x] << shift);
    }
  }
}

void copyFromPlanes(const std::vector<Image>& planes, AVFrame* frame) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(frame->format));
  const int shift = shiftOf(d);
  const unsigned half = shift ? 1u << (shift - 1) : 0, top = (1u << d->comp[0].depth) - 1;
  for (std::size_t i = 0; i < planes.size() && i < 4; ++i) {
    const ImageView v = planes[i].view();
    for (int y = 0; y < v.height; ++y) {
      std::uint8_t* to = frame->data[i] + static_cast<std::ptrdiff_t>(y) * frame->linesize[i];
      if (shift == 0) {
        std::memcpy(to, v.row(y), v.rowBytes());
        continue;
      }
      const auto* in = reinterpret_cast<const std::uint16_t*>(v.row(y));
      auto* out = reinterpret_cast<std::uint16_t*>(to);
      for (int x = 0; x < v.width; ++x) out[x] = static_cast<std::uint16_t>(std::min((in[x] + half) >> shift, top));
    }
  }
}

}  // namespace liveconv::media
