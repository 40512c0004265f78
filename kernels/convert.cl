// convert.cl: decoded 4:2:0 frames (yuv420p or nv12, planes packed back to
// back without padding) into the engine's RGBA8 or GRAY8, before the
// convolution. A program of its own (common.cl is not prepended).
//
// Integer fixed point with 16 fractional bits, so the result is exactly that
// of the CPU reference convertYuvReference() in engine/src/pipeline_convert.cpp,
// which also computes the coefficients passed here (BT.601 or BT.709, limited
// or full range). Chroma comes from the 2x2 block the pixel lies in.
// One work-item per output pixel; any global size (no local size is set).

inline uchar fixed_to_u8(int acc) {
  return (uchar)min(max(acc + 32768, 0) >> 16, 255);
}

// src: Y (width*height), then U and V planes (I420, nv12 == 0) or one
// interleaved UV plane (nv12 == 1), chroma ceil(width/2) x ceil(height/2).
__kernel void yuv420_to_rgba(__global const uchar* src, int width, int height, int nv12, int yOffset, int yScale,
                             int rv, int gu, int gv, int bu, __global uchar* dst, int dstPitchBytes) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int cw = (width + 1) >> 1, ch = (height + 1) >> 1;
  const int cx = x >> 1, cy = y >> 1;
  const __global uchar* chroma = src + width * height;
  int u, v;
  if (nv12) {
    const int k = 2 * (cy * cw + cx);
    u = chroma[k];
    v = chroma[k + 1];
  } else {
    u = chroma[cy * cw + cx];
    v = chroma[cw * ch + cy * cw + cx];
  }
  u -= 128;
  v -= 128;
  const int yy = ((int)src[y * width + x] - yOffset) * yScale;
  const uchar4 rgba = (uchar4)(fixed_to_u8(yy + rv * v), fixed_to_u8(yy - gu * u - gv * v), fixed_to_u8(yy + bu * u),
                               (uchar)255);
  vstore4(rgba, 0, dst + y * dstPitchBytes + 4 * x);
}

// GRAY8 takes Y alone, scaled to full range where the source is limited.
__kernel void yuv420_to_gray(__global const uchar* src, int width, int height, int yOffset, int yScale,
                             __global uchar* dst, int dstPitchBytes) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  dst[y * dstPitchBytes + x] = fixed_to_u8(((int)src[y * width + x] - yOffset) * yScale);
}
