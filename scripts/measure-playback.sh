#!/usr/bin/env bash
# How smoothly each window plays a live 30 fps source with a 7x7 mask, against
# ffplay with FFmpeg's `convolution` filter (the same 7x7 box) on the same
# source: each program plays it for SECONDS under Xvfb, once on the quiet
# machine and once with one core kept busy by another process, alternating
# programs within each round. Prints, per run: the new frames shown per
# second, the frames dropped by cause (and how many of them in the first two
# seconds after the first frame on screen), the UI thread's pass times (p50/p99)
# and the source-to-screen latency (p50/p99), from the windows' --stats-json
# (ffplay: its frame drops, "fd=", and the frames it showed).
#
# Usage: scripts/measure-playback.sh [--warm] [--seconds N] [--rounds N] [BUILD_DIR] [SOURCES...]
#   --warm       each window plays each source once, quiet, unmeasured, before
#                the rounds, and every run of it keeps that HOME: PoCL's kernel
#                cache and the variant race's answers (~/.cache) are then warm,
#                as for a returning user, while the settings (~/.config) start
#                empty each run (without it: every run a first run on a fresh
#                machine, its kernels compiled and its race run while it plays)
#   --seconds N  play time of each run, after the first frame (default 20)
#   --rounds N   quiet + busy rounds (default 1)
#   BUILD_DIR    default build (ui/glfw/liveconv-viewer, ui/qt/liveconv-qt)
#   SOURCES      default lavfi:testsrc2=size=1280x720:rate=30 lavfi:testsrc2=size=1920x1080:rate=30
set -euo pipefail
. "$(dirname "$0")/lib/windows.sh"
seconds=20
rounds=1
warm=0
while [ $# -gt 0 ]; do
  case "$1" in
    --warm) warm=1; shift ;;
    --seconds) seconds="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) break ;;
  esac
done
build="${1:-build}"
shift || true
[ -d "$build" ] || { echo "measure-playback.sh: no build folder $build." >&2; exit 1; }
build=$(cd "$build" && pwd)
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=("lavfi:testsrc2=size=1280x720:rate=30" "lavfi:testsrc2=size=1920x1080:rate=30")
command -v xvfb-run >/dev/null || { echo "measure-playback.sh: needs xvfb-run (Debian: xvfb)." >&2; exit 1; }
tmp=$(mktemp -d)
busy=""
cleanup() {
  [ -n "$busy" ] && kill "$busy" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# The same 7x7 box for FFmpeg's convolution filter, on every plane.
ones=$(printf '1 %.0s' $(seq 49) | sed 's/ $//')
convolution="convolution=0m='$ones':1m='$ones':2m='$ones':0rdiv=1/49:1rdiv=1/49:2rdiv=1/49"

# The HOME of a window and source: a new one each run, or with --warm the one
# its warm-up run filled (settings emptied).
home_for() {
  local key
  key=$(printf '%s' "$1 $2" | md5sum | cut -c1-12)
  if [ "$warm" = 1 ]; then
    mkdir -p "$tmp/warm.$key"
    rm -rf "$tmp/warm.$key/.config"
    echo "$tmp/warm.$key"
  else
    mktemp -d "$tmp/home.XXXX"
  fi
}

# play WINDOW SOURCE LOAD [SECONDS]: one run; prints its line.
play() {
  local win=$1 src=$2 load=$3 secs=${4:-$seconds} home rc=0
  home=$(home_for "$win" "$src")
  rm -f "$tmp/out.json" "$tmp/ffplay.log"
  if [ "$win" = ffplay ]; then
    command -v ffplay >/dev/null || { echo "ffplay: not installed (Debian: ffmpeg)"; return; }
    # -framedrop: drop late frames as the windows do (ffplay drops only when video is not the master clock otherwise).
    (cd "$tmp" && SDL_VIDEODRIVER=x11 xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
      timeout -s INT -k 5 $((seconds + 3)) ffplay -hide_banner -stats -framedrop -f lavfi -i "${src#lavfi:}" \
      -vf "$convolution" >"$tmp/ffplay.log" 2>&1) || rc=$?
    python3 - "$src" "$load" "$tmp/ffplay.log" "$seconds" <<'PY'
import re, sys
src, load, log, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
text = open(log, errors="replace").read().replace("\r", "\n")
status = re.findall(r"^\s*(-?[\d.]+) M-V:.*?fd=\s*(\d+)", text, re.M)
if not status:
    print(f"  ffplay  {load:5s} {src}: no status lines ({text.strip()[-200:]})")
    sys.exit(0)
played, dropped = float(status[-1][0]), int(status[-1][1])
total = played * 30
print(f"  ffplay  {load:5s} {src}: {(total - dropped) / played:5.1f} fps shown, dropped {dropped}/{total:.0f} "
      f"({100 * dropped / total:.1f} %: late), played {played:.1f} s")
PY
    return
  fi
  window_command "$build" "$win" "$src" || return 0
  # The window plays; after its first frame, SECONDS more, then SIGTERM (both write --stats-json on it).
  (cd "$tmp" && HOME="$home" LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
    sh -c '"$@" & pid=$!; sleep '"$((secs + 3))"'; kill -TERM $pid; wait $pid' sh \
    "$bin" "${args[@]}" --mask box:7 --stats-json "$tmp/out.json" >"$tmp/out.log" 2>&1) || rc=$?
  python3 - "$win" "$src" "$load" "$tmp/out.json" <<'PY'
import json, sys
win, src, load, path = sys.argv[1:]
try:
    d = json.load(open(path))
except Exception as e:
    print(f"  {win:7s} {load:5s} {src}: no stats file ({e})")
    sys.exit(0)
total, dropped = d["frames_total"], d["frames_dropped"]
causes = ", ".join(f"{k} {v}" for k, v in d.get("drops", {}).items() if v) or "none"
early = sum(d.get("drops_per_second", [])[:2])  # start-up: until 2 s after the first frame on screen
if dropped:
    causes += f"; {early} of them in the first 2 s"
ui, lat = d["ui_frame_ms"], d["latency_ms"]
print(f"  {win:7s} {load:5s} {src}: {d.get('shown_fps', 0):5.1f} fps shown, dropped {dropped}/{total} "
      f"({100 * dropped / max(total, 1):.1f} %: {causes}), UI p50 {ui['median']:.1f} p99 {ui['p99']:.1f} ms, "
      f"latency p50 {lat['median']:.1f} p99 {lat['p99']:.1f} ms, variant {d['variant']}")
PY
}

machine_line "$([ "$warm" = 1 ] && echo warm || echo cold)"
echo "each run: ${seconds} s of play after the first frame; 7x7 box (liveconv --mask box:7; ffplay $convolution)"
if [ "$warm" = 1 ]; then
  echo "warm-up (quiet, not measured)"
  for src in "${sources[@]}"; do
    for win in viewer qt; do play "$win" "$src" warmup 10; done
  done
fi
for round in $(seq "$rounds"); do
  for load in quiet busy; do
    if [ "$load" = busy ]; then
      sh -c 'while :; do :; done' &
      busy=$!
    fi
    echo "round $round, $load$([ "$load" = busy ] && echo " (one core kept busy by another process)")"
    for src in "${sources[@]}"; do
      for win in viewer qt ffplay; do play "$win" "$src" "$load"; done
    done
    if [ -n "$busy" ]; then
      kill "$busy" 2>/dev/null || true
      wait "$busy" 2>/dev/null || true
      busy=""
    fi
  done
done
