// One stop path for every program (`run`, `bench`, both windows): SIGINT,
// SIGTERM and SIGHUP while an InterruptScope is alive set a flag that
// interruptRequested() reads, so the work ends at once and what is being
// written is finished properly; the exit code is 128 + interruptSignal(). A
// second signal half a second or more after the first ends the process at
// once (one within half a second is the same request delivered twice, as
// `timeout` and a closing terminal do). Plain POSIX: no FFmpeg, no toolkit.
#pragma once

namespace liveconv::app {

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

// Every program calls this first: a write to a pipe whose reader went away
// (`liveconv run ... | head`) or past the file size limit (`ulimit -f`) fails
// with EPIPE or EFBIG, which the output reports as the write error it is
// (exit 8, its staged file removed), instead of the signal (SIGPIPE, SIGXFSZ)
// killing the process half-way through a file.
void writeFailuresAreErrors();

}  // namespace liveconv::app
