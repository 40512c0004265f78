#!/usr/bin/env bash
# Installs what is missing, builds Release, and runs the main job:
#  - with a display ($DISPLAY or $WAYLAND_DISPLAY): liveconv-viewer on the
#    bundled clip (arguments go to the viewer, e.g. --source camera:0);
#  - without one, or with LIVECONV_DEPS=engine: the headless benchmark of every
#    kernel variant on the default OpenCL device (the first GPU, else the CPU
#    through PoCL), each result verified against the CPU reference
#    (arguments go to `liveconv bench`).
set -euo pipefail
cd "$(dirname "$0")"

deps="${LIVECONV_DEPS:-full}"
scripts/install-deps.sh "$deps"
build="${BUILD_DIR:-build}"
opts=(-DCMAKE_BUILD_TYPE=Release)
if [ "$deps" = engine ]; then
  opts+=(-DLIVECONV_WITH_MEDIA=OFF -DLIVECONV_WITH_GUI=OFF -DLIVECONV_WITH_QT=OFF -DLIVECONV_BUILD_TESTS=OFF)
fi
cmake -S . -B "$build" -G Ninja "${opts[@]}" >/dev/null

if [ "$deps" != engine ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  cmake --build "$build" -j "$(nproc)" --target liveconv-viewer
  exec "$build/ui/glfw/liveconv-viewer" "$@"
fi

[ "$deps" != engine ] && echo "No display (\$DISPLAY and \$WAYLAND_DISPLAY are unset): running the headless benchmark instead of the viewer."
cmake --build "$build" -j "$(nproc)" --target liveconv
"$build/app/liveconv" devices
echo
exec "$build/app/liveconv" bench --verify "$@"
