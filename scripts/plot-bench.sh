#!/usr/bin/env bash
# Plots Mpixel/s (kernel time) against mask size, one line per variant, from
# the JSON that `liveconv bench --json` writes. Needs python3 and gnuplot
# (Debian: gnuplot-nox).
# Usage: scripts/plot-bench.sh BENCH.json OUT.png ["title"]
set -euo pipefail
json="$1"; png="$2"; title="${3:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$json" "$tmp" <<'PY'
import json, sys, collections
data = json.load(open(sys.argv[1]))
series = collections.OrderedDict()
for r in data["results"]:
    if r["error"] or not r["kernel_mpix_s"]:
        continue
    side = int(r["mask"].split("x")[0])
    series.setdefault(r["variant"], []).append((side, r["kernel_mpix_s"]))
with open(sys.argv[2] + "/series.dat", "w") as out:
    for name, points in series.items():
        out.write('"%s"\n' % name)
        for side, mpix in sorted(points):
            out.write("%d %g\n" % (side, mpix))
        out.write("\n\n")
with open(sys.argv[2] + "/count", "w") as out:
    out.write(str(len(series)))
with open(sys.argv[2] + "/device", "w") as out:
    out.write(data["device"])
PY
n=$(cat "$tmp/count")
[ -n "$title" ] || title="$(cat "$tmp/device")"
gnuplot <<GP
set terminal pngcairo size 1100,650 noenhanced font ",11"
set output "$png"
set title "$title"
set xlabel "mask side (N x N)"
set ylabel "Mpixel/s (kernel time, median)"
set logscale y
set grid
set key outside right
plot for [i=0:$((n - 1))] "$tmp/series.dat" index i using 1:2 with linespoints title columnheader(1)
GP
echo "wrote $png"
