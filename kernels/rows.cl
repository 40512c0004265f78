// rows.cl: `rows`, `rows_baked` and `rows_separable`, the variants for CPU devices (PoCL and
// the like), where a work-item is a loop on one core and its vectors are the
// core's SIMD registers. No __local tile, no barrier: the caches do that job.
//
// A work-item filters whole rows, PY of them (the packet), left to right in
// chunks of NV vectors of 16 values. A row of RGBA is treated as a row of
// samples: tap (i, j) of the value at e reads value e + (i - RX) * CHANNELS
// of source row y + j - RY, so the same 16-wide code serves every format (the
// alpha lanes are computed too and replaced by the centre alpha when alpha is
// copied). Each source row is loaded and converted once per chunk and applied
// to every one of the PY output rows it is a tap row of, which keeps the tap
// order of each output row-major, as the reference's.
//
// Borders are resolved once per source row (the row index) and once per chunk
// (the columns): chunks whose window lies inside the row read it with vector
// loads; the chunks at the two ends of a row copy their window through the
// border rule into private memory first and then run the same loop.
//
// Build options: MASK_W, MASK_H (else MAX_MASK_SIDE, the size taken at run time); PX (the packet: output rows per work-item); NV (16-value
// vectors per chunk); BAKED: the coefficients are literals (baked_mask[]) and
// zero taps are dropped at compile time; RANK1: `mask` holds the row taps and
// `columnTaps` the column taps of a rank-1 mask (unused otherwise).
// INT_ACC (with BAKED, 8-bit samples; 1: unsigned, 2: signed): the coefficients are integers
// (baked_mask_int[]) whose sums over any input fit 16 bits, so the taps are
// summed in 16-bit integer lanes, twice as many per SIMD register as floats
// and without the byte-to-float conversions; an integer sum converted to float
// is the float sum exactly (every partial sum is an integer below 2^24), so
// the results are the same bits as the float path's.
// streamStores (argument): write results past the caches (a large frame).

#ifndef RANK1
#define RANK1 0
#endif

#define PY PX
#ifndef NV
#define NV 2
#endif
// The mask's size: compiled in (rows_baked, rows_separable), or taken at run
// time (rows: one program serves every mask, so a new size needs no compile),
// with the private arrays sized for the largest mask (MAX_MASK_SIDE).
#ifdef MASK_W
#define MW MASK_W
#define MH MASK_H
#define MW_MAX MASK_W
#define MH_MAX MASK_H
#else
#define MW maskW
#define MH maskH
#define MW_MAX MAX_MASK_SIDE
#define MH_MAX MAX_MASK_SIDE
#endif
#define RX (MW / 2)
#define RY (MH / 2)
#define CHUNK (NV * 16)
// Values a chunk's window spans, and that rounded up to whole vectors.
#define WIN (CHUNK + (MW - 1) * CHANNELS)
#define WIN_VECTORS ((WIN + 15) / 16)
#define WIN_VECTORS_MAX ((CHUNK + (MW_MAX - 1) * CHANNELS + 15) / 16)

#ifndef INT_ACC
#define INT_ACC 0
#endif

#if INT_ACC
#define COEF(i, j) baked_mask_int[(j) * MW + (i)]
#define SKIP_ZERO 1
#elif defined(BAKED)
#define COEF(i, j) baked_mask[(j) * MW + (i)]
#define SKIP_ZERO 1
#else
#define COEF(i, j) mask[(j) * MW + (i)]
#define SKIP_ZERO 0
#endif

// The accumulator lanes: acc16 (16 sums), its scalar, the window's element,
// TO_ACC (16 source bytes to lanes) and MAC (acc + coefficient * values).
#if INT_ACC == 1
typedef ushort16 acc16;
typedef ushort acc1;
#define TO_ACC convert_ushort16
#elif INT_ACC == 2
typedef short16 acc16;
typedef short acc1;
#define TO_ACC convert_short16
#else
typedef float16 acc16;
typedef float acc1;
#define TO_ACC convert_float16
#endif
#if INT_ACC
#define MAC(m, v, a) ((a) + (acc16)(m) * (v))
#else
#define MAC(m, v, a) fma((float16)(m), (v), (a))
#endif

