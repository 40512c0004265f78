// convert.cl: decoded frames (planes packed back to back without padding)
// into the engine's RGBA8 or GRAY8 (and, every bit of a source of 9 to 16
// bits kept, RGBA16 or GRAY16), before the convolution. A program of its own (common.cl
// is not prepended).
//
// Integer fixed point with 16 fractional bits, so the result is exactly that
// of the CPU reference convertYuvReference() in engine/src/pipeline_convert.cpp,
// which also computes the coefficients passed here (BT.601 or BT.709, limited
// or full range) and defines every layout (the numbers below are YuvLayout's).
// Chroma comes from the block the pixel lies in (2x2 for 4:2:0, 2x1 for 4:2:2).
// Into 8-bit formats deeper samples are rounded to 8 bits first; into 16-bit
// ones they keep their depth (the formula in liveconv/pipeline_convert.hpp).
// Packed RGB is copied; its gray is the BT.601 luma. Gray is RGB with R = G = B.
// Every entry point takes the depth last: the I4xxP16 layouts' significant
// bits (9..16); the other layouts have their own and ignore it.
//
// One work-item converts PIXELS_PER_ITEM pixels of a row (x =
// PIXELS_PER_ITEM * global id 0, y = global id 1; any global size covering
// ceil(width / PIXELS_PER_ITEM) x height, no local size is set). The host
// builds with 8 for a CPU device: eight values a vector, which it runs on its
// SIMD lanes (a 1080p yuv420p frame in about 1 ms on two cores against 15-17 with
// one pixel per work-item); and with 1 for a GPU, where neighbouring
// work-items then read and write neighbouring bytes (eight pixels a work-item
// took 6-7 times as long on an H200). Each layout has its own entry points,
// convert_<layout>_to_rgba, _to_gray, _to_rgba16 and _to_gray16, so that the
// compiler sees the layout as a constant. A row's last, partial group, packed
// RGB and gray, the layouts of more than 8 bits but yuv420p10le and p010le,
// and the 16-bit outputs go pixel by pixel.

#ifndef PIXELS_PER_ITEM
#define PIXELS_PER_ITEM 1
#endif

#define LAYOUT_I420 1
#define LAYOUT_NV12 2
#define LAYOUT_I422 3
#define LAYOUT_I444 4
#define LAYOUT_YUYV422 5
#define LAYOUT_UYVY422 6
#define LAYOUT_I420P10 7
#define LAYOUT_P010 8
#define LAYOUT_RGB24 9
#define LAYOUT_BGR24 10
#define LAYOUT_I422P10 11
#define LAYOUT_I444P10 12
#define LAYOUT_I420P16 13
#define LAYOUT_I422P16 14
#define LAYOUT_I444P16 15
#define LAYOUT_P016 16
#define LAYOUT_RGB48 17
#define LAYOUT_RGB48BE 18
#define LAYOUT_GRAY16 19
#define LAYOUT_GRAY16BE 20

inline uchar fixed_to_u8(int acc) {
  return (uchar)min(max(acc + 32768, 0) >> 16, 255);
}

// A sample of `bits` (9..16) rounded to 8 bits.
inline int to8(int v, int bits) {
  return min((v + (1 << (bits - 9))) >> (bits - 8), 255);
}

inline int sample16(__global const uchar* p, size_t index) {
  return (int)p[2 * index] | ((int)p[2 * index + 1] << 8);
}

inline int sample16be(__global const uchar* p, size_t index) {
  return ((int)p[2 * index] << 8) | (int)p[2 * index + 1];
}

// Packed RGB and gray: no matrix, no range.
inline int is_rgb(int layout) {
  return layout == LAYOUT_RGB24 || layout == LAYOUT_BGR24 || layout == LAYOUT_RGB48 || layout == LAYOUT_RGB48BE ||
         layout == LAYOUT_GRAY16 || layout == LAYOUT_GRAY16BE;
}

inline int subsampled_rows(int layout) {
  return layout == LAYOUT_I420 || layout == LAYOUT_NV12 || layout == LAYOUT_I420P10 || layout == LAYOUT_P010 ||
         layout == LAYOUT_I420P16 || layout == LAYOUT_P016;
}

