#!/usr/bin/env bash
# Builds the engine and bench with nothing but OpenCL (as gpu-bench.sh) and
# runs one `liveconv bench` per argument group given in $BENCH_RUNS (lines of
# bench arguments), appending everything to $OUT/explore.log. For comparing
# packets, workgroup shapes and variants on the GPU machine in one run.
set -uo pipefail
out="${OUT:-out}"
log="$out/explore.log"
# shellcheck source=scripts/gpu-build.sh
source "$(dirname "$0")/gpu-build.sh"
while IFS= read -r line; do
  [ -z "$line" ] && continue
  echo "\$ liveconv bench $line" | tee -a "$log"
  # shellcheck disable=SC2086
  "$bin" bench $line 2>&1 | tee -a "$log"
done <<<"${BENCH_RUNS:-}"
