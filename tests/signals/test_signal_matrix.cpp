// One signal promise for every program at every moment: {run, viewer, Qt} x
// {opening a silent FIFO, opening a silent stream, a missing file, playing,
// recording} x {INT, TERM, HUP}, each signal sent 10 ms, 100 ms and 1 s after
// the program was started as a user starts it (its file in bin/, the launcher),
// and no sooner than the launcher's first instruction has run (that it blocks
// the signals before the program: LaunchUi.TheLauncherStartsItsProgramWithTheStopSignalsBlocked);
// the last one for playing and recording no sooner than the program shows it
// plays or records. Each must end with exit 128 + N and the sentence
// "interrupted by ...", leave no part file, and keep the old output or write
// a complete new one (ffprobe decodes it).
//
// A tenth case sends SIGTERM twice at once at the last moment, as `timeout`
// does: one request, the same ending.
//
// A ctest entry per program and state runs its ten cases in turn; the
// windows' share one X server that the entry starts (the signal goes to the
// window program itself, not to a wrapper that would start it later). The
// time from each signal to the exit is printed; only a hang fails on time.
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
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "file_text.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "silent_listener.hpp"
#include "spawn_logged.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr auto kHangLimit = std::chrono::seconds(120);  // catches a hang; no measure of speed
constexpr const char* kOldOutput = "an earlier output that a run must keep unless it finishes a new one\n";

enum class State { SilentFifo, SilentStream, MissingFile, Playing, Recording };
enum class Program { Run, Viewer, Qt };

struct Cell {
  Program program;
  State state;
};

const char* name(Program p) {
  switch (p) {
    case Program::Run: return "run";
    case Program::Viewer: return "viewer";
    case Program::Qt: return "qt";
  }
  return "?";
}

const char* name(State s) {
  switch (s) {
    case State::SilentFifo: return "OpeningASilentFifo";
    case State::SilentStream: return "OpeningASilentStream";
    case State::MissingFile: return "AMissingFile";
    case State::Playing: return "Playing";
    case State::Recording: return "Recording";
  }
  return "?";
}

void PrintTo(const Cell& c, std::ostream* out) {
  *out << name(c.program) << "/" << name(c.state);
}

using liveconv::test::readFile;

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
  return false;
}

// The frames ffprobe decodes in `path` (0 when it cannot read it).
int decodedFrames(const fs::path& path) {
  const std::string command = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                              "stream=nb_read_frames -of csv=p=0 '" + path.string() + "' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return 0;
  char line[64] = {};
  const bool read = std::fgets(line, sizeof line, pipe) != nullptr;
  ::pclose(pipe);
  return read ? std::atoi(line) : 0;
}

// An X server for the entry's windows (Xvfb -displayfd picks a free number),
// with Mesa's software GL as tests/xvfb_run.sh sets it; gone with the entry.
class XServer {
 public:
  XServer() {
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(fds[0]);
      const int devnull = ::open("/dev/null", O_WRONLY);
      ::dup2(devnull, STDERR_FILENO);
      const std::string fd = std::to_string(fds[1]);
      ::execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "960x600x24", "-noreset",
               static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    std::string number;
    char c;
    while (::read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    ::close(fds[0]);
    if (!number.empty()) display_ = ":" + number;
  }
  ~XServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  XServer(const XServer&) = delete;
  XServer& operator=(const XServer&) = delete;
  const std::string& display() const { return display_; }

 private:
  pid_t pid_ = -1;
  std::string display_;
};

// SIGINT, SIGTERM and SIGHUP all blocked (the launcher's first code, the program
// loading) or all caught (the program's first code on), from /proc/PID/status.
bool takesStopSignals(pid_t pid) {
  std::istringstream status(readFile("/proc/" + std::to_string(pid) + "/status"));
  const unsigned long long stop = (1ULL << (SIGINT - 1)) | (1ULL << (SIGTERM - 1)) | (1ULL << (SIGHUP - 1));
  bool taken = false;
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("SigBlk:", 0) != 0 && line.rfind("SigCgt:", 0) != 0) continue;
    const unsigned long long mask = std::strtoull(line.c_str() + 7, nullptr, 16);
    taken = taken || (mask & stop) == stop;
  }
  return taken;
}