inline int full_chroma(int layout) {
  return layout == LAYOUT_I444 || layout == LAYOUT_I444P10 || layout == LAYOUT_I444P16;
}

inline int deep_planar(int layout) {
  return layout == LAYOUT_I420P16 || layout == LAYOUT_I422P16 || layout == LAYOUT_I444P16;
}

// The depth of a sample: 10 for the 10-bit layouts, `bits` for the I4xxP16
// ones, 16 for the other 16-bit ones, else 8.
inline int layout_bits(int layout, int bits) {
  if (layout == LAYOUT_I420P10 || layout == LAYOUT_P010 || layout == LAYOUT_I422P10 || layout == LAYOUT_I444P10)
    return 10;
  if (deep_planar(layout)) return bits;
  return layout >= LAYOUT_P016 ? 16 : 8;
}

// The Y, U, V (or R, G, B) of pixel (x, y) at the layout's depth.
inline int3 load_raw(__global const uchar* p, int layout, int x, int y, int width, int height, int bits) {
  const size_t w = (size_t)width, h = (size_t)height;
  const size_t cw = full_chroma(layout) ? w : (w + 1) / 2;
  const size_t ch = subsampled_rows(layout) ? (h + 1) / 2 : h;
  const size_t luma = (size_t)y * w + x;
  const size_t k = (size_t)(subsampled_rows(layout) ? y / 2 : y) * cw + (full_chroma(layout) ? x : x / 2);
  switch (layout) {
    case LAYOUT_I420:
    case LAYOUT_I422:
    case LAYOUT_I444:
      return (int3)(p[luma], p[w * h + k], p[w * h + cw * ch + k]);
    case LAYOUT_NV12:
      return (int3)(p[luma], p[w * h + 2 * k], p[w * h + 2 * k + 1]);
    case LAYOUT_YUYV422: {
      __global const uchar* m = p + (size_t)y * 4 * cw + 4 * (size_t)(x / 2);
      return (int3)(m[2 * (x & 1)], m[1], m[3]);
    }
    case LAYOUT_UYVY422: {
      __global const uchar* m = p + (size_t)y * 4 * cw + 4 * (size_t)(x / 2);
      return (int3)(m[1 + 2 * (x & 1)], m[0], m[2]);
    }
    case LAYOUT_I420P10:
    case LAYOUT_I422P10:
    case LAYOUT_I444P10:
      return (int3)(sample16(p, luma) & 0x3ff, sample16(p, w * h + k) & 0x3ff, sample16(p, w * h + cw * ch + k) & 0x3ff);
    case LAYOUT_P010:
      return (int3)(sample16(p, luma) >> 6, sample16(p, w * h + 2 * k) >> 6, sample16(p, w * h + 2 * k + 1) >> 6);
    case LAYOUT_I420P16:
    case LAYOUT_I422P16:
    case LAYOUT_I444P16: {
      const int mask = (1 << bits) - 1;
      return (int3)(sample16(p, luma) & mask, sample16(p, w * h + k) & mask, sample16(p, w * h + cw * ch + k) & mask);
    }
    case LAYOUT_P016:
      return (int3)(sample16(p, luma), sample16(p, w * h + 2 * k), sample16(p, w * h + 2 * k + 1));
    case LAYOUT_RGB24:
      return (int3)(p[3 * luma], p[3 * luma + 1], p[3 * luma + 2]);
    case LAYOUT_BGR24:
      return (int3)(p[3 * luma + 2], p[3 * luma + 1], p[3 * luma]);
    case LAYOUT_RGB48:
      return (int3)(sample16(p, 3 * luma), sample16(p, 3 * luma + 1), sample16(p, 3 * luma + 2));
    case LAYOUT_RGB48BE:
      return (int3)(sample16be(p, 3 * luma), sample16be(p, 3 * luma + 1), sample16be(p, 3 * luma + 2));
    case LAYOUT_GRAY16:
      return (int3)(sample16(p, luma));
    case LAYOUT_GRAY16BE:
      return (int3)(sample16be(p, luma));
  }
  return (int3)(0);
}

