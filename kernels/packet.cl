// packet.cl: `multi_pixel` and `baked` (the CUDA chapter's multi-output
// "packets" and hard-coded masks). Each work-item produces a block of
// BX x PY outputs: BX horizontally adjacent pixels (the packet of the
// chapter) in each of PY adjacent rows. The workgroup first copies its tile +
// halo to __local memory; then every tile row a work-item reads is used for
// up to min(PY, MH) output rows, and every value in it for up to BX outputs of
// that row, all held in private accumulators.
//
// The tile is planar: one float plane per channel that is filtered (R, G, B
// and, when alpha is filtered, A). A work-item reads the BX + MW - 1 values of
// a row from each plane with float4 loads: neighbouring work-items read
// neighbouring 16-byte words, so the reads are wide and free of bank
// conflicts, and one read feeds up to BX * MW multiply-adds. The samples are
// turned into floats once, while staging, with an exact bit trick instead of
// the (slow on GPUs) integer-to-float conversion. 8- and 16-bit samples take
// the same code: a pixel's samples are one integer (`packed`), four pixels one
// vector word, and the sample's width (SAMPLE_BITS) the shift between them.
//
// Build options: LX, LY, PX (outputs per work-item: BX = min(PX, 4),
// PY = PX / BX), MASK_W, MASK_H (always compiled in: the accumulators and the
// unrolled loops need them), UNROLL_ROWS (masks up to this many rows unroll
// the row loop completely; taller ones keep it as a loop to bound code size and
// compile time). BAKED: the program text defines baked_mask[] with the
// coefficients as literals and zero taps are dropped at compile time (the
// seed's 7x7 motion blur has 17 of 49).
// Local memory: PLANES * TILE_PITCH * TILE_H floats (see the defines below).
//
// The same kernel runs the two passes of `separable` (rank-1 masks
// m(i, j) = col[j] * row[i], the CUDA chapter's two 1-D passes):
// SEPARABLE_PASS=1 filters the frame with the W x 1 row taps into a
// planar float intermediate (no rounding between passes), SEPARABLE_PASS=2
// filters that with the 1 x H column taps into the frame's format. Pass 1
// applies the border rule along x, pass 2 along y, which for a separable mask
// equals applying it in 2-D. A float image is PLANES planes of `pitch` floats
// per row, `pitch` a multiple of 4, one plane after the other.

#define MW MASK_W
#define MH MASK_H
#if PX >= 4
#define BX 4
#else
#define BX PX
#endif
#define PY (PX / BX)

#if CHANNELS == 4 && FILTER_ALPHA
#define PLANES 4
#elif CHANNELS == 4
#define PLANES 3
#else
#define PLANES 1
#endif

// Tile geometry. Tile column 0 is HALO_L columns left of the workgroup's first
// output, HALO_L being the mask radius rounded up to whole 4-pixel words, so
// that the tile's words line up with the source's and can be staged with
// 16-byte loads and stores. A work-item's window then starts WINDOW columns
// into its block's words.
#define RX (MW / 2)
#define RY (MH / 2)
#define HALO_L ((RX + 3) / 4 * 4)
#define WINDOW (HALO_L - RX)
#define TILE_PITCH (LX * BX + (WINDOW + MW - 1 + 3) / 4 * 4)  // whole float4 words per row
#define TILE_WORDS (TILE_PITCH / 4)
#define TILE_H (LY * PY + MH - 1)
#define PLANE_SIZE (TILE_PITCH * TILE_H)
#define ROW_VALUES (WINDOW + BX + MW - 1)
#define ROW_WORDS ((ROW_VALUES + 3) / 4)

#ifndef SEPARABLE_PASS
#define SEPARABLE_PASS 0
#endif
#define IN_FLOAT (SEPARABLE_PASS == 2)
#define OUT_FLOAT (SEPARABLE_PASS == 1)

#ifndef UNROLL_ROWS
#define UNROLL_ROWS 15
#endif

#ifdef BAKED
#define COEF(i, j) baked_mask[(j) * MW + (i)]
#else
#define COEF(i, j) mask[(j) * MW + (i)]
#endif

// `packed`: the samples of one RGBA pixel, R in the low bits, or four gray
// samples; `packed4`: four RGBA pixels. ALPHA_BITS: a pixel's alpha in it.
#if SAMPLE_BITS == 16
typedef ulong packed;
typedef ulong4 packed4;
#else
typedef uint packed;
typedef uint4 packed4;
#endif
#define ALPHA_BITS ((packed)SAMPLE_MASK << (3 * SAMPLE_BITS))

