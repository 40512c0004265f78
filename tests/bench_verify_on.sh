#!/bin/sh
# bench_verify_on.sh IMPLEMENTATION LIVECONV [FORMAT [MASKS [VARIANTS]]]:
# `liveconv bench --verify` of VARIANTS (comma-separated; default every variant
# but auto) on the device $LIVECONV_DEVICE selects, in FORMAT (rgba, gray or
# both; default both), masks MASKS (default 1,3,7,15: 1x1 to 15x15) at a size
# that is no tile multiple. Exit 77 (SKIP) when the implementation's ICD file
# is not installed; a failure when it is but has no device.
implementation=$1
liveconv=$2
format=${3:-both}
masks=${4:-1,3,7,15}
icd=/etc/OpenCL/vendors/$implementation.icd
if [ ! -f "$icd" ]; then
  echo "SKIP: $implementation is not installed (no $icd)"
  exit 77
fi
# Every variant the registry lists (`liveconv variants`) but auto: auto picks one
# of them by a race, which on llvmpipe times each candidate again (minutes a row).
variants=${5:-$("$liveconv" variants | awk '$1 != "auto" {print $1}' | paste -sd, -)}
common="--verify --device $LIVECONV_DEVICE --format $format --sizes 173x97 --runs 1 --warmup 0"
out=$("$liveconv" bench $common --variants "$variants" --masks "$masks" 2>&1)
status=$?
printf '%s\n' "$out"
# The variants that take rank-1 masks only skipped those masks (not separable):
# they are checked with separable ones of the same sizes, a box (exact) and a
# Gaussian (float taps, within 1 LSB).
rank1=$(printf '%s\n' "$out" | awk '/needs a rank-1/ { print $1 }' | sort -u | paste -sd, -)
if [ -n "$rank1" ]; then
  for m in $(echo "$masks" | tr , ' '); do
    for mask in "box:$m" "gaussian:$m"; do
      [ "$mask" = gaussian:1 ] && continue
      o=$("$liveconv" bench $common --variants "$rank1" --mask "$mask" 2>&1) || status=1
      printf '%s\n' "$o" | grep -E "^(variant|$(echo "$rank1" | tr , '|')) |failed"
    done
  done
fi
exit $status
