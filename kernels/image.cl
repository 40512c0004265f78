// image.cl: the `image` variant (the texture path of the seeds). The input is
// an image2d_t of unsigned 8- or 16-bit integers read through a sampler, so the
// sampler's addressing mode does the border: CLAMP_TO_EDGE for clamp, CLAMP
// (border colour 0) for zero, REPEAT for wrap and MIRRORED_REPEAT for mirror;
// the last two need normalized coordinates, taken at pixel centres. Integer
// reads (read_imageui) keep the values exact; UNORM reads would scale by 1/255 or 1/65535.
// Mask in __constant memory with its size as arguments.

#if BORDER == BORDER_CLAMP
#define SAMPLER_FLAGS (CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST)
#define NORMALIZED 0
#elif BORDER == BORDER_ZERO
#define SAMPLER_FLAGS (CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST)
#define NORMALIZED 0
#elif BORDER == BORDER_WRAP
#define SAMPLER_FLAGS (CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST)
#define NORMALIZED 1
#else
#define SAMPLER_FLAGS (CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST)
#define NORMALIZED 1
#endif

__constant sampler_t kSampler = SAMPLER_FLAGS;

inline uint4 fetch(__read_only image2d_t img, int x, int y, float2 inverseSize) {
#if NORMALIZED
  return read_imageui(img, kSampler, ((float2)(x, y) + 0.5f) * inverseSize);
#else
  return read_imageui(img, kSampler, (int2)(x, y));
#endif
}

__kernel void convolve_image(__read_only image2d_t src, int unusedPitch, __global sample* dst, int dstPitch,
                             int width, int height, __constant float* mask, int maskW, int maskH, float scale,
                             float offset) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const float2 inverseSize = (float2)(1.0f / width, 1.0f / height);
  const int rx = maskW / 2;
  const int ry = maskH / 2;
  pixf acc = (pixf)(0.0f);
  for (int j = 0; j < maskH; ++j) {
    for (int i = 0; i < maskW; ++i) {
      const uint4 v = fetch(src, x + i - rx, y + j - ry, inverseSize);
#if CHANNELS == 4
      acc = fma((pixf)(mask[j * maskW + i]), convert_float4(v), acc);
#else
      acc = fma(mask[j * maskW + i], (float)v.x, acc);
#endif
    }
  }
  const sample alpha = (sample)fetch(src, x, y, inverseSize).w;
  store_pixel(dst, dstPitch, x, y, acc, scale, offset, alpha);
}
