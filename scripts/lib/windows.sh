# Shared by scripts/measure-edits.sh and scripts/measure-stalls.sh (sourced).

# The line that names the machine a measurement ran on; $1: "cold" or "warm".
machine_line() {
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); caches: $1"
}

# window_command BUILD WINDOW SOURCE: sets `bin` and `args` for the viewer
# (which takes --source SOURCE) or Qt (the source alone); returns 1, saying
# so, when that window was not built.
window_command() {
  bin="$1/ui/glfw/liveconv-viewer"
  args=(--source "$3")
  if [ "$2" = qt ]; then
    bin="$1/ui/qt/liveconv-qt"
    args=("$3")
  fi
  [ -x "$bin" ] || { echo "$2: not built ($bin)"; return 1; }
}
