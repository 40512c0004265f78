#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole suite with ctest.
#   ./test.sh                 the whole suite
#   ./test.sh -R PATTERN      a part (any ctest options: -R, -E, -L, -j, ...)
# Environment: BUILD_DIR (default build), LIVECONV_DEPS=engine for an
# OpenCL-only build (no FFmpeg, GLFW, ImGui or Qt), LIVECONV_UNITY_BUILD=OFF.
#
# The OpenCL drivers' kernel caches (PoCL's, Mesa's for rusticl) live in the
# build tree, one for every test of the run: most of the suite's time is the
# OpenCL compiler, and a test that gives a program a HOME of its own would
# otherwise compile again what another test built. ccache, where installed,
# keeps the build's objects.
#
# The suite loads only the OpenCL drivers that offer a device here (unless
# OCL_ICD_VENDORS is already set): each driver loads an LLVM of its own at
# every process start (Debian 13: PoCL's 18, Mesa's 19 for Clover and rusticl,
# which show no device unless asked), 0.11 s of every run. The rusticl.*
# entries ask for rusticl and see every driver, as a user's machine has them.
set -euo pipefail
cd "$(dirname "$0")"

deps="${LIVECONV_DEPS:-full}"
scripts/install-deps.sh "$deps"

build="${BUILD_DIR:-build}"
# A unity build (each target's sources compiled a batch at a time): the headers
# (Qt, GoogleTest, FFmpeg, CLHPP) are read once a batch instead of once a
# file, which halves a fresh build (docs/benchmarks.md, "The test suite and the
# build"). LIVECONV_UNITY_BUILD=OFF builds file by file.
opts=(-DCMAKE_BUILD_TYPE=Release -DLIVECONV_BUILD_TESTS=ON -DCMAKE_UNITY_BUILD="${LIVECONV_UNITY_BUILD:-ON}")
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
if [ -z "${OCL_ICD_VENDORS:-}" ] && command -v clinfo >/dev/null; then
  rm -rf driver-cache/icds && mkdir -p driver-cache/icds
  for icd in /etc/OpenCL/vendors/*.icd; do
    [ -e "$icd" ] || continue
    if OCL_ICD_VENDORS="$icd" clinfo -l 2>/dev/null | grep -q 'Device #'; then ln -s "$icd" driver-cache/icds/; fi
  done
  if [ -n "$(ls driver-cache/icds)" ]; then
    export OCL_ICD_VENDORS="$PWD/driver-cache/icds"
    echo "test.sh: the OpenCL drivers with a device: $(cd driver-cache/icds && echo *)"
  fi
fi
ctest -j "$(nproc)" --output-on-failure --timeout 900 --no-tests=error "$@"
