#!/bin/sh
# Runs a program that opens a window in a virtual X server with Mesa's
# software GL (QOpenGLWidget and the viewer need GL 3.3, which Qt's offscreen
# platform does not give); without xvfb-run it runs on the $DISPLAY it was
# given. Every test that opens a window goes through here; ctest also lists
# the Qt shell's tests through it.
#
#   xvfb_run.sh [--screen WxHxD] PROGRAM [ARGS...]     (screen 1600x1000x24)
#
# -noreset: Xvfb otherwise resets as its last client leaves and sends
# xvfb-run SIGUSR1; a program that ends a moment after it connected (a window
# refusing its first set) lets that signal land on xvfb-run's own clean-up,
# which then takes its removal of the auth folder as failed and exits 5 in
# place of the program's exit code.
screen=1600x1000x24
if [ "$1" = "--screen" ]; then
  screen=$2
  shift 2
fi
export LIBGL_ALWAYS_SOFTWARE=1 QT_QPA_PLATFORM=xcb
if command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 $screen -noreset" "$@"
fi
exec "$@"
