#!/usr/bin/env bash
# Builds the engine and bench with nothing but OpenCL (as gpu-bench.sh) and
# runs one `liveconv bench` per argument group given in $BENCH_RUNS (lines of
# bench arguments), appending everything to $OUT/explore.log. For comparing
# packets, workgroup shapes and variants on the GPU machine in one run.
set -uo pipefail
out="${OUT:-out}"
mkdir -p "$out"
log="$out/explore.log"
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DLIVECONV_WITH_MEDIA=OFF -DLIVECONV_WITH_GUI=OFF \
  -DLIVECONV_WITH_QT=OFF -DLIVECONV_BUILD_TESTS=OFF >"$out/build.log" 2>&1 &&
  cmake --build build-gpu -j "$(nproc)" >>"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export LIVECONV_TUNING_CACHE="$out/autotune.tsv"
while IFS= read -r line; do
  [ -z "$line" ] && continue
  echo "\$ liveconv bench $line" | tee -a "$log"
  # shellcheck disable=SC2086
  build-gpu/app/liveconv bench $line 2>&1 | tee -a "$log"
done <<<"${BENCH_RUNS:-}"
