// How the media tests wait: for an event (a line in a log, a pipe emptied or
// filled, a signal taken, an exit, a thread asleep), each wait with one limit
// that only catches a hang, never for a guessed time. The processes they
// watch (liveconv, script(1)) are started here without a shell holding their
// pipes.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <thread>

namespace liveconv::media::test_media {

// Long enough for any wait on a loaded two-core machine; only a hang reaches it.
constexpr double kHangLimitS = 60;

// Polls `happened` until it is true, or false once `limitS` has passed.
template <class Event>
bool waitUntil(Event happened, double limitS = kHangLimitS) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(limitS);
  while (!happened()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

inline std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Starts `command` (through sh, which execs it: the pid is the command's):
// standard input and output on the descriptors given (-1: /dev/null and
// `logPath`), standard error to `logPath`; no other descriptor of this test.
inline pid_t startProcess(const std::string& command, int stdinFd, int stdoutFd, const std::string& logPath) {
  const std::string script = "exec " + command;
  const char* const argv[] = {"sh", "-c", script.c_str(), nullptr};
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  // The child: async-signal-safe calls only, up to exec.
  const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int null = ::open("/dev/null", O_RDWR);
  ::dup2(stdinFd >= 0 ? stdinFd : null, 0);
  ::dup2(stdoutFd >= 0 ? stdoutFd : log, 1);
  ::dup2(log, 2);
  ::closefrom(3);
  ::signal(SIGPIPE, SIG_DFL);
  ::execv("/bin/sh", const_cast<char* const*>(argv));
  ::_exit(127);
}

// The process's wait status once it has ended, or -1 if it is still running
// after `limitS` (then it is killed, so that no test leaves one behind).
inline int waitExit(pid_t pid, double limitS = kHangLimitS) {
  int status = 0;
  if (waitUntil([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, limitS)) return status;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

inline bool running(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) == 0;
}

// Whether the process has taken every signal sent to it (none pending: its handler ran).
inline bool signalsTaken(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if ((line.rfind("SigPnd:", 0) == 0 || line.rfind("ShdPnd:", 0) == 0) &&
        line.find_first_not_of("0", line.find_first_not_of(" \t", 7)) != std::string::npos)
      return false;
  return true;
}

// Whether thread `tid` of this process sleeps (waits on a condition or a lock), as /proc says.
inline bool asleep(pid_t tid) {
  const std::string stat = fileText("/proc/self/task/" + std::to_string(tid) + "/stat");
  const auto name = stat.rfind(')');  // the state follows the thread's name: "TID (NAME) S ..."
  return name != std::string::npos && name + 2 < stat.size() && stat[name + 2] == 'S';
}

// Bytes written into a pipe and not yet read (either end).
inline int bytesInPipe(int fd) {
  int bytes = -1;
  return ::ioctl(fd, FIONREAD, &bytes) == 0 ? bytes : -1;
}

// Whether a thread of the process waits in write(2) on its descriptor `fd`
// (a pipe no one reads from, once full): the system call it is blocked in,
// or where the kernel holds it (a pipe's pages may be part filled, so the
// bytes in a full pipe are not its size).
inline bool blockedWriting(pid_t pid, int fd) {
  char wantedCall[32];
  std::snprintf(wantedCall, sizeof wantedCall, "%ld 0x%x ", static_cast<long>(SYS_write), fd);
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  std::error_code ignored;
  for (const auto& task : std::filesystem::directory_iterator(tasks, ignored)) {
    const std::string where = fileText(task.path().string() + "/wchan");
    if (where.find("pipe_write") != std::string::npos ||
        fileText(task.path().string() + "/syscall").rfind(wantedCall, 0) == 0)
      return true;
  }
  return false;
}

// SIGPIPE ignored while it lives: a write to a pipe whose reader ended says EPIPE.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~IgnoreSigpipe() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace liveconv::media::test_media
