#!/usr/bin/env bash
# Installs what is missing, builds Release, and runs the main job: for now the
# headless benchmark of every kernel variant on the default OpenCL device
# (the first GPU, else the CPU through PoCL), each result verified against the
# CPU reference. Extra arguments go to `liveconv bench`.
set -euo pipefail
cd "$(dirname "$0")"

scripts/install-deps.sh "${LIVECONV_DEPS:-full}"
build="${BUILD_DIR:-build}"
opts=(-DCMAKE_BUILD_TYPE=Release)
if [ "${LIVECONV_DEPS:-full}" = engine ]; then
  opts+=(-DLIVECONV_WITH_MEDIA=OFF -DLIVECONV_WITH_GUI=OFF -DLIVECONV_WITH_QT=OFF -DLIVECONV_BUILD_TESTS=OFF)
fi
cmake -S . -B "$build" -G Ninja "${opts[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target liveconv
"$build/app/liveconv" devices
echo
exec "$build/app/liveconv" bench --verify "$@"
