// A signal in a program's first milliseconds is an interruption like any
// later one: exit 128 + N with the sentence, nothing written. Each program is
// held in its libraries' initialisers (hold_at_start.cpp, preloaded: after
// the executable's first code, before main), signalled there, and let go:
// {liveconv run, liveconv devices, liveconv --ui viewer, liveconv-viewer,
// liveconv-qt} x {INT, TERM, HUP}. A program that caught signals only from main on (or from where
// its work began) was ended there by the default action: no sentence.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "file_text.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "spawn_logged.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Only a hang ends a wait here; no bound is a measure of speed.
constexpr auto kHangLimit = std::chrono::seconds(180);

struct Program {
  std::string name;               // the test's name for it
  std::string executable;         // what program_invocation_short_name says in the process
  std::vector<std::string> argv;  // {} when this build has no such program
  bool writesOutput;              // `-o out.mkv` in its arguments: no file may be left
};

std::vector<Program> programs() {
  std::vector<Program> list = {
      {"run",
       "liveconv",
       {LIVECONV_BIN, "run", "-i", "testpattern:320x240", "--frames", "100000", "-o", "out.mkv"},
       true},
      {"devices", "liveconv", {LIVECONV_BIN, "devices"}, false},
  };
#ifdef LIVECONV_VIEWER_BIN
  // `liveconv --ui viewer`: the window program is not started after the signal.
  list.push_back({"ui_viewer", "liveconv", {LIVECONV_BIN, "--ui", "viewer", "--source", "testpattern"}, false});
  list.push_back(
      {"viewer", "liveconv-viewer", {LIVECONV_XVFB_RUN, LIVECONV_VIEWER_BIN, "--source", "testpattern"}, false});
#endif
#ifdef LIVECONV_QT_BIN
  list.push_back({"qt", "liveconv-qt", {LIVECONV_XVFB_RUN, LIVECONV_QT_BIN, "testpattern"}, false});
#endif
  return list;
}

// GoogleTest names a case's parameters by this (not as bytes).
void PrintTo(const Program& p, std::ostream* out) {
  *out << p.name;
}

using liveconv::test::readFile;

using Param = std::tuple<Program, int>;

class SignalAtStart : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    const auto& [program, signal] = GetParam();
    dir_ = fs::path(::testing::TempDir()) /
           ("signal_at_start_" + program.name + "_" + std::to_string(signal) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "home");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(SignalAtStart, EndsTheProgramWithTheSentenceAndItsExitCode) {
  const auto& [program, signal] = GetParam();
  const fs::path fifo = dir_ / "hold.fifo", log = dir_ / "program.log", pidFile = dir_ / "hold.fifo.pid";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);

  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (entry.rfind("LD_PRELOAD=", 0) != 0 && entry.rfind("HOME=", 0) != 0 && entry.rfind("XDG_", 0) != 0)
      env.push_back(entry);
  }
  env.push_back(std::string("LD_PRELOAD=") + LIVECONV_HOLD_LIBRARY);
  env.push_back("LIVECONV_HOLD_FIFO=" + fifo.string());
  env.push_back("LIVECONV_HOLD_PROGRAM=" + program.executable);
  env.push_back("HOME=" + (dir_ / "home").string());  // the windows' settings and caches: the test's own
  int spawnError = 0;
  const pid_t child = liveconv::test::spawnLogged(program.argv, env, log.string(), dir_.string(), -1, &spawnError);
  ASSERT_EQ(spawnError, 0) << "cannot start " << program.argv[0];

  int status = 0;
  bool exited = false;
  const auto started = Clock::now();
  // True once `done` says so; false when the program ended first or at the hang limit.
  const auto waitFor = [&](auto done) {
    for (;;) {
      if (done()) return true;
      if (!exited && ::waitpid(child, &status, WNOHANG) == child) exited = true;
      if (done()) return true;
      if (exited || Clock::now() - started > kHangLimit) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  };
  // Held: the program's first code has run, its libraries are starting.
  const bool held = waitFor([&] { return fs::exists(pidFile); });
  pid_t held_pid = 0;
  if (held) std::ifstream(pidFile) >> held_pid;
  if (held && held_pid > 0) {
    ::kill(held_pid, signal);
    // Taken (none pending), still in the libraries' initialisers; then let go.
    const std::string statusPath = "/proc/" + std::to_string(held_pid) + "/status";
    waitFor([&] {
      const std::string s = readFile(statusPath);
      return s.empty() || (s.find("\nSigPnd:\t0000000000000000") != std::string::npos &&
                           s.find("\nShdPnd:\t0000000000000000") != std::string::npos);
    });
    // The writer opens once the program reads the FIFO (it may not have opened
    // it yet: ENXIO, try again); a program the signal ended never will.
    waitFor([&] {
      const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (writer >= 0) ::close(writer);
      const std::string s = readFile(statusPath);
      return writer >= 0 || s.empty() || s.find("\nState:\tZ") != std::string::npos;
    });
  }
  if (!waitFor([&] { return exited; })) {
    // Nothing left behind: the held program (a window's is xvfb_run.sh's child), then the
    // script, which ends its X server on SIGTERM.
    if (held_pid > 0 && held_pid != child) ::kill(held_pid, SIGKILL);
    ::kill(child, SIGTERM);
    for (int i = 0; i < 200 && ::waitpid(child, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    FAIL() << program.name << " did not end within " << kHangLimit.count() << " s of the signal: " << readFile(log);
  }
  ASSERT_TRUE(held) << program.name << " never reached its libraries' initialisers: " << readFile(log);
  const std::string said = readFile(log);
  ASSERT_TRUE(WIFEXITED(status)) << program.name << " was ended by signal " << WTERMSIG(status)
                                 << " (the default action: the signal was not caught yet): " << said;
  EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << said;
  EXPECT_NE(said.find(std::string("interrupted by ") + liveconv::media::signalName(signal)), std::string::npos) << said;
  if (program.writesOutput) {
    for (const auto& entry : fs::directory_iterator(dir_)) {
      EXPECT_EQ(entry.path().filename().string().rfind("out", 0), std::string::npos)
          << "written after the signal: " << entry.path() << "\n"
          << said;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryProgram, SignalAtStart,
    ::testing::Combine(::testing::ValuesIn(programs()), ::testing::Values(SIGINT, SIGTERM, SIGHUP)),
    [](const ::testing::TestParamInfo<Param>& info) {
      const int s = std::get<1>(info.param);
      return std::get<0>(info.param).name + "_" + (s == SIGINT ? "INT" : s == SIGTERM ? "TERM" : "HUP");
    });

}  // namespace
