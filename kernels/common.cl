// common.cl: prepended to every variant's source.
//
// Build options the host sets (engine/src/convolver.cpp):
//   CHANNELS     4 for RGBA (one float4 accumulator), 1 for gray
//   SAMPLE_BITS  8 (RGBA8, GRAY8) or 16 (RGBA16, GRAY16); 8 when not set
//   BORDER       one of the BORDER_* values below (engine BorderMode)
//   FILTER_ALPHA 1: alpha is filtered like colour; 0: alpha of the centre pixel is copied
// Images are rows of `sample` (uchar or ushort) `pitch` PIXELS apart. The
// result of every variant is
//   out = convert_sat_rte(fma(acc, scale, offset))
// with acc accumulated in float in row-major tap order, exactly as the CPU
// reference (engine/src/reference.cpp) defines it.
//
// The element type is the one thing that differs between the depths; the
// kernels name it through these:
//   sample, sample4, sample16    uchar or ushort and their vectors
//   SAMPLE_MAX, SAMPLE_MASK      255.0f / 0xFF or 65535.0f / 0xFFFF
//   convert_sample*_sat_rte      convert_uchar*_sat_rte or convert_ushort*_sat_rte

#ifndef SAMPLE_BITS
#define SAMPLE_BITS 8
#endif
#if SAMPLE_BITS == 16
typedef ushort sample;
typedef ushort4 sample4;
typedef ushort16 sample16;
#define SAMPLE_MAX 65535.0f
#define SAMPLE_MASK 0xFFFFu
#define convert_sample_sat_rte convert_ushort_sat_rte
#define convert_sample4_sat_rte convert_ushort4_sat_rte
#define convert_sample16 convert_ushort16
#else
typedef uchar sample;
typedef uchar4 sample4;
typedef uchar16 sample16;
#define SAMPLE_MAX 255.0f
#define SAMPLE_MASK 0xFFu
#define convert_sample_sat_rte convert_uchar_sat_rte
#define convert_sample4_sat_rte convert_uchar4_sat_rte
#define convert_sample16 convert_uchar16
#endif

#define BORDER_CLAMP 1
#define BORDER_MIRROR 2
#define BORDER_WRAP 3
#define BORDER_ZERO 4

#if CHANNELS == 4
typedef float4 pixf;
#define LOAD_PIXEL(p, index) convert_float4(vload4((index), (p)))
#else
typedef float pixf;
#define LOAD_PIXEL(p, index) convert_float((p)[(index)])
#endif

// Maps coordinate i into [0, n); -1 means "outside, reads as zero". Valid for
// any offset, so images smaller than the mask work too.
inline int border_index(int i, int n) {
#if BORDER == BORDER_CLAMP
  return clamp(i, 0, n - 1);
#elif BORDER == BORDER_MIRROR
  const int period = 2 * n;
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - 1 - i;
#elif BORDER == BORDER_WRAP
  i %= n;
  return i < 0 ? i + n : i;
#elif BORDER == BORDER_ZERO
  return (i < 0 || i >= n) ? -1 : i;
#else
#error "BORDER must be set"
#endif
}

// Reads pixel (x, y) with the border rule applied.
inline pixf load_bordered(__global const sample* src, int pitch, int x, int y, int width, int height) {
  const int bx = border_index(x, width);
  const int by = border_index(y, height);
#if BORDER == BORDER_ZERO
  if (bx < 0 || by < 0) return (pixf)(0.0f);
#endif
  return LOAD_PIXEL(src, by * pitch + bx);
}

// Writes one output pixel: the affine map, round half to even, saturate.
// `centreAlpha` is the input alpha of this pixel, copied when alpha is not filtered.
inline void store_pixel(__global sample* dst, int dstPitch, int x, int y, pixf acc, float scale, float offset,
                        sample centreAlpha) {
  const pixf value = fma(acc, (pixf)(scale), (pixf)(offset));
#if CHANNELS == 4
  sample4 out = convert_sample4_sat_rte(value);
#if !FILTER_ALPHA
  out.w = centreAlpha;
#endif
  vstore4(out, y * dstPitch + x, dst);
#else
  dst[y * dstPitch + x] = convert_sample_sat_rte(value);
#endif
}

// store_pixel for kernels that read the source from a buffer.
inline void store_result(__global sample* dst, int dstPitch, __global const sample* src, int srcPitch, int x,
                         int y, pixf acc, float scale, float offset) {
#if CHANNELS == 4
  const sample alpha = src[4 * (y * srcPitch + x) + 3];
#else
  const sample alpha = 0;
#endif
  store_pixel(dst, dstPitch, x, y, acc, scale, offset, alpha);
}