// ... rounded to 8 bits.
inline int3 load_pixel(__global const uchar* p, int layout, int x, int y, int width, int height, int bits) {
  const int3 s = load_raw(p, layout, x, y, width, height, bits);
  const int d = layout_bits(layout, bits);
  return d > 8 ? min((s + (1 << (d - 9))) >> (d - 8), 255) : s;
}

// The Y of pixel (x, y) at the layout's depth (a YUV layout; a planar one may carry its Y plane alone).
inline int load_luma_raw(__global const uchar* p, int layout, int x, int y, int width, int bits) {
  const size_t luma = (size_t)y * width + x;
  switch (layout) {
    case LAYOUT_YUYV422:
      return p[(size_t)y * 4 * ((width + 1) / 2) + 2 * (size_t)x];
    case LAYOUT_UYVY422:
      return p[(size_t)y * 4 * ((width + 1) / 2) + 2 * (size_t)x + 1];
    case LAYOUT_I420P10:
    case LAYOUT_I422P10:
    case LAYOUT_I444P10:
      return sample16(p, luma) & 0x3ff;
    case LAYOUT_P010:
      return sample16(p, luma) >> 6;
    case LAYOUT_I420P16:
    case LAYOUT_I422P16:
    case LAYOUT_I444P16:
      return sample16(p, luma) & ((1 << bits) - 1);
    case LAYOUT_P016:
      return sample16(p, luma);
  }
  return p[luma];
}

// The layouts the eight-pixel path reads (the others go pixel by pixel).
inline int in_vectors(int layout) {
  return layout <= LAYOUT_P010 && !is_rgb(layout);
}

// Eight (four) 16-bit little-endian samples from p: loaded as they are on a
// little-endian device (a CPU's), from their bytes on another.
inline int8 samples8(__global const uchar* p) {
#ifdef __ENDIAN_LITTLE__
  return convert_int8(vload8(0, (__global const ushort*)p));
#else
  const uchar16 b = vload16(0, p);
  return convert_int8(b.even) | (convert_int8(b.odd) << 8);
#endif
}
inline int4 samples4(__global const uchar* p) {
#ifdef __ENDIAN_LITTLE__
  return convert_int4(vload4(0, (__global const ushort*)p));
#else
  const uchar8 b = vload8(0, p);
  return convert_int4(b.even) | (convert_int4(b.odd) << 8);
#endif
}
inline int8 to8_8(int8 v10) {
  return min((v10 + 2) >> 2, 255);
}
inline int4 to8_4(int4 v10) {
  return min((v10 + 2) >> 2, 255);
}
// One chroma sample per two pixels.
inline int8 twice(int4 c) {
  return (int8)(c.s0, c.s0, c.s1, c.s1, c.s2, c.s2, c.s3, c.s3);
}

// The Y of pixels x0..x0+7 of row y (a YUV layout; all eight inside the row).
inline int8 load_luma8(__global const uchar* p, int layout, int x0, int y, int width) {
  const size_t luma = (size_t)y * width + x0;
  switch (layout) {
    case LAYOUT_YUYV422:
    case LAYOUT_UYVY422: {
      const int16 m = convert_int16(vload16(0, p + (size_t)y * 4 * ((width + 1) / 2) + 2 * (size_t)x0));
      return layout == LAYOUT_YUYV422 ? m.even : m.odd;
    }
    case LAYOUT_I420P10:
      return to8_8(samples8(p + 2 * luma) & 0x3ff);
    case LAYOUT_P010:
      return to8_8(samples8(p + 2 * luma) >> 6);
  }
  return convert_int8(vload8(0, p + luma));
}

