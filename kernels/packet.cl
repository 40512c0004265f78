// packet.cl: `multi_pixel` and `baked` (the CUDA chapter's multi-output
// "packets" and hard-coded masks). Each work-item produces PX vertically
// adjacent outputs of one column. The workgroup first copies its tile + halo to
// __local memory; then every input row a work-item reads is used for up to
// min(PX, MH) outputs held in private accumulators, so each tile pixel is read
// from local memory (PX + MH - 1) / PX times per output instead of MH times.
// Packets run down a column rather than along a row so that neighbouring
// work-items read neighbouring local addresses (no bank conflicts).
//
// Build options: LX, LY, PX, MASK_W, MASK_H (always compiled in: the
// accumulators and the unrolled loops need them). BAKED: the program text
// defines baked_mask[] with the coefficients as literals and zero taps are
// dropped at compile time (the seed's 7x7 motion blur has 17 of 49).
// Local memory: (LX + MW - 1) * (LY * PX + MH - 1) pixf.

#define MW MASK_W
#define MH MASK_H

// With alpha copied from the source, RGBA needs three accumulators, not four:
// a quarter of the FMAs saved.
#if CHANNELS == 4 && !FILTER_ALPHA
typedef float3 accf;
#define ACC_OF(p) ((p).xyz)
#define TO_PIXF(a) ((float4)((a), 0.0f))
#else
typedef pixf accf;
#define ACC_OF(p) (p)
#define TO_PIXF(a) (a)
#endif
#ifdef BAKED
#define COEF(i, j) baked_mask[(j) * MW + (i)]
#else
#define COEF(i, j) mask[(j) * MW + (i)]
#endif

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_packet(
    __global const uchar* src, int srcPitch, __global uchar* dst, int dstPitch, int width, int height,
    __constant float* mask, int maskW, int maskH, float scale, float offset, __local pixf* tile) {
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int groupX = get_group_id(0) * LX;
  const int groupY = get_group_id(1) * LY * PX;
  const int tileW = LX + MW - 1;
  const int tileH = LY * PX + MH - 1;
  const int originX = groupX - MW / 2;
  const int originY = groupY - MH / 2;
  if (originX >= 0 && originY >= 0 && originX + tileW <= width && originY + tileH <= height) {
    // Most workgroups lie inside the image: no border mapping per pixel.
    for (int ty = ly; ty < tileH; ty += LY)
      for (int tx = lx; tx < tileW; tx += LX)
        tile[ty * tileW + tx] = LOAD_PIXEL(src, (originY + ty) * srcPitch + originX + tx);
  } else {
    for (int ty = ly; ty < tileH; ty += LY)
      for (int tx = lx; tx < tileW; tx += LX)
        tile[ty * tileW + tx] = load_bordered(src, srcPitch, originX + tx, originY + ty, width, height);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x = groupX + lx;
  const int y0 = groupY + ly * PX;
  if (x >= width || y0 >= height) return;

  accf acc[PX];
#pragma unroll
  for (int k = 0; k < PX; ++k) acc[k] = (accf)(0.0f);

  // Masks up to 15 rows unroll completely, so tap indices and zero tests are constants;
  // large ones keep the row loop to bound code size and compile time.
#if MH <= 15
#pragma unroll
#endif
  for (int r = 0; r < PX + MH - 1; ++r) {
    __local const pixf* row = tile + (ly * PX + r) * tileW + lx;
#pragma unroll
    for (int i = 0; i < MW; ++i) {
      const accf p = ACC_OF(row[i]);
#pragma unroll
      for (int k = 0; k < PX; ++k) {
        const int j = r - k;
        if (j >= 0 && j < MH) {
#ifdef BAKED
          if (COEF(i, j) != 0.0f)
#endif
            acc[k] = fma((accf)(COEF(i, j)), p, acc[k]);
        }
      }
    }
  }
#pragma unroll
  for (int k = 0; k < PX; ++k)
    if (y0 + k < height) store_result(dst, dstPitch, src, srcPitch, x, y0 + k, TO_PIXF(acc[k]), scale, offset);
}
