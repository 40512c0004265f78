// local.cl: the `local` and `unrolled` variants (seed chapter "OpenCL Case
// Study: Convolution"). A LX x LY workgroup copies its output tile plus a halo
// of the mask radius into __local memory cooperatively (each work-item copies
// several pixels), waits at a barrier, then each work-item computes one output
// from local memory. Unlike the seed, border pixels are produced too: the halo
// load applies the border rule, so every output pixel is written.
//
// Build options: LX, LY (the workgroup shape, required at launch);
// for `unrolled`, MASK_W and MASK_H make the loops fixed so the compiler
// unrolls them fully (one program per mask size).
// Local memory: (LX + maskW - 1) * (LY + maskH - 1) * sizeof(pixf).

#ifdef MASK_W
#define MW MASK_W
#define MH MASK_H
#define UNROLL _Pragma("unroll")
#else
#define MW maskW
#define MH maskH
#define UNROLL
#endif

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_local(
    __global const uchar* src, int srcPitch, __global uchar* dst, int dstPitch, int width, int height,
    __constant float* mask, int maskW, int maskH, float scale, float offset, __local pixf* tile) {
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int groupX = get_group_id(0) * LX;
  const int groupY = get_group_id(1) * LY;
  const int rx = MW / 2;
  const int ry = MH / 2;
  const int tileW = LX + MW - 1;
  const int tileH = LY + MH - 1;

  for (int ty = ly; ty < tileH; ty += LY) {
    for (int tx = lx; tx < tileW; tx += LX) {
      tile[ty * tileW + tx] = load_bordered(src, srcPitch, groupX + tx - rx, groupY + ty - ry, width, height);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x = groupX + lx;
  const int y = groupY + ly;
  if (x >= width || y >= height) return;

  pixf acc = (pixf)(0.0f);
  UNROLL
  for (int j = 0; j < MH; ++j) {
    UNROLL
    for (int i = 0; i < MW; ++i) {
      acc = fma((pixf)(mask[j * MW + i]), tile[(ly + j) * tileW + lx + i], acc);
    }
  }
  store_result(dst, dstPitch, src, srcPitch, x, y, acc, scale, offset);
}
