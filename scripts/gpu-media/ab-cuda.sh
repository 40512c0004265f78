#!/usr/bin/env bash
# On the GPU machine, in the bundle: NVDEC's frames against the CPU decoder's
# (check-hwaccel.sh), then `run -o null --hwaccel cuda` with two builds in
# turn (liveconv-before, copied there by hand, and liveconv; two rounds, each
# clip played 4 times), then run.sh's table (LOOPS=4): a before/after of the
# cuda path within one lease.
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here" || exit 1
./check-hwaccel.sh
echo "check-hwaccel exit $?"
. ./setup.sh
for round in 1 2; do
  for c in hevc10_2160p h264_2160p hevc_2160p h264_1080p; do
    src=$(clipPath "$c")
    list=$(loopList "$src" 4)
    for b in liveconv-before liveconv; do
      o=$(timeout 120 "$here/$b" run -i "$list" -o null --device "$dev" --mask motion45:7 --hwaccel cuda 2>&1)
      fps=$(echo "$o" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')
      med=$(echo "$o" | sed -n 's/^stage medians (ms): //p')
      printf '%-14s cuda %-16s %7s fps  %s\n' "$c" "$b" "$fps" "$med"
    done
  done
done
LOOPS=4 ./run.sh 2>&1 | tail -40
