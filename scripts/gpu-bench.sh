#!/usr/bin/env bash
# Builds the engine and the bench with nothing but OpenCL and measures on the
# first NVIDIA device: correctness against the CPU reference at small sizes,
# then the tables of docs/benchmarks.md. Results go to $OUT (default ./out).
# Usage (on the GPU machine, from the repository root): scripts/gpu-bench.sh
set -uo pipefail
out="${OUT:-out}"
log="$out/gpu-bench.log"
# shellcheck source=scripts/gpu-build.sh
source "$(dirname "$0")/gpu-build.sh"
dev="${LIVECONV_GPU:-nvidia}"
run() { echo "\$ liveconv $*" | tee -a "$log"; "$bin" "$@" 2>&1 | tee -a "$log"; echo "exit ${PIPESTATUS[0]}" | tee -a "$log"; }

run devices
for border in mirror zero; do
  run bench --device "$dev" --masks 1,3,7,15,31,3x7,7x1 --sizes 333x201,1280x720 --format both --border "$border" \
    --runs 1 --warmup 0 --no-transfers --verify
done
run bench --device "$dev" --mask gaussian:31 --sizes 640x360 --format both --runs 1 --warmup 0 --no-transfers --verify
run bench --device "$dev" --masks 3,5,7,9,11,13,15,17,19,21,23,25,27,29,31 --sizes 3840x2160 --format rgba \
  --runs 20 --warmup 5 --json "$out/rgba_3840x2160.json"
run bench --device "$dev" --masks 3,5,7,9,11,13,15,17,19,21,23,25,27,29,31 --sizes 4096x4096 --format gray \
  --runs 20 --warmup 5 --no-transfers --json "$out/gray_4096x4096.json"
run bench --device "$dev" --mask gaussian:31 --sizes 3840x2160 --format rgba --runs 20 --warmup 5 \
  --json "$out/rgba_gaussian31.json"
# The stream path without FFmpeg: pinned in-memory 4K frames through upload, kernel and readback.
run bench --pipeline --device "$dev" --size 3840x2160 --frames 3000 --mask motion45:7
run bench --pipeline --device "$dev" --size 3840x2160 --frames 1000 --mask motion45:7 --no-pinned
