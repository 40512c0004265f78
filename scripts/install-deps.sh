#!/usr/bin/env bash
# Installs, with apt-get, the Debian 12 packages liveconv needs and the machine
# lacks. Packages already present are not touched, so a second run is quick.
# Usage: scripts/install-deps.sh [engine|full]   (default full)
set -euo pipefail

profile="${1:-full}"
engine_pkgs=(build-essential cmake ninja-build pkg-config ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers
             pocl-opencl-icd clinfo libgtest-dev)
full_pkgs=(libavformat-dev libavcodec-dev libavdevice-dev libavfilter-dev libswscale-dev libavutil-dev ffmpeg
           libglfw3-dev libimgui-dev libgl-dev libgl1-mesa-dri libpng-dev fonts-dejavu-core qt6-base-dev libqt6opengl6-dev nlohmann-json3-dev
           xvfb xauth gnuplot-nox bc)

wanted=("${engine_pkgs[@]}")
[ "$profile" = full ] && wanted+=("${full_pkgs[@]}")

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
