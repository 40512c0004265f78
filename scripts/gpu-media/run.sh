#!/usr/bin/env bash
# The media measurement on the GPU machine (from the bundle that
# scripts/make-gpu-media-bundle.sh makes; that machine has no FFmpeg): for each
# clip, frames/s of
#   decode only, the CPU decoder (--hwaccel none) and NVDEC (--hwaccel cuda):
#     the peer, what decoding alone allows;
#   run -o null with the 7x7 mask on the GPU, --hwaccel none, cuda and auto;
#   run to an H.264 file with libx264 and with h264_nvenc (first clip only);
# best of two passes each, then the table. LIVECONV_GPU selects the device
# (default nvidia); MASK (motion45:7), LOOPS (clips played N times in a row
# through an ffconcat list; default 10), CLIPS (names without extension).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/setup.sh"
mask="${MASK:-motion45:7}"
loops="${LOOPS:-10}"
clips="${CLIPS:-h264_1080p h264_2160p hevc_2160p hevc10_2160p yuyv422_1080p}"
results=$(mktemp)

"$bin" devices || exit 1
# measure CLIP NAME ARGS...: the best frames/s of two passes (the summary's "speed:" line).
measure() {
  local clip="$1" name="$2" best=0 fps out rc
  shift 2
  for pass in 1 2; do
    out=$("$bin" run -i "$clip" "$@" 2>&1)
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "  $name: exit $rc"
      echo "$out" | tail -4 | sed 's/^/    /'
      break
    fi
    fps=$(echo "$out" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')
    best=$(echo "$fps $best" | awk '{ print ($1 > $2) ? $1 : $2 }')
  done
  echo "  $name: $best frames/s"
  echo "$out" | grep -E "^(run:|converted|liveconv: --hwaccel|liveconv: .* did not decode)" | sed 's/^/    /'
  printf '%s\t%s\t%s\n' "$(basename "$clip")" "$name" "$best" >>"$results"
}

for c in $clips; do
  src=$(clipPath "$c") || continue
  list=$(loopList "$src" "$loops")
  echo "== $c (played $loops times)"
  measure "$list" "decode only, CPU decoder" -o null --decode-only --hwaccel none
  measure "$list" "decode only, cuda" -o null --decode-only --hwaccel cuda
  for hw in none cuda auto; do
    measure "$list" "run -o null $mask, hwaccel $hw" -o null --device "$dev" --mask "$mask" --hwaccel "$hw"
  done
done
first=$(clipPath "${clips%% *}")
out="${TMPDIR:-/tmp}/liveconv-bundle-out.mp4"
for codec in libx264 h264_nvenc; do
  measure "$first" "to .mp4, $codec, hwaccel cuda" -o "$out" -y --device "$dev" --mask "$mask" --hwaccel cuda --codec "$codec"
done

echo
echo "frames/s, best of 2, device $dev, mask $mask:"
awk -F'\t' '{ printf "  %-22s %-40s %8.1f\n", $1, $2, $3 }' "$results"
rm -f "$results"