class SignalMatrix : public ::testing::TestWithParam<Cell> {};

struct Case {
  int signal;
  milliseconds delay;
  // Sent twice at once, as `timeout` does (to the process, then to its
  // group): still one request, the same ending. (A library's handler that
  // reset itself on the first let the second end the process.)
  bool twice = false;
};

// The program of a cell in this build ("" where the build has none).
std::string programOf(Program program) {
  if (program == Program::Run) return LIVECONV_BIN;
#ifdef LIVECONV_VIEWER_BIN
  if (program == Program::Viewer) return LIVECONV_VIEWER_BIN;
#endif
#ifdef LIVECONV_QT_BIN
  if (program == Program::Qt) return LIVECONV_QT_BIN;
#endif
  return "";
}

// One case's folder and how its program is started: the files it may leave,
// the one that says it plays or records, the old output it must keep.
struct Invocation {
  fs::path dir, log, out, rec;
  std::vector<std::string> args;
  std::set<std::string> allowed = {"home", "program.log"};
  fs::path marker;        // the file that says the program plays or records
  bool keepsOld = false;  // an output was there before
  int fifoWriter = -1;    // the writer that keeps a FIFO open and silent
};

// The source of a cell's state, the silent FIFO's writer opened where it needs one.
std::string sourceOf(State state, Invocation& inv, const SilentListener& stream) {
  switch (state) {
    case State::SilentFifo: {
      const fs::path fifo = inv.dir / "source.fifo";
      EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
      inv.fifoWriter = ::open(fifo.c_str(), O_RDWR);  // a writer that never writes
      inv.allowed.insert("source.fifo");
      return fifo.string();
    }
    case State::SilentStream:
      return stream.url();
    case State::MissingFile:
      return (inv.dir / "missing.mp4").string();
    case State::Playing:
    case State::Recording:
      return "testpattern:320x240";
  }
  return "";
}

Invocation invocationFor(const Cell& cell, const std::string& program, const fs::path& dir,
                         const SilentListener& stream) {
  Invocation inv;
  inv.dir = dir;
  inv.log = dir / "program.log";
  inv.out = dir / "out.mkv";
  inv.rec = dir / "rec.mkv";
  const fs::path script = dir / "script.txt", progress = dir / "progress.jsonl", playing = dir / "playing.png",
                 recording = dir / "recording.png";
  const std::string source = sourceOf(cell.state, inv, stream);
  inv.args = {program};
  if (cell.program == Program::Run) {
    inv.args.insert(inv.args.end(), {"run", "-i", source});
    if (cell.state == State::Playing) {
      inv.args.insert(inv.args.end(), {"--frames", "1000000", "-o", "null"});
    } else {
      writeFile(inv.out, kOldOutput);
      inv.keepsOld = true;
      inv.allowed.insert("out.mkv");
      inv.args.insert(inv.args.end(), {"--frames", "1000000", "-y", "-o", inv.out.string()});
    }
    if (cell.state == State::Playing || cell.state == State::Recording) {
      inv.args.insert(inv.args.end(), {"--json-log", progress.string()});
      inv.allowed.insert("progress.jsonl");
      inv.marker = progress;  // its first line comes once frames have gone through
    }
    return inv;
  }
  if (cell.program == Program::Viewer) inv.args.push_back("--source");
  inv.args.push_back(source);
  if (cell.state == State::Playing) {
    writeFile(script, "1 save-frame " + playing.string() + "\n");
    inv.marker = playing;
  } else if (cell.state == State::Recording) {
    writeFile(script, "1 record " + inv.rec.string() + "\n2 save-frame " + recording.string() + "\n");
    inv.marker = recording;
    inv.allowed.insert("rec.mkv");
  }
  if (!inv.marker.empty()) {
    inv.args.insert(inv.args.end(), {"--script", script.string()});
    inv.allowed.insert({"script.txt", inv.marker.filename().string()});
  }
  return inv;
}

