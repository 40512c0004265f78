#!/bin/sh
# Runs a program that opens a window in a virtual X server of its own, with
# Mesa's software GL (QOpenGLWidget and the viewer need GL 3.3, which Qt's
# offscreen platform does not give); without Xvfb it runs on the $DISPLAY it
# was given. Every test that opens a window goes through here; ctest also
# lists the Qt shell's tests through it.
#
#   xvfb_run.sh [--screen WxHxD] PROGRAM [ARGS...]     (screen 1600x1000x24)
#
# Not xvfb-run: `xvfb-run -a` picks a display number that looks free and
# races every other one started at the same moment, so window tests ran one
# at a time. Xvfb -displayfd picks a free number itself and writes it to a
# pipe that this script reads: any number of servers start side by side, and
# each program and its xdotool see only their own window. An Xvfb that does
# not start closes the pipe without a number: one sentence and exit 125.
# The program's exit code is returned as it is; Xvfb goes with this script,
# also when the script is stopped (SIGTERM, SIGINT, SIGHUP: passed on to the
# program, which may finish its files first).
# -noreset: the server stays as it is while no client is connected (between
# xdotool's calls and the window's start), rather than starting over.
screen=1600x1000x24
if [ "$1" = "--screen" ]; then
  screen=$2
  shift 2
fi
export LIBGL_ALWAYS_SOFTWARE=1 QT_QPA_PLATFORM=xcb
if ! command -v Xvfb >/dev/null 2>&1; then
  exec "$@"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/xvfb_run.XXXXXX") || exit 125
xvfb=
program=
stop_xvfb() {
  if [ -n "$xvfb" ]; then
    kill "$xvfb" 2>/dev/null
    wait "$xvfb" 2>/dev/null
  fi
  rm -rf "$dir"
}
# A signal: passed on to the program, whose own exit code then ends the script.
stopped() {  # $1: the signal's name, $2: 128 + its number
  code=$2
  if [ -n "$program" ]; then
    kill -s "$1" "$program" 2>/dev/null
    wait "$program"
    code=$?
  fi
  stop_xvfb
  exit "$code"
}
trap 'stopped TERM 143' TERM
trap 'stopped INT 130' INT
trap 'stopped HUP 129' HUP

mkfifo "$dir/display" || { rm -rf "$dir"; exit 125; }
Xvfb -displayfd 3 -screen 0 "$screen" -noreset 3>"$dir/display" 2>"$dir/Xvfb.log" &
xvfb=$!
if ! read -r number <"$dir/display" || [ -z "$number" ]; then
  echo "xvfb_run.sh: Xvfb did not start, so $1 cannot open a window. Xvfb said:" >&2
  tail -n 4 "$dir/Xvfb.log" >&2
  stop_xvfb
  exit 125
fi
export DISPLAY=":$number"
# In the background, so that the traps above run while it does. A background
# job of sh ignores SIGINT and SIGQUIT and reads /dev/null: the program gets
# the signals' defaults and this script's standard input back.
defaults=
if env --default-signal=INT true 2>/dev/null; then defaults="env --default-signal=INT,QUIT"; fi
exec 4<&0
$defaults "$@" <&4 4<&- &
program=$!
wait "$program"
code=$?
program=
stop_xvfb
exit "$code"
