// One stop path for every program (`run`, `bench`, both windows): SIGINT,
// SIGTERM and SIGHUP while an InterruptScope is alive set a flag that
// interruptRequested() reads, so the work ends at once and what is being
// written is finished properly; the exit code is 128 + interruptSignal(). A
// second signal (a second Ctrl-C) ends the process at once, unless it is the
// same request delivered twice: within half a second of the first (a closing
// terminal), or the same signal from the same process within five seconds
// (`timeout`). Plain POSIX: no FFmpeg, no toolkit.
#pragma once

#include <string>

namespace liveconv::media {

class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

bool interruptRequested();
// The signal that interrupted (SIGINT, SIGTERM, SIGHUP), 0 when none; the exit code is 128 + it.
int interruptSignal();
const char* signalName(int signal);  // "Ctrl-C (SIGINT)", "SIGTERM", ...
// 128 + interruptSignal(), as a shell reports a process the signal ended (130 when none was seen).
int interruptExitCode();

// A descriptor that becomes readable when the first signal arrives (a byte
// is written to it from the handler), for event loops that sleep in select or
// poll (Qt's QSocketNotifier). Valid while a scope is alive; -1 otherwise.
int interruptWakeFd();

// Catches SIGINT, SIGTERM and SIGHUP from the program's first instruction on,
// for the process's whole life: a signal in its first milliseconds (the
// libraries still starting, the options being read, the device opening) is
// an interruption like any later one, where it used to end the process by the
// default action, without a sentence. Each program calls it from its
// executable's .preinit_array (LIVECONV_CATCH_STOP_SIGNALS_FROM_THE_START),
// which runs before the libraries' initialisers and main; only the dynamic
// loader's mapping of the libraries comes before, and the launcher the user
// runs (app/launcher.cpp) holds the signals blocked across it. They stay
// blocked in every thread, and a thread of its own ("lc-signals", started
// here) takes them, so a handler a library installs later (LLVM's, in PoCL and
// llvmpipe) never runs. The scopes the work opens later nest in it, so a
// signal that came first is still asked for there.
void catchStopSignalsFromTheStart();

// The one sentence every program says when a stop signal ended its work:
// "PROGRAM: interrupted by SIGNAL" + `detail` (what it cut short or kept:
// "; 12 frames were written and the output was finished properly", " while
// the input was being opened; nothing was written") + ".", on standard error.
// Returns interruptExitCode(), the exit code that goes with it.
int reportInterruption(const char* program, const std::string& detail = "");

// What a program's main returns: `code` when no signal came or the program has
// already said so (it returned 128 + N); else, for work that ended without
// asking (a listing, a usage error, a window that never opened), the sentence
// "PROGRAM: interrupted by SIGNAL." and 128 + N.
int finishInterrupted(const char* program, int code);

// Every program calls this first: a write to a pipe whose reader went away
// (`liveconv run ... | head`) or past the file size limit (`ulimit -f`) fails
// with EPIPE or EFBIG, which the output reports as the write error it is
// (exit 8, its staged file removed), instead of the signal (SIGPIPE, SIGXFSZ)
// killing the process half-way through a file.
void writeFailuresAreErrors();

}  // namespace liveconv::media

// In each program's main file (outside any namespace): catchStopSignalsFromTheStart
// as the executable's first code (.preinit_array runs before the libraries'
// initialisers). An executable only: a shared library has no .preinit_array.
#define LIVECONV_CATCH_STOP_SIGNALS_FROM_THE_START                                                \
  __attribute__((used, section(".preinit_array"))) static void (*const liveconvCatchStopSignals)( \
      int, char**, char**) = [](int, char**, char**) { liveconv::media::catchStopSignalsFromTheStart(); };