// The test's environment, with the case's own HOME (the windows' settings)
// and, for a window, the test's X server.
std::vector<std::string> environmentFor(const fs::path& dir, const XServer* x) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (entry.rfind("HOME=", 0) != 0 && entry.rfind("XDG_", 0) != 0 && entry.rfind("DISPLAY=", 0) != 0)
      env.push_back(entry);
  }
  env.push_back("HOME=" + (dir / "home").string());
  if (x) env.insert(env.end(), {"DISPLAY=" + x->display(), "LIBGL_ALWAYS_SOFTWARE=1", "QT_QPA_PLATFORM=xcb"});
  return env;
}

// How the program ended after the signal (or before it).
struct Ending {
  bool exited = false, endedFirst = false, waitedForState = false;
  int status = 0;
  double seconds = 0;  // from the signal to the end
};

// The signal at the case's moment: the delay, and for the last one of playing
// and recording the marker too. Also no sooner than the launcher's first code
// has blocked the signals: before it has run an instruction no program can
// take a signal (a loaded machine can leave a process that long unscheduled),
// and that moment is not the program's to choose.
Ending signalAtItsMoment(pid_t child, const Case& c, const fs::path& marker, Clock::time_point started) {
  Ending e;
  const auto poll = [&] {
    if (!e.exited && ::waitpid(child, &e.status, WNOHANG) == child) e.exited = true;
    return e.exited;
  };
  e.waitedForState = c.delay >= milliseconds(1000) && !marker.empty();
  std::this_thread::sleep_until(started + c.delay);
  while (!poll() && !takesStopSignals(child) && Clock::now() - started < kHangLimit)
    std::this_thread::sleep_for(milliseconds(1));
  while (e.waitedForState && !poll() && !fs::exists(marker) && Clock::now() - started < kHangLimit)
    std::this_thread::sleep_for(milliseconds(5));
  e.endedFirst = poll();
  const auto signalled = Clock::now();
  if (!e.endedFirst) ::kill(child, c.signal);
  if (!e.endedFirst && c.twice) ::kill(child, c.signal);
  while (!poll() && Clock::now() - signalled < kHangLimit) std::this_thread::sleep_for(milliseconds(2));
  e.seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
  return e;
}

// Nothing but what the case expects: no part file, no staged temporary; the
// old output kept or the new one complete; a recording complete.
void checkWhatIsLeft(const Invocation& inv, const std::string& said) {
  for (const auto& entry : fs::directory_iterator(inv.dir)) {
    EXPECT_TRUE(inv.allowed.count(entry.path().filename().string()))
        << "left after the signal: " << entry.path() << "\n"
        << said;
  }
  if (inv.keepsOld && readFile(inv.out) != kOldOutput) {
    EXPECT_GT(decodedFrames(inv.out), 0) << "the old output is gone and the new one does not decode: " << said;
  }
  if (fs::exists(inv.rec)) {
    EXPECT_GT(decodedFrames(inv.rec), 0) << "the recording does not decode: " << said;
  }
}

