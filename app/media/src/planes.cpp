#include "liveconv/media/planes.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

extern "C" {
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
  constexpr auto refused =
      AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_BITSTREAM;
  if (!d || (d->flags & refused)) return AV_PIX_FMT_NONE;
  if (d->flags & AV_PIX_FMT_FLAG_PAL) return AV_PIX_FMT_GBRAP;  // a palette's colours, alpha included
  // The filterable format of the same components and sampling with the
  // fewest bits that hold the samples (p010le: yuv420p10le; rgb565: gbrp).
  int depth = 0;
  for (int c = 0; c < d->nb_components; ++c) depth = std::max(depth, d->comp[c].depth);
  AVPixelFormat best = AV_PIX_FMT_NONE;
  int bestDepth = 99;
  for (const AVPixelFormat f : filterableFormats()) {
    const AVPixFmtDescriptor* e = av_pix_fmt_desc_get(f);
    if (!e || e->nb_components != d->nb_components || e->log2_chroma_w != d->log2_chroma_w ||
        e->log2_chroma_h != d->log2_chroma_h || (e->flags & AV_PIX_FMT_FLAG_RGB) != (d->flags & AV_PIX_FMT_FLAG_RGB) ||
        (e->flags & AV_PIX_FMT_FLAG_ALPHA) != (d->flags & AV_PIX_FMT_FLAG_ALPHA))
      continue;
    if (e->comp[0].depth >= depth && e->comp[0].depth < bestDepth) {
      best = f;
      bestDepth = e->comp[0].depth;
    }
  }
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

namespace {

// A sample of component `c` at (x, y): its bits as they are, of any layout
// whose samples sit within one byte or one 16-bit word.
struct Sampled {
  const AVFrame* frame;
  const AVComponentDescriptor& comp;
  bool bigEndian;
  int bytes;  // 1 or 2
  unsigned at(int x, int y) const {
    const std::uint8_t* p = frame->data[comp.plane] + static_cast<std::ptrdiff_t>(y) * frame->linesize[comp.plane] +
                            static_cast<std::ptrdiff_t>(x) * comp.step + comp.offset;
    const unsigned word = bytes == 1 ? p[0] : bigEndian ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]);
    return (word >> comp.shift) & ((1u << comp.depth) - 1);
  }
};

bool repackable(const AVPixFmtDescriptor* d, int depth) {
  constexpr auto refused = AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL |
                           AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER;
  if (!d || (d->flags & refused)) return false;
  const int bits = depth > 8 ? 16 : 8;
  for (int c = 0; c < d->nb_components; ++c)
    if (d->comp[c].depth != depth || d->comp[c].shift + depth > bits || d->comp[c].step < bits / 8) return false;
  return true;
}

// pal8 into gbrap: each index's colour from the palette (32-bit native ARGB).
bool paletteIntoPlanes(const AVFrame* from, AVFrame* to) {
  if (from->format != AV_PIX_FMT_PAL8 || to->format != AV_PIX_FMT_GBRAP || from->width != to->width ||
      from->height != to->height)
    return false;
  const auto* palette = reinterpret_cast<const std::uint32_t*>(from->data[1]);
  for (int y = 0; y < from->height; ++y) {
    const std::uint8_t* in = from->data[0] + static_cast<std::ptrdiff_t>(y) * from->linesize[0];
    std::uint8_t* row[4];
    for (int p = 0; p < 4; ++p) row[p] = to->data[p] + static_cast<std::ptrdiff_t>(y) * to->linesize[p];
    for (int x = 0; x < from->width; ++x) {
      const std::uint32_t argb = palette[in[x]];
      row[0][x] = static_cast<std::uint8_t>(argb >> 8);   // G
      row[1][x] = static_cast<std::uint8_t>(argb);        // B
      row[2][x] = static_cast<std::uint8_t>(argb >> 16);  // R
      row[3][x] = static_cast<std::uint8_t>(argb >> 24);  // A
    }
  }
  return true;
}

}  // namespace

bool repackExactly(const AVFrame* from, AVFrame* to) {
  if (paletteIntoPlanes(from, to)) return true;
  const AVPixFmtDescriptor* a = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(from->format));
  const AVPixFmtDescriptor* b = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(to->format));
  if (!a || !b || a->nb_components != b->nb_components || a->log2_chroma_w != b->log2_chroma_w ||
      a->log2_chroma_h != b->log2_chroma_h || (a->flags & AV_PIX_FMT_FLAG_RGB) != (b->flags & AV_PIX_FMT_FLAG_RGB) ||
      from->width != to->width || from->height != to->height)
    return false;
  const int depth = a->comp[0].depth, bytes = depth > 8 ? 2 : 1;
  if (!repackable(a, depth) || !repackable(b, depth)) return false;
  for (int c = 0; c < b->nb_components; ++c)
    if (b->comp[c].shift != 0) return false;  // written whole: no bits of another component beside it
  const bool yuv = !(a->flags & AV_PIX_FMT_FLAG_RGB) && a->nb_components >= 3;
  const bool bigEndian = b->flags & AV_PIX_FMT_FLAG_BE;
  for (int c = 0; c < a->nb_components; ++c) {
    const Sampled in{from, a->comp[c], (a->flags & AV_PIX_FMT_FLAG_BE) != 0, bytes};
    const AVComponentDescriptor& out = b->comp[c];
    const bool chroma = yuv && (c == 1 || c == 2);
    const int w = chroma ? AV_CEIL_RSHIFT(from->width, a->log2_chroma_w) : from->width;
    const int h = chroma ? AV_CEIL_RSHIFT(from->height, a->log2_chroma_h) : from->height;
    for (int y = 0; y < h; ++y) {
      std::uint8_t* dst = to->data[out.plane] + static_cast<std::ptrdiff_t>(y) * to->linesize[out.plane] + out.offset;
      for (int x = 0; x < w; ++x) {
        const unsigned v = in.at(x, y);
        if (bytes == 1) {
          dst[x * out.step] = static_cast<std::uint8_t>(v);
        } else {
          dst[x * out.step] = static_cast<std::uint8_t>(bigEndian ? v >> 8 : v);
          dst[x * out.step + 1] = static_cast<std::uint8_t>(bigEndian ? v : v >> 8);
        }
      }
    }
  }
  return true;
}

}  // namespace liveconv::media
