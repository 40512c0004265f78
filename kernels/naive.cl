// naive.cl: the `naive` variant. One work-item per output pixel, every tap read
// from global memory with its border mapping, mask in __constant memory with
// its size as arguments (the tutorial's Convolve). The baseline every other
// variant is measured against.

__kernel void convolve_naive(__global const sample* src, int srcPitch, __global sample* dst, int dstPitch,
                             int width, int height, __constant float* mask, int maskW, int maskH,
                             float scale, float offset) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int rx = maskW / 2;
  const int ry = maskH / 2;
  pixf acc = (pixf)(0.0f);
  for (int j = 0; j < maskH; ++j) {
    for (int i = 0; i < maskW; ++i) {
      acc = fma((pixf)(mask[j * maskW + i]), load_bordered(src, srcPitch, x + i - rx, y + j - ry, width, height),
                acc);
    }
  }
  store_result(dst, dstPitch, src, srcPitch, x, y, acc, scale, offset);
}
