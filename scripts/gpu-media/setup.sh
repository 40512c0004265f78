# Sourced by the bundle's scripts (run.sh, check-hwaccel.sh): unpacks the
# FFmpeg libraries, registers NVIDIA's OpenCL with the ICD loader, and defines
# clipPath (a clip of the bundle by name, unpacked where it is packed) and
# loopList (an ffconcat list that plays a clip N times). Sets bin and dev.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="${TMPDIR:-/tmp}/liveconv-bundle"
mkdir -p "$work/lib" "$work/clips"
[ -f "$work/lib/.unpacked" ] || { tar -xJf "$here/lib.tar.xz" -C "$work/lib" && touch "$work/lib/.unpacked"; } || exit 1
export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -d /etc/OpenCL/vendors ] && [ -w /etc/OpenCL/vendors ] && ! ls /etc/OpenCL/vendors/*nvidia* >/dev/null 2>&1 &&
  ldconfig -p 2>/dev/null | grep -q libnvidia-opencl.so.1; then
  echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$work/cache}"
bin="$here/liveconv"
dev="${LIVECONV_GPU:-nvidia}"

clipPath() {
  local f
  if [ "$1" = yuyv422_1080p ]; then  # made here from the 1080p clip: raw yuyv422 in NUT, as a webcam sends
    f="$work/clips/yuyv422_1080p.nut"
    [ -f "$f" ] || "$bin" run -i "$here/clips/h264_1080p.mp4" -o "$f" -y --mask identity --codec rawvideo \
      --pix-fmt yuyv422 --quiet || return 1
    echo "$f"
    return 0
  fi
  for f in "$here/clips/$1".*; do
    case "$f" in
      *.xz)
        local plain="$work/clips/$(basename "${f%.xz}")"
        [ -f "$plain" ] || xz -dc "$f" >"$plain" || return 1
        echo "$plain"
        return 0
        ;;
      *)
        [ -f "$f" ] && echo "$f" && return 0
        ;;
    esac
  done
  echo "no clip $1 in $here/clips" >&2
  return 1
}

# The concat demuxer takes plain relative names only: a link beside the list.
loopList() {
  local src="$1" n="$2" name
  name=$(basename "$src")
  ln -sf "$src" "$work/clips/loop-$name"
  {
    echo "ffconcat version 1.0"
    for _ in $(seq "$n"); do echo "file loop-$name"; done
  } >"$work/clips/$name.ffconcat"
  echo "$work/clips/$name.ffconcat"
}