// Sample s (0..65535) as float, exactly: 2^23 + s has s in its low mantissa bits.
inline float sample_to_float(uint s) { return as_float(0x4B000000u | s) - 8388608.0f; }
// Sample c of a packed value, and of four (one lane at a time: as fast on
// GPUs as the scalar code the 8-bit kernels had, where a vector form was 2-4 %
// slower at 15x15 on the H100).
#define SAMPLE_AT(p, c) sample_to_float((uint)(((p) >> ((c) * SAMPLE_BITS)) & SAMPLE_MASK))
#define SAMPLES_AT(p4, c) (float4)(SAMPLE_AT((p4).x, c), SAMPLE_AT((p4).y, c), SAMPLE_AT((p4).z, c), SAMPLE_AT((p4).w, c))

// The affine result as a sample, as convert_sample_sat_rte: clamp, then adding
// 2^23 rounds to the nearest integer, ties to even, into the low bits.
inline uint float_to_sample(float v) { return as_uint(clamp(v, 0.0f, SAMPLE_MAX) + 8388608.0f) & SAMPLE_MASK; }

// Stages pixel (x, y), mapped by the border rule, into tile position t.
inline void stage_pixel(__local float* tile, int t, __global const sample* src, int srcPitch, int x, int y,
                        int width, int height) {
  const int bx = border_index(x, width);
  const int by = border_index(y, height);
  if (bx < 0 || by < 0) {
    for (int c = 0; c < PLANES; ++c) tile[c * PLANE_SIZE + t] = 0.0f;
    return;
  }
  const int index = by * srcPitch + bx;
#if IN_FLOAT
  const int planeStride = srcPitch * height;
  for (int c = 0; c < PLANES; ++c) tile[c * PLANE_SIZE + t] = ((__global const float*)src)[c * planeStride + index];
#elif CHANNELS == 4
  const packed p = ((__global const packed*)src)[index];
  tile[t] = SAMPLE_AT(p, 0);
  tile[PLANE_SIZE + t] = SAMPLE_AT(p, 1);
  tile[2 * PLANE_SIZE + t] = SAMPLE_AT(p, 2);
#if PLANES == 4
  tile[3 * PLANE_SIZE + t] = SAMPLE_AT(p, 3);
#endif
#else
  tile[t] = sample_to_float(src[index]);
#endif
}

// Stages the 4 pixels of source word `word` (4-pixel aligned) into tile word t.
inline void stage_word(__local float4* tile4, int t, __global const sample* src, int word, int planeWords) {
#if IN_FLOAT
  for (int c = 0; c < PLANES; ++c) tile4[c * (PLANE_SIZE / 4) + t] = ((__global const float4*)src)[c * planeWords + word];
#elif CHANNELS == 4
  const packed4 p = ((__global const packed4*)src)[word];
  tile4[t] = SAMPLES_AT(p, 0);
  tile4[PLANE_SIZE / 4 + t] = SAMPLES_AT(p, 1);
  tile4[PLANE_SIZE / 2 + t] = SAMPLES_AT(p, 2);
#if PLANES == 4
  tile4[3 * PLANE_SIZE / 4 + t] = SAMPLES_AT(p, 3);
#endif
#else
  const packed p = ((__global const packed*)src)[word];
  tile4[t] = (float4)(SAMPLE_AT(p, 0), SAMPLE_AT(p, 1), SAMPLE_AT(p, 2), SAMPLE_AT(p, 3));
#endif
}

// Reads the ROW_VALUES values a work-item needs from one plane row into v[].
#if BX == 4
#define READ_ROW(v, rowPtr)                                             \
  {                                                                     \
    __local const float4* words = (__local const float4*)(rowPtr);      \
    _Pragma("unroll") for (int q = 0; q < ROW_WORDS; ++q) {             \
      const float4 w = words[q];                                        \
      v[4 * q] = w.x;                                                   \
      v[4 * q + 1] = w.y;                                               \
      v[4 * q + 2] = w.z;                                               \
      v[4 * q + 3] = w.w;                                               \
    }                                                                   \
  }
#else
#define READ_ROW(v, rowPtr) \
  { _Pragma("unroll") for (int q = WINDOW; q < ROW_VALUES; ++q) v[q] = (rowPtr)[q]; }
#endif