// The U and V of pixels x0..x0+7 (x0 even) of row y, a YUV layout.
inline void load_chroma8(__global const uchar* p, int layout, int x0, int y, int width, int height, int8* u,
                         int8* v) {
  const size_t w = (size_t)width, h = (size_t)height;
  const size_t cw = full_chroma(layout) ? w : (w + 1) / 2;
  const size_t ch = subsampled_rows(layout) ? (h + 1) / 2 : h;
  const size_t k = (size_t)(subsampled_rows(layout) ? y / 2 : y) * cw + (full_chroma(layout) ? x0 : x0 / 2);
  switch (layout) {
    case LAYOUT_I444:
      *u = convert_int8(vload8(0, p + w * h + k));
      *v = convert_int8(vload8(0, p + w * h + cw * ch + k));
      return;
    case LAYOUT_NV12: {
      const int8 c = convert_int8(vload8(0, p + w * h + 2 * k));
      *u = twice(c.even);
      *v = twice(c.odd);
      return;
    }
    case LAYOUT_YUYV422:
    case LAYOUT_UYVY422: {
      const int16 m = convert_int16(vload16(0, p + (size_t)y * 4 * cw + 2 * (size_t)x0));
      const int8 c = layout == LAYOUT_YUYV422 ? m.odd : m.even;  // U, V, U, V ...
      *u = twice(c.even);
      *v = twice(c.odd);
      return;
    }
    case LAYOUT_I420P10:
      *u = twice(to8_4(samples4(p + 2 * (w * h + k)) & 0x3ff));
      *v = twice(to8_4(samples4(p + 2 * (w * h + cw * ch + k)) & 0x3ff));
      return;
    case LAYOUT_P010: {
      const int8 c = to8_8(samples8(p + 2 * (w * h + 2 * k)) >> 6);
      *u = twice(c.even);
      *v = twice(c.odd);
      return;
    }
  }
  *u = twice(convert_int4(vload4(0, p + w * h + k)));  // I420, I422
  *v = twice(convert_int4(vload4(0, p + w * h + cw * ch + k)));
}

inline uchar8 fixed_to_u8_8(int8 acc) {
  return convert_uchar8_sat((acc + 32768) >> 16);
}

inline void convert_rgba(__global const uchar* src, int width, int height, int layout, int yOffset, int yScale, int rv,
                         int gu, int gv, int bu, __global uchar* dst, int dstPitchBytes, int bits) {
  const int x0 = get_global_id(0) * PIXELS_PER_ITEM, y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  __global uchar* out = dst + (size_t)y * dstPitchBytes + 4 * (size_t)x0;
#if PIXELS_PER_ITEM == 8
  if (x0 + 8 <= width && in_vectors(layout)) {
    int8 u, v;
    load_chroma8(src, layout, x0, y, width, height, &u, &v);
    const int8 yy = (load_luma8(src, layout, x0, y, width) - yOffset) * yScale;
    u -= 128;
    v -= 128;
    const uchar8 r = fixed_to_u8_8(yy + rv * v), g = fixed_to_u8_8(yy - gu * u - gv * v), b = fixed_to_u8_8(yy + bu * u);
#ifdef __ENDIAN_LITTLE__
    // Each pixel's four bytes as one word (R in its low byte): four times as
    // fast on PoCL as interleaving the bytes (1080p: 0.9 ms against 3-4 ms).
    vstore8(convert_uint8(r) | (convert_uint8(g) << 8) | (convert_uint8(b) << 16) | 0xff000000u, 0, (__global uint*)out);
#else
    vstore16((uchar16)(r.s0, g.s0, b.s0, 255, r.s1, g.s1, b.s1, 255, r.s2, g.s2, b.s2, 255, r.s3, g.s3, b.s3, 255), 0,
             out);
    vstore16((uchar16)(r.s4, g.s4, b.s4, 255, r.s5, g.s5, b.s5, 255, r.s6, g.s6, b.s6, 255, r.s7, g.s7, b.s7, 255), 0,
             out + 16);
#endif
    return;
  }
#endif
  for (int x = x0; x < min(x0 + PIXELS_PER_ITEM, width); ++x) {
    const int3 s = load_pixel(src, layout, x, y, width, height, bits);
    uchar4 rgba;
    if (is_rgb(layout)) {
      rgba = (uchar4)((uchar)s.x, (uchar)s.y, (uchar)s.z, (uchar)255);
    } else {
      const int yy = (s.x - yOffset) * yScale;
      const int u = s.y - 128, v = s.z - 128;
      rgba = (uchar4)(fixed_to_u8(yy + rv * v), fixed_to_u8(yy - gu * u - gv * v), fixed_to_u8(yy + bu * u), (uchar)255);
    }
    vstore4(rgba, x - x0, out);
  }
}

