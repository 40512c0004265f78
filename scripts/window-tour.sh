#!/usr/bin/env bash
# A tour of both windows under Xvfb, as a new user would take it: a variant
# the mask rules out, an edited grid, a seek, a saved frame, a recording and a
# stream that cannot open. Each window runs a --script; at each of its
# `screenshot` lines the whole screen (docks, panels, status bar) is grabbed
# with ffmpeg's x11grab, and the shots are written small as JPEG.
# Usage: scripts/window-tour.sh BUILD_DIR OUT_DIR
# Needs xvfb-run and ffmpeg (with x11grab); writes OUT_DIR/{viewer,qt}-N-what.jpg
# and the windows' --stats-json files next to them.
set -euo pipefail

build="${1:?usage: scripts/window-tour.sh BUILD_DIR OUT_DIR}"
out="${2:?usage: scripts/window-tour.sh BUILD_DIR OUT_DIR}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "$build" && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$root/assets/city_320x180.mp4" "$work/clip.mp4"

# The steps, a second or so apart (the grab takes a moment); shots are named
# for what they show.
cat > "$work/clip.txt" <<'EOF'
5 mask 3x3:1,2,3,4,5,6,7,8,10
5 wait
10 variant separable
10 wait
12 screenshot 1-variant-refused.png
160 cell 0 0 -1
160 cell 2 2 -1
160 wait
200 screenshot 2-grid-edited.png
300 seek 2
300 wait
340 screenshot 3-seeked.png
440 key S
440 wait
460 screenshot 4-frame-saved.png
560 record recording.mkv
700 screenshot 5-recording.png
800 stop-record
810 quit
EOF
cat > "$work/stream.txt" <<'EOF'
40 screenshot 6-stream-refused.png
140 quit
EOF

# Runs inside xvfb-run: the window in the background, a grab of the screen as
# soon as the window has written each of its shots.
cat > "$work/grab.sh" <<'EOF'
window="$1" spec="$2" script="$3" prefix="$4"
shift 4
shots=$(awk '$2 == "screenshot" { print $3 }' "$script")
rm -f $shots
"$@" --script "$script" --stats-json "$prefix-stats.json" > "$prefix.log" 2>&1 &
pid=$!
for shot in $shots; do
  while [ ! -s "$shot" ] && kill -0 "$pid" 2> /dev/null; do sleep 0.05; done
  [ -s "$shot" ] || break
  ffmpeg -v error -y -f x11grab -video_size 1280x1024 -i "$DISPLAY" -frames:v 1 "$prefix-$shot"
  rm -f "$shot"
done
wait "$pid"
EOF

run() {  # WINDOW SOURCE SCRIPT
  local window="$1" source="$2" script="$3" cmd
  if [ "$window" = viewer ]; then cmd=("$build/ui/glfw/liveconv-viewer" --source "$source")
  else cmd=("$build/ui/qt/liveconv-qt" "$source"); fi
  (cd "$work" && HOME="$work/home-$window" LIBGL_ALWAYS_SOFTWARE=1 \
    xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" bash grab.sh "$window" "$source" "$script" "$window-${script%.txt}" "${cmd[@]}") ||
    echo "window-tour: $window on $source ended with $?" >&2
}

for window in viewer qt; do
  mkdir -p "$work/home-$window"
  run "$window" clip.mp4 clip.txt
  run "$window" rtsp://127.0.0.1:9/nothing stream.txt
done

for png in "$work"/*-[0-9]-*.png; do
  ffmpeg -v error -y -i "$png" -vf scale=iw/2:-1 -q:v 4 "$out/$(basename "${png%.png}").jpg"
  [ -z "${KEEP_PNG:-}" ] || cp "$png" "$out/"  # KEEP_PNG=1: the full-size shots too
done
cp "$work"/*-stats.json "$out/" 2> /dev/null || true
ls "$out"
