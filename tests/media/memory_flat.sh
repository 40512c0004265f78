#!/bin/sh
# memory_flat.sh LIVECONV [MAX_SECONDS]: `liveconv run` of an endless source
# into FFV1 in Matroska (to a pipe: the encoder and the muxer are the file's,
# no disk fills) until its memory is known to be flat or growing, then Ctrl-C.
#
# Once frames flow (the kernels built, the encoder open) and 5 s more have
# passed, its resident memory is sampled every 0.5 s and a line fitted
# through the samples (least squares); the slope, over the frames written
# meanwhile, is the memory kept per frame. A leak keeps something per frame:
# a bookkeeping entry kept per frame grew by hundreds of MB in two minutes at
# the frame rates reached here (1,000 frames a second on two cores). The run
# is flat once the slope's upper bound (3 standard errors above it) is under
# 0.25 kB a frame, and leaks once its lower bound is over that and the slopes
# of the samples' two halves are too (memory taken once, a step, grows one
# half only), each decided after 15 s of samples at the least; at MAX_SECONDS
# (default 120) the slopes themselves decide. Memory that stays flat is
# decided in about 25 s, a leak of a few hundred bytes a frame or more as
# fast. Exit 77 (SKIP) without an OpenCL device.
liveconv=$1
max_seconds=${2:-120}
limit_bytes_per_frame=256
warm_up_s=5
least_s=15
work=$(mktemp -d "${TMPDIR:-/tmp}/liveconv_memory.XXXXXX")
pid=""
# The endless run goes with the script, however the script ends (a failure,
# ctest's timeout, a signal): before, a failure left it running on.
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 143' TERM HUP
trap 'exit 130' INT
if ! "$liveconv" devices >/dev/null 2>&1; then
  echo "SKIP: no OpenCL device"
  exit 77
fi
"$liveconv" run -i lavfi:testsrc2=size=160x120:rate=25 -o - --container matroska --mask box:3 --variant naive \
  --policy lossless --json-log "$work/stats.jsonl" >/dev/null 2>"$work/stderr" &
pid=$!
now() { awk '{print $1}' /proc/uptime; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null; }
frames() { tail -n 1 "$work/stats.jsonl" 2>/dev/null | sed -n 's/.*"frames_out":\([0-9]*\).*/\1/p'; }
fail_ended() {
  echo "FAIL: liveconv ended: $1"
  cat "$work/stderr"
  exit 1
}
started=$(now)
# Frames flow (the JSON log's first line, a second in): the kernels are built and the encoder open.
until [ "$(frames)" -gt 0 ] 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || fail_ended "before its first frame"
  awk -v s="$started" -v n="$(now)" 'BEGIN { exit !(n - s > 60) }' && fail_ended "no frame in 60 s"
  sleep 0.5
done
sleep "$warm_up_s"
# Samples: seconds, resident kB, frames written; then the verdict on them:
# "flat", "leak", "open" (not known yet) or "stuck" (no frames at the end),
# with the slope's numbers.
: >"$work/samples"
verdict() {
  awk -v limit="$limit_bytes_per_frame" -v least="$least_s" -v last="$1" '
    # The least-squares slope (kB a second) of samples i..j, and its standard error in se.
    function fit(i, j,   k, n, mt, mm, sxx, sxy, slope, sse, r) {
      n = j - i + 1; mt = 0; mm = 0; sxx = 0; sxy = 0; sse = 0
      for (k = i; k <= j; k++) { mt += t[k] / n; mm += m[k] / n }
      for (k = i; k <= j; k++) { sxx += (t[k] - mt) ^ 2; sxy += (t[k] - mt) * (m[k] - mm) }
      slope = sxy / sxx
      for (k = i; k <= j; k++) { r = m[k] - mm - slope * (t[k] - mt); sse += r * r }
      se = n > 2 ? sqrt(sse / (n - 2) / sxx) : 0
      return slope
    }
    { t[NR] = $1; m[NR] = $2; f[NR] = $3 }
    END {
      n = NR; span = t[n] - t[1]; fps = span > 0 ? (f[n] - f[1]) / span : 0
      if (n < 6 || fps <= 0) { print last ? "stuck" : "open"; exit }
      bytes = 1024 / fps  # per kB a second
      half = int(n / 2)
      first = fit(1, half) * bytes; second = fit(half + 1, n) * bytes
      per = fit(1, n) * bytes; low = per - 3 * se * bytes; high = per + 3 * se * bytes
      # A leak grows in both halves; memory taken once (a step) does not.
      grows = first > limit && second > limit
      v = "open"
      if (span >= least && high < limit) v = "flat"
      if (span >= least && low > limit && grows) v = "leak"
      if (last && v == "open") v = per > limit && grows ? "leak" : "flat"
      printf "%s %.1f %.1f %.1f %.0f %.1f %d %.0f %.1f %.1f\n", \
        v, per, low, high, fps, span, n, m[n] - m[1], first, second
    }' "$work/samples"
}
while :; do
  sleep 0.5
  kb=$(rss_kb)
  [ -n "$kb" ] || fail_ended "while its memory was sampled"
  t=$(now)
  written=$(frames)  # empty while the log's line is half written: no sample then
  [ -z "$written" ] || echo "$t $kb $written" >>"$work/samples"
  last=$(awk -v s="$started" -v n="$t" -v max="$max_seconds" 'BEGIN { print (n - s >= max) ? 1 : 0 }')
  set -- $(verdict "$last")
  [ "$1" = open ] || break
done
kill -INT "$pid"
wait "$pid"
if [ "$1" = stuck ]; then
  echo "FAIL: liveconv wrote no frame while its memory was sampled"
  cat "$work/stderr"
  exit 1
fi
echo "RSS in MB every 2 s: $(awk 'NR % 4 == 1 { printf " %d", $2 / 1024 }' "$work/samples")"
echo "over $6 s of samples ($7), $5 frames a second: $2 bytes a frame (3 standard errors: $3 to $4;" \
  "first half $9, second half ${10}); $8 kB more at the end than at the start;" \
  "the limit: $limit_bytes_per_frame bytes a frame"
if [ "$1" = leak ]; then
  echo "FAIL: resident memory grows by $2 bytes a frame (at most $limit_bytes_per_frame allowed)"
  exit 1
fi
echo "PASS: resident memory is flat ($2 bytes a frame)"
