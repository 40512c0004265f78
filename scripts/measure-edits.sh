#!/usr/bin/env bash
# How fast live edits reach the picture, in both windows, on the test pattern
# and on a decoded 30 fps stream: a script of seven edits (three masks under
# auto, variant naive, a cell, back to auto, format gray), each followed by
# `wait`, run under Xvfb with a fresh HOME (so the tuning cache, PoCL's kernel
# cache and the Qt settings start empty), read back from --stats-json.
# Prints per run: passes ("frames"), new frames shown ("new") and ms until
# each edit was on screen, the variant
# that ran it, the UI thread's frame times, the source-to-screen latency, the
# frames dropped, the passes that drew (where the build says), and the
# window's CPU time (where /usr/bin/time is installed).
# Usage: scripts/measure-edits.sh [--warm] [--frames N] [--variant V] [BUILD_DIR] [SOURCES...]
#   --warm     run each window once before it is measured (the same edits,
#              then 8 s more for the work a window does when idle), with the same HOME:
#              PoCL's kernel cache and the tuning cache (~/.cache) are then
#              warm, as for a returning user, while the settings (~/.config)
#              start empty again (without it: a first run on a fresh machine)
#   --frames N the measured run quits at frame N (default 90, just after the
#              last edit; more: the window then plays on, as a user watching)
#   --variant V the window starts on variant V (default: auto); the script's
#              switches to naive and back to auto stay as they are
#   BUILD_DIR  default build (ui/glfw/liveconv-viewer, ui/qt/liveconv-qt)
#   SOURCES    default testpattern:1280x720 lavfi:testsrc2=size=1280x720:rate=30
set -euo pipefail
. "$(dirname "$0")/lib/windows.sh"
warm=0
frames=90
variant=""
while [ $# -gt 0 ]; do
  case "$1" in
    --warm) warm=1; shift ;;
    --frames) frames="$2"; shift 2 ;;
    --variant) variant="$2"; shift 2 ;;
    *) break ;;
  esac
done
build="${1:-build}"
shift || true
[ -d "$build" ] || { echo "measure-edits.sh: no build folder $build." >&2; exit 1; }
build=$(cd "$build" && pwd)
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=(testpattern:1280x720 "lavfi:testsrc2=size=1280x720:rate=30")
command -v xvfb-run >/dev/null || { echo "measure-edits.sh: needs xvfb-run (Debian: xvfb)." >&2; exit 1; }
py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The window's own CPU time (user + system) and wall time, where GNU time is installed.
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%U %S %e" -o "$tmp/cpu")
cat >"$tmp/edits.txt" <<'EOF'
10 mask box:5
10 wait
20 mask 3x3:1,2,3,4,5,6,7,8,10
20 wait
30 mask gaussian:9
30 wait
40 variant naive
40 wait
50 cell 0 0 3
50 wait
60 variant auto
60 wait
70 format gray
70 wait
QUIT quit
EOF
sed "s/^QUIT quit\$/500 quit/" "$tmp/edits.txt" >"$tmp/warmup.txt"
sed -i "s/^QUIT quit\$/$frames quit/" "$tmp/edits.txt"
machine_line "$([ "$warm" = 1 ] && echo warm || echo cold)"
for src in "${sources[@]}"; do
  for win in viewer qt; do
    window_command "$build" "$win" "$src" || continue
    [ -n "$variant" ] && args+=(--variant "$variant")
    home=$(mktemp -d "$tmp/home.XXXX")
    rc=0
    for run in $(seq 0 "$warm"); do
      rm -rf "$tmp/out.json" "$home/.config"  # the caches stay; the settings (a window's last mask, format) go
      script=edits.txt
      [ "$run" -lt "$warm" ] && script=warmup.txt
      rm -f "$tmp/cpu"
      (cd "$tmp" && HOME="$home" LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
        "${timer[@]}" "$bin" "${args[@]}" --script "$script" --stats-json "$tmp/out.json" >"$tmp/out.log" 2>&1) || rc=$?
    done
    "$py" - "$win" "$src" "$rc" "$tmp/out.json" "$tmp/cpu" <<'PY'
import json, sys
win, src, rc, path, cpu = sys.argv[1:]
try:
    d = json.load(open(path))
except Exception as e:
    print(f"{win} {src}: exit {rc}, no stats file ({e})")
    sys.exit(0)
try:
    user, system, wall = (float(x) for x in open(cpu).read().split()[-3:])
    cores = f", {user + system:.1f} s of CPU in {wall:.1f} s ({(user + system) / wall:.2f} cores)"
except Exception:
    cores = ""
redraws = f", {d['redraws']} redraws" if 'redraws' in d else ""
print(f"{win} {src} (exit {rc}): ui_frame_ms {d['ui_frame_ms']}, latency_ms {d['latency_ms']}, "
      f"dropped {d['frames_dropped']}/{d['frames_total']}, {d['frames']} frames{redraws}{cores}")
for e in d['edits']:
    new = f"{e['visible_after_new_frames']:3d} new" if 'visible_after_new_frames' in e else "       "
    print(f"    {e['command']:32s} {e['visible_after_frames']:4d} frames {new} {e['visible_after_ms']:5d} ms  {e['variant_ran']}")
PY
  done
done
