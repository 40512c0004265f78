// separable.cl: the `separable` variant, for rank-1 masks m(i, j) = col[j] * row[i]
// (the CUDA chapter's two 1-D passes). Pass 1 filters along rows into a float
// intermediate (one pixf per pixel, so no rounding between passes); pass 2
// filters that along columns and writes the 8-bit result. Each pass stages
// its strip plus halo in __local memory. A mask of W x H costs W + H taps per
// pixel instead of W * H. Borders: pass 1 applies the rule along x, pass 2 along
// y, which for a separable mask equals applying it in 2-D.
//
// Build options: LX, LY, PX (outputs per work-item in pass 2). Local memory:
// pass 1 (LX + W - 1) * LY pixf, pass 2 LX * (LY * PX + H - 1) pixf.

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_rows(
    __global const uchar* src, int srcPitch, __global pixf* mid, int midPitch, int width, int height,
    __constant float* taps, int tapCount, __local pixf* tile) {
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int groupX = get_group_id(0) * LX;
  const int y = get_group_id(1) * LY + ly;
  const int tileW = LX + tapCount - 1;
  if (y < height)
    for (int tx = lx; tx < tileW; tx += LX)
      tile[ly * tileW + tx] = load_bordered(src, srcPitch, groupX + tx - tapCount / 2, y, width, height);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = groupX + lx;
  if (x >= width || y >= height) return;
  pixf acc = (pixf)(0.0f);
  for (int i = 0; i < tapCount; ++i) acc = fma((pixf)(taps[i]), tile[ly * tileW + lx + i], acc);
  mid[y * midPitch + x] = acc;
}

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_cols(
    __global const pixf* mid, int midPitch, __global uchar* dst, int dstPitch, int width, int height,
    __constant float* taps, int tapCount, float scale, float offset, __global const uchar* src, int srcPitch,
    __local pixf* tile) {
  // Each work-item filters PX vertically adjacent outputs, so a workgroup
  // stages LY * PX rows plus the halo: the intermediate is re-read
  // (LY * PX + H - 1) / (LY * PX) times instead of (LY + H - 1) / LY.
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int x = get_group_id(0) * LX + lx;
  const int groupY = get_group_id(1) * LY * PX;
  const int tileH = LY * PX + tapCount - 1;
  if (x < width) {
    for (int ty = ly; ty < tileH; ty += LY) {
      const int sy = border_index(groupY + ty - tapCount / 2, height);
      tile[ty * LX + lx] = sy < 0 ? (pixf)(0.0f) : mid[sy * midPitch + x];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int y0 = groupY + ly * PX;
  if (x >= width || y0 >= height) return;
  pixf acc[PX];
#pragma unroll
  for (int k = 0; k < PX; ++k) acc[k] = (pixf)(0.0f);
  for (int r = 0; r < PX + tapCount - 1; ++r) {
    const pixf p = tile[(ly * PX + r) * LX + lx];
#pragma unroll
    for (int k = 0; k < PX; ++k) {
      const int j = r - k;
      if (j >= 0 && j < tapCount) acc[k] = fma((pixf)(taps[j]), p, acc[k]);
    }
  }
#pragma unroll
  for (int k = 0; k < PX; ++k)
    if (y0 + k < height) store_result(dst, dstPitch, src, srcPitch, x, y0 + k, acc[k], scale, offset);
}
