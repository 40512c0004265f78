#!/usr/bin/env bash
# On the GPU machine, in the bundle: a clip (CLIP, default h264_2160p) played
# LOOPS times (12): decode alone on the CPU, `run -o null --mask motion45:7`
# with --hwaccel none and auto, in turn, ROUNDS rounds (4): single passes vary
# by 20 % there, so compare the medians of the rounds.
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here" || exit 1
. ./setup.sh
src=$(clipPath ${CLIP:-h264_2160p}); list=$(loopList "$src" ${LOOPS:-12})
for round in $(seq ${ROUNDS:-4}); do
  for cfg in "--decode-only --hwaccel none" "--device $dev --mask motion45:7 --hwaccel none" "--device $dev --mask motion45:7 --hwaccel auto"; do
    o=$(timeout 120 "$here/liveconv" run -i "$list" -o null $cfg 2>&1)
    printf 'round %s  %-50s %7s fps  %s | %s\n' "$round" "$cfg" "$(echo "$o" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')" "$(echo "$o" | sed -n 's/^stage medians (ms): //p')" "$(echo "$o" | grep -o -- '--hwaccel auto: [^(]*' | head -1)"
  done
done
