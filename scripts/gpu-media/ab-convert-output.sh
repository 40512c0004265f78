#!/usr/bin/env bash
# The device conversion (kernels/convert.cl) on the GPU and on PoCL (the CPU
# as an OpenCL device), and the file output's conversion to the encoder's
# format (libx264, yuv420p), two builds alternating in one lease: copy the
# older build's liveconv into the bundle as liveconv-old and the newer as
# liveconv-new (stripped), then run this. Prints frames/s and the stage
# medians (convert: the frame to RGBA; output: the sink's conversion and
# hand-over to the encoder).
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/setup.sh"
nproc; grep -m1 "model name" /proc/cpuinfo
out="${TMPDIR:-/tmp}/liveconv-ab-out.mp4"
ab() {  # CLIP LOOPS ARGS...
  local c="$1" loops="$2" src list b o fps med
  shift 2
  src=$(clipPath "$c") || return
  list=$(loopList "$src" "$loops")
  for b in liveconv-old liveconv-new; do
    o=$(timeout 150 "$here/$b" run -i "$list" --mask motion45:7 --hwaccel none "$@" 2>&1)
    fps=$(echo "$o" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')
    med=$(echo "$o" | sed -n 's/^stage medians (ms): //p')
    printf '%-14s %-44s %-13s %7s fps  %s\n' "$c" "$*" "$b" "$fps" "$med"
  done
}
for round in 1 2; do
  for c in h264_2160p hevc10_2160p yuyv422_1080p h264_1080p; do
    ab "$c" 2 -o null --device "$dev"
    ab "$c" 1 -o null --device cpu
  done
  for c in h264_2160p h264_1080p; do
    ab "$c" 2 -o "$out" -y --device "$dev"
  done
done
rm -f "$out"
