#!/usr/bin/env bash
# On the GPU machine (the bundle's copy): every compressed clip decoded by
# NVDEC (--hwaccel cuda) and by the CPU decoder (--hwaccel none), filtered with
# the identity mask, converted on the device, written as raw RGBA, and compared
# frame by frame: the same number of frames, and no byte more than 1 apart
# (H.264 and HEVC decoders are bit-exact, so 0 is expected). Exit 1 on any
# difference; says SKIP (exit 77) where cuda does not open.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/setup.sh"
frames="${FRAMES:-24}"
status=0
for c in ${CLIPS:-h264_1080p h264_2160p hevc_2160p hevc10_2160p}; do
  src=$(clipPath "$c") || { status=1; continue; }
  for hw in none cuda; do
    log=$("$bin" run -i "$src" -o "$work/$c.$hw.rgba" -y --frames "$frames" --mask identity --device "$dev" \
      --hwaccel "$hw" 2>&1) || { echo "$c, hwaccel $hw: failed"; echo "$log" | tail -3; status=1; continue 2; }
    if [ "$hw" = cuda ] && ! echo "$log" | grep -q "decoded by cuda"; then
      echo "SKIP: cuda did not decode $c here:"
      echo "$log" | grep -E "hwaccel|run:" | sed 's/^/  /'
      exit 77
    fi
  done
  python3 - "$work/$c.none.rgba" "$work/$c.cuda.rgba" "$c" <<'EOF' || status=1
import sys
import numpy as np
cpu, gpu, name = sys.argv[1:]
a = np.fromfile(cpu, dtype=np.uint8)
b = np.fromfile(gpu, dtype=np.uint8)
if a.size != b.size:
    print(f"{name}: {a.size} bytes from the CPU decoder, {b.size} from cuda: FAIL")
    sys.exit(1)
d = np.abs(a.astype(np.int16) - b.astype(np.int16))
print(f"{name}: {a.size} bytes, max difference {int(d.max())}, {int((d > 0).sum())} bytes differ:",
      "ok" if d.max() <= 1 else "FAIL")
sys.exit(0 if d.max() <= 1 else 1)
EOF
done
exit $status
