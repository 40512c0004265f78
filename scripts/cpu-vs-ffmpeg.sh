#!/usr/bin/env bash
# One run, one machine: liveconv on the default OpenCL device (PoCL here)
# against FFmpeg's own `convolution` filter, both filtering the same 1280x720
# clip (the bundled clip scaled up) with the same non-separable 7x7 mask, both decoding it. Also
# prints decode-only time as the reference point. Needs the media build.
# Usage: scripts/cpu-vs-ffmpeg.sh [build-dir]
set -euo pipefail
build="${1:-build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clip="$tmp/clip720.mp4"
ffmpeg -v error -stream_loop 2 -i assets/city_320x180.mp4 -vf scale=1280:720 -frames:v 300 -c:v libx264 -crf 18 "$clip"
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$clip")
# A non-separable integer 7x7 mask (the bench's pattern), so neither side can take a separable shortcut.
coeffs=(); sum=0
for j in $(seq 0 6); do for i in $(seq 0 6); do c=$(( (i * 7 + j * 13 + i * j) % 9 + 1 )); coeffs+=("$c"); sum=$((sum + c)); done; done
ffmat="${coeffs[*]}"
spec="7x7:$(IFS=,; echo "${coeffs[*]}");divisor=$sum"
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
t_decode=$(seconds ffmpeg -v error -threads 2 -i "$clip" -f null -)
t_ffmpeg=$(seconds ffmpeg -v error -threads 2 -i "$clip" -vf "format=gbrp,convolution=0m='$ffmat':1m='$ffmat':2m='$ffmat':0rdiv=1/$sum:1rdiv=1/$sum:2rdiv=1/$sum" -f null -)
"$build/app/liveconv" run -i "$clip" -o null --mask "$spec" --frames 10 >/dev/null 2>&1  # auto races once, cached
t_liveconv=$(seconds "$build/app/liveconv" run -i "$clip" -o null --mask "$spec")
fps() { echo "scale=1; $frames / $1" | bc -l; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "clip: 1280x720, $frames frames (H.264); mask: non-separable integer 7x7, divisor $sum"
echo "decode only (ffmpeg -f null):            $(fps "$t_decode") frames/s"
echo "ffmpeg convolution filter (gbrp, 7x7):   $(fps "$t_ffmpeg") frames/s"
echo "liveconv run -o null (rgba, auto, $("$build/app/liveconv" devices | grep '^  \*' | sed 's/.*) //;s/  \[.*//')): $(fps "$t_liveconv") frames/s"
echo "ratio liveconv / ffmpeg convolution:     $(echo "scale=2; $t_ffmpeg / $t_liveconv" | bc -l)"
