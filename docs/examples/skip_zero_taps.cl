// skip_zero_taps.cl: a rung of your own, run as the variant `user`
// (liveconv run|bench --kernel-file skip_zero_taps.cl; docs/variants.md).
//
// `naive` with one change: a tap whose coefficient is zero is not read. A
// sparse mask (a motion blur along a diagonal, `motion45:7`, has 7 non-zero
// taps of 49) then reads and multiplies a seventh of what naive does, and the
// result is the same to the bit: fma(0, x, acc) is acc.
//
// common.cl comes before this text, with the build options every variant
// gets: CHANNELS (4 for rgba, 1 for gray), SAMPLE_BITS (8 or 16), BORDER,
// FILTER_ALPHA, LX and LY (the work-group shape). It gives `sample` (uchar or
// ushort, a value of the frame), `pixf` (float4 or float), load_bordered()
// (a pixel with the border rule applied) and store_result() (scale, offset,
// round half to even, saturate, and the centre's alpha where it is copied).

__kernel void convolve(__global const sample* src, int srcPitch, __global sample* dst, int dstPitch, int width,
                       int height, __constant float* mask, int maskW, int maskH, float scale, float offset) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  pixf acc = (pixf)(0.0f);
  for (int j = 0; j < maskH; ++j) {
    for (int i = 0; i < maskW; ++i) {
      const float m = mask[j * maskW + i];
      if (m == 0.0f) continue;
      acc = fma((pixf)(m), load_bordered(src, srcPitch, x + i - maskW / 2, y + j - maskH / 2, width, height), acc);
    }
  }
  store_result(dst, dstPitch, src, srcPitch, x, y, acc, scale, offset);
}
