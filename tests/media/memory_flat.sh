#!/bin/sh
# memory_flat.sh LIVECONV [SECONDS]: `liveconv run` of an endless source into
# FFV1 in Matroska (to a pipe: the encoder and the muxer are the file's, no
# disk fills) for SECONDS (default 120), then Ctrl-C. Its resident memory,
# sampled every 2 s, must stay within 50 MB of what it was after 20 s (the
# kernels built, the encoder open): a bookkeeping entry kept per frame grows
# by hundreds of MB at the frame rates reached here. Exit 77 (SKIP) without an
# OpenCL device.
liveconv=$1
seconds=${2:-120}
limit_kb=51200
work=$(mktemp -d "${TMPDIR:-/tmp}/liveconv_memory.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! "$liveconv" devices >/dev/null 2>&1; then
  echo "SKIP: no OpenCL device"
  exit 77
fi
"$liveconv" run -i lavfi:testsrc2=size=160x120:rate=25 -o - --container matroska --mask box:3 --variant naive \
  --policy lossless --json-log "$work/stats.jsonl" >/dev/null 2>"$work/stderr" &
pid=$!
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null; }
elapsed=0 baseline="" highest=0 series=""
while [ "$elapsed" -lt "$seconds" ]; do
  sleep 2
  elapsed=$((elapsed + 2))
  now=$(rss)
  [ -n "$now" ] || { echo "FAIL: liveconv ended after ${elapsed}s"; cat "$work/stderr"; exit 1; }
  series="$series $((now / 1024))"
  if [ -z "$baseline" ] && [ "$elapsed" -ge 20 ]; then baseline=$now; fi
  if [ -n "$baseline" ] && [ "$now" -gt "$highest" ]; then highest=$now; fi
done
kill -INT "$pid"
wait
frames=$(tail -n 1 "$work/stats.jsonl" | sed -n 's/.*"frames_out":\([0-9]*\).*/\1/p')
echo "RSS in MB every 2 s:$series"
echo "after 20 s: $((baseline / 1024)) MB; highest after: $((highest / 1024)) MB; frames written: ${frames:-?} in ${seconds} s"
grow=$((highest - baseline))
if [ "$grow" -gt "$limit_kb" ]; then
  echo "FAIL: resident memory grew by $((grow / 1024)) MB (at most 50 MB allowed)"
  exit 1
fi
echo "PASS: resident memory grew by $((grow / 1024)) MB"
