// convert.cl: decoded frames (planes packed back to back without padding)
// into the engine's RGBA8 or GRAY8, before the convolution. A program of its
// own (common.cl is not prepended).
//
// Integer fixed point with 16 fractional bits, so the result is exactly that
// of the CPU reference convertYuvReference() in engine/src/pipeline_convert.cpp,
// which also computes the coefficients passed here (BT.601 or BT.709, limited
// or full range) and defines every layout (the numbers below are YuvLayout's).
// Chroma comes from the block the pixel lies in (2x2 for 4:2:0, 2x1 for 4:2:2).
// 10-bit samples are rounded to 8 bits first. Packed RGB is copied; its gray is
// the BT.601 luma. One work-item per output pixel; any global size (no local size is set).

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

inline uchar fixed_to_u8(int acc) {
  return (uchar)min(max(acc + 32768, 0) >> 16, 255);
}

inline int to8(int v10) {
  return min((v10 + 2) >> 2, 255);
}

inline int sample16(__global const uchar* p, size_t index) {
  return (int)p[2 * index] | ((int)p[2 * index + 1] << 8);
}

// The Y, U, V (or R, G, B) of pixel (x, y).
inline int3 load_pixel(__global const uchar* p, int layout, int x, int y, int width, int height) {
  const size_t w = (size_t)width, h = (size_t)height;
  const int subsampledRows = layout == LAYOUT_I420 || layout == LAYOUT_NV12 || layout == LAYOUT_I420P10 ||
                             layout == LAYOUT_P010;
  const size_t cw = layout == LAYOUT_I444 ? w : (w + 1) / 2;
  const size_t ch = subsampledRows ? (h + 1) / 2 : h;
  const size_t luma = (size_t)y * w + x;
  const size_t k = (size_t)(subsampledRows ? y / 2 : y) * cw + (layout == LAYOUT_I444 ? x : x / 2);
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
      return (int3)(to8(sample16(p, luma) & 0x3ff), to8(sample16(p, w * h + k) & 0x3ff),
                    to8(sample16(p, w * h + cw * ch + k) & 0x3ff));
    case LAYOUT_P010:
      return (int3)(to8(sample16(p, luma) >> 6), to8(sample16(p, w * h + 2 * k) >> 6),
                    to8(sample16(p, w * h + 2 * k + 1) >> 6));
    case LAYOUT_RGB24:
      return (int3)(p[3 * luma], p[3 * luma + 1], p[3 * luma + 2]);
    case LAYOUT_BGR24:
      return (int3)(p[3 * luma + 2], p[3 * luma + 1], p[3 * luma]);
  }
  return (int3)(0);
}

__kernel void convert_to_rgba(__global const uchar* src, int width, int height, int layout, int yOffset, int yScale,
                              int rv, int gu, int gv, int bu, __global uchar* dst, int dstPitchBytes) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int3 s = load_pixel(src, layout, x, y, width, height);
  uchar4 rgba;
  if (layout == LAYOUT_RGB24 || layout == LAYOUT_BGR24) {
    rgba = (uchar4)((uchar)s.x, (uchar)s.y, (uchar)s.z, (uchar)255);
  } else {
    const int yy = (s.x - yOffset) * yScale;
    const int u = s.y - 128, v = s.z - 128;
    rgba = (uchar4)(fixed_to_u8(yy + rv * v), fixed_to_u8(yy - gu * u - gv * v), fixed_to_u8(yy + bu * u), (uchar)255);
  }
  vstore4(rgba, 0, dst + (size_t)y * dstPitchBytes + 4 * (size_t)x);
}

// GRAY8 takes Y alone, scaled to full range where the source is limited.
__kernel void convert_to_gray(__global const uchar* src, int width, int height, int layout, int yOffset, int yScale,
                              __global uchar* dst, int dstPitchBytes) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int3 s = load_pixel(src, layout, x, y, width, height);
  uchar g;
  if (layout == LAYOUT_RGB24 || layout == LAYOUT_BGR24)
    g = (uchar)((19595 * s.x + 38470 * s.y + 7471 * s.z + 32768) >> 16);
  else
    g = fixed_to_u8((s.x - yOffset) * yScale);
  dst[(size_t)y * dstPitchBytes + x] = g;
}
