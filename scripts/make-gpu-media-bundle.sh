#!/usr/bin/env bash
# Packs what the media measurement needs on a machine that has an OpenCL GPU
# but no FFmpeg and no package registry: liveconv built with media but without
# libavdevice, GUI, Qt and tests; the FFmpeg libraries and their dependencies
# (all of ldd's list but glibc, libstdc++, libgcc, libOpenCL and the loader) in
# one lib.tar.xz; clips made here from the bundled one (1080p and 2160p H.264,
# 2160p HEVC 8-bit and 10-bit, 1080p yuyv422 as a webcam sends it, packed with
# xz); and the scripts of scripts/gpu-media: run.sh (decode alone on the CPU
# and on NVDEC, `run -o null` with --hwaccel none, cuda and auto, H.264 out with
# libx264 and h264_nvenc) and check-hwaccel.sh (NVDEC's frames against the CPU
# decoder's, byte by byte).
#
# Usage (here, from the repository root): scripts/make-gpu-media-bundle.sh [DIR]
#   DIR defaults to gpu-media-bundle (git-ignored). Then on the GPU machine:
#   DIR/run.sh, DIR/check-hwaccel.sh  (LIVECONV_GPU=SEL picks another device than "nvidia")
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-gpu-media-bundle}"
build=build-gpu-media
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLIVECONV_WITH_MEDIA=ON -DLIVECONV_WITH_AVDEVICE=OFF \
  -DLIVECONV_WITH_GUI=OFF -DLIVECONV_WITH_QT=OFF -DLIVECONV_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" --target liveconv -j "${JOBS:-2}"

rm -rf "$dir"
mkdir -p "$dir/lib"
cp "$build/libexec/liveconv/liveconv" "$dir/liveconv"  # the program itself (app/launcher.cpp starts it)
strip "$dir/liveconv"
if ldd "$dir/liveconv" | grep -q libavdevice; then
  echo "liveconv still links libavdevice; the bundle is meant without it" >&2
  exit 1
fi
# Every shared library the binary pulls in, but those the GPU machine has (or
# must use its own of): the C library family, the C++ runtime, the OpenCL ICD loader.
ldd "$dir/liveconv" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | libresolv.so* | libutil.so* | ld-linux*) ;;
    libstdc++.so* | libgcc_s.so* | libOpenCL.so*) ;;
    *) cp -L "$lib" "$dir/lib/" ;;
  esac
done
strip --strip-unneeded "$dir"/lib/*.so* 2>/dev/null || true
libs=$(ls "$dir/lib" | wc -l)
tar -C "$dir/lib" -cf - . | xz -9 -T "${JOBS:-2}" >"$dir/lib.tar.xz"
rm -rf "$dir/lib"

# The clips: the bundled one scaled up and looped (smooth pictures, so small
# files: the whole bundle must stay under the 64 MiB a device call carries);
# 120 frames at 1080p, 48 at 2160p (run.sh plays them several times over).
# The yuyv422 one, raw, would be hundreds of MB: setup.sh makes it there from
# the 1080p clip with liveconv itself (rawvideo yuyv422 in NUT, as a webcam sends).
mkdir -p "$dir/clips"
make_clip() {
  local name="$1" size="$2" frames="$3"
  shift 3
  ffmpeg -hide_banner -loglevel error -y -stream_loop 9 -i assets/city_320x180.mp4 -frames:v "$frames" \
    -vf "scale=$size:flags=bicubic" -an "$@" "$dir/clips/$name"
}
make_clip h264_1080p.mp4 1920:1080 120 -c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p
make_clip h264_2160p.mp4 3840:2160 48 -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p
make_clip hevc_2160p.mp4 3840:2160 48 -c:v libx265 -preset ultrafast -crf 26 -pix_fmt yuv420p -tag:v hvc1 \
  -x265-params log-level=error
make_clip hevc10_2160p.mp4 3840:2160 48 -c:v libx265 -preset ultrafast -crf 26 -pix_fmt yuv420p10le -tag:v hvc1 \
  -x265-params log-level=error
cp scripts/gpu-media/setup.sh scripts/gpu-media/run.sh scripts/gpu-media/check-hwaccel.sh scripts/gpu-media/ab.sh scripts/gpu-media/ab-convert.sh \
  scripts/gpu-media/ab-convert-output.sh scripts/gpu-media/ab-cuda.sh scripts/gpu-media/ab3.sh scripts/gpu-media/alternate.sh "$dir/"
chmod +x "$dir/run.sh" "$dir/check-hwaccel.sh"
echo "bundle $dir: liveconv, $libs libraries in lib.tar.xz, clips, run.sh, check-hwaccel.sh; $(du -sh --apparent-size "$dir" | cut -f1) in all"
du -b --apparent-size "$dir"/* "$dir"/clips/* | sort -n
