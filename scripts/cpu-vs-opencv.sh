#!/usr/bin/env bash
# One run, one machine: liveconv on the CPU OpenCL device (PoCL) against
# OpenCV's filter2D, on the same frame sizes and the same non-separable integer
# masks, each row measured by the two in turn. Frames are in host memory for
# both: liveconv's numbers include the upload and the readback (bench's
# "+xfer" column, variant auto); OpenCV filters a numpy frame into a
# preallocated one with all its threads. Medians after warm-up.
# Needs python3 with cv2 (Debian: python3-opencv; elsewhere opencv-python).
# Usage: [FORMATS=...] scripts/cpu-vs-opencv.sh [BIN] [SIZES] [MASKS]
#   BIN      the liveconv binary (default build/app/liveconv)
#   SIZES    comma list (default 1280x720,3840x2160)
#   MASKS    comma list of odd sides (default 3,7,15,31)
#   FORMATS  comma list of rgba, gray, rgba16, gray16 (default rgba,gray); the
#            16-bit ones are uint16 frames for OpenCV (CV_16U)
set -euo pipefail
bin="${1:-build/app/liveconv}"
sizes="${2:-1280x720,3840x2160}"
masks="${3:-3,7,15,31}"
runs="${RUNS:-10}"
warmup="${WARMUP:-3}"
formats="${FORMATS:-rgba,gray}"
py=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c "import cv2" 2>/dev/null; then py="$candidate"; break; fi
done
[ -n "$py" ] || { echo "cpu-vs-opencv.sh: no python3 with cv2 (install python3-opencv or opencv-python)." >&2; exit 1; }
[ -x "$bin" ] || { echo "cpu-vs-opencv.sh: no liveconv binary at $bin." >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "liveconv: $("$bin" --version | head -1); device: $("$bin" devices | grep -i cpu | head -1 | sed 's/^ *//')"
echo "OpenCV: $("$py" -c 'import cv2; print(cv2.__version__, "threads", cv2.getNumThreads())')"
echo "medians of $runs runs after $warmup warm-up; liveconv: variant auto, transfers included"
echo
printf "%-6s %-10s %-6s %-14s %12s %12s %7s\n" format size mask "liveconv ran" "liveconv Mp/s" "OpenCV Mp/s" ratio
for format in ${formats//,/ }; do
  for size in ${sizes//,/ }; do
    for m in ${masks//,/ }; do
      "$bin" bench --device cpu --variants auto --masks "$m" --sizes "$size" --format "$format" \
        --runs "$runs" --warmup "$warmup" --json "$tmp/l.json" >/dev/null
      read -r chosen lmp < <("$py" -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(r['chosen'] or r['variant'], r['transfer_mpix_s'])" "$tmp/l.json")
      omp=$("$py" - "$format" "$size" "$m" "$runs" "$warmup" <<'PY'
import sys, time, statistics
import numpy as np, cv2
fmt, size, side, runs, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
w, h = map(int, size.split('x'))
rng = np.random.default_rng(11)
wide = fmt.endswith('16')
src = rng.integers(0, 65536 if wide else 256, size=(h, w, 4) if fmt.startswith('rgba') else (h, w),
                   dtype=np.uint16 if wide else np.uint8)
dst = np.empty_like(src)
# The bench's non-separable integer mask: (i*7 + j*13 + i*j) % 9 + 1, normalised by its sum.
k = np.array([[(i * 7 + j * 13 + i * j) % 9 + 1 for i in range(side)] for j in range(side)], dtype=np.float32)
k /= k.sum()
times = []
for r in range(warmup + runs):
    t = time.perf_counter()
    cv2.filter2D(src, -1, k, dst=dst, borderType=cv2.BORDER_REPLICATE)
    if r >= warmup:
        times.append(time.perf_counter() - t)
print(w * h / statistics.median(times) / 1e6)
PY
)
      ratio=$("$py" -c "print(f'{float(\"$lmp\") / float(\"$omp\"):.2f}')")
      printf "%-6s %-10s %-6s %-14s %12.1f %12.1f %7s\n" "$format" "$size" "${m}x${m}" "$chosen" "$lmp" "$omp" "$ratio"
    done
  done
done