// GRAY8 takes Y alone, scaled to full range where the source is limited (a
// planar layout's frame may carry its Y plane only).
inline void convert_gray(__global const uchar* src, int width, int height, int layout, int yOffset, int yScale,
                         __global uchar* dst, int dstPitchBytes, int bits) {
  const int x0 = get_global_id(0) * PIXELS_PER_ITEM, y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  __global uchar* out = dst + (size_t)y * dstPitchBytes + x0;
#if PIXELS_PER_ITEM == 8
  if (x0 + 8 <= width && in_vectors(layout)) {
    vstore8(fixed_to_u8_8((load_luma8(src, layout, x0, y, width) - yOffset) * yScale), 0, out);
    return;
  }
#endif
  for (int x = x0; x < min(x0 + PIXELS_PER_ITEM, width); ++x) {
    uchar g;
    if (is_rgb(layout)) {
      const int3 s = load_pixel(src, layout, x, y, width, height, bits);
      g = (uchar)((19595 * s.x + 38470 * s.y + 7471 * s.z + 32768) >> 16);
    } else {
      const int raw = load_luma_raw(src, layout, x, y, width, bits), d = layout_bits(layout, bits);
      g = fixed_to_u8(((d > 8 ? to8(raw, d) : raw) - yOffset) * yScale);
    }
    out[x - x0] = g;
  }
}

// The sum at depth `bits` (16 fractional bits) as a 16-bit sample.
inline ushort fixed_to_u16(long acc, int bits) {
  return (ushort)clamp((acc * 257 + ((long)1 << (bits + 7))) >> (bits + 8), (long)0, (long)65535);
}

// RGBA16 and GRAY16: every bit of the samples (pixel by pixel; the engine's
// 16-bit frames are the host's byte order, as a little-endian device writes them).
inline void convert_rgba16(__global const uchar* src, int width, int height, int layout, int yOffset, int yScale,
                           int rv, int gu, int gv, int bu, __global uchar* dst, int dstPitchBytes, int depth) {
  const int x0 = get_global_id(0) * PIXELS_PER_ITEM, y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  __global ushort* out = (__global ushort*)(dst + (size_t)y * dstPitchBytes) + 4 * (size_t)x0;
  const int bits = layout_bits(layout, depth), centre = 128 << (bits - 8), scale = bits == 16 ? 1 : 257;
  for (int x = x0; x < min(x0 + PIXELS_PER_ITEM, width); ++x) {
    const int3 s = load_raw(src, layout, x, y, width, height, depth);
    ushort4 rgba;
    if (is_rgb(layout)) {  // 8 or 16 bits
      rgba = (ushort4)((ushort)(s.x * scale), (ushort)(s.y * scale), (ushort)(s.z * scale), (ushort)65535);
    } else {
      const long yy = (long)(s.x - (yOffset << (bits - 8))) * yScale;
      const long u = s.y - centre, v = s.z - centre;
      rgba = (ushort4)(fixed_to_u16(yy + rv * v, bits), fixed_to_u16(yy - gu * u - gv * v, bits),
                       fixed_to_u16(yy + bu * u, bits), (ushort)65535);
    }
    vstore4(rgba, x - x0, out);
  }
}

