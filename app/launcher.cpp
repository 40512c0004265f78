// The file the user runs (bin/liveconv, bin/liveconv-viewer, bin/liveconv-qt):
// it blocks SIGINT, SIGTERM and SIGHUP and executes the program itself, which
// lies at LIVECONV_PROGRAM, relative to this file's folder (libexec/liveconv).
// A blocked signal stays pending across exec, and the program's first code
// (catchStopSignalsFromTheStart, from its .preinit_array) takes it once its
// handlers are in place: a signal at any moment, the first milliseconds
// included, is an interruption with its sentence and exit code 128 + N.
//
// Why a second file: before a program's first instruction, the dynamic loader
// maps and relocates every library it needs (about 136 for the CLI: FFmpeg's,
// OpenCL's, the C++ runtime; more for the windows), 20-40 ms on a 2-core
// machine, during which a signal ends the process by the default action,
// without a word. This file needs the C library alone: its first call comes
// within about a millisecond of the exec (measured: a signal 1 ms after the
// start is taken), where the program's own first code came after 20-30 ms.
//
// It keeps the process (exec, not a child): the pid, the exit code, the
// terminal and argv[0] are the user's, and the program's name in ps is its own.
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <unistd.h>

#ifndef LIVECONV_PROGRAM
#error "LIVECONV_PROGRAM: the program's path relative to the launcher's folder"
#endif

namespace {

void blockStopSignals() {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGHUP);
  sigprocmask(SIG_BLOCK, &stop, nullptr);
}

// From the executable's .preinit_array: before the initialisers of any library
// (the C library's, and those a user preloads with LD_PRELOAD), so that only
// the dynamic loader's mapping of the C library comes before.
__attribute__((used, section(".preinit_array"))) void (*const blockFirst)(int, char**, char**) =
    [](int, char**, char**) { blockStopSignals(); };

// The folder this file was started from, with its trailing slash: /proc/self/exe,
// else argv[0] when it names a path, else the PATH entry that holds argv[0].
bool ownFolder(const char* argv0, char (&folder)[PATH_MAX]) {
  ssize_t n = ::readlink("/proc/self/exe", folder, sizeof folder - 1);
  if (n <= 0) {
    if (std::strchr(argv0, '/')) {
      n = static_cast<ssize_t>(std::strlen(argv0));
      if (n >= static_cast<ssize_t>(sizeof folder)) return false;
      std::memcpy(folder, argv0, static_cast<size_t>(n));
    } else {
      const char* path = std::getenv("PATH");
      n = 0;
      for (const char* entry = path ? path : ""; *entry && n == 0;) {
        const char* end = std::strchr(entry, ':');
        const size_t len = end ? static_cast<size_t>(end - entry) : std::strlen(entry);
        char candidate[PATH_MAX];
        if (len > 0 && std::snprintf(candidate, sizeof candidate, "%.*s/%s", static_cast<int>(len), entry, argv0) <
                           static_cast<int>(sizeof candidate) &&
            ::access(candidate, X_OK) == 0) {
          n = static_cast<ssize_t>(std::strlen(candidate));
          std::memcpy(folder, candidate, static_cast<size_t>(n));
        }
        entry = end ? end + 1 : entry + len;
      }
      if (n == 0) return false;
    }
  }
  folder[n] = '\0';
  char* slash = std::strrchr(folder, '/');
  if (!slash) return false;
  slash[1] = '\0';
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  blockStopSignals();  // done already from .preinit_array; here as well should a loader not run it

  const char* name = argc > 0 && argv[0] ? argv[0] : "liveconv";
  if (const char* slash = std::strrchr(name, '/')) name = slash + 1;
  char folder[PATH_MAX];
  char program[PATH_MAX];
  if (!ownFolder(argc > 0 && argv[0] ? argv[0] : "", folder) ||
      std::snprintf(program, sizeof program, "%s%s", folder, LIVECONV_PROGRAM) >= static_cast<int>(sizeof program)) {
    std::fprintf(stderr, "%s: cannot find the folder this program was started from.\n", name);
    return 127;
  }
  char* fallback[] = {program, nullptr};
  ::execv(program, argc > 0 ? argv : fallback);
  // A signal that came meanwhile stays blocked: the sentence below is the answer.
  const int error = errno;
  std::fprintf(stderr, "%s: cannot start %s: %s.\n", name, program, std::strerror(error));
  return error == ENOENT ? 127 : 126;
}
