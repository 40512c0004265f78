#!/usr/bin/env bash
# On the GPU machine, in the bundle: three builds in turn (BUILDS, default
# liveconv-before, liveconv-pinned and liveconv, the first two copied there by
# hand), `run -o null --mask motion45:7` on 4K clips played LOOPS times (12)
# with --hwaccel cuda and none, ROUNDS rounds (3); then decode alone with the
# bundle's build on NVDEC and on the CPU, the peers of those rows.
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here" || exit 1
. ./setup.sh
for round in $(seq ${ROUNDS:-3}); do
  for cfg in "hevc10_2160p cuda" "hevc_2160p cuda" "h264_2160p cuda" "h264_2160p none" "hevc10_2160p none"; do
    set -- $cfg
    src=$(clipPath "$1")
    list=$(loopList "$src" ${LOOPS:-12})
    for b in ${BUILDS:-liveconv-before liveconv-pinned liveconv}; do
      o=$(timeout 120 "$here/$b" run -i "$list" -o null --device "$dev" --mask motion45:7 --hwaccel $2 2>&1)
      fps=$(echo "$o" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')
      med=$(echo "$o" | sed -n 's/^stage medians (ms): //p')
      printf '%-14s %-5s %-16s %7s fps  %s\n' "$1" "$2" "$b" "$fps" "$med"
    done
  done
done
for c in hevc10_2160p hevc_2160p h264_2160p; do
  src=$(clipPath "$c"); list=$(loopList "$src" ${LOOPS:-12})
  for hw in cuda none; do
    o=$(timeout 120 "$bin" run -i "$list" -o null --decode-only --device "$dev" --hwaccel $hw 2>&1)
    echo "$c decode-only $hw: $(echo "$o" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')"
  done
done
