#!/usr/bin/env bash
# On the GPU machine, in the bundle: two liveconv binaries of the bundle (liveconv-before, copied
# there by hand, and liveconv) on the same clips and commands, in turn, best of two passes each,
# with lc-decode's stage medians: a before/after comparison within one lease.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/setup.sh"
for c in h264_2160p hevc10_2160p h264_1080p yuyv422_1080p; do
  src=$(clipPath "$c"); list=$(loopList "$src" 10)
  for args in "--decode-only --hwaccel none" "--hwaccel none" "--hwaccel cuda"; do
    for b in liveconv-before liveconv; do
      best=0
      for pass in 1 2; do
        out=$("$here/$b" run -i "$list" -o null --device "$dev" --mask motion45:7 $args 2>&1)
        fps=$(echo "$out" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')
        best=$(echo "$fps $best" | awk '{ print ($1 > $2) ? $1 : $2 }')
      done
      conv=$(echo "$out" | sed -n 's/^stage medians (ms): //p')
      printf '%-14s %-28s %-16s %7.1f fps  %s\n' "$c" "$args" "$b" "$best" "$conv"
    done
  done
done
