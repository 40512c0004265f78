#!/usr/bin/env bash
# The CPU conversion (--convert cpu, swscale) against the device's (auto), two
# builds alternating in one lease: copy the older build's liveconv into the
# bundle as liveconv-old and the newer as liveconv-new (stripped), then run this.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/setup.sh"
nproc; grep -m1 "model name" /proc/cpuinfo
for c in h264_2160p hevc10_2160p yuyv422_1080p; do
  src=$(clipPath "$c"); list=$(loopList "$src" 2)
  for args in "--decode-only --hwaccel none --convert cpu" "--hwaccel none --convert cpu" "--hwaccel none --convert auto"; do
    for b in liveconv-old liveconv-new; do
      out=$(timeout 120 "$here/$b" run -i "$list" -o null --device "$dev" --mask motion45:7 $args 2>&1)
      fps=$(echo "$out" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')
      conv=$(echo "$out" | sed -n 's/^stage medians (ms): //p')
      printf '%-14s %-44s %-13s %7s fps  %s\n' "$c" "$args" "$b" "$fps" "$conv"
    done
  done
done