// One signal at one moment: the exit code 128 + N and the sentence, nothing
// lost; a line of the cell's table.
void runCase(const Cell& cell, const std::string& program, const XServer* x, const SilentListener& stream,
             const fs::path& root, const Case& c, std::ostringstream& table) {
  const std::string label = std::string(c.signal == SIGINT    ? "INT"
                                        : c.signal == SIGTERM ? "TERM"
                                                              : "HUP") +
                            " at " + std::to_string(c.delay.count()) + " ms" + (c.twice ? ", twice" : "");
  SCOPED_TRACE(label);
  const fs::path dir =
      root / (std::to_string(c.signal) + "_" + std::to_string(c.delay.count()) + (c.twice ? "_twice" : ""));
  fs::remove_all(dir);
  fs::create_directories(dir / "home");
  const Invocation inv = invocationFor(cell, program, dir, stream);
  const auto started = Clock::now();
  int spawnError = 0;
  const pid_t child = liveconv::test::spawnLogged(inv.args, environmentFor(dir, x), inv.log.string(), dir.string(),
                                                  inv.fifoWriter, &spawnError);
  ASSERT_EQ(spawnError, 0) << "cannot start " << inv.args[0];
  Ending e = signalAtItsMoment(child, c, inv.marker, started);
  if (inv.fifoWriter >= 0) ::close(inv.fifoWriter);
  if (!e.exited) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &e.status, 0);
    ADD_FAILURE() << "still running " << kHangLimit.count() << " s after the signal: " << readFile(inv.log);
    return;
  }
  const std::string said = readFile(inv.log);
  ASSERT_TRUE(WIFEXITED(e.status)) << "ended by signal " << WTERMSIG(e.status) << " (the default action): " << said;
  // `run` answers a missing file at once (exit 7) and may have done so before the
  // signal came: then its own answer stands. Every other cell is still running.
  const bool answeredFirst = cell.program == Program::Run && cell.state == State::MissingFile &&
                             WEXITSTATUS(e.status) == 7 && said.find("does not exist") != std::string::npos;
  if (!answeredFirst) {
    ASSERT_FALSE(e.endedFirst) << "the program ended before the signal, so this case proves nothing: " << said;
    EXPECT_EQ(WEXITSTATUS(e.status), 128 + c.signal) << said;
    EXPECT_NE(said.find(std::string("interrupted by ") + liveconv::media::signalName(c.signal)), std::string::npos)
        << said;
  }
  if (e.waitedForState) {
    EXPECT_TRUE(fs::exists(inv.marker)) << "never reached its state: " << said;
  }
  checkWhatIsLeft(inv, said);
  table << "  " << label << ": exit " << WEXITSTATUS(e.status)
        << (answeredFirst ? " (the missing file's answer, before the signal)" : "") << ", " << e.seconds
        << " s after the signal"
        << (inv.keepsOld ? (readFile(inv.out) == kOldOutput ? ", old output kept" : ", new output complete") : "")
        << (fs::exists(inv.rec) ? ", recording complete" : "") << "\n";
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

TEST_P(SignalMatrix, EverySignalAtEveryMomentEndsWithItsSentenceAndNoFileLost) {
  const Cell cell = GetParam();
  const std::string program = programOf(cell.program);
  if (program.empty()) GTEST_SKIP() << name(cell.program) << " is not part of this build";
  std::unique_ptr<XServer> x;
  if (cell.program != Program::Run) {
    if (!onPath("Xvfb")) GTEST_SKIP() << "no Xvfb: cannot open a window";
    x = std::make_unique<XServer>();
    ASSERT_FALSE(x->display().empty()) << "Xvfb did not start";
  }
  if (!onPath("ffprobe")) GTEST_SKIP() << "no ffprobe: cannot check the files written";
  const SilentListener stream;
  ASSERT_FALSE(stream.url().empty()) << "no socket could listen on 127.0.0.1";
  const fs::path root = fs::path(::testing::TempDir()) / ("signal_matrix_" + std::string(name(cell.program)) + "_" +
                                                          name(cell.state) + "_" + std::to_string(::getpid()));
  std::ostringstream table;
  for (const milliseconds delay : {milliseconds(10), milliseconds(100), milliseconds(1000)})
    for (const int signal : {SIGINT, SIGTERM, SIGHUP})
      runCase(cell, program, x.get(), stream, root, {signal, delay}, table);
  runCase(cell, program, x.get(), stream, root, {SIGTERM, milliseconds(1000), true}, table);
  std::cout << name(cell.program) << " " << name(cell.state) << ":\n" << table.str();
  if (!::testing::Test::HasFailure()) fs::remove_all(root);
}

std::vector<Cell> cells() {
  std::vector<Cell> list;
  for (const Program p : {Program::Run, Program::Viewer, Program::Qt})
    for (const State s :
         {State::SilentFifo, State::SilentStream, State::MissingFile, State::Playing, State::Recording})
      list.push_back({p, s});
  return list;
}

INSTANTIATE_TEST_SUITE_P(EveryProgramAndState, SignalMatrix, ::testing::ValuesIn(cells()),
                         [](const ::testing::TestParamInfo<Cell>& info) {
                           return std::string(name(info.param.program)) + "_" + name(info.param.state);
                         });

}  // namespace
