#!/usr/bin/env bash
# Packs what the media speed check needs on a machine that has an OpenCL GPU
# but no FFmpeg and no package registry: liveconv built with media but without
# libavdevice, GUI, Qt and tests; the FFmpeg libraries and their dependencies
# (all of ldd's list but glibc, libstdc++, libgcc, libOpenCL and the loader) in
# one lib.tar.xz; a 1920x1080 H.264 clip; and run.sh, which measures
# decode-only against `run -o null` with a 7x7 mask, with the conversion on the
# CPU and on the device, and prints frames/s for each.
#
# Usage (here, from the repository root): scripts/make-gpu-media-bundle.sh [DIR]
#   DIR defaults to gpu-media-bundle (git-ignored). Then on the GPU machine:
#   DIR/run.sh            (LIVECONV_GPU=SEL picks another device than "nvidia")
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
cp "$build/app/liveconv" "$dir/liveconv"
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

# The clip: the bundled one scaled to 1080p, looped to 300 frames, H.264 yuv420p.
ffmpeg -hide_banner -loglevel error -y -stream_loop 2 -i assets/city_320x180.mp4 -frames:v 300 \
  -vf scale=1920:1080:flags=bicubic -c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p -an "$dir/clip_1080p.mp4"

cat >"$dir/run.sh" <<'EOF'
#!/usr/bin/env bash
# decode-only vs `run -o null` on the same 1080p clip with the 7x7 mask, the
# conversion on the CPU (swscale) and on the device; frames/s for each, best of
# two passes. LIVECONV_GPU selects the device (default nvidia); MASK, VARIANT
# override the mask (motion45:7) and variant (auto); LOOPS=N plays the clip N
# times in a row through an ffconcat list (default 8: 2400 frames, so a fast
# GPU run lasts long enough to measure); FRAMES=N stops each run after N frames.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lib="${TMPDIR:-/tmp}/liveconv-bundle-lib"
rm -rf "$lib" && mkdir -p "$lib" && tar -xJf "$here/lib.tar.xz" -C "$lib" || exit 1
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -d /etc/OpenCL/vendors ] && [ -w /etc/OpenCL/vendors ] && ! ls /etc/OpenCL/vendors/*nvidia* >/dev/null 2>&1 &&
  ldconfig -p 2>/dev/null | grep -q libnvidia-opencl.so.1; then
  echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
bin="$here/liveconv"
# The concat demuxer takes plain relative names only: a link next to the list.
loopdir="${TMPDIR:-/tmp}/liveconv-bundle-loop"
mkdir -p "$loopdir" && ln -sf "$here/clip_1080p.mp4" "$loopdir/clip_1080p.mp4"
clip="$loopdir/loop.ffconcat"
loops="${LOOPS:-8}"
{
  echo "ffconcat version 1.0"
  for _ in $(seq "$loops"); do echo "file clip_1080p.mp4"; done
} >"$clip"
dev="${LIVECONV_GPU:-nvidia}"
mask="${MASK:-motion45:7}"
variant="${VARIANT:-auto}"
frames=()
[ -n "${FRAMES:-}" ] && frames=(--frames "$FRAMES")
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-${TMPDIR:-/tmp}/liveconv-bundle-cache}"

"$bin" devices || exit 1
# Prints the best frames/s of two passes of one configuration (and keeps the last output).
measure() {
  local name="$1" best=0 fps
  shift
  for pass in 1 2; do
    out=$("$bin" run -i "$clip" -o null "${frames[@]}" "$@" 2>&1)  # the summary is on stderr
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "$name: exit $rc"
      echo "$out" | tail -5
      echo "$name 0" >>"$results"
      return
    fi
    fps=$(echo "$out" | sed -n 's/^speed: \([0-9.]*\) fps.*/\1/p')
    best=$(echo "$fps $best" | awk '{ print ($1 > $2) ? $1 : $2 }')
  done
  echo "== $name: best $best frames/s"
  echo "$out" | grep -E "^(run|converted|frames:|stage)"
  echo "$name $best" >>"$results"
}
results=$(mktemp)
measure "decode-only, convert cpu" --decode-only --convert cpu
measure "decode-only, convert gpu" --decode-only --convert gpu
measure "run -o null, convert cpu" --device "$dev" --mask "$mask" --variant "$variant" --convert cpu
measure "run -o null, convert gpu" --device "$dev" --mask "$mask" --variant "$variant" --convert gpu

echo
echo "1920x1080 H.264, ${FRAMES:-$((300 * loops))} frames, mask $mask, device $dev (frames/s, best of 2):"
awk '{ fps = $NF; $NF = ""; name[NR] = $0; f[NR] = fps }
  END {
    for (i = 1; i <= NR; i++) {
      line = sprintf("  %-28s %8.1f", name[i], f[i])
      if (i == 3 && f[1] > 0) line = line sprintf("   %5.1f%% of decode-only (cpu)", 100 * f[3] / f[1])
      if (i == 4 && f[2] > 0) line = line sprintf("   %5.1f%% of decode-only (gpu)", 100 * f[4] / f[2])
      if (i == 4 && f[1] > 0) line = line sprintf(", %5.1f%% of decode-only (cpu)", 100 * f[4] / f[1])
      print line
    }
  }' "$results"
rm -f "$results"
EOF
chmod +x "$dir/run.sh"
echo "bundle $dir: liveconv, $libs libraries in lib.tar.xz, clip_1080p.mp4, run.sh; $(du -sh --apparent-size "$dir" | cut -f1) in all"
du -b --apparent-size "$dir"/* | sort -n
