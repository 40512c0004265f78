#!/usr/bin/env bash
# Whether the picture stops while a window builds behind it: each window
# opens on empty caches (a fresh HOME: PoCL's kernel cache, the tuning cache,
# the settings), gets one mask under `auto` at frame 10 and then nothing for
# about 2 s, so the builder's start-up work, the provisional kernel and the
# race all run beside the stream, then a second mask; read back from
# --stats-json. Prints per window and source: the UI thread's frame time
# (p99, max), the source-to-screen latency (median, p99), the frames the source
# delivered and how many never reached the screen, and frames/ms until each
# of the two edits was on screen.
# Usage: scripts/measure-stalls.sh [BUILD_DIR] [SOURCES...]
#   BUILD_DIR  default build (ui/glfw/liveconv-viewer, ui/qt/liveconv-qt)
#   SOURCES    default testpattern:1280x720 lavfi:testsrc2=size=1280x720:rate=30 lavfi:testsrc2=size=640x360:rate=30
set -euo pipefail
. "$(dirname "$0")/lib/windows.sh"
build="${1:-build}"
shift || true
[ -d "$build" ] || { echo "measure-stalls.sh: no build folder $build." >&2; exit 1; }
build=$(cd "$build" && pwd)
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=(testpattern:1280x720 "lavfi:testsrc2=size=1280x720:rate=30"
                                     "lavfi:testsrc2=size=640x360:rate=30")
command -v xvfb-run >/dev/null || { echo "measure-stalls.sh: needs xvfb-run (Debian: xvfb)." >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/pause.txt" <<'EOF'
10 mask gaussian:9
10 wait
150 mask 3x3:1,2,3,4,5,6,7,8,10
150 wait
290 quit
EOF
machine_line cold
for src in "${sources[@]}"; do
  for win in viewer qt; do
    window_command "$build" "$win" "$src" || continue
    home=$(mktemp -d "$tmp/home.XXXX")
    rc=0
    (cd "$tmp" && HOME="$home" LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
      "$bin" "${args[@]}" --script pause.txt --stats-json "$home/out.json" >"$home/out.log" 2>&1) || rc=$?
    python3 - "$home/out.json" "$win" "$src" "$rc" <<'PY'
import json, sys
path, win, src, rc = sys.argv[1:]
try:
    d = json.load(open(path))
except (OSError, ValueError):
    print(f"{win:6s} {src[:28]:28s} no stats (exit {rc})")
    sys.exit(0)
ui, lat = d["ui_frame_ms"], d["latency_ms"]
edits = " ".join(f"{e['visible_after_frames']}/{e['visible_after_ms']}" for e in d["edits"])
print(f"{win:6s} {src[:28]:28s} ui p99 {ui['p99']:6.1f} max {ui['max']:6.1f} | latency med {lat['median']:6.1f} "
      f"p99 {lat['p99']:6.1f} | fps {d.get('video_fps')} dropped {d.get('frames_dropped')}/{d.get('frames_total')} "
      f"| edits {edits}")
PY
  done
done
