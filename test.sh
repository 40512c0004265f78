#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole suite with ctest.
# Environment: BUILD_DIR (default build), LIVECONV_DEPS=engine for an
# OpenCL-only build (no FFmpeg, GLFW, ImGui or Qt).
set -euo pipefail
cd "$(dirname "$0")"

deps="${LIVECONV_DEPS:-full}"
scripts/install-deps.sh "$deps"

build="${BUILD_DIR:-build}"
opts=(-DCMAKE_BUILD_TYPE=Release -DLIVECONV_BUILD_TESTS=ON)
if [ "$deps" = engine ]; then
  opts+=(-DLIVECONV_WITH_MEDIA=OFF -DLIVECONV_WITH_GUI=OFF -DLIVECONV_WITH_QT=OFF)
fi
cmake -S . -B "$build" -G Ninja "${opts[@]}"
cmake --build "$build" -j "$(nproc)"
cd "$build"
ctest -j "$(nproc)" --output-on-failure --timeout 900 --no-tests=error
