#include "liveconv/media/stop_signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>

namespace liveconv::media {
namespace {

std::atomic<bool> gInterrupted{false};
std::atomic<int> gSignal{0};  // the signal that interrupted
int gInterruptDepth = 0;      // InterruptScopes alive; changed on the main thread only
constexpr int kHandledSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction gPreviousActions[3];
int gWake[2] = {-1, -1};  // the self-pipe: the handler writes, event loops read

std::atomic<long long> gFirstSignalNs{0};

long long monotonicNs() {  // clock_gettime is async-signal-safe
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

// The first signal asks for a clean finish. Another one (a second Ctrl-C) ends
// the process at once, unless it comes within half a second of the first: the
// same request delivered twice, as `timeout` does (to the process, then to its
// process group) or a terminal that closes (SIGHUP, then SIGTERM).
extern "C" void onInterruptSignal(int signal) {
  const long long now = monotonicNs();
  long long none = 0;
  if (gFirstSignalNs.compare_exchange_strong(none, now)) {
    gSignal = signal;
    gInterrupted = true;
    if (gWake[1] >= 0) {
      const int saved = errno;
      const char byte = 1;
      (void)!::write(gWake[1], &byte, 1);
      errno = saved;
    }
    return;
  }
  if (now - gFirstSignalNs.load() < 500000000LL) return;
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// The first scope in: the handlers and the self-pipe. Plain C and POSIX calls
// only: catchStopSignalsFromTheStart runs it before the C++ runtime has started.
void enterInterruptScope() {
  if (gInterruptDepth++ != 0) return;
  gInterrupted = false;
  gSignal = 0;
  gFirstSignalNs = 0;
  if (::pipe2(gWake, O_CLOEXEC | O_NONBLOCK) != 0) gWake[0] = gWake[1] = -1;
  struct sigaction action {};
  action.sa_handler = onInterruptSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // calls the signal cuts short go on; the work asks interruptRequested()
  for (int k = 0; k < 3; ++k) sigaction(kHandledSignals[k], &action, &gPreviousActions[k]);
}

}  // namespace

InterruptScope::InterruptScope() {
  enterInterruptScope();
}

void catchStopSignalsFromTheStart() {
  enterInterruptScope();  // never left: the scopes the work opens nest in it
  // The launcher in bin/ (app/launcher.cpp) and `liveconv --ui` start a program
  // with these blocked: one that came while its libraries loaded is pending, and
  // is taken here, by the handler just installed.
  sigset_t stop;
  sigemptyset(&stop);
  for (const int signal : kHandledSignals) sigaddset(&stop, signal);
  sigprocmask(SIG_UNBLOCK, &stop, nullptr);
}

int reportInterruption(const char* program, const std::string& detail) {
  std::fprintf(stderr, "%s: interrupted by %s%s.\n", program, signalName(interruptSignal()), detail.c_str());
  return interruptExitCode();
}

int finishInterrupted(const char* program, int code) {
  if (!interruptRequested() || code == interruptExitCode()) return code;
  return reportInterruption(program);
}

InterruptScope::~InterruptScope() {
  if (--gInterruptDepth != 0) return;
  for (int k = 0; k < 3; ++k) sigaction(kHandledSignals[k], &gPreviousActions[k], nullptr);
  for (int& fd : gWake) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
}

bool interruptRequested() {
  return gInterrupted;
}

int interruptSignal() {
  return gSignal;
}

const char* signalName(int signal) {
  switch (signal) {
    case SIGINT:
      return "Ctrl-C (SIGINT)";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP (the terminal closed)";
    default:
      return "a signal";
  }
}

int interruptExitCode() {
  return 128 + (interruptSignal() > 0 ? interruptSignal() : SIGINT);
}

void writeFailuresAreErrors() {
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
}

int interruptWakeFd() {
  return gWake[0];
}

}  // namespace liveconv::media
