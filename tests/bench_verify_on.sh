#!/bin/sh
# bench_verify_on.sh IMPLEMENTATION LIVECONV [FORMAT [MASKS]]: `liveconv bench
# --verify` of every variant on the device $LIVECONV_DEVICE selects, in FORMAT
# (rgba, gray or both; default both), masks MASKS (default 1,3,7,15: 1x1 to
# 15x15) at a size that is no tile multiple. Exit 77 (SKIP) when the
# implementation's ICD file is not installed; a failure when it is but has no device.
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
variants=$("$liveconv" variants | awk '$1 != "auto" {print $1}' | paste -sd, -)
exec "$liveconv" bench --verify --device "$LIVECONV_DEVICE" --variants "$variants" --format "$format" --masks "$masks" \
  --sizes 173x97 --runs 1 --warmup 0
