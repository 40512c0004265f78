#!/usr/bin/env bash
# One run, one machine: liveconv on the default OpenCL device (PoCL here)
# against FFmpeg's own `convolution` filter, both filtering the same 1280x720
# clip (the bundled clip scaled up) with a 7x7 box, both decoding it. Also
# prints decode-only time as the reference point. Needs the media build.
# Usage: scripts/cpu-vs-ffmpeg.sh [build-dir]
set -euo pipefail
build="${1:-build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clip="$tmp/clip720.mp4"
ffmpeg -v error -stream_loop 2 -i assets/city_320x180.mp4 -vf scale=1280:720 -frames:v 300 -c:v libx264 -crf 18 "$clip"
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$clip")
ones=$(printf '1 %.0s' $(seq 49) | sed 's/ $//')
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
t_decode=$(seconds ffmpeg -v error -threads 2 -i "$clip" -f null -)
t_ffmpeg=$(seconds ffmpeg -v error -threads 2 -i "$clip" -vf "format=gbrp,convolution=0m='$ones':1m='$ones':2m='$ones':0rdiv=1/49:1rdiv=1/49:2rdiv=1/49" -f null -)
"$build/app/liveconv" run -i "$clip" -o null --mask box:7 --frames 10 >/dev/null 2>&1  # auto races once, cached
t_liveconv=$(seconds "$build/app/liveconv" run -i "$clip" -o null --mask box:7)
fps() { echo "scale=1; $frames / $1" | bc -l; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "clip: 1280x720, $frames frames (H.264); mask 7x7 box"
echo "decode only (ffmpeg -f null):            $(fps "$t_decode") frames/s"
echo "ffmpeg convolution filter (gbrp, 7x7):   $(fps "$t_ffmpeg") frames/s"
echo "liveconv run -o null (rgba, auto, $("$build/app/liveconv" devices | grep '^  \*' | sed 's/.*) //;s/  \[.*//')): $(fps "$t_liveconv") frames/s"
echo "ratio liveconv / ffmpeg convolution:     $(echo "scale=2; $t_ffmpeg / $t_liveconv" | bc -l)"
