#!/usr/bin/env bash
# Installs, with apt-get, the Debian packages liveconv needs and the machine
# lacks, on Debian 13 (trixie) and Debian 12 (bookworm). Packages already
# present are not touched, so a second run is quick. The lists are what a
# minbase root (debootstrap --variant=minbase trixie|bookworm) lacks; .ci/run
# proves them in such roots of both releases on every submission.
# Usage: scripts/install-deps.sh [engine|full|tools]   (default full)
# LIVECONV_DEPS_DOWNLOAD_ONLY=1 downloads the missing packages into apt's
# cache without installing them (.ci/run prepares its clean roots so).
#   engine  the OpenCL-only build: engine, bench, engine tests
#   full    everything: FFmpeg, GLFW + ImGui viewer, Qt shell, their tests
#           (Xvfb, Mesa, ffmpeg for test clips) and the .deb (cpack, help2man)
#   tools   full plus what scripts/ uses for plots and comparisons
set -euo pipefail

profile="${1:-full}"
case "$profile" in
  engine | full | tools) ;;
  *)
    echo "install-deps: unknown profile '$profile'; use engine, full or tools." >&2
    exit 2
    ;;
esac

# Build, OpenCL (headers, C++ bindings, ICD loader, PoCL as the CPU device), tests.
engine_pkgs=(build-essential cmake ninja-build pkg-config ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers
             pocl-opencl-icd clinfo libgtest-dev)
# FFmpeg libraries and the ffmpeg command (the tests make their clips with it);
# GLFW (its native header needs Xrandr), ImGui, GL with GLX and EGL, PNG; Qt 6;
# Xvfb + Mesa for the window tests (xdotool types into them, pkill from procps signals them); file and help2man for the package and its
# man page (cpack's dpkg-shlibdeps comes with build-essential's dpkg-dev); numpy, whose FFT the mask's
# frequency response is checked against.
full_pkgs=(libavformat-dev libavcodec-dev libavdevice-dev libswscale-dev libswresample-dev libavutil-dev ffmpeg
           libglfw3-dev libxrandr-dev libimgui-dev libgl-dev libegl-dev libgl1-mesa-dri libpng-dev fonts-dejavu-core
           qt6-base-dev libqt6opengl6-dev
           xvfb xauth xdotool procps file help2man
           python3-numpy)
# scripts/plot-bench.sh and scripts/cpu-vs-ffmpeg.sh.
tools_pkgs=(python3 python3-opencv gnuplot-nox bc)  # python3-opencv: scripts/cpu-vs-opencv.sh

# What differs between the releases. Debian 13's Mesa has rusticl, a second
# OpenCL implementation for the CPU (llvmpipe), on which the tests run the
# variant checks too; Debian 12's Mesa has none for the CPU.
release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
case "$release" in
  trixie) engine_pkgs+=(mesa-opencl-icd) ;;
  bookworm) ;;
  *) echo "install-deps: ${release:-this system} is not Debian 13 (trixie) or 12 (bookworm); trying the Debian 12 names." >&2 ;;
esac

wanted=("${engine_pkgs[@]}")
[ "$profile" != engine ] && wanted+=("${full_pkgs[@]}")
[ "$profile" = tools ] && wanted+=("${tools_pkgs[@]}")

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "${LIVECONV_DEPS_DOWNLOAD_ONLY:-0}" = 1 ]; then echo "downloading: ${missing[*]}"; else echo "installing: ${missing[*]}"; fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
apt=(-o Acquire::Retries=3 -o Dpkg::Use-Pty=0)
$SUDO apt-get "${apt[@]}" update -qq
only=()
[ "${LIVECONV_DEPS_DOWNLOAD_ONLY:-0}" = 1 ] && only=(--download-only)
$SUDO apt-get "${apt[@]}" install -y -qq --no-install-recommends "${only[@]}" "${missing[@]}" >/dev/null