// Applies tile row r of this work-item's window (r = 0 .. PY + MH - 2) to the
// accumulators of output rows k in [K0, K1]: for each, mask row j = r - k.
// CHECK: test that j is a row of the mask (needed where r is not a constant).
#define APPLY_ROW(r, K0, K1, CHECK)                                                       \
  _Pragma("unroll") for (int c = 0; c < PLANES; ++c) {                                    \
    float v[4 * ROW_WORDS];                                                               \
    READ_ROW(v, tile + c * PLANE_SIZE + (ly * PY + (r)) * TILE_PITCH + lx * BX);           \
    _Pragma("unroll") for (int i = 0; i < MW; ++i) {                                      \
      _Pragma("unroll") for (int k = (K0); k <= (K1); ++k) {                              \
        const int j = (r) - k;                                                            \
        if (!(CHECK) || (j >= 0 && j < MH)) {                                             \
          const float m = COEF(i, j);                                                     \
          if (!BAKED_SKIP || m != 0.0f) {                                                 \
            _Pragma("unroll") for (int b = 0; b < BX; ++b) acc[k][b][c] = fma(m, v[WINDOW + b + i], acc[k][b][c]); \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }

#ifdef BAKED
#define BAKED_SKIP 1
#else
#define BAKED_SKIP 0
#endif

// The workgroup's tile staged, row-major over the whole workgroup so that
// consecutive work-items read consecutive source words. Most workgroups lie
// inside the image, and with rows of whole words (the usual case) copy 4
// pixels per 16-byte load; the others map each pixel through the border rule.
inline void stage_tile(__local float4* tileWords, __global const sample* src, int srcPitch, int originX, int originY,
                       int width, int height) {
  __local float* tile = (__local float*)tileWords;
  const int lid = get_local_id(1) * LX + get_local_id(0);
  if (originX >= 0 && originY >= 0 && originX + TILE_PITCH <= width && originY + TILE_H <= height &&
      (srcPitch & 3) == 0 && (originX & 3) == 0) {
    const int wordPitch = srcPitch / 4;
    const int originWord = originY * wordPitch + originX / 4;
    for (int t = lid; t < TILE_WORDS * TILE_H; t += LX * LY) {
      const int ty = t / TILE_WORDS;
      const int tw = t - ty * TILE_WORDS;
      stage_word(tileWords, t, src, originWord + ty * wordPitch + tw, wordPitch * height);
    }
  } else {
    for (int t = lid; t < TILE_PITCH * TILE_H; t += LX * LY) {
      const int ty = t / TILE_PITCH;
      const int tx = t - ty * TILE_PITCH;
      stage_pixel(tile, t, src, srcPitch, originX + tx, originY + ty, width, height);
    }
  }
}

// First separable pass: one plane's sums of row y, up to 4 from x0, as one
// 16-byte store where the row is whole words.
inline void store_sums(__global float* out, int dstPitch, int x0, int y, int width, bool wholeWords, float s0,
                       float s1, float s2, float s3) {
  if (wholeWords) {
    ((__global float4*)out)[(y * dstPitch + x0) / 4] = (float4)(s0, s1, s2, s3);
    return;
  }
  const float sums[4] = {s0, s1, s2, s3};
#pragma unroll
  for (int b = 0; b < BX; ++b)
    if (x0 + b < width) out[y * dstPitch + x0 + b] = sums[b];
}

// One result as its packed samples: R, G, B (and A where alpha is filtered;
// where it is copied, the centre's is merged in by store_pixels), or the gray sample.
#define RESULT_AT(p, c) ((packed)float_to_sample(fma(p[c], scale, offset)) << ((c) * SAMPLE_BITS))
#if CHANNELS == 4 && PLANES == 4
#define PIXEL_PACKED(p) (RESULT_AT(p, 0) | RESULT_AT(p, 1) | RESULT_AT(p, 2) | RESULT_AT(p, 3))
#elif CHANNELS == 4
#define PIXEL_PACKED(p) (RESULT_AT(p, 0) | RESULT_AT(p, 1) | RESULT_AT(p, 2))
#else
#define PIXEL_PACKED(p) RESULT_AT(p, 0)
#endif

// Row y's results from x0 (up to 4, as PIXEL_PACKED made them): one vector
// word (RGBA: 16 or 32 bytes) or one packed word of four (GRAY: 4 or 8 bytes)
// where the rows are whole words, else pixel by pixel; RGBA with alpha
// copied takes each pixel's alpha from alphaSrc.
inline void store_pixels(__global sample* dst, int dstPitch, __global const sample* alphaSrc, int alphaPitch,
                         int x0, int y, int width, bool wholeWords, packed p0, packed p1, packed p2, packed p3) {
#if CHANNELS == 4
  if (wholeWords) {
#if PLANES == 3
    const packed4 centre = ((__global const packed4*)alphaSrc)[(y * alphaPitch + x0) / 4] & ALPHA_BITS;
#else
    const packed4 centre = (packed4)(0);
#endif
    ((__global packed4*)dst)[(y * dstPitch + x0) / 4] = (packed4)(p0, p1, p2, p3) | centre;
    return;
  }
#else
  if (wholeWords) {
    ((__global packed*)dst)[(y * dstPitch + x0) / 4] =
        p0 | (p1 << SAMPLE_BITS) | (p2 << (2 * SAMPLE_BITS)) | (p3 << (3 * SAMPLE_BITS));
    return;
  }
#endif
  const packed pixels[4] = {p0, p1, p2, p3};
#pragma unroll
  for (int b = 0; b < BX; ++b) {
    const int x = x0 + b;
    if (x >= width) continue;
#if CHANNELS == 4 && PLANES == 3
    ((__global packed*)dst)[y * dstPitch + x] =
        pixels[b] | (((__global const packed*)alphaSrc)[y * alphaPitch + x] & ALPHA_BITS);
#elif CHANNELS == 4
    ((__global packed*)dst)[y * dstPitch + x] = pixels[b];
#else
    dst[y * dstPitch + x] = (sample)pixels[b];
#endif
  }
}

// Index b of a block's BX values, clamped to 0 where BX has fewer (those
// lanes of a whole-word store are never used: wholeWords needs BX == 4).
#define LANE(b) (BX > (b) ? (b) : 0)

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void convolve_packet(
    __global const sample* src, int srcPitch, __global sample* dst, int dstPitch, int width, int height,
    __constant float* mask, int maskW, int maskH, float scale, float offset, __local float4* tileWords,
    __global const sample* alphaSrc, int alphaPitch) {
  // alphaSrc: the RGBA frame whose centre alpha is copied when alpha is
  // not filtered (src itself, except in the second separable pass).
  // Declared as float4 so that the allocation is 16-byte aligned for the word reads.
  __local float* tile = (__local float*)tileWords;
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int groupX = get_group_id(0) * (LX * BX);
  const int groupY = get_group_id(1) * (LY * PY);
  const int originX = groupX - HALO_L;  // source column of tile column 0
  const int originY = groupY - RY;

  stage_tile(tileWords, src, srcPitch, originX, originY, width, height);
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x0 = groupX + lx * BX;
  const int y0 = groupY + ly * PY;
  if (x0 >= width || y0 >= height) return;

  float acc[PY][BX][PLANES];
#pragma unroll
  for (int k = 0; k < PY; ++k)
#pragma unroll
    for (int b = 0; b < BX; ++b)
#pragma unroll
      for (int c = 0; c < PLANES; ++c) acc[k][b][c] = 0.0f;

#if MH <= UNROLL_ROWS || MH < PY
  // Every index is a constant: coefficients become immediates or constant-bank
  // operands, and the row/output pairing is resolved at compile time.
#pragma unroll
  for (int r = 0; r < PY + MH - 1; ++r) APPLY_ROW(r, 0, PY - 1, 1)
#else
  // Ramp-up rows (fewer than PY outputs see them), the steady state where every
  // output row takes the tile row, and the ramp-down rows.
#pragma unroll
  for (int r = 0; r < PY - 1; ++r) APPLY_ROW(r, 0, PY - 1, 1)
  for (int r = PY - 1; r < MH; ++r) APPLY_ROW(r, 0, PY - 1, 0)
#pragma unroll
  for (int r = MH; r < PY + MH - 1; ++r) APPLY_ROW(r, 0, PY - 1, 1)
#endif

#if OUT_FLOAT
  // First separable pass: the sums themselves, a row of 4 as one 16-byte store per plane.
  const bool wholeWords = BX == 4 && x0 + 3 < width && (dstPitch & 3) == 0;
#pragma unroll
  for (int k = 0; k < PY; ++k) {
    const int y = y0 + k;
    if (y >= height) break;
#pragma unroll
    for (int c = 0; c < PLANES; ++c)
      store_sums((__global float*)dst + c * dstPitch * height, dstPitch, x0, y, width, wholeWords, acc[k][0][c],
                 acc[k][LANE(1)][c], acc[k][LANE(2)][c], acc[k][LANE(3)][c]);
  }
#else
  // Results as samples; a full row of 4 goes out as one word store where the
  // rows are whole words.
  const bool wholeWords = BX == 4 && x0 + 3 < width && (dstPitch & 3) == 0 && (alphaPitch & 3) == 0;
#pragma unroll
  for (int k = 0; k < PY; ++k) {
    const int y = y0 + k;
    if (y >= height) break;
    store_pixels(dst, dstPitch, alphaSrc, alphaPitch, x0, y, width, wholeWords, PIXEL_PACKED(acc[k][0]),
                 PIXEL_PACKED(acc[k][LANE(1)]), PIXEL_PACKED(acc[k][LANE(2)]), PIXEL_PACKED(acc[k][LANE(3)]));
  }
#endif
}
