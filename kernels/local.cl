// local.cl: the local-memory tiled variants of the seed chapter ("OpenCL Case
// Study: Convolution"): `local`, `local_aligned`, `unrolled`, `unroll4` and
// `local_vec4`. A LX x LY workgroup copies its output tile plus a halo of the
// mask radius into __local memory cooperatively (each work-item copies several
// pixels), waits at a barrier, then each work-item computes one output from
// local memory. Unlike the seed, border pixels are produced too: the halo load
// applies the border rule, so every output pixel is written.
//
// Build options: LX, LY (the workgroup shape, required at launch); MASK_W and
// MASK_H when the mask size is compiled in (`unrolled`: loops fully unrolled,
// one program per size). Local memory: (LX + maskW - 1) * (LY + maskH - 1) pixf.

#ifdef MASK_W
#define MW MASK_W
#define MH MASK_H
#else
#define MW maskW
#define MH maskH
#endif

// One pixel at a time, border rule on each (the seed's copy loop).
inline void load_tile(__local pixf* tile, __global const sample* src, int srcPitch, int width, int height,
                      int originX, int originY, int tileW, int tileH) {
  for (int ty = get_local_id(1); ty < tileH; ty += LY)
    for (int tx = get_local_id(0); tx < tileW; tx += LX)
      tile[ty * tileW + tx] = load_bordered(src, srcPitch, originX + tx, originY + ty, width, height);
}

#define LOCAL_PROLOGUE                                                            \
  const int lx = get_local_id(0);                                                 \
  const int ly = get_local_id(1);                                                 \
  const int groupX = get_group_id(0) * LX;                                        \
  const int groupY = get_group_id(1) * LY;                                        \
  const int tileW = LX + MW - 1;                                                  \
  const int tileH = LY + MH - 1;                                                  \
  const int x = groupX + lx;                                                      \
  const int y = groupY + ly;

// The tile loaded by the whole group; then only the work-items inside the
// frame go on.
#define LOAD_TILE_THEN_KEEP_INSIDE                                                           \
  load_tile(tile, src, srcPitch, width, height, groupX - MW / 2, groupY - MH / 2, tileW, tileH); \
  barrier(CLK_LOCAL_MEM_FENCE);                                                              \
  if (x >= width || y >= height) return;

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_local(
    __global const sample* src, int srcPitch, __global sample* dst, int dstPitch, int width, int height,
    __constant float* mask, int maskW, int maskH, float scale, float offset, __local pixf* tile) {
  LOCAL_PROLOGUE
  LOAD_TILE_THEN_KEEP_INSIDE

  pixf acc = (pixf)(0.0f);
#ifdef MASK_W
#pragma unroll
#endif
  for (int j = 0; j < MH; ++j) {
#ifdef MASK_W
#pragma unroll
#endif
    for (int i = 0; i < MW; ++i) acc = fma((pixf)(mask[j * MW + i]), tile[(ly + j) * tileW + lx + i], acc);
  }
  store_result(dst, dstPitch, src, srcPitch, x, y, acc, scale, offset);
}

// The tutorial's Convolve_UnrollIf: the inner loop by 4, the remainder (1 to 3
// taps) as straight-line code chosen by an if, not a second loop.
__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_unroll4(
    __global const sample* src, int srcPitch, __global sample* dst, int dstPitch, int width, int height,
    __constant float* mask, int maskW, int maskH, float scale, float offset, __local pixf* tile) {
  LOCAL_PROLOGUE
  LOAD_TILE_THEN_KEEP_INSIDE

  const int body = MW & ~3;
  const int rest = MW - body;
  pixf acc = (pixf)(0.0f);
  for (int j = 0; j < MH; ++j) {
    __constant const float* m = mask + j * MW;
    __local const pixf* t = tile + (ly + j) * tileW + lx;
    int i = 0;
    for (; i < body; i += 4) {
      acc = fma((pixf)(m[i]), t[i], acc);
      acc = fma((pixf)(m[i + 1]), t[i + 1], acc);
      acc = fma((pixf)(m[i + 2]), t[i + 2], acc);
      acc = fma((pixf)(m[i + 3]), t[i + 3], acc);
    }
    if (rest == 3) {
      acc = fma((pixf)(m[i]), t[i], acc);
      acc = fma((pixf)(m[i + 1]), t[i + 1], acc);
      acc = fma((pixf)(m[i + 2]), t[i + 2], acc);
    } else if (rest == 2) {
      acc = fma((pixf)(m[i]), t[i], acc);
      acc = fma((pixf)(m[i + 1]), t[i + 1], acc);
    } else if (rest == 1) {
      acc = fma((pixf)(m[i]), t[i], acc);
    }
  }
  store_result(dst, dstPitch, src, srcPitch, x, y, acc, scale, offset);
}

// The seed's convolution_read4: the tile is copied four pixels at a time with
// one vector load (sample16 for RGBA, sample4 for gray) wherever the four lie
// inside the image; chunks that touch the border fall back to per-pixel loads.
#if CHANNELS == 4
#define LOAD4(p, pixelIndex) vload16(0, (p) + 4 * (pixelIndex))
#define UNPACK4(v, k) convert_float4((k) == 0 ? (v).s0123 : (k) == 1 ? (v).s4567 : (k) == 2 ? (v).s89ab : (v).scdef)
#else
#define LOAD4(p, pixelIndex) vload4(0, (p) + (pixelIndex))
#define UNPACK4(v, k) convert_float((k) == 0 ? (v).s0 : (k) == 1 ? (v).s1 : (k) == 2 ? (v).s2 : (v).s3)
#endif

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_local_vec4(
    __global const sample* src, int srcPitch, __global sample* dst, int dstPitch, int width, int height,
    __constant float* mask, int maskW, int maskH, float scale, float offset, __local pixf* tile) {
  LOCAL_PROLOGUE
  const int originX = groupX - MW / 2;
  const int originY = groupY - MH / 2;
  const int chunks = (tileW + 3) / 4;
  for (int ty = ly; ty < tileH; ty += LY) {
    const int gy = originY + ty;
    const bool rowInside = gy >= 0 && gy < height;
    for (int c = lx; c < chunks; c += LX) {
      const int tx = 4 * c;
      const int gx = originX + tx;
      if (rowInside && gx >= 0 && gx + 3 < width && tx + 3 < tileW) {
#if CHANNELS == 4
        const sample16 v = LOAD4(src, gy * srcPitch + gx);
#else
        const sample4 v = LOAD4(src, gy * srcPitch + gx);
#endif
        tile[ty * tileW + tx] = UNPACK4(v, 0);
        tile[ty * tileW + tx + 1] = UNPACK4(v, 1);
        tile[ty * tileW + tx + 2] = UNPACK4(v, 2);
        tile[ty * tileW + tx + 3] = UNPACK4(v, 3);
      } else {
        for (int k = 0; k < 4 && tx + k < tileW; ++k)
          tile[ty * tileW + tx + k] = load_bordered(src, srcPitch, gx + k, gy, width, height);
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x >= width || y >= height) return;

  pixf acc = (pixf)(0.0f);
  for (int j = 0; j < MH; ++j)
    for (int i = 0; i < MW; ++i) acc = fma((pixf)(mask[j * MW + i]), tile[(ly + j) * tileW + lx + i], acc);
  store_result(dst, dstPitch, src, srcPitch, x, y, acc, scale, offset);
}