// Applies one source row, r rows below the first tap row of output row 0, to
// the accumulators of every output row k it is tap row j = r - k of. LOAD(o)
// gives the 16 values at window offset o as float16.
#define APPLY_SOURCE_ROW(LOAD)                                               \
  for (int i = 0; i < MW; ++i) {                                            \
    acc16 v[NV];                                                            \
    _Pragma("unroll") for (int n = 0; n < NV; ++n) v[n] = LOAD(n * 16 + i * CHANNELS); \
    _Pragma("unroll") for (int k = 0; k < PY; ++k) {                        \
      const int j = r - k;                                                  \
      if (j >= 0 && j < MH) {                                               \
        const acc1 m = COEF(i, j);                                          \
        if (!SKIP_ZERO || m != 0) {                                         \
          _Pragma("unroll") for (int n = 0; n < NV; ++n) acc[k][n] = MAC(m, v[n], acc[k][n]); \
        }                                                                   \
      }                                                                     \
    }                                                                       \
  }

// rows_separable (RANK1): a rank-1 mask m(i, j) = column[j] * row[i]. Each
// source row is filtered by the row taps once per chunk, and that sum goes to
// every output row it is a tap row of, times the column tap: W + H taps per
// output where the loop above takes W x H; the same sums, in the same order,
// as the two passes of `separable`.
#define APPLY_SOURCE_ROW_RANK1(LOAD)                                         \
  {                                                                         \
    float16 h[NV];                                                          \
    _Pragma("unroll") for (int n = 0; n < NV; ++n) h[n] = (float16)(0.0f);  \
    for (int i = 0; i < MW; ++i) {                                          \
      const float m = mask[i];                                              \
      _Pragma("unroll") for (int n = 0; n < NV; ++n) h[n] = fma((float16)(m), LOAD(n * 16 + i * CHANNELS), h[n]); \
    }                                                                       \
    _Pragma("unroll") for (int k = 0; k < PY; ++k) {                        \
      const int j = r - k;                                                  \
      if (j >= 0 && j < MH) {                                               \
        const float m = columnTaps[j];                                      \
        _Pragma("unroll") for (int n = 0; n < NV; ++n) acc[k][n] = fma((float16)(m), h[n], acc[k][n]); \
      }                                                                     \
    }                                                                       \
  }

#if RANK1
#undef APPLY_SOURCE_ROW
#define APPLY_SOURCE_ROW APPLY_SOURCE_ROW_RANK1
#endif

// Vector loads and stores. vload16/vstore16 take any address, and some CPU
// compilers split them into single bytes; a dereference of a vector type with
// the alignment lowered to its element's is one unaligned load (clang's
// typedef rule), and an aligned store is one store.
#ifdef __clang__
typedef sample16 __attribute__((aligned(sizeof(sample)))) sample16_any;
typedef acc16 __attribute__((aligned(sizeof(acc1)))) acc16_any;
#define LOAD_SOURCE(o) TO_ACC(*(__global const sample16_any*)(base + (o)))
#define LOAD_WINDOW(o) (*(const acc16_any*)(window + (o)))
#else
#define LOAD_SOURCE(o) TO_ACC(vload16(0, base + (o)))
#define LOAD_WINDOW(o) vload16(0, window + (o))
#endif
#if defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define HAVE_STREAMING_STORE 1
#endif
#endif

// Stores 16 result samples. `stream`: the frame is larger than the caches hold,
// so the samples go to memory without first reading the lines they replace.
inline void store16(sample16 v, __global sample* to, int stream) {
  if ((((size_t)to) & (sizeof(sample16) - 1)) == 0) {
#ifdef HAVE_STREAMING_STORE
    if (stream) {
      __builtin_nontemporal_store(v, (__global sample16*)to);
      return;
    }
#endif
    *(__global sample16*)to = v;
  } else {
    vstore16(v, 0, to);
  }
}

