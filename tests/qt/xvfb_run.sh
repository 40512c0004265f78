#!/bin/sh
# Runs a Qt test program in a virtual X server with Mesa's software GL:
# QOpenGLWidget needs a GL 3.3 context, which the offscreen platform does not
# give. ctest uses it both to list the tests and to run each one. Without
# xvfb-run the program runs on the $DISPLAY it was given.
export LIBGL_ALWAYS_SOFTWARE=1 QT_QPA_PLATFORM=xcb
if command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$@"
fi
exec "$@"
