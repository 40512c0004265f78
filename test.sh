#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole suite with ctest.
#   ./test.sh                 the whole suite
#   ./test.sh -R PATTERN      a part (any ctest options: -R, -E, -L, -j, ...)
# Environment: BUILD_DIR (default build), LIVECONV_DEPS=engine for an
# OpenCL-only build (no FFmpeg, GLFW, ImGui or Qt).
#
# The OpenCL drivers' kernel caches (PoCL's, Mesa's for rusticl) live in the
# build tree, one for every test of the run: most of the suite's time is the
# OpenCL compiler, and a test that gives a program a HOME of its own would
# otherwise compile again what another test built. ccache, where installed,
# keeps the build's objects.
set -euo pipefail
cd "$(dirname "$0")"

deps="${LIVECONV_DEPS:-full}"
scripts/install-deps.sh "$deps"

build="${BUILD_DIR:-build}"
opts=(-DCMAKE_BUILD_TYPE=Release -DLIVECONV_BUILD_TESTS=ON)
if [ "$deps" = engine ]; then
  opts+=(-DLIVECONV_WITH_MEDIA=OFF -DLIVECONV_WITH_GUI=OFF -DLIVECONV_WITH_QT=OFF)
fi
if command -v ccache >/dev/null; then
  opts+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build" -G Ninja "${opts[@]}"
cmake --build "$build" -j "$(nproc)"
cd "$build"
mkdir -p driver-cache/pocl driver-cache/mesa
export POCL_CACHE_DIR="$PWD/driver-cache/pocl" MESA_SHADER_CACHE_DIR="$PWD/driver-cache/mesa"
ctest -j "$(nproc)" --output-on-failure --timeout 900 --no-tests=error "$@"