__kernel void convolve_rows(__global const sample* src, int srcPitch, __global sample* dst, int dstPitch, int width,
                            int height, __constant float* mask, int maskW, int maskH, float scale, float offset,
                            __constant float* columnTaps, int streamStores) {
  const int y0 = get_global_id(1) * PY;
  if (get_global_id(0) != 0 || y0 >= height) return;
  const int rowValues = width * CHANNELS;
  const int srcRow = srcPitch * CHANNELS;  // pitches are in pixels
  const int dstRow = dstPitch * CHANNELS;

  // The source row of each tap row r (-1: a zero-border row, contributes nothing).
  int sourceRow[PY + MH_MAX - 1];
  for (int r = 0; r < PY + MH - 1; ++r) sourceRow[r] = border_index(y0 + r - RY, height);

  for (int e0 = 0; e0 < rowValues; e0 += CHUNK) {
    acc16 acc[PY][NV];
#pragma unroll
    for (int k = 0; k < PY; ++k)
#pragma unroll
      for (int n = 0; n < NV; ++n) acc[k][n] = (acc16)(0);

    const int left = e0 - RX * CHANNELS;  // the value at window offset 0
    if (left >= 0 && left + WIN <= rowValues) {
      for (int r = 0; r < PY + MH - 1; ++r) {
        if (sourceRow[r] < 0) continue;
        __global const sample* base = src + sourceRow[r] * srcRow + left;
        APPLY_SOURCE_ROW(LOAD_SOURCE)
      }
    } else {
      acc1 window[WIN_VECTORS_MAX * 16];
      for (int r = 0; r < PY + MH - 1; ++r) {
        if (sourceRow[r] < 0) continue;
        __global const sample* row = src + sourceRow[r] * srcRow;
        for (int o = 0; o < WIN_VECTORS * 16; ++o) {
          const int value = left + o;  // may lie outside the row: mapped by pixel, channel kept
          const int pixel = (value >= 0 ? value : value - (CHANNELS - 1)) / CHANNELS;
          const int channel = value - pixel * CHANNELS;
          const int x = border_index(pixel, width);
          window[o] = x < 0 ? (acc1)(0) : (acc1)(row[x * CHANNELS + channel]);
        }
        APPLY_SOURCE_ROW(LOAD_WINDOW)
      }
    }

    // Results: the affine map, rounded half to even and saturated (as
    // convert_sample_sat_rte, by the 2^23 trick), 16 samples per store.
    for (int k = 0; k < PY && y0 + k < height; ++k) {
      const int y = y0 + k;
      for (int n = 0; n < NV && e0 + n * 16 < rowValues; ++n) {
        const int e = e0 + n * 16;
        const float16 value =
            clamp(fma(convert_float16(acc[k][n]), (float16)(scale), (float16)(offset)), 0.0f, SAMPLE_MAX);
        sample16 out = convert_sample16(as_uint16(value + 8388608.0f) & SAMPLE_MASK);
#if CHANNELS == 4 && !FILTER_ALPHA
        const sample m = (sample)SAMPLE_MASK;
        const sample16 alphaLanes = (sample16)(0, 0, 0, m, 0, 0, 0, m, 0, 0, 0, m, 0, 0, 0, m);
        const int centre = y * srcRow + e;
        if (e + 16 <= rowValues) {
          out = bitselect(out, vload16(0, src + centre), alphaLanes);
        } else {
          for (int q = 3; e + q < rowValues; q += 4) ((sample*)&out)[q] = src[centre + q];
        }
#endif
        if (e + 16 <= rowValues) {
          store16(out, dst + y * dstRow + e, streamStores);
        } else {
          for (int q = 0; e + q < rowValues; ++q) dst[y * dstRow + e + q] = ((sample*)&out)[q];
        }
      }
    }
  }
}