inline void convert_gray16(__global const uchar* src, int width, int height, int layout, int yOffset, int yScale,
                           __global uchar* dst, int dstPitchBytes, int depth) {
  const int x0 = get_global_id(0) * PIXELS_PER_ITEM, y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  __global ushort* out = (__global ushort*)(dst + (size_t)y * dstPitchBytes) + x0;
  const int bits = layout_bits(layout, depth), scale = bits == 16 ? 1 : 257;
  for (int x = x0; x < min(x0 + PIXELS_PER_ITEM, width); ++x) {
    if (is_rgb(layout)) {
      const int3 s = load_raw(src, layout, x, y, width, height, depth);
      out[x - x0] = (ushort)((((long)19595 * s.x + (long)38470 * s.y + (long)7471 * s.z) * scale + 32768) >> 16);
    } else {
      const int raw = load_luma_raw(src, layout, x, y, width, depth);
      out[x - x0] = fixed_to_u16((long)(raw - (yOffset << (bits - 8))) * yScale, bits);
    }
  }
}

#define CONVERT_ENTRY_POINTS(name, layout)                                                                         \
  __kernel void convert_##name##_to_rgba(__global const uchar* src, int width, int height, int yOffset, int yScale, \
                                         int rv, int gu, int gv, int bu, __global uchar* dst, int dstPitchBytes,    \
                                         int bits) {                                                                \
    convert_rgba(src, width, height, layout, yOffset, yScale, rv, gu, gv, bu, dst, dstPitchBytes, bits);          \
  }                                                                                                                \
  __kernel void convert_##name##_to_gray(__global const uchar* src, int width, int height, int yOffset, int yScale, \
                                         __global uchar* dst, int dstPitchBytes, int bits) {                        \
    convert_gray(src, width, height, layout, yOffset, yScale, dst, dstPitchBytes, bits);                           \
  }                                                                                                                \
  __kernel void convert_##name##_to_rgba16(__global const uchar* src, int width, int height, int yOffset,           \
                                           int yScale, int rv, int gu, int gv, int bu, __global uchar* dst,         \
                                           int dstPitchBytes, int bits) {                                           \
    convert_rgba16(src, width, height, layout, yOffset, yScale, rv, gu, gv, bu, dst, dstPitchBytes, bits);        \
  }                                                                                                                \
  __kernel void convert_##name##_to_gray16(__global const uchar* src, int width, int height, int yOffset,           \
                                           int yScale, __global uchar* dst, int dstPitchBytes, int bits) {          \
    convert_gray16(src, width, height, layout, yOffset, yScale, dst, dstPitchBytes, bits);                         \
  }

// Named as toString(YuvLayout) names the layouts (FFmpeg's pixel format names).
CONVERT_ENTRY_POINTS(yuv420p, LAYOUT_I420)
CONVERT_ENTRY_POINTS(nv12, LAYOUT_NV12)
CONVERT_ENTRY_POINTS(yuv422p, LAYOUT_I422)
CONVERT_ENTRY_POINTS(yuv444p, LAYOUT_I444)
CONVERT_ENTRY_POINTS(yuyv422, LAYOUT_YUYV422)
CONVERT_ENTRY_POINTS(uyvy422, LAYOUT_UYVY422)
CONVERT_ENTRY_POINTS(yuv420p10le, LAYOUT_I420P10)
CONVERT_ENTRY_POINTS(p010le, LAYOUT_P010)
CONVERT_ENTRY_POINTS(rgb24, LAYOUT_RGB24)
CONVERT_ENTRY_POINTS(bgr24, LAYOUT_BGR24)
CONVERT_ENTRY_POINTS(yuv422p10le, LAYOUT_I422P10)
CONVERT_ENTRY_POINTS(yuv444p10le, LAYOUT_I444P10)
CONVERT_ENTRY_POINTS(yuv420p16le, LAYOUT_I420P16)
CONVERT_ENTRY_POINTS(yuv422p16le, LAYOUT_I422P16)
CONVERT_ENTRY_POINTS(yuv444p16le, LAYOUT_I444P16)
CONVERT_ENTRY_POINTS(p016le, LAYOUT_P016)
CONVERT_ENTRY_POINTS(rgb48le, LAYOUT_RGB48)
CONVERT_ENTRY_POINTS(rgb48be, LAYOUT_RGB48BE)
CONVERT_ENTRY_POINTS(gray16le, LAYOUT_GRAY16)
CONVERT_ENTRY_POINTS(gray16be, LAYOUT_GRAY16BE)
