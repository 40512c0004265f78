#include "liveconv/media/stop_signals.hpp"

#include <fcntl.h>
#include <pthread.h>
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
std::atomic<int> gFirstSender{0};  // the process that sent the first signal (kill, timeout); 0 for the terminal

long long monotonicNs() {  // clock_gettime is async-signal-safe
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

// The process that sent `info` with kill(2), 0 for one the kernel sent (the
// terminal's Ctrl-C and hang-up).
int senderOf(const siginfo_t* info) {
  return info && info->si_code == SI_USER ? static_cast<int>(info->si_pid) : 0;
}

sigset_t stopSignalSet() {
  sigset_t stop;
  sigemptyset(&stop);
  for (const int signal : kHandledSignals) sigaddset(&stop, signal);
  return stop;
}

// The first signal asks for a clean finish. Another one (a second Ctrl-C) ends
// the process at once, unless it is the same request delivered twice: the same
// signal sent again by the same process within five seconds (`timeout` sends
// it to the process, then to its process group), or any within half a second
// of the first (a terminal that closes sends SIGHUP, then its shell SIGTERM).
// The times are when the signal is taken, not when it was sent: on a loaded
// machine the second delivery of `timeout` can come more than half a second
// after the first was taken. Async-signal-safe: the handler calls it too.
void takeStopSignal(int signal, int sender) {
  const long long now = monotonicNs();
  long long none = 0;
  if (gFirstSignalNs.compare_exchange_strong(none, now)) {
    gSignal = signal;
    gFirstSender = sender;
    gInterrupted = true;
    if (gWake[1] >= 0) {
      const int saved = errno;
      const char byte = 1;
      (void)!::write(gWake[1], &byte, 1);
      errno = saved;
    }
    return;
  }
  const long long since = now - gFirstSignalNs.load();
  if (since < 500000000LL) return;
  if (sender != 0 && sender == gFirstSender.load() && signal == gSignal.load() && since < 5000000000LL) return;
  // The default action, taken in this thread: the process ends of the signal.
  std::signal(signal, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal);
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  std::raise(signal);
}

extern "C" void onInterruptSignal(int signal, siginfo_t* info, void*) {
  takeStopSignal(signal, senderOf(info));
}

// The programs' signal thread: with the stop signals blocked in every thread,
// the kernel keeps each one pending until this thread takes it. No handler
// runs, so none that a library installs over ours (LLVM's, in PoCL and
// llvmpipe, once they compile: it resets itself on delivery, and a second
// signal in that instant ended the process) ever sees them.
void* stopSignalThread(void*) {
  pthread_setname_np(pthread_self(), "lc-signals");
  const sigset_t stop = stopSignalSet();
  for (;;) {
    siginfo_t info{};
    const int signal = sigwaitinfo(&stop, &info);
    if (signal > 0) takeStopSignal(signal, senderOf(&info));
  }
  return nullptr;
}

// The first scope in: the handlers and the self-pipe. Plain C and POSIX calls
// only: catchStopSignalsFromTheStart runs it before the C++ runtime has started.
void enterInterruptScope() {
  if (gInterruptDepth++ != 0) return;
  gInterrupted = false;
  gSignal = 0;
  gFirstSignalNs = 0;
  gFirstSender = 0;
  if (::pipe2(gWake, O_CLOEXEC | O_NONBLOCK) != 0) gWake[0] = gWake[1] = -1;
  struct sigaction action {};
  action.sa_sigaction = onInterruptSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_SIGINFO;  // calls the signal cuts short go on; the work asks interruptRequested()
  for (int k = 0; k < 3; ++k) sigaction(kHandledSignals[k], &action, &gPreviousActions[k]);
}

}  // namespace

InterruptScope::InterruptScope() {
  enterInterruptScope();
}

void catchStopSignalsFromTheStart() {
  enterInterruptScope();  // never left: the scopes the work opens nest in it
  // Blocked from here on, in this thread and every thread it starts, and taken
  // by the signal thread. The launcher in bin/ (app/launcher.cpp) and
  // `liveconv --ui` start a program with them blocked already: one that came
  // while its libraries loaded is pending, and the thread takes it at once.
  // A thread this early is plain libc (pthread_create, sigwaitinfo): the C++
  // runtime and the other libraries have not started.
  const sigset_t stop = stopSignalSet();
  sigprocmask(SIG_BLOCK, &stop, nullptr);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  const bool started = pthread_create(&thread, &attributes, stopSignalThread, nullptr) == 0;
  pthread_attr_destroy(&attributes);
  if (!started) sigprocmask(SIG_UNBLOCK, &stop, nullptr);  // no thread: the handler takes them
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
