// Planes mode's two ends (`run --planes`): a decoded frame into the engine's
// plane images (Frame::planes) and the filtered planes back into a frame of
// the same pixel format, with no colour conversion in between.
//
// The planes are those of a planar format FFmpeg's `convolution` filter
// takes: every component on a plane of its own, 8 to 16 bits a sample in the
// host's byte order (yuv420p, yuv422p10le, yuv444p12le, gbrp, gray16le,
// yuva420p ...). A decoder's other formats become the nearest of these,
// without loss (nv12 -> yuv420p, p010le -> yuv420p10le, rgb24 -> gbrp,
// yuyv422 -> yuv422p); the full-range yuvj formats are their yuv twins (the
// range stays in the tags). 8-bit planes are GRAY8 images; deeper ones GRAY16
// with the samples moved to the top bits (a 10-bit v as v << 6), so the
// engine's saturation at 65535 is the format's largest value, and brought back
// rounded to nearest: (s + 2^(shift-1)) >> shift, at most 2^bits - 1.
#pragma once

#include <string>
#include <vector>

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>
}

#include "liveconv/image.hpp"
#include "liveconv/planes_channel.hpp"

namespace liveconv::media {

// True for the formats planes mode filters as they are.
bool isFilterablePlanar(AVPixelFormat format);
// The format planes mode hands frames of `format` on in: itself where
// filterable, else the nearest that is; AV_PIX_FMT_NONE where none keeps the
// samples (floats, bayer, hardware surfaces).
AVPixelFormat planarFormatFor(AVPixelFormat format);
// Each plane's size and engine format (GRAY8 or GRAY16) in a width x height
// frame of a filterable format.
std::vector<PlanesOptions::Plane> planesOf(AVPixelFormat format, int width, int height);
// What each plane of the format holds, in order: "Y, U, V", "G, B, R, A", "gray".
std::string planeNames(AVPixelFormat format);

// A frame of a filterable format into the engine's images (one per plane).
void copyIntoPlanes(const AVFrame* frame, std::vector<Image>* planes);
// The filtered images back into `frame` (allocated, of their format and size).
void copyFromPlanes(const std::vector<Image>& planes, AVFrame* frame);
// A frame into `to`, a frame of another layout of the same components,
// sampling and depth (rgba -> gbrap, p010le -> yuv420p10le, gbrap -> bgra,
// gbrp16le -> rgb48be; pal8 -> gbrap through its palette): the samples
// moved, none changed, where swscale's conversion between such formats is not
// always exact (an alpha plane into bgra came out 1 off). False, and nothing
// written, where the two differ otherwise.
bool repackExactly(const AVFrame* from, AVFrame* to);

}  // namespace liveconv::media
