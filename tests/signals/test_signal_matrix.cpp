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
// A ctest entry per program and state runs its nine cases in turn; the
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
};

TEST_P(SignalMatrix, EverySignalAtEveryMomentEndsWithItsSentenceAndNoFileLost) {
  const Cell cell = GetParam();
  std::string program;
  if (cell.program == Program::Run) program = LIVECONV_BIN;
#ifdef LIVECONV_VIEWER_BIN
  if (cell.program == Program::Viewer) program = LIVECONV_VIEWER_BIN;
#endif
#ifdef LIVECONV_QT_BIN
  if (cell.program == Program::Qt) program = LIVECONV_QT_BIN;
#endif
  if (program.empty()) GTEST_SKIP() << name(cell.program) << " is not part of this build";
  const bool window = cell.program != Program::Run;
  std::unique_ptr<XServer> x;
  if (window) {
    if (!onPath("Xvfb")) GTEST_SKIP() << "no Xvfb: cannot open a window";
    x = std::make_unique<XServer>();
    ASSERT_FALSE(x->display().empty()) << "Xvfb did not start";
  }
  if (!onPath("ffprobe")) GTEST_SKIP() << "no ffprobe: cannot check the files written";

  const SilentListener stream;
  ASSERT_FALSE(stream.url().empty()) << "no socket could listen on 127.0.0.1";
  const fs::path root = fs::path(::testing::TempDir()) /
                        ("signal_matrix_" + std::string(name(cell.program)) + "_" + name(cell.state) + "_" +
                         std::to_string(::getpid()));

  std::vector<Case> cases;
  for (const milliseconds delay : {milliseconds(10), milliseconds(100), milliseconds(1000)})
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) cases.push_back({signal, delay});

  std::ostringstream table;
  for (const Case& c : cases) {
    const std::string label = std::string(c.signal == SIGINT ? "INT" : c.signal == SIGTERM ? "TERM" : "HUP") +
                              " at " + std::to_string(c.delay.count()) + " ms";
    SCOPED_TRACE(label);
    const fs::path dir = root / (std::to_string(c.signal) + "_" + std::to_string(c.delay.count()));
    fs::remove_all(dir);
    fs::create_directories(dir / "home");
    const fs::path fifo = dir / "source.fifo", log = dir / "program.log", out = dir / "out.mkv",
                   rec = dir / "rec.mkv", script = dir / "script.txt", progress = dir / "progress.jsonl",
                   playing = dir / "playing.png", recording = dir / "recording.png";
    std::set<std::string> allowed = {"home", "program.log"};

    // The source, and the writer that keeps a FIFO open and silent.
    std::string source;
    int fifoWriter = -1;
    switch (cell.state) {
      case State::SilentFifo:
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        fifoWriter = ::open(fifo.c_str(), O_RDWR);  // a writer that never writes
        source = fifo.string();
        allowed.insert("source.fifo");
        break;
      case State::SilentStream: source = stream.url(); break;
      case State::MissingFile: source = (dir / "missing.mp4").string(); break;
      case State::Playing:
      case State::Recording: source = "testpattern:320x240"; break;
    }

    std::vector<std::string> args = {program};
    bool keepsOld = false;
    fs::path marker;  // the file that says the program plays or records
    if (cell.program == Program::Run) {
      args.insert(args.end(), {"run", "-i", source});
      if (cell.state == State::Playing) {
        args.insert(args.end(), {"--frames", "1000000", "-o", "null"});
      } else {
        writeFile(out, kOldOutput);
        keepsOld = true;
        allowed.insert("out.mkv");
        args.insert(args.end(), {"--frames", "1000000", "-y", "-o", out.string()});
      }
      if (cell.state == State::Playing || cell.state == State::Recording) {
        args.insert(args.end(), {"--json-log", progress.string()});
        allowed.insert("progress.jsonl");
        marker = progress;  // its first line comes once frames have gone through
      }
    } else {
      if (cell.program == Program::Viewer) args.push_back("--source");
      args.push_back(source);
      if (cell.state == State::Playing) {
        writeFile(script, "1 save-frame " + playing.string() + "\n");
        marker = playing;
      } else if (cell.state == State::Recording) {
        writeFile(script, "1 record " + rec.string() + "\n2 save-frame " + recording.string() + "\n");
        marker = recording;
        allowed.insert("rec.mkv");
      }
      if (!marker.empty()) {
        args.insert(args.end(), {"--script", script.string()});
        allowed.insert({"script.txt", marker.filename().string()});
      }
    }

    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
      const std::string entry = *e;
      if (entry.rfind("HOME=", 0) != 0 && entry.rfind("XDG_", 0) != 0 && entry.rfind("DISPLAY=", 0) != 0)
        env.push_back(entry);
    }
    env.push_back("HOME=" + (dir / "home").string());  // the windows' settings: the case's own
    if (window) env.insert(env.end(), {"DISPLAY=" + x->display(), "LIBGL_ALWAYS_SOFTWARE=1", "QT_QPA_PLATFORM=xcb"});
    const auto started = Clock::now();
    int spawnError = 0;
    const pid_t child = liveconv::test::spawnLogged(args, env, log.string(), dir.string(), fifoWriter, &spawnError);
    ASSERT_EQ(spawnError, 0) << "cannot start " << args[0];

    int status = 0;
    bool exited = false;
    const auto poll = [&] {
      if (!exited && ::waitpid(child, &status, WNOHANG) == child) exited = true;
      return exited;
    };
    // The moment: the delay, and for the last one of playing and recording the marker too.
    // Also no sooner than the launcher's first code has blocked the signals: before it
    // has run an instruction no program can take a signal (a loaded machine can leave
    // a process that long unscheduled), and that moment is not the program's to choose.
    const bool waitsForState = c.delay >= milliseconds(1000) && !marker.empty();
    std::this_thread::sleep_until(started + c.delay);
    while (!poll() && !takesStopSignals(child) && Clock::now() - started < kHangLimit)
      std::this_thread::sleep_for(milliseconds(1));
    while (waitsForState && !poll() && !fs::exists(marker) && Clock::now() - started < kHangLimit)
      std::this_thread::sleep_for(milliseconds(5));
    const bool endedFirst = poll();
    const auto signalled = Clock::now();
    if (!endedFirst) ::kill(child, c.signal);
    while (!poll() && Clock::now() - signalled < kHangLimit) std::this_thread::sleep_for(milliseconds(2));
    const double seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
    if (fifoWriter >= 0) ::close(fifoWriter);
    if (!exited) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      ADD_FAILURE() << "still running " << kHangLimit.count() << " s after the signal: " << readFile(log);
      continue;
    }
    const std::string said = readFile(log);
    ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status) << " (the default action): " << said;
    // `run` answers a missing file at once (exit 7) and may have done so before the
    // signal came: then its own answer stands. Every other cell is still running.
    const bool answeredFirst = cell.program == Program::Run && cell.state == State::MissingFile &&
                               WEXITSTATUS(status) == 7 && said.find("does not exist") != std::string::npos;
    if (!answeredFirst) {
      ASSERT_FALSE(endedFirst) << "the program ended before the signal, so this case proves nothing: " << said;
      EXPECT_EQ(WEXITSTATUS(status), 128 + c.signal) << said;
      EXPECT_NE(said.find(std::string("interrupted by ") + liveconv::media::signalName(c.signal)), std::string::npos)
          << said;
    }
    if (waitsForState) {
      EXPECT_TRUE(fs::exists(marker)) << "never reached its state: " << said;
    }

    // Nothing but what the case expects: no part file, no staged temporary.
    for (const auto& entry : fs::directory_iterator(dir)) {
      EXPECT_TRUE(allowed.count(entry.path().filename().string()))
          << "left after the signal: " << entry.path() << "\n" << said;
    }
    if (keepsOld && readFile(out) != kOldOutput) {
      EXPECT_GT(decodedFrames(out), 0) << "the old output is gone and the new one does not decode: " << said;
    }
    if (fs::exists(rec)) {
      EXPECT_GT(decodedFrames(rec), 0) << "the recording does not decode: " << said;
    }
    table << "  " << label << ": exit " << WEXITSTATUS(status)
          << (answeredFirst ? " (the missing file's answer, before the signal)" : "") << ", " << seconds
          << " s after the signal"
          << (keepsOld ? (readFile(out) == kOldOutput ? ", old output kept" : ", new output complete") : "")
          << (fs::exists(rec) ? ", recording complete" : "") << "\n";
    if (!::testing::Test::HasFailure()) fs::remove_all(dir);
  }
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
