// Both windows driven by the same `--script` under Xvfb, read back through
// `--stats-json`: every live edit reaches the picture within a few frames,
// a mask edit that rules out the variant lands on `auto` and says so, a
// refused script line and a source that cannot open are messages, and S
// writes the filtered frame at its own size. Without Xvfb (and no $DISPLAY)
// or without an OpenCL device: a visible SKIP.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "feed/first_launch_helper.hpp"
#include "file_text.hpp"
#include "full_disk.hpp"
#include "liveconv/autotune.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/variants.hpp"
#include "png/png_io.hpp"
#include "silent_listener.hpp"

namespace {

struct Window {
  const char* name;
  const char* binary;
  const char* sourceOption;  // both take the spec alone, as `liveconv run` does (the viewer also --source SPEC)
};

void PrintTo(const Window& w, std::ostream* os) { *os << w.name; }

std::vector<Window> windows() {
  std::vector<Window> w{{"viewer", LIVECONV_VIEWER_BIN, ""}};
#ifdef LIVECONV_QT_BIN
  w.push_back({"qt", LIVECONV_QT_BIN, ""});
#endif
  return w;
}

// A virtual X server of its own for each window (tests/xvfb_run.sh), so the
// tests run side by side; without Xvfb the script runs on $DISPLAY. The
// windows open at the screen's size (their default fits the screen): Mesa's
// llvmpipe draws every frame on the CPU, and a 960x600 window costs the
// family a sixth less CPU than 1280x900 (115 -> 95 CPU-s on the 2-core
// machine). The overlay's layout test opens on a larger screen, as a user's.
const std::string kXvfbRun = std::string(LIVECONV_XVFB_RUN) + " --screen 960x600x24 ";
const std::string kXvfbRunLarge = std::string(LIVECONV_XVFB_RUN) + " --screen 1280x1024x24 ";

bool onPath(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

// A folder of the test's own, named by the test and this process (tests run
// side by side, and build trees share the temporary folder), with home/ for
// the window's settings. Removed after a test that passed; one that failed
// leaves it to be looked at.
class TestFolder {
 public:
  explicit TestFolder(const std::string& what) {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = what + "_" + test->test_suite_name() + "_" + test->name();
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    path_ = std::string(::testing::TempDir()) + "liveconv_" + name + "_" + std::to_string(getpid()) + "/";
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_ + "home");
  }
  ~TestFolder() {
    std::error_code ignored;
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(path_, ignored);
  }
  TestFolder(const TestFolder&) = delete;
  TestFolder& operator=(const TestFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

using liveconv::test::readFile;

struct Edit {
  std::string what, variant;
  long askedFrame = -1, shownFrame = -1, newFramesToShow = -1;
  bool refused = false;
};

// The stats file writes one edit a line: {"version": N, "command": "...", ...}.
std::vector<Edit> editsOf(const std::string& json) {
  std::vector<Edit> edits;
  std::istringstream lines(json.substr(json.find("\"edits\"")));
  std::string line;
  const std::regex field(R"re("(\w+)": ("(?:[^"\\]|\\.)*"|-?\d+|true|false))re");
  while (std::getline(lines, line) && line.find("\"files\"") == std::string::npos) {
    if (line.find("\"version\"") == std::string::npos) continue;
    Edit e;
    for (std::sregex_iterator it(line.begin(), line.end(), field), end; it != end; ++it) {
      const std::string key = (*it)[1], value = (*it)[2];
      const std::string text = value.size() >= 2 && value[0] == '"' ? value.substr(1, value.size() - 2) : value;
      if (key == "command") e.what = text;
      else if (key == "variant_ran") e.variant = text;
      else if (key == "frame") e.askedFrame = std::stol(text);
      else if (key == "shown_frame") e.shownFrame = std::stol(text);
      else if (key == "visible_after_new_frames")
        e.newFramesToShow = std::stol(text);
      else if (key == "refused") e.refused = text == "true";
    }
    edits.push_back(e);
  }
  return edits;
}

// How long one window may run: a limit that only catches a hang (a kernel's
// compile on PoCL, beside other tests on a loaded machine, takes seconds to
// minutes; how long is bench's question).
const std::string kHangLimit = "timeout 900 ";

// A script's `wait` goes on after 30 s (the window's own limit; its log then
// says "still waiting after 30 s; going on"), which a compile or a race on a
// loaded machine can pass. run() writes each `wait` line kWaitRepeats times:
// the script waits up to ten minutes, a limit that only catches a hang. (A
// wait that is over costs one pass.)
constexpr int kWaitRepeats = 20;

bool isWait(const std::string& line) { return std::regex_match(line, std::regex(R"(\d+ wait *)")); }

std::string withLongWaits(const std::string& script) {
  std::istringstream in(script);
  std::string out;
  for (std::string line; std::getline(in, line);)
    for (int i = 0; i < (isWait(line) ? kWaitRepeats : 1); ++i) out += line + "\n";
  return out;
}

// The number of `script`'s line `n` (from 1) in the file run() writes.
int lineWithLongWaits(const std::string& script, int n) {
  std::istringstream in(script);
  int waits = 0;
  std::string line;
  for (int i = 1; i < n && std::getline(in, line); ++i) waits += isWait(line);
  return n + waits * (kWaitRepeats - 1);
}

class WindowScript : public ::testing::TestWithParam<Window> {
 protected:
  void SetUp() override {
    if (liveconv::enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
    if (!onPath("Xvfb") && !std::getenv("DISPLAY")) GTEST_SKIP() << "no Xvfb and no $DISPLAY: cannot open a window";
    folder_ = std::make_unique<TestFolder>("script");
    dir_ = folder_->path();
  }

  // Runs the window on `source` with `script` (its waits long: withLongWaits);
  // returns its exit code. Without a display (`display` false) only what needs
  // none can work: usage errors.
  int run(const std::string& script, std::string* output, const std::string& source = "testpattern:320x240",
          bool display = true) {
    std::ofstream(dir_ + "script.txt") << withLongWaits(script);
    const std::string prefix = !display ? "env -u DISPLAY -u WAYLAND_DISPLAY " : kXvfbRun;
    // A window that never ends is a failure (124), not a test run that hangs.
    const std::string cmd = "cd " + dir_ + " && HOME=" + dir_ + "home LIBGL_ALWAYS_SOFTWARE=1 LIVECONV_SCREENSHOT_LAYOUT=1 " +
                            kHangLimit + prefix +
                            limits_ + GetParam().binary + " " + extraArgs_ + GetParam().sourceOption + source +
                            " --script script.txt --stats-json " + statsPath_ + " > out.log 2>&1";
    std::printf("running: %s\n", cmd.c_str());
    const int status = std::system(cmd.c_str());
    *output = readFile(dir_ + "out.log");
    std::printf("%s", output->c_str());
    // The code must be the window's own: the X server started (xvfb_run.sh says so when it did not).
    EXPECT_EQ(output->find("xvfb_run.sh: "), std::string::npos) << *output;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  }

  std::unique_ptr<TestFolder> folder_;
  std::string dir_;        // folder_'s path
  std::string extraArgs_;  // options before the source, for both windows alike
  std::string limits_;     // a command the window runs under (`prlimit ...`), not its X server
  std::string statsPath_ = "stats.json";  // --stats-json, from the test's folder
};

TEST_P(WindowScript, EditsLandWithinAFewFramesAndEveryRefusalIsAMessage) {
  std::string output;
  const std::string script =
      "2 mask box:5\n"
      "2 wait\n"
      "8 variant separable\n"
      "8 wait\n"
      "16 mask 3x3:1,2,3,4,5,6,7,8,10   # not rank-1: separable gives way to auto\n"
      "16 wait\n"
      "24 variant separable              # greyed now: refused, as a click would be\n"
      "28 key V\n"
      "28 wait\n"
      "34 cell 0 0 4\n"
      "34 wait\n"
      "40 save-frame frame.png\n"
      "44 source /nonexistent/clip.mp4\n"
      "60 quit\n";
  ASSERT_EQ(run(script, &output), 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  ASSERT_FALSE(json.empty()) << "no --stats-json file";
  std::printf("%s", json.c_str());

  const std::vector<Edit> edits = editsOf(json);
  ASSERT_GE(edits.size(), 6u) << json;
  for (const Edit& e : edits) {
    if (e.what.find("source") != std::string::npos) continue;  // a source that failed to open
    EXPECT_FALSE(e.refused) << e.what;
    // The UI thread never waits for a build: the picture goes on, and the
    // edit lands once the builder has it (a compile or two on PoCL, however
    // long the machine takes: how long is bench's question, not this test's).
    EXPECT_GT(e.shownFrame, 0) << e.what << " never reached the picture";
  }
  const auto edit = [&](const std::string& what) {
    for (const Edit& e : edits)
      if (e.what.find(what) != std::string::npos) return e;
    ADD_FAILURE() << "no edit " << what << " in " << json;
    return Edit{};
  };
  EXPECT_EQ(edit("8 variant separable").variant, "separable");
  EXPECT_EQ(edit("16 mask 3x3").variant.rfind("auto -> ", 0), 0u) << edit("16 mask 3x3").variant;
  EXPECT_NE(json.find("auto runs it instead"), std::string::npos) << "the switch to auto was not said";
  EXPECT_NE(json.find("\"kind\": \"script\", \"text\": \"line " + std::to_string(lineWithLongWaits(script, 7)) +
                      ": needs a separable"),
            std::string::npos)
      << "the refused script line was not said";
  EXPECT_NE(json.find("/nonexistent/clip.mp4"), std::string::npos) << "the failed open was not said";
  // Nobody watches a scripted run: every message is said on stderr too (before: only in the stats file).
  const std::regex message(R"re("kind": "\w+", "text": "((?:[^"\\]|\\.)*)")re");
  int messages = 0;
  for (std::sregex_iterator it(json.begin(), json.end(), message), end; it != end; ++it, ++messages) {
    const std::string text = (*it)[1];
    if (text.find('\\') != std::string::npos) continue;  // an escaped character reads differently on stderr
    EXPECT_NE(output.find(text), std::string::npos) << "not said on stderr: " << text;
  }
  EXPECT_GE(messages, 3) << json;
  std::smatch shown;
  ASSERT_TRUE(std::regex_search(json, shown, std::regex(R"("frames": (\d+))")));
  EXPECT_GE(std::stol(shown[1]), 60) << "the window stopped before the script's quit";

  liveconv::Image frame;
  ASSERT_EQ(liveconv::ui::readPng(dir_ + "frame.png", &frame), "");
  EXPECT_EQ(frame.width(), 320);
  EXPECT_EQ(frame.height(), 240);
}

// A window draws again only what changed: paused, its passes go on (the
// script's frames count them) but it redraws a few times a second for the
// overlay's numbers, and an edit still reaches the paused picture (filtered
// again, not waiting for the play to go on).
// (The pointer entering the new window under Xvfb is input: the viewer's
// first second is drawn every pass.)
TEST_P(WindowScript, APausedWindowDrawsOnlyWhenSomethingChanges) {
  std::string output;
  ASSERT_EQ(run("5 pause\n60 mask box:3\n60 wait\n300 quit\n", &output), 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  std::smatch frames, redraws;
  ASSERT_TRUE(std::regex_search(json, frames, std::regex(R"("frames": (\d+))"))) << json;
  ASSERT_TRUE(std::regex_search(json, redraws, std::regex(R"("redraws": (\d+))"))) << json;
  EXPECT_GE(std::stol(frames[1]), 300);
  EXPECT_GE(std::stol(redraws[1]), 5) << "the overlay's numbers were never drawn again";
  EXPECT_LT(std::stol(redraws[1]), std::stol(frames[1]) / 2) << "a paused window drew every pass";
  const std::vector<Edit> edits = editsOf(json);
  ASSERT_EQ(edits.size(), 1u) << json;
  EXPECT_GT(edits[0].shownFrame, 0) << "the edit never reached the paused picture";
  // Paused, the picture changes only when the frame on screen is filtered
  // again: for the edit, and at most once before it for a kernel of the
  // previous set that came meanwhile (auto after its stopgap: rows_baked).
  EXPECT_GE(edits[0].newFramesToShow, 1) << json;
  EXPECT_LE(edits[0].newFramesToShow, 2) << json;
}

// A decoded stream (the pipeline's engine and builder threads): with `auto`,
// each new mask reaches the picture, first on the provisional kernel, while
// the stream plays on.
TEST_P(WindowScript, OnADecodedStreamEveryEditLandsWhileItPlays) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no decoded sources";
#else
  std::string output;
  const int rc = run(
      "10 mask box:5\n10 wait\n"
      "20 mask 3x3:1,2,3,4,5,6,7,8,10\n20 wait\n"
      "30 mask gaussian:9\n30 wait\n"
      "40 variant naive\n40 wait\n"
      "50 cell 0 0 3\n50 wait\n"
      "60 quit\n",
      &output, "lavfi:testsrc2=size=640x360:rate=30");
  ASSERT_EQ(rc, 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  const std::vector<Edit> edits = editsOf(json);
  ASSERT_EQ(edits.size(), 5u) << json;
  for (const Edit& e : edits) {
    EXPECT_FALSE(e.refused) << e.what;
    EXPECT_GT(e.shownFrame, 0) << e.what << " never reached the picture";
  }
  EXPECT_EQ(edits[2].variant.rfind("auto -> ", 0), 0u) << edits[2].variant;
  // Source to screen, per frame shown: measured for every new frame, the tail
  // no shorter than the middle. (How long is bench's question: --pipeline.)
  std::smatch latency;
  ASSERT_TRUE(std::regex_search(
      json, latency, std::regex(R"("latency_ms": \{"median": ([0-9.]+), "p99": ([0-9.]+), "frames": ([0-9]+)\})")))
      << json;
  EXPECT_GT(std::stod(latency[1]), 0.0);
  EXPECT_GE(std::stod(latency[2]), std::stod(latency[1]));
  EXPECT_GE(std::stoi(latency[3]), 10) << "fewer latencies than new frames shown";
  EXPECT_EQ(edits[3].variant, "naive");
  EXPECT_EQ(json.find("\"kind\": \"filter\""), std::string::npos) << "an edit was refused";
#endif
}

// Both windows take the parameter flags of `liveconv run` (one table spells
// and checks them): the window starts on them and the stats file says so in
// the flags' words. The Qt shell keeps them in its settings, so its next run
// without flags starts on them again; a bad value is the same usage error.
TEST_P(WindowScript, BothWindowsStartOnTheParameterFlagsOfRun) {
  extraArgs_ = "--mask box:3 --variant naive --border wrap --alpha filter --workgroup 8x8 --format gray ";
  std::string output;
  ASSERT_EQ(run("5 quit\n", &output), 0) << output;
  std::string json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  EXPECT_NE(json.find("\"mask\": \"box:3\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"parameters\": {\"variant\": \"naive\", \"border\": \"wrap\", \"alpha\": \"filter\", "
                      "\"workgroup\": \"8x8\", \"format\": \"gray\"}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\n  \"variant\": \"naive\""), std::string::npos) << "naive did not run: " << json;

  extraArgs_ = "";
  ASSERT_EQ(run("5 quit\n", &output), 0) << output;
  json = readFile(dir_ + "stats.json");
  const bool keepsSettings = std::string(GetParam().name) == "qt";
  EXPECT_EQ(json.find("\"border\": \"wrap\"") != std::string::npos, keepsSettings)
      << (keepsSettings ? "the Qt shell lost its settings: " : "the viewer keeps no filter settings: ") << json;

  extraArgs_ = "--border edge ";
  EXPECT_EQ(run("5 quit\n", &output, "testpattern:320x240", false), 2) << output;
  EXPECT_NE(output.find("Unknown border mode 'edge'; use clamp, mirror, wrap or zero."), std::string::npos) << output;
  EXPECT_EQ(output.find("usage:"), std::string::npos) << "one sentence, not the whole help: " << output;
  extraArgs_ = "--device no-such-device ";
  EXPECT_EQ(run("5 quit\n", &output, "testpattern:320x240", false), 3) << output;
  EXPECT_NE(output.find("No OpenCL device matches 'no-such-device'"), std::string::npos) << output;
}

// A kernel of one's own in a window (--kernel-file, a script's `kernel` as
// Open Kernel… loads one): a new version that does not build is refused with
// its sentence while the last good one runs on and `user` stays chosen; a
// good new version then runs. The docs' example, and the same with a marker
// line, are two good versions.
TEST_P(WindowScript, ANewVersionOfOnesOwnKernelThatFailsLeavesTheLastGoodOneRunning) {
  const std::string example = readFile(LIVECONV_EXAMPLE_KERNEL);
  ASSERT_FALSE(example.empty());
  std::ofstream(dir_ + "good.cl") << example;
  std::ofstream(dir_ + "broken.cl") << example << "\nthis line does not compile\n";
  std::ofstream(dir_ + "good2.cl") << "// the second good version\n" << example;
  extraArgs_ = "--kernel-file good.cl --variant user --mask box:3 ";
  std::string output;
  ASSERT_EQ(run("3 kernel broken.cl\n4 wait\n8 kernel good2.cl\n9 wait\n12 quit\n", &output), 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  EXPECT_NE(json.find("The kernel file broken.cl does not build; the compiler's log follows."), std::string::npos)
      << json;
  EXPECT_NE(json.find("the last one that built runs on"), std::string::npos) << json;
  EXPECT_NE(json.find("\"variant\": \"user\", "), std::string::npos) << "user gave way: " << json;
  EXPECT_NE(json.find("\"kernel-file\": \"good2.cl\""), std::string::npos) << json;
  EXPECT_NE(json.find("\n  \"variant\": \"user\""), std::string::npos) << "user does not run: " << json;
}

// SIGTERM, SIGINT and SIGHUP while a window records: the window closes as if
// the user closed it: the recording is a playable file under its name (no
// part file left) holding every frame the window counted into it, the exit
// code is 128 + N with one sentence, and the Qt shell's settings are those set
// before the signal (its next run starts on them).
TEST_P(WindowScript, ASignalWhileRecordingFinishesTheFileAndKeepsTheSettings) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no recording";
#else
  if (!onPath("Xvfb")) GTEST_SKIP() << "SKIP: no Xvfb: the signal must reach the window alone";
  // What a killed run left in the folder (its PID is long gone): the recording names it.
  std::ofstream(dir_ + ".killed.mkv.liveconv-part-999999") << "incomplete";
  for (const auto& [signal, code] : {std::pair<const char*, int>{"TERM", 143}, {"INT", 130}, {"HUP", 129}}) {
    const std::string file = std::string("rec_") + signal + ".mkv";
    std::ofstream(dir_ + "script.txt") << "3 border mirror\n3 mask box:5\n3 format gray\n8 record " << file << "\n";
    // Sent to this test's window alone (its command line starts with its path
    // and names this test's folder), once frames reach its part file. Waits
    // end with the window: one that never records fails by its exit code.
    const std::string binary = GetParam().binary;
    const std::string cmd =
        "cd " + dir_ + " && rm -f status && { HOME=" + dir_ + "home " + kHangLimit + kXvfbRun + binary + " " + GetParam().sourceOption +
        "lavfi:testsrc2=size=320x240:rate=30 --script script.txt --stats-json " + dir_ + "stats.json > out.log 2>&1; " +
        "echo $? > status; } & until [ -n \"$(find " + dir_ + " -maxdepth 1 -name '." + file +
        ".liveconv-part-*' -size +20k)\" ] || [ -s status ]; do sleep 0.1; done; pkill -" + signal + " -f '^" +
        binary + " .* --stats-json " + dir_ + "stats.json'; wait";
    std::printf("running: %s\n", cmd.c_str());
    std::system(cmd.c_str());
    const std::string output = readFile(dir_ + "out.log");
    std::printf("%s", output.c_str());
    EXPECT_EQ(std::atoi(readFile(dir_ + "status").c_str()), code) << signal << ": " << output;
    EXPECT_NE(output.find("interrupted by"), std::string::npos) << output;
    EXPECT_NE(output.find("the recording " + file + " was finished"), std::string::npos) << output;
    FILE* probe = popen(("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
                         "-of csv=p=0 " + dir_ + file + " 2>&1").c_str(), "r");
    char line[256] = {};
    const bool read = probe && std::fgets(line, sizeof line, probe);
    if (probe) pclose(probe);
    EXPECT_TRUE(read && std::atoi(line) > 0) << signal << ": " << file << " does not play: " << line;
    const std::string stats = readFile(dir_ + "stats.json");
    std::smatch recorded;
    ASSERT_TRUE(std::regex_search(stats, recorded, std::regex("\"path\": \"" + file + "\", \"frames\": (\\d+)")))
        << signal << ": the stats file names no finished recording: " << stats;
    EXPECT_EQ(std::atoi(line), std::stoi(recorded[1])) << signal << ": the file holds other frames than were recorded";
    EXPECT_EQ(std::system(("ls -a " + dir_ + " | grep -q '^.rec_.*liveconv-part'").c_str()) == 0, false)
        << signal << ": a part file was left";
    EXPECT_NE(readFile(dir_ + "stats.json").find("holds a part file left by a killed run (.killed.mkv.liveconv-part-999999)"),
              std::string::npos)
        << "the recording did not name what a killed run left: " << readFile(dir_ + "stats.json");
    if (std::string(GetParam().name) == "qt" && std::string(signal) == "TERM") {
      std::string again;
      ASSERT_EQ(run("5 quit\n", &again), 0) << again;
      const std::string json = readFile(dir_ + "stats.json");
      EXPECT_NE(json.find("\"border\": \"mirror\""), std::string::npos) << "settings lost on SIGTERM: " << json;
      EXPECT_NE(json.find("\"mask\": \"box:5\""), std::string::npos) << "settings lost on SIGTERM: " << json;
      EXPECT_NE(json.find("\"format\": \"gray\""), std::string::npos) << "settings lost on SIGTERM: " << json;
    }
  }
#endif
}

double numberAfter(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\": (-?[0-9.e+-]+)"))) return -1e9;
  return std::stod(m[1]);
}

// A recording that fills the disk (the file size limit, `ulimit -f`: a write
// past it fails as on a full disk) ends with the reason, leaves no file and
// no part file, and the stats file lists it among the failed recordings, not
// the written ones; the window plays on and ends as asked. (Before, it was
// listed as recorded with the frames it had counted.)
TEST_P(WindowScript, ARecordingThatFillsTheDiskLeavesNoFileAndIsListedAsFailed) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no recording";
#else
  // 6 MB: room for the drivers' kernel builds (PoCL's compiler stops the
  // process on a write past the limit: not this test's question) and the
  // stats file, not for the first ten frames of noise, lossless (about 600 kB
  // a frame).
  limits_ = "prlimit --fsize=6291456 ";
  std::string output;
  ASSERT_EQ(run("1 wait\n2 record full.mkv\n150 stop-record\n151 quit\n", &output, "lavfi:color=s=640x360:r=30,noise=alls=100:allf=t"), 0)
      << output;
  const std::string json = readFile(dir_ + "stats.json");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "full.mkv")) << "a recording that failed left a file";
  EXPECT_EQ(std::system(("ls -a " + dir_ + " | grep -q 'liveconv-part'").c_str()) == 0, false) << "a part file was left";
  const std::size_t written = json.find("\"recordings\": ["), failed = json.find("\"recordings_failed\": [");
  ASSERT_NE(written, std::string::npos) << json;
  ASSERT_NE(failed, std::string::npos) << json;
  EXPECT_EQ(json.substr(written, failed - written).find("full.mkv"), std::string::npos)
      << "a discarded recording is listed as written: " << json;
  const std::string failedList = json.substr(failed);
  EXPECT_NE(failedList.find("{\"path\": \"full.mkv\""), std::string::npos) << json;
  EXPECT_NE(failedList.find("File too large"), std::string::npos) << "the reason is not given: " << json;
#endif
}

// Every file a window writes is staged as `run`'s outputs are (the frame and
// the window saved as PNG, the stats file):
//  - through a symbolic link to an existing 0600 file: the file the link
//    leads to is replaced, the link stays, the mode stays 0600;
//  - into a full disk (a small tmpfs, filled; root only): the old files under
//    the names untouched, no part file, the reason said, and exit 8 for the
//    stats file that could not be written.
TEST_P(WindowScript, EveryFileAWindowWritesIsWholeOrNotAtAllThroughLinksKeepingItsMode) {
  namespace fs = std::filesystem;
  const char* const kOld = "the old file, kept\n";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"frame.png", "\x89PNG"}, {"shot.png", "\x89PNG"}, {"stats.json", "{"}};
  const auto parts = [](const std::string& folder) {
    std::string found;
    for (const auto& e : fs::directory_iterator(folder))
      if (e.path().filename().string().find(".liveconv-part-") != std::string::npos) found += e.path().filename().string() + " ";
    return found;
  };
  for (const auto& [name, begins] : files) {
    std::ofstream(dir_ + name + ".real") << kOld;
    fs::permissions(dir_ + name + ".real", fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    fs::create_symlink(name + ".real", dir_ + name);
  }
  std::string output;
  ASSERT_EQ(run("3 save-frame frame.png\n3 screenshot shot.png\n6 quit\n", &output), 0) << output;
  for (const auto& [name, begins] : files) {
    EXPECT_TRUE(fs::is_symlink(dir_ + name)) << name << ": the link was replaced by a file";
    EXPECT_EQ(readFile(dir_ + name + ".real").rfind(begins, 0), 0u) << name << ": the file the link leads to was not written";
    EXPECT_EQ(fs::status(dir_ + name + ".real").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write)
        << name << ": the mode of the file replaced changed";
  }
  EXPECT_EQ(parts(dir_), "") << "part files left";

  const std::string full = dir_ + "full";
  fs::create_directories(full);
  const liveconv::test::FullDisk disk(full, "256k");
  if (!disk.mounted()) {
    std::printf("[   SKIP   ] the full-disk case: %s\n", disk.why().c_str());
    return;
  }
  for (const auto& [name, begins] : files) std::ofstream(full + "/" + name) << kOld;
  disk.fill();
  statsPath_ = full + "/stats.json";
  EXPECT_EQ(run("3 save-frame " + full + "/frame.png\n3 screenshot " + full + "/shot.png\n6 quit\n", &output), 8)
      << "the stats file could not be written: " << output;
  EXPECT_NE(output.find("No space left on device"), std::string::npos) << output;
  for (const auto& [name, begins] : files) EXPECT_EQ(readFile(full + "/" + name), kOld) << name << ": the old file was touched";
  EXPECT_EQ(parts(full), "") << "part files left";
}

// What a process prints on stdout.
std::string outputOf(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    pclose(pipe);
  }
  return out;
}

// A recording keeps the source's times: the source shows its own frame number
// as 16 bars (bit b white at x 20b..20b+19) at 120 frames a second, and the
// filter (a 31x31 mask on `naive`, tens of milliseconds a frame on a CPU
// device) is slower than that, so the window misses most frames. Each frame
// of the recordings (.mkv: FFV1; .mp4: H.264) must sit at its source time from
// the first (within one source frame), and a missed frame is a gap. Before,
// every frame went one 1/120 s step after the last: 0.8 s of the clip played
// in 0.1 s.
TEST_P(WindowScript, ARecordingKeepsTheSourcesTimesAndAMissedFrameIsAGap) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no recording";
#else
  if (!onPath("ffmpeg") || !onPath("ffprobe")) GTEST_SKIP() << "SKIP: no ffmpeg command to read the recordings back";
  constexpr int kRate = 120, kWidth = 320, kHeight = 180;
  // FFmpeg's filter graph (never ends, so the script's frames are always there to count).
  const std::string counter =
      "'lavfi:color=c=black:s=320x180:r=120,format=gray,geq=lum=if(bitand(N\\,pow(2\\,floor(X/20)))\\,235\\,16)'";
  extraArgs_ = "--mask gaussian:31:sigma=0.3 --variant naive ";  // all but the centre tap round to nothing
  std::string output;
  ASSERT_EQ(run("1 wait\n2 record rec.mkv\n120 stop-record\n121 record rec.mp4\n240 stop-record\n241 quit\n", &output,
                counter),
            0)
      << output;
  const std::string json = readFile(dir_ + "stats.json");
  for (const std::string file : {"rec.mkv", "rec.mp4"}) {
    const std::string path = dir_ + file;
    EXPECT_NE(json.find("{\"path\": \"" + file + "\""), std::string::npos) << file << " is not listed: " << json;
    std::vector<double> times;
    std::istringstream probed(outputOf("ffprobe -v error -select_streams v:0 -show_entries frame=best_effort_timestamp_time "
                                       "-of csv=p=0 " + path));
    for (std::string line; std::getline(probed, line);)
      if (!line.empty()) times.push_back(std::atof(line.c_str()));
    // Every frame the file holds, as stored (not resampled to a constant rate), gray.
    const std::string pixels = outputOf("ffmpeg -v error -i " + path + " -fps_mode passthrough -f rawvideo -pix_fmt gray -");
    const std::size_t frameBytes = std::size_t(kWidth) * kHeight;
    ASSERT_EQ(pixels.size() % frameBytes, 0u) << file;
    ASSERT_EQ(pixels.size() / frameBytes, times.size()) << file << ": frames decoded != frames probed";
    ASSERT_GE(times.size(), 5u) << file << ": too short a recording to judge";
    std::vector<long> number;
    for (std::size_t k = 0; k < times.size(); ++k) {
      const char* row = pixels.data() + k * frameBytes + std::size_t(kHeight / 2) * kWidth;
      long n = 0;
      for (int bit = 0; bit < 16; ++bit)
        if (static_cast<unsigned char>(row[20 * bit + 10]) > 128) n |= 1L << bit;
      number.push_back(n);
    }
    int gaps = 0;
    std::ostringstream seen;
    for (std::size_t k = 0; k < times.size(); ++k) {
      seen << " " << number[k] << "@" << times[k];
      if (k == 0) continue;
      EXPECT_GT(number[k], number[k - 1]) << file << ", frame " << k << ": the source's frames in order";
      EXPECT_NEAR(times[k] - times[0], double(number[k] - number[0]) / kRate, 1.0 / kRate)
          << file << ", frame " << k << " (source frame " << number[k] << "): not at its source time from the first";
      gaps += number[k] - number[k - 1] > 1;
    }
    std::printf("%s: source frame @ time:%s\n", file.c_str(), seen.str().c_str());
    EXPECT_GT(gaps, 0) << file << ": the window missed no frame, so no gap was checked (the filter must be slower than "
                       << kRate << " frames a second):" << seen.str();
  }
#endif
}

// A 10-bit source plays at 16 bits, as `liveconv run --depth auto` filters
// it: the engine's frames are rgba16 (gray16 after a switch, which the
// builder prepared at that depth), the check compares at 16 bits, recordings
// keep the depth (.mkv: a 16-bit FFV1 format; .mp4: H.264 High 10), and
// save-frame writes a 16-bit PNG; the stats file says the depth.
TEST_P(WindowScript, ATenBitSourcePlaysAtSixteenBitsAndItsFilesKeepThem) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no files";
#else
  if (!onPath("ffmpeg") || !onPath("ffprobe")) GTEST_SKIP() << "SKIP: no ffmpeg command to make the clip";
  ASSERT_EQ(std::system(("ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -pix_fmt yuv420p10le "
                         "-c:v ffv1 " +
                         dir_ + "ten.mkv")
                            .c_str()),
            0)
      << "ffmpeg could not make the clip";
  std::string output;
  const std::string script =
      // The recordings first: a line whose pass a `wait` before it has gone past runs at once (a check
      // waited for until pass 40 would start and stop a recording asked for from pass 8 to 30 together).
      "2 mask gaussian:5\n2 wait\n4 record deep.mkv\n60 stop-record\n62 record deep.mp4\n114 stop-record\n"
      "116 check on\n116 wait\n118 check off\n120 save-frame deep.png\n122 format gray\n122 wait\n"
      "124 save-frame deepgray.png\n126 quit\n";
  ASSERT_EQ(run(script, &output, dir_ + "ten.mkv"), 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  EXPECT_NE(json.find("\"engine_format\": \"gray16\""), std::string::npos) << json;
  EXPECT_EQ(numberAfter(json, "source_bits"), 10) << json;
  EXPECT_NE(json.find("\"format\": \"rgba16\""), std::string::npos) << "the check ran at 16 bits: " << json;
  EXPECT_NE(json.find("\"passed\": true"), std::string::npos) << json;
  auto probe = [&](const std::string& file) {
    return outputOf(
        "ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,profile,pix_fmt -of csv=p=0 " + dir_ +
        file + " 2>&1");
  };
  EXPECT_NE(probe("deep.mkv").find("16le"), std::string::npos) << probe("deep.mkv");
  EXPECT_EQ(probe("deep.mp4"), "h264,High 10,yuv420p10le\n");
  // (FFmpeg 5.1 says a PNG's profile is "unknown", 7.1 says nothing: the format is what counts.)
  EXPECT_NE(probe("deep.png").find(",rgba64be"), std::string::npos) << probe("deep.png");
  EXPECT_NE(probe("deepgray.png").find(",gray16be"), std::string::npos) << probe("deepgray.png");
#endif
}

// A recording keeps the source's colour as `liveconv run` does: its matrix,
// range, primaries and transfer (BT.709, full range) and its title, not the
// encoder's defaults (BT.601 tags for a picture this size, limited range, no
// primaries). The pixels are the picture shown (RGB in FFV1, exact).
TEST_P(WindowScript, ARecordingKeepsTheSourcesColourAsRunDoes) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no files";
#else
  if (!onPath("ffmpeg") || !onPath("ffprobe")) GTEST_SKIP() << "SKIP: no ffmpeg command to make the clip";
  // The tags on the frames too (setparams): FFmpeg 7 tags the stream by the frames.
  ASSERT_EQ(std::system(("ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -vf "
                         "setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=pc "
                         "-pix_fmt yuv444p12le -colorspace bt709 -color_primaries bt709 -color_trc bt709 "
                         "-color_range pc -metadata title=Tagged -c:v ffv1 " +
                         dir_ + "tagged.mkv")
                            .c_str()),
            0)
      << "ffmpeg could not make the clip";
  std::string output;
  ASSERT_EQ(run("2 wait\n4 record kept.mkv\n30 stop-record\n32 record kept.mp4\n58 stop-record\n60 quit\n", &output,
                dir_ + "tagged.mkv"),
            0)
      << output;
  auto probe = [&](const std::string& file) {
    return outputOf(
        "ffprobe -v error -select_streams v:0 -show_entries "
        "stream=codec_name,pix_fmt,color_range,color_space,color_transfer,color_primaries:format_tags=title "
        "-of csv=p=0 " +
        dir_ + file + " 2>&1");
  };
  ASSERT_EQ(probe("tagged.mkv"), "ffv1,yuv444p12le,pc,bt709,bt709,bt709\nTagged\n") << "the clip lacks its tags";
  EXPECT_EQ(probe("kept.mkv"), "ffv1,gbrap16le,pc,gbr,bt709,bt709\nTagged\n");
  EXPECT_EQ(probe("kept.mp4"), "h264,yuv420p10le,pc,bt709,bt709,bt709\nTagged\n");
#endif
}

// Planes mode (the script's `planes on`, the windows' control): a 10-bit
// 4:2:0 clip's own planes filtered as they are. With the identity mask its
// recording is the clip's frames, bit for bit (the RGBA picture could not
// be); the check compares the planes against the reference, one plane a
// check; the stats and the overlay say the planes and their format.
TEST_P(WindowScript, PlanesModeFiltersTheSourcesOwnPlanesAndRecordsThemBitForBit) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no planes";
#else
  if (!onPath("ffmpeg") || !onPath("ffprobe")) GTEST_SKIP() << "SKIP: no ffmpeg command to make the clip";
  ASSERT_EQ(std::system(("ffmpeg -v error -y -f lavfi -i testsrc2=size=160x120:rate=25 -t 4 -pix_fmt yuv420p10le "
                         "-c:v ffv1 " +
                         dir_ + "planes10.mkv")
                            .c_str()),
            0)
      << "ffmpeg could not make the clip";
  std::string output;
  // (The switch to planes opens the clip again from the pass after `planes on`: the wait is one pass later.
  // A line whose pass the waits have gone past runs at once: the recording stops far enough after.)
  ASSERT_EQ(run("2 planes on\n4 wait\n4 mask identity\n4 wait\n6 record planes.mkv\n130 stop-record\n"
                "132 mask gaussian:5\n132 wait\n134 check on\n134 wait\n136 wait\n138 wait\n140 check off\n"
                "142 pause\n142 wait\n144 mask box:3\n144 wait\n146 quit\n",
                &output, dir_ + "planes10.mkv"),
            0)
      << output;
  const std::string json = readFile(dir_ + "stats.json");
  EXPECT_NE(json.find("\"planes\": \"Y, U, V\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"engine_format\": \"gray16\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"plane\": \"Y\""), std::string::npos) << "no plane was checked: " << json;
  EXPECT_EQ(json.find("\"passed\": false"), std::string::npos) << json;
  // Paused, an edit filters the picture on screen again (its planes kept by the decoder).
  EXPECT_EQ(json.find("still waiting"), std::string::npos) << json;
  const std::size_t box = json.find("\"command\": \"144 mask box:3\"");
  ASSERT_NE(box, std::string::npos) << json;
  const std::size_t after = json.find("\"visible_after_frames\": ", box);
  ASSERT_NE(after, std::string::npos) << json;
  EXPECT_NE(json[after + 24], '-') << "the paused edit never showed: " << json;
  EXPECT_NE(json.find("\"passed\": true"), std::string::npos) << json;
  EXPECT_EQ(
      outputOf("ffprobe -v error -select_streams v:0 -show_entries stream=pix_fmt -of csv=p=0 " + dir_ + "planes.mkv"),
      "yuv420p10le\n");
  // Every frame recorded is one of the clip's, sample for sample.
  const auto hashes = [&](const std::string& file) {
    std::set<std::string> out;
    std::istringstream lines(outputOf("ffmpeg -v error -i " + dir_ + file + " -f framemd5 - 2>&1"));
    for (std::string line; std::getline(lines, line);)
      if (!line.empty() && line[0] != '#') out.insert(line.substr(line.rfind(',') + 1));
    return out;
  };
  const std::set<std::string> clip = hashes("planes10.mkv"), recorded = hashes("planes.mkv");
  EXPECT_GE(recorded.size(), 3u);
  for (const std::string& h : recorded) EXPECT_TRUE(clip.count(h)) << "a recorded frame that is not the clip's: " << h;
#endif
}

// A recording that no frame came to (the picture paused) is said to have
// written nothing, and there is no file: it is not listed as written.
TEST_P(WindowScript, ARecordingThatNoFrameCameToIsSaidAndLeavesNoFile) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no recording";
#else
  std::string output;
  ASSERT_EQ(run("2 wait\n3 pause\n6 record none.mkv\n8 stop-record\n10 quit\n", &output, "testpattern:160x120"), 0)
      << output;
  const std::string json = readFile(dir_ + "stats.json");
  const std::size_t failed = json.find("\"recordings_failed\"");
  ASSERT_NE(failed, std::string::npos) << json;
  EXPECT_EQ(json.find("none.mkv"), json.find("none.mkv", failed)) << "listed as written: " << json;
  EXPECT_NE(json.find("No frame came while recording", failed), std::string::npos) << json;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "none.mkv"));
#endif
}

// A file seeks (the script's seek, then the Left key: 5 s back) to the exact
// frame, paused; a generated source says it cannot. The key comes in the same
// frame as the seek, before the decoder can have shown it: a relative seek
// counts from a seek on its way, as does a format switch's return.
TEST_P(WindowScript, AFileSeeksToTheFrameAskedAndAGeneratedSourceSaysItCannot) {
#ifndef LIVECONV_WITH_MEDIA
  GTEST_SKIP() << "no media build: no files";
#else
  ASSERT_EQ(std::system(("ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25 -t 10 -c:v libx264 "
                         "-pix_fmt yuv420p " + dir_ + "ten.mp4").c_str()), 0) << "ffmpeg could not make the clip";
  std::string output;
  ASSERT_EQ(run("5 pause\n10 seek 7\n10 key Left\n10 wait\n35 quit\n", &output, dir_ + "ten.mp4"), 0) << output;
  std::string json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  EXPECT_DOUBLE_EQ(numberAfter(json, "duration_seconds"), 10);
  EXPECT_DOUBLE_EQ(numberAfter(json, "position_seconds"), 2);  // 7 s, then 5 s back: the frame at 2.000
  EXPECT_EQ(json.find("cannot seek"), std::string::npos);

  // Shift+Left: paused, the frame before (25 fps: 6.96 s); Shift+Right one on again.
  ASSERT_EQ(run("5 pause\n10 seek 7\n10 key Shift+Left\n10 wait\n30 quit\n", &output, dir_ + "ten.mp4"), 0) << output;
  json = readFile(dir_ + "stats.json");
  EXPECT_NEAR(numberAfter(json, "position_seconds"), 6.96, 1e-6) << json;

  // Another pixel format, right after a seek while paused: the decoder switches in place and shows the
  // frame sought, in the new format.
  ASSERT_EQ(run("5 key Space\n10 seek 7\n10 format gray\n10 wait\n30 quit\n", &output, dir_ + "ten.mp4"), 0) << output;
  json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  EXPECT_GE(numberAfter(json, "position_seconds"), 7.0);
  EXPECT_LE(numberAfter(json, "position_seconds"), 7.1);  // the first frame the new feed shows may come before the seek
  EXPECT_NE(json.find("\"command\": \"10 format gray\""), std::string::npos);
  EXPECT_EQ(json.find("\"refused\": true"), std::string::npos);

  ASSERT_EQ(run("5 seek 3\n10 quit\n", &output), 0) << output;
  json = readFile(dir_ + "stats.json");
  EXPECT_NE(json.find("line 1: this source cannot seek."), std::string::npos) << json;
  EXPECT_DOUBLE_EQ(numberAfter(json, "duration_seconds"), 0);
#endif
}

TEST_P(WindowScript, ABadScriptLineIsAUsageErrorNamingTheLine) {
  std::string output;
  // Said before any window opens: no display is needed to hear it.
  const std::string pattern = "testpattern:320x240";
  EXPECT_EQ(run("1 mask box:3\n2 frobnicate now\n", &output, pattern, false), 2);
  EXPECT_NE(output.find("script.txt line 2: unknown command frobnicate"), std::string::npos) << output;
  EXPECT_EQ(run("5 key V\n3 key V\n", &output, pattern, false), 2);
  EXPECT_NE(output.find("line 2: frame 3 comes before the line above it"), std::string::npos) << output;
  EXPECT_EQ(run("1 wait now\n", &output, pattern, false), 2);
  EXPECT_NE(output.find("line 1: wait takes no argument"), std::string::npos) << output;
  // A mask the line spells wrong is a bad line too (before: exit 0, the old mask kept).
  EXPECT_EQ(run("1 mask box:3\n5 mask box:4\n", &output, pattern, false), 2);
  EXPECT_NE(output.find("line 2: Mask spec: size of box 4 is even"), std::string::npos) << output;
}

// A run nobody watches (--quit, --frames) on a file that does not exist: no
// dialog waits for a click; the sentence goes to stderr and the window ends by
// itself with `liveconv run`'s exit code for an input that fails (7). (A
// dialog would wait until the hang limit ends the window: 124.)
TEST_P(WindowScript, AMissingFileEndsAnUnattendedRunWithExit7AndNoDialog) {
  const std::string cmd = "cd " + dir_ + " && HOME=" + dir_ + "home LIBGL_ALWAYS_SOFTWARE=1 " + kHangLimit + kXvfbRun +
                          GetParam().binary + " " + dir_ + "missing.mp4 --frames 30 --quit > out.log 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string output = readFile(dir_ + "out.log");
  std::printf("%s\n%s", cmd.c_str(), output.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7) << "124: a dialog waited, or the window played on\n" << output;
  EXPECT_NE(output.find(dir_ + "missing.mp4 does not exist"), std::string::npos) << output;
  // Two sources are one too many: a usage error.
  std::string said;
  EXPECT_EQ(run("30 quit\n", &said, "testpattern:320x240 testpattern:160x120"), 2);
  EXPECT_NE(said.find("testpattern:160x120"), std::string::npos) << said;
}

// ... and so does an input that opens but fails at its first frames: an MP4
// whose index comes after its frames, read from a pipe (larger than what
// FFmpeg keeps of a pipe to seek back in: a 2 s 320x240 clip, about 70 kB). The Qt shell waited
// for frames that never came (a hang); the viewer showed why and exited 0.
// `liveconv run` ends on it with 7, as both windows now do.
TEST_P(WindowScript, AnInputThatFailsBeforeItsFirstPictureEndsAnUnattendedRunWithExit7) {
  if (!onPath("ffmpeg")) GTEST_SKIP() << "no ffmpeg to make the clip";
  ASSERT_EQ(std::system(("ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25 -t 2 -c:v libx264 "
                         "-pix_fmt yuv420p " + dir_ + "late-index.mp4").c_str()), 0);
  const std::string cmd = "cd " + dir_ + " && cat late-index.mp4 | HOME=" + dir_ + "home LIBGL_ALWAYS_SOFTWARE=1 " +
                          kHangLimit + kXvfbRun + GetParam().binary + " - --frames 30 --quit > out.log 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string output = readFile(dir_ + "out.log");
  std::printf("%s\n%s", cmd.c_str(), output.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7) << "124: the window waited for frames\n" << output;
  EXPECT_NE(output.find("index comes after its frames"), std::string::npos) << output;
}

// A stream that accepts and never sends (a listening socket nobody reads
// from): Esc cancels its open (one that waits as long as it takes:
// --open-timeout 0, so the Esc 35 frames later finds it open however slow
// the frames come; an Esc with no open on its way would close the window),
// and the open timeout (--open-timeout 3) gives up on it by itself (the
// script's `wait` holds the quit until the open has ended); either way the
// test pattern plays on, the window says why (no dialog: the run goes on to
// its quit) and names what plays.
TEST_P(WindowScript, AnOpenThatHangsIsCancelledByEscOrGivesUpAfterTheTimeout) {
  const SilentListener listener;
  ASSERT_FALSE(listener.url().empty()) << "no socket could listen on 127.0.0.1";
  const std::string url = listener.url();
  const auto playsOnToTheQuit = [&](const std::string& json, long quitFrame) {
    EXPECT_NE(json.find("\"source\": \"test pattern 320x240"), std::string::npos) << "the test pattern stopped playing";
    std::smatch shown;
    ASSERT_TRUE(std::regex_search(json, shown, std::regex(R"("frames": (\d+))")));
    EXPECT_GE(std::stol(shown[1]), quitFrame) << "the window stopped before the script's quit";
  };
  std::string output;
  extraArgs_ = "--open-timeout 0 ";
  ASSERT_EQ(run("5 source " + url + "\n40 key Esc\n100 quit\n", &output), 0) << output;
  std::string json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  EXPECT_NE(json.find("\"kind\": \"open\", \"text\": \"Cancelled opening " + url + ".\""), std::string::npos)
      << "Esc did not cancel the open";
  playsOnToTheQuit(json, 100);

  extraArgs_ = "--open-timeout 3 ";
  ASSERT_EQ(run("5 source " + url + "\n5 wait\n10 quit\n", &output), 0) << output;
  json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  EXPECT_NE(json.find("Input " + url + " sent nothing to open in 3 s; gave up"), std::string::npos)
      << "the open did not give up after 3 s";
  playsOnToTheQuit(json, 10);
}

// --hwaccel in both windows, as `liveconv run` takes it: a name FFmpeg does
// not know is a usage error (2) before any window opens; a hardware decoder
// that does not open here leaves the clip to the CPU decoder, the window says
// why once, and its header names the decoder at work.
TEST_P(WindowScript, HwaccelDecodesOnTheCpuWhereTheHardwareIsNotAndSaysWhy) {
  std::string output;
  extraArgs_ = "--hwaccel warp-drive ";
  EXPECT_EQ(run("10 quit\n", &output, LIVECONV_CLIP, false), 2);
  EXPECT_NE(output.find("--hwaccel 'warp-drive' is not a hardware decoder this FFmpeg knows"), std::string::npos)
      << output;
  extraArgs_ = "--hwaccel vaapi ";
  ASSERT_EQ(run("20 quit\n", &output, LIVECONV_CLIP), 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  std::printf("%s", json.c_str());
  if (json.find("decoded by vaapi)") != std::string::npos) {
    std::printf("vaapi opens on this machine: the fallback is not reached\n");
    return;
  }
  EXPECT_NE(json.find("--hwaccel vaapi: no vaapi device opens here ("), std::string::npos) << json;
  EXPECT_NE(json.find("; decoding on the CPU."), std::string::npos) << json;
  EXPECT_NE(json.find("h264 320x180, decoded on the CPU)"), std::string::npos) << "the header names the decoder: " << json;
  std::smatch shown;
  ASSERT_TRUE(std::regex_search(json, shown, std::regex(R"("frames": (\d+))")));
  EXPECT_GE(std::stol(shown[1]), 20) << "the clip did not play";
}

// A set that cannot run here ends a window started on it, in both windows,
// with `liveconv run`'s sentence and exit code (5): nothing could ever play,
// and a script would wait for frames that never come.
TEST_P(WindowScript, ASetThatCannotRunEndsTheWindowWithTheCommandsExitCode) {
  std::string output;
  extraArgs_ = "--variant separable --mask laplacian ";
  EXPECT_EQ(run("30 quit\n", &output), 5);
  EXPECT_NE(output.find("Variant separable needs a rank-1 (separable) mask"), std::string::npos) << output;
  extraArgs_ = "--variant local --workgroup 128x128 ";  // more work-items than any device allows
  EXPECT_EQ(run("30 quit\n", &output), 5);
  EXPECT_NE(output.find("Workgroup 128x128 does not fit"), std::string::npos) << output;
  extraArgs_ = "--variant baked --workgroup 128x128 ";  // refused before its stopgap would serve it
  EXPECT_EQ(run("30 quit\n", &output), 5);
  EXPECT_NE(output.find("Workgroup 128x128 does not fit"), std::string::npos) << output;
  // A kernel that does not compile: 4, with the compiler's log.
  const std::string kernels = dir_ + "broken_kernels";
  std::filesystem::create_directories(kernels);
  std::ofstream(kernels + "/common.cl") << liveconv::kernelSource("common.cl");
  std::ofstream(kernels + "/naive.cl") << liveconv::kernelSource("naive.cl")
                                       << "\n__kernel void broken(__global int* p) { p[0] = undeclared_thing; }\n";
  ASSERT_EQ(setenv(liveconv::kKernelDirEnvVar, kernels.c_str(), 1), 0);
  extraArgs_ = "--variant naive ";
  const int rc = run("30 quit\n", &output);
  unsetenv(liveconv::kKernelDirEnvVar);
  EXPECT_EQ(rc, 4);
  EXPECT_NE(output.find("naive"), std::string::npos) << output;
  EXPECT_NE(output.find("undeclared_thing"), std::string::npos) << "the compiler's log: " << output;
}

// B ("compare the variants on this frame") races them while the picture
// plays on, and the stats file carries the race as the chart shows it: every
// candidate, the fastest that ran chosen, bench's names for the numbers.
TEST_P(WindowScript, BComparesTheVariantsOnTheFrameAndTheStatsCarryTheRace) {
  std::string output;
  // No race of auto's own: the one in the stats is B's. The check mode's mask
  // and border (its programs, built once a run).
  // With a kernel of one's own (the docs' example): B races it too.
  extraArgs_ = "--variant local --mask box:5 --border zero --kernel-file " + std::string(LIVECONV_EXAMPLE_KERNEL) + " ";
  ASSERT_EQ(run("10 key B\n11 wait\n12 quit\n", &output), 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  const std::size_t race = json.find("\"race\": {\"number\": ");
  ASSERT_NE(race, std::string::npos) << json;
  const std::string table = json.substr(race, json.find("\"messages\"") - race);
  EXPECT_NE(table.find("\"trigger\": \"compare\""), std::string::npos) << table;
  EXPECT_NE(table.find("\"image\": \"320x240\""), std::string::npos) << table;
  const std::regex entry(R"re(\{"variant": "(\w+)", "workgroup": "\d+x\d+", "packet": \d+, "kernel_ms": ([0-9.e+-]+), "kernel_mpix_s": [0-9.e+-]+, "frac_bandwidth": [0-9.e+-]+, "frac_fma": [0-9.e+-]+, "chosen": (true|false))re");
  int entries = 0, chosen = 0;
  double chosenMs = 0, fastest = 0;
  std::set<std::string> raced;
  for (std::sregex_iterator it(table.begin(), table.end(), entry), end; it != end; ++it) {
    ++entries;
    raced.insert((*it)[1]);
    const double ms = std::stod((*it)[2]);
    if (ms > 0 && (fastest == 0 || ms < fastest)) fastest = ms;
    if ((*it)[3] == "true") {
      ++chosen;
      chosenMs = ms;
    }
  }
  EXPECT_GT(entries, 1) << table;
  // Every variant (box:5 is rank 1: the separable ones too), not auto's own
  // list for this kind of device (on a CPU device the row kernels only).
  for (const liveconv::VariantInfo& v : liveconv::variantRegistry())
    if (v.id != liveconv::VariantId::Auto) {
      EXPECT_TRUE(raced.count(v.name)) << v.name << " was not raced\n" << table;
    }
  EXPECT_EQ(chosen, 1) << table;
  EXPECT_EQ(chosenMs, fastest) << "the one chosen is the fastest that ran\n" << table;
  EXPECT_NE(json.find("\"variant\": \"local\""), std::string::npos) << "the comparison changed what runs\n" << json;
}

// A choice auto took from its cache shows the race behind it (the chart's
// and the stats' `race`: `cached`, when it ran, every candidate), where both
// windows said "No race yet". The race is made here as an earlier run makes it
// (AutoTuner::resolve into a file), for the window's device, mask, border,
// format and frame size.
TEST_P(WindowScript, AutosCachedChoiceShowsTheRaceBehindIt) {
  const std::vector<liveconv::DeviceInfo> devices = liveconv::enumerateDevices();
  if (devices.empty()) GTEST_SKIP() << "SKIP: no OpenCL device";
  const std::string tuning = dir_ + "tuning.tsv";
  {
    liveconv::FilterParams p;
    p.variant = liveconv::VariantId::Auto;
    p.mask = liveconv::parseMaskArgument("box:5");
    p.border = liveconv::BorderMode::Zero;  // the check mode's mask and border: their programs
    liveconv::AutoTuner(tuning).resolve(liveconv::DeviceContext::create(liveconv::selectDevice("", devices)),
                                        std::make_shared<liveconv::ProgramCache>(), p, liveconv::PixelFormat::RGBA8,
                                        320, 240);
  }
  limits_ = "env LIVECONV_TUNING_CACHE=" + tuning + " ";
  extraArgs_ = "--mask box:5 --border zero ";
  std::string output;
  ASSERT_EQ(run("3 wait\n4 quit\n", &output), 0) << output;
  const std::string json = readFile(dir_ + "stats.json");
  const std::size_t race = json.find("\"race\": {");
  ASSERT_NE(race, std::string::npos) << "no race to show\n" << json;
  const std::string table = json.substr(race, json.find("\"messages\"") - race);
  EXPECT_NE(table.find("\"trigger\": \"auto\", \"cached\": true, \"raced_at\": \"20"), std::string::npos) << table;
  EXPECT_NE(table.find("\"chosen\": true"), std::string::npos) << table;
  EXPECT_NE(table.find("\"image\": \"320x240\""), std::string::npos) << table;
  EXPECT_NE(json.find("auto -> "), std::string::npos) << "auto's choice does not run\n" << json;
}

struct CheckLine {
  std::string variant, image, format;
  long beyond = -1, maxDifference = -1;
  bool passed = false, worstKnown = false;
};

// The stats file writes one check a line: {"number": N, ..., "passed": true, ...}.
std::vector<CheckLine> checksOf(const std::string& json) {
  std::vector<CheckLine> checks;
  const std::size_t at = json.find("\"checks\": [");
  if (at == std::string::npos) return checks;
  std::istringstream lines(json.substr(at, json.find("\"checks_not_kept\"") - at));
  std::string line;
  const std::regex field(R"re("(\w+)": ("(?:[^"\\]|\\.)*"|-?\d+|true|false|null|\{[^}]*\}))re");
  while (std::getline(lines, line)) {
    if (line.find("\"number\"") == std::string::npos) continue;
    CheckLine c;
    for (std::sregex_iterator it(line.begin(), line.end(), field), end; it != end; ++it) {
      const std::string key = (*it)[1], value = (*it)[2];
      const std::string text = value.size() >= 2 && value[0] == '"' ? value.substr(1, value.size() - 2) : value;
      if (key == "variant_ran") c.variant = text;
      else if (key == "image") c.image = text;
      else if (key == "format") c.format = text;
      else if (key == "pixels_beyond_tolerance") c.beyond = std::stol(text);
      else if (key == "max_difference") c.maxDifference = std::stol(text);
      else if (key == "passed") c.passed = text == "true";
      else if (key == "worst") c.worstKnown = text != "null";
    }
    checks.push_back(c);
  }
  return checks;
}

// A screenshot's GL view, where the picture and its overlay are drawn: where
// its layout sidecar ($LIVECONV_SCREENSHOT_LAYOUT=1) says the view is (the Qt
// window saves the whole window: menus, status bar and the central widget,
// the view), else the whole file (the viewer draws its whole window). Empty
// if the file cannot be read.
liveconv::Image viewOf(const std::string& png) {
  liveconv::Image shot;
  if (!liveconv::ui::readPng(png, &shot).empty()) return {};
  std::ifstream layout(png + ".layout");
  for (std::string line; std::getline(layout, line);) {
    std::istringstream in(line);
    std::string key;
    int x = 0, y = 0, w = 0, h = 0;
    if (!(in >> key >> x >> y >> w >> h) || key != "view") continue;
    if (w <= 0 || h <= 0 || x < 0 || y < 0 || x + w > shot.width() || y + h > shot.height()) return {};
    liveconv::Image cut(w, h, shot.format());
    for (int r = 0; r < h; ++r) std::memcpy(cut.view().row(r), shot.view().row(y + r) + x * 4, std::size_t(w) * 4);
    return cut;
  }
  return shot;
}

// Pixels of a screenshot's view in the heat map's colours beyond the
// tolerance (red to yellow over a gray picture: strong red, little blue).
long heatPixels(const std::string& png) {
  const liveconv::Image shot = viewOf(png);
  if (shot.width() == 0) return -1;
  long n = 0;
  for (int y = 0; y < shot.height(); ++y)
    for (int x = 0; x < shot.width(); ++x) {
      const std::uint8_t* p = shot.view().row(y) + x * 4;
      n += p[0] > 200 && p[2] < 60 && p[0] - p[2] > 170;
    }
  return n;
}

// --frames N --screenshot FILE --quit: the window once N frames with a
// picture have been shown, so the file has the picture in it, however long
// the first frame takes (here a 1080p frame through a 9x9 mask on the CPU,
// many passes of the window's loop). The Qt window counted its passes, and
// saved an empty picture when the first frame was slow.
TEST_P(WindowScript, AScreenshotAfterFramesHasThePictureInIt) {
  const std::string cmd = "cd " + dir_ + " && HOME=" + dir_ + "home LIBGL_ALWAYS_SOFTWARE=1 LIVECONV_SCREENSHOT_LAYOUT=1 " +
                          kHangLimit + kXvfbRun + GetParam().binary + " " + GetParam().sourceOption +
                          "testpattern:1920x1080 --mask box:9 --variant naive --frames 2 --screenshot shot.png --quit "
                          "> out.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << readFile(dir_ + "out.log");
  const liveconv::Image picture = viewOf(dir_ + "shot.png");
  ASSERT_GT(picture.width(), 0) << readFile(dir_ + "out.log");
  // The test pattern's bars and ramps: many colours; an empty view has one or
  // two (its left half: the overlay's text, in the top right, has many greys).
  std::set<std::uint32_t> colours;
  for (int y = 0; y < picture.height(); y += 5)
    for (int x = 0; x < picture.width() / 2; x += 5) {
      const std::uint8_t* p = picture.view().row(y) + x * 4;
      colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
    }
  EXPECT_GT(colours.size(), 50u) << "no picture in the screenshot (" << picture.width() << "x" << picture.height() << ")";
}

// The naive kernel with one tap read from the pixel beside it (wrong wherever
// the picture is not flat), written into `dir` for LIVECONV_KERNEL_DIR; ""
// where naive.cl no longer has the place the tap is changed at.
std::string kernelsWithAWrongTap(const std::string& dir) {
  std::filesystem::create_directories(dir);
  for (const char* name : {"common.cl", "naive.cl"}) {
    std::string text = liveconv::kernelSource(name);
    if (std::string(name) == "naive.cl") {
      const std::string tap = "x + i - rx, y + j - ry";
      if (text.find(tap) == std::string::npos) return "";
      text.replace(text.find(tap), tap.size(), "x + i - rx + (i == 0 && j == 0), y + j - ry");
    }
    std::ofstream(dir + "/" + name) << text;
  }
  return dir;
}

// Check mode (E; the script's `check on`): the frame on screen against the
// CPU reference. Every variant that runs here agrees with it, on the test
// pattern in RGBA and on the bundled clip in gray, with no heat on the
// picture; a kernel with one wrong tap (LIVECONV_KERNEL_DIR) is caught: the
// pixels beyond the tolerance counted, the largest difference and where, and
// the heat map over the picture. The check is the frame loop's, which both
// windows share: the viewer goes through every variant, the Qt window through
// three that reach the engine by different kinds of program (a plain one, one
// with the mask's size compiled in, one rebuilt per mask) and the wrong tap,
// which is enough to show its menu, screenshots and stats carry the check.
// (Every variant in both windows compiled the same 26 programs twice: 69 s
// a window on the 2-core machine.)
TEST_P(WindowScript, CheckModeFindsEveryVariantRightAndCatchesAWrongTap) {
  std::vector<std::string> variants;
  const std::set<std::string> qtChecks = {"local", "unrolled", "baked"};
  for (const liveconv::VariantInfo& v : liveconv::variantRegistry())
    if (v.id != liveconv::VariantId::Auto && (std::string(GetParam().name) == "viewer" || qtChecks.count(v.name)))
      variants.push_back(v.name);
  ASSERT_GE(variants.size(), std::string(GetParam().name) == "viewer" ? 4u : qtChecks.size()) << "a variant renamed?";
  // The picture alone (panels and overlay hidden), for the screenshots' heat.
  std::string script = "0 key H\n0 key O\n0 check on\n1 wait\n";
  int frame = 3, line = 4;
  std::map<std::string, std::vector<int>> linesOf;  // the script lines that pick each variant
  auto everyVariant = [&] {
    for (const std::string& v : variants) {
      script += std::to_string(frame) + " variant " + v + "\n" + std::to_string(frame) + " wait\n";
      linesOf[v].push_back(++line);
      ++line;
      ++frame;
    }
  };
  everyVariant();
  script += std::to_string(frame) + " format gray\n";
  ++line;
#ifdef LIVECONV_WITH_MEDIA
  const std::string grayImage = "320x180 gray";
  script += std::to_string(frame) + " source " + LIVECONV_CLIP + "\n" + std::to_string(frame) + " wait\n";
  line += 2;
#else
  const std::string grayImage = "320x240 gray";
#endif
  frame += 2;
  everyVariant();
  script += std::to_string(frame) + " screenshot clean.png\n" + std::to_string(frame + 1) + " quit\n";
  std::string output;
  // Integer taps: exact on every variant. At the zero border the programs are
  // the sweep's own (VariantSweep: 5x5 at the zero border), built once a run.
  extraArgs_ = "--mask box:5 --border zero --kernel-file " + std::string(LIVECONV_EXAMPLE_KERNEL) + " ";
  ASSERT_EQ(run(script, &output), 0) << output;
  std::string json = readFile(dir_ + "stats.json");
  std::vector<CheckLine> checks = checksOf(json);
  ASSERT_FALSE(checks.empty()) << json;
  std::map<std::string, std::set<std::string>> checked;  // variant -> "image format" it was checked on
  for (const CheckLine& c : checks) {
    EXPECT_TRUE(c.passed) << c.variant << " on " << c.image << " " << c.format << ": " << c.beyond
                          << " px beyond the tolerance, up to " << c.maxDifference;
    checked[c.variant].insert(c.image + " " + c.format);
  }
  for (const std::string& v : variants) {
    // A variant this device cannot run is refused, as a click on it would be: the script's line says why.
    const int refusedLine = lineWithLongWaits(script, linesOf[v].front());
    const bool refused = json.find("\"text\": \"line " + std::to_string(refusedLine) + ": ") != std::string::npos;
    if (refused) {
      std::printf("SKIP for %s: this device cannot run it (the window refused the line)\n", v.c_str());
      continue;
    }
    EXPECT_TRUE(checked[v].count("320x240 rgba")) << v << " was not checked on the test pattern";
    EXPECT_TRUE(checked[v].count(grayImage)) << v << " was not checked on " << grayImage;
  }
  EXPECT_EQ(heatPixels(dir_ + "clean.png"), 0) << "heat on a picture that agrees";

  const std::string kernels = kernelsWithAWrongTap(dir_ + "wrong_tap");
  ASSERT_FALSE(kernels.empty()) << "naive.cl changed; the test's wrong tap needs a new place";
  ASSERT_EQ(setenv(liveconv::kKernelDirEnvVar, kernels.c_str(), 1), 0);
  extraArgs_ = "--mask box:5 --variant naive --format gray ";
  const int rc = run("0 key H\n0 key O\n0 key E\n1 wait\n2 screenshot wrong.png\n3 quit\n", &output);
  unsetenv(liveconv::kKernelDirEnvVar);
  ASSERT_EQ(rc, 0) << output;
  json = readFile(dir_ + "stats.json");
  checks = checksOf(json);
  ASSERT_FALSE(checks.empty()) << json;
  const CheckLine& c = checks.front();
  EXPECT_EQ(c.variant, "naive");
  EXPECT_FALSE(c.passed) << json;
  EXPECT_GT(c.beyond, 1000) << "a wrong tap of a 5x5 box changes most of a moving picture";
  EXPECT_GE(c.maxDifference, 2);
  EXPECT_TRUE(c.worstKnown);
  EXPECT_GT(heatPixels(dir_ + "wrong.png"), 1000) << "no heat map over the picture";
}

struct Box {
  int left = 0, top = 0, right = -1, bottom = -1;  // inclusive; empty when right < left
  int width() const { return right - left + 1; }
  int height() const { return bottom - top + 1; }
  bool empty() const { return right < left; }
};

// Where two screenshots of the same size differ (any channel by more than a
// little) right of `fromX`: the overlay, when all else there holds still.
Box differingBox(const liveconv::Image& a, const liveconv::Image& b, int fromX) {
  Box box{a.width(), a.height(), -1, -1};
  for (int y = 0; y < a.height(); ++y)
    for (int x = fromX; x < a.width(); ++x) {
      const std::uint8_t* p = a.data() + (static_cast<std::size_t>(y) * a.width() + x) * 4;
      const std::uint8_t* q = b.data() + (static_cast<std::size_t>(y) * b.width() + x) * 4;
      if (std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) <= 24) continue;
      box = {std::min(box.left, x), std::min(box.top, y), std::max(box.right, x), std::max(box.bottom, y)};
    }
  return box;
}

// The overlay's modes, seen in both windows' screenshots of the picture (panels
// hidden, a filtered frame held): off; full in the top right corner; compact
// (Alt+O), a small part of that in the same corner; Shift+O to the bottom
// right. Each shot is compared with the one without the overlay (right of the
// left third, where the viewer confirms each shot), and the two windows with
// each other: the same overlay, the same sizes.
// PoCL's first launches go to a helper: each window, started with
// --first-launch-helper, builds and launches the sets it is given, and the code
// lands in PoCL's kernel cache (here a folder of the test's own), where the
// window's own first launch then finds it. A GPU, a cache turned off, a
// helper abandoned or given arguments it does not take: false, nothing waits.
class FirstLaunchHelper : public ::testing::TestWithParam<Window> {};

std::vector<std::string> sharedObjects(const std::string& dir) {
  std::vector<std::string> found;
  if (!std::filesystem::exists(dir)) return found;
  for (const auto& f : std::filesystem::recursive_directory_iterator(dir))
    if (f.path().extension() == ".so") found.push_back(f.path().string());
  return found;
}

TEST_P(FirstLaunchHelper, TheWindowLaunchesTheSetsItIsGivenIntoPoclsKernelCache) {
  liveconv::DeviceInfo pocl;
  for (const liveconv::DeviceInfo& d : liveconv::enumerateDevices())
    if (d.kind == liveconv::DeviceKind::CPU && d.platformName.find("Portable Computing Language") != std::string::npos)
      pocl = d;
  if (pocl.index < 0) GTEST_SKIP() << "SKIP: no PoCL CPU device: no code generated at first launch";
  const TestFolder folder("first_launch");
  const std::string cache = folder.path() + "pocl";
  // The helper's PoCL cache, and the record of its launches there (this
  // process's PoCL is open already and keeps its own).
  ASSERT_EQ(setenv("POCL_CACHE_DIR", cache.c_str(), 1), 0);
  // Two sets as a builder prepares them: naive on RGBA, local on gray with another border.
  auto device = liveconv::DeviceContext::create(pocl);
  std::vector<liveconv::Convolver::PreparedSet> sets;
  for (const auto& [variant, mask, border, format] :
       {std::tuple{liveconv::VariantId::Naive, "box:5", liveconv::BorderMode::Clamp, liveconv::PixelFormat::RGBA8},
        std::tuple{liveconv::VariantId::Local, "gaussian:9", liveconv::BorderMode::Mirror, liveconv::PixelFormat::GRAY8}}) {
    liveconv::FilterParams p;
    p.variant = variant;
    p.mask = liveconv::parseMaskArgument(mask);
    p.border = border;
    liveconv::Convolver c(device);
    c.setParams(p);
    c.prepare(format);
    for (const auto& set : c.preparedSets()) sets.push_back(set);
  }
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_NE(sets[0].programKey, sets[1].programKey);
  const liveconv::FirstLaunchElsewhere helper = liveconv::ui::firstLaunchInHelper(GetParam().binary);
  auto has = [&](const char* kernel) {
    const std::vector<std::string> found = sharedObjects(cache);
    return std::any_of(found.begin(), found.end(), [&](const std::string& f) { return f.find(kernel) != std::string::npos; });
  };

  EXPECT_FALSE(helper(pocl, sets, [] { return true; })) << "abandoned";
  liveconv::DeviceInfo gpu = pocl;
  gpu.kind = liveconv::DeviceKind::GPU;
  EXPECT_FALSE(helper(gpu, sets, {})) << "a GPU generates its code itself";
  ASSERT_EQ(setenv("POCL_KERNEL_CACHE", "0", 1), 0);
  EXPECT_FALSE(helper(pocl, sets, {})) << "without PoCL's cache nothing comes back";
  unsetenv("POCL_KERNEL_CACHE");
  EXPECT_TRUE(sharedObjects(cache).empty()) << "abandoned, or not started, yet code was generated";

  EXPECT_TRUE(helper(pocl, sets, {}));
  EXPECT_TRUE(has("/convolve_naive/")) << "no code for naive in " << cache;
  EXPECT_TRUE(has("/convolve_local/")) << "no code for local in " << cache;
  EXPECT_TRUE(std::filesystem::exists(cache + "/liveconv-first-launches.tsv")) << "no record of the launches";

  // Recorded: no helper starts for them again (the code is taken away to see that none is made).
  for (const std::string& f : sharedObjects(cache)) std::filesystem::remove(f);
  EXPECT_TRUE(helper(pocl, sets, {}));
  EXPECT_TRUE(sharedObjects(cache).empty()) << "a helper ran for sets recorded as launched";
  // The record goes with PoCL's cache: another cache folder, the helper runs again.
  ASSERT_EQ(setenv("POCL_CACHE_DIR", (cache + "2").c_str(), 1), 0);
  EXPECT_TRUE(helper(pocl, sets, {}));
  EXPECT_FALSE(sharedObjects(cache + "2").empty()) << "no helper for a new PoCL cache";
  unsetenv("POCL_CACHE_DIR");

  const int status = std::system((std::string(GetParam().binary) + " --first-launch-helper --device 0 --bogus x").c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << "an argument it does not take";
}

INSTANTIATE_TEST_SUITE_P(BothWindows, FirstLaunchHelper, ::testing::ValuesIn(windows()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(BothWindowsOverlay, OffFullCompactAndCornersLookTheSameInBothWindows) {
  if (liveconv::enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  if (!onPath("Xvfb")) GTEST_SKIP() << "no Xvfb: cannot open a window";
  std::vector<Box> fullBoxes;
  for (const Window& w : windows()) {
    SCOPED_TRACE(w.name);
    const TestFolder folder(std::string("overlay_") + w.name);
    const std::string& dir = folder.path();
    // A script runs every line due in one frame up to a `wait`, and a window
    // shot is taken after that frame is drawn: three waits (frames) after each
    // step let the picture hold and the overlay take its new size.
    std::string script = "2 mask box:3\n2 key H\n2 wait\n";
    for (const char* step : {"key Space", "key O", "screenshot off.png", "key O", "screenshot full.png", "key Alt+O",
                             "screenshot compact.png", "key Shift+O", "screenshot corner.png", "quit"})
      script += std::string("3 ") + step + "\n3 wait\n3 wait\n3 wait\n";
    std::ofstream(dir + "script.txt") << script;
    const std::string cmd = "cd " + dir + " && HOME=" + dir + "home LIVECONV_SCREENSHOT_LAYOUT=1 " + kHangLimit +
                            kXvfbRunLarge + w.binary + " " + w.sourceOption +
                            "testpattern:640x480 --script script.txt > out.log 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << readFile(dir + "out.log");
    const liveconv::Image off = viewOf(dir + "off.png"), full = viewOf(dir + "full.png"),
                          compact = viewOf(dir + "compact.png"), corner = viewOf(dir + "corner.png");
    ASSERT_GT(off.width(), 0) << "off.png";
    ASSERT_TRUE(full.width() == off.width() && compact.width() == off.width() && corner.width() == off.width());
    ASSERT_TRUE(full.height() == off.height() && compact.height() == off.height() && corner.height() == off.height());
    const int W = off.width(), H = off.height();
    const Box f = differingBox(off, full, W / 3), c = differingBox(off, compact, W / 3),
              k = differingBox(off, corner, W / 3);
    std::printf("%s, %dx%d: full %d,%d %dx%d; compact %d,%d %dx%d; bottom right %d,%d %dx%d\n", w.name, W, H, f.left,
                f.top, f.width(), f.height(), c.left, c.top, c.width(), c.height(), k.left, k.top, k.width(), k.height());
    EXPECT_LE(W, 1280) << "the window fits the 1280x1024 screen it opened on";
    EXPECT_LE(H, 1024);
    ASSERT_FALSE(f.empty() || c.empty() || k.empty()) << "an overlay mode draws nothing";
    EXPECT_GT(f.left, W / 2) << "full: in the right half";
    EXPECT_GT(f.right, W - W / 16) << "full: at the right edge";
    EXPECT_LT(f.top, H / 8) << "full: at the top";
    EXPECT_LT(f.width() * f.height(), W * H / 4) << "full: no more than a quarter of the picture";
    EXPECT_LT(c.width() * c.height() * 2, f.width() * f.height()) << "compact: less than half of full";
    EXPECT_GT(c.left, W / 2) << "compact: the same corner";
    EXPECT_LT(c.top, H / 8);
    EXPECT_GT(k.left, W / 2) << "Shift+O: the bottom right";
    EXPECT_GT(k.right, W - W / 16);
    EXPECT_GT(k.bottom, H - H / 8);
    EXPECT_GT(k.top, H / 2);
    fullBoxes.push_back(f);
  }
  if (fullBoxes.size() == 2) {  // one overlay drawn by both: the same size in each
    EXPECT_NEAR(fullBoxes[0].width(), fullBoxes[1].width(), fullBoxes[0].width() / 10);
    EXPECT_NEAR(fullBoxes[0].height(), fullBoxes[1].height(), fullBoxes[0].height() / 10);
  }
}

// What xdotool's scripts share: the window found on its own display and a
// wait for its layout file (the script's screenshot at frame 4: the window
// draws and has laid out its panels), and a way to let the window take in
// what came: the viewer hands ImGui one change of a key a pass (KeyQueue), so
// three Shift taps are six passes of its own, however slow, after which a
// click has opened its field for typing (ImGui activates it a pass or two
// later) and a focus moved by a key has landed. Nothing waits for a time:
// the only limit is the `timeout` around the whole run, which catches a hang.
const char* const kTypingHelpers = R"sh(
window_pid=
window=
# The window that "$@" opens, once it is visible.
start_window() {
  "$@" > out.log 2>&1 &
  window_pid=$!
  window=$(xdotool search --sync --onlyvisible --name liveconv | head -1)
}
# Until the line named $1 is in the viewer's layout file (the window ended: give up).
layout_line() {
  until grep -q "^$1 " shot.png.layout 2>/dev/null; do
    kill -0 "$window_pid" 2>/dev/null || return 1
    sleep 0.05
  done
  awk -v key="$1" '$1 == key { print int($2 + $4 / 2), int($3 + $5 / 2) }' shot.png.layout
}
# Until the window's title matches grep's arguments "$@" (the window ended: give up).
# A window can be made again under a new id after it first shows (Qt does so
# when its OpenGL widget needs another visual): an id that is gone is looked
# up again by name.
until_title() {
  until name=$(xdotool getwindowname "$window" 2>/dev/null) && printf '%s\n' "$name" | grep -q "$@"; do
    kill -0 "$window_pid" 2>/dev/null || return 1
    xdotool getwindowname "$window" >/dev/null 2>&1 || window=$(xdotool search --onlyvisible --name liveconv | head -1)
    sleep 0.05
  done
}
passes() { xdotool key Shift_L Shift_L Shift_L; }
)sh";

// Runs `dir`/type.sh (the typing helpers and the steps) on the viewer under an
// X server of its own, in `dir`, and expects the viewer to end well on Esc.
void runViewerTyping(const std::string& dir) {
  const std::string cmd = "cd " + dir + " && HOME=" + dir + "home LIVECONV_SCREENSHOT_LAYOUT=1 " + kHangLimit + kXvfbRun +
                          "sh type.sh " + LIVECONV_VIEWER_BIN + " 2>&1";
  std::printf("running: %s\n", cmd.c_str());
  const int status = std::system(cmd.c_str());
  std::printf("%s", readFile(dir + "out.log").c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the viewer did not end well on Esc (124: it did not end)";
}

// The viewer on a 3x3 identity, typed into by `keys` (a script of the typing
// helpers' that finds the grid's first cell at "$cell"), then Esc: its stats
// file. The variant compiles the mask's size, not its values: no build per
// typed digit.
std::string typeIntoTheGrid(const std::string& name, const std::string& keys) {
  const TestFolder folder(name);
  const std::string& dir = folder.path();
  std::ofstream(dir + "script.txt") << "4 screenshot shot.png\n";
  std::ofstream(dir + "type.sh") << kTypingHelpers << R"sh(
start_window "$1" --source testpattern:320x240 --variant rows --mask '3x3:0,0,0,0,1,0,0,0,0;divisor=1' \
  --script script.txt --stats-json stats.json
cell=$(layout_line grid) || { wait $window_pid; exit 1; }
)sh" << keys << "xdotool key Escape\nwait $window_pid\n";
  runViewerTyping(dir);
  return readFile(dir + "stats.json");
}

// The viewer's mask grid typed into with real keys (xdotool under Xvfb), as in
// GIMP's matrix dialog: a click opens a cell for typing, Tab goes to the next
// cell (and on to the next row), Down and Up to the cell below and above, Enter
// ends; Esc then quits. The keys go at once, in order (the viewer takes one
// change of a key a pass), with a few passes after each step that moves the
// focus. The stats file names the mask that ran. (The Qt dock's grid:
// QtShell.MaskGridTakesTabAndArrowKeys.)
TEST(ViewerGrid, AClickOpensACellAndTabAndArrowKeysMoveBetweenCells) {
  if (liveconv::enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  if (!onPath("Xvfb") || !onPath("xdotool")) GTEST_SKIP() << "no Xvfb or no xdotool: cannot type into the viewer";
  const std::string json = typeIntoTheGrid("grid", R"sh(
echo "grid cell (0, 0) at $cell in window $window"
xdotool mousemove --window "$window" $cell click 1
passes
xdotool type 2
xdotool key Tab; passes
xdotool type 3
xdotool key Tab; passes
xdotool key Tab; passes
xdotool key Down; passes
xdotool type 4
xdotool key Up; passes
xdotool key Up; passes
xdotool key Up Return; passes
)sh");
  EXPECT_NE(json.find("\"mask\": \"3x3:2,3,0,0,1,0,4,0,0;"), std::string::npos)
      << "typed 2, Tab 3, Tab Tab Down 4, Up Up Up (the top row: stays), Enter\n" << json;
}

// Keys typed at once after an arrow (xdotool's 5 and 20 ms apart, a quick
// typist) go into the cell the arrow opened: the viewer moves the keyboard to
// it in a pass or two, and the keys wait for it (the digit after Down was lost
// below 30 ms, and could reach the window's own keys). As the Qt dock's grid
// keeps them (QtShell.ANumberTypedIsKeptWhateverRefreshesTheGridBeforeTheCellIsLeft).
TEST(ViewerGrid, KeysTypedAtOnceAfterAnArrowGoIntoTheCellItOpened) {
  if (liveconv::enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  if (!onPath("Xvfb") || !onPath("xdotool")) GTEST_SKIP() << "no Xvfb or no xdotool: cannot type into the viewer";
  const std::string json = typeIntoTheGrid("grid_fast", R"sh(
size=$(awk '$1 == "grid" { print int($5) + 3 }' shot.png.layout)
set -- $cell
xdotool mousemove --window "$window" "$1" "$2" click 1
passes
xdotool key --delay 5 minus 1 Tab 2 Down 3 Return; passes
xdotool mousemove --window "$window" "$1" $(($2 + size)) click 1
passes
xdotool key --delay 20 5 Tab 6 Down 7 Return; passes
)sh");
  EXPECT_NE(json.find("\"mask\": \"3x3:-1,2,0,5,6,0,0,7,0;"), std::string::npos)
      << "(0,0): -1 Tab 2 Down 3 Enter, then (0,1): 5 Tab 6 Down 7 Enter\n" << json;
}

// An 800x500 window cuts nothing in the viewer's panel: the 7x7 grid of
// three-decimal numbers shows its last column without a sideways scroll (a
// slimmer cell frame, a panel of at least 360), and rows of buttons wrap
// (the speed row lost 2x and 4x past the panel's edge). (The Qt shell:
// qt.QtShell.An800x500WindowCutsNothing.)
TEST(ViewerLayout, An800x500WindowCutsNothing) {
  if (liveconv::enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  if (!onPath("Xvfb")) GTEST_SKIP() << "no Xvfb: cannot open the viewer";
  const TestFolder folder("layout_800x500");
  const std::string& dir = folder.path();
  const std::string cmd = "cd " + dir + " && HOME=" + dir + "home LIVECONV_SCREENSHOT_LAYOUT=1 " + kHangLimit +
                          LIVECONV_XVFB_RUN + " --screen 800x500x24 " + LIVECONV_VIEWER_BIN +
                          " --source testpattern --mask motion45:7 --frames 10 --quit --screenshot shot.png 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::map<std::string, std::vector<float>> layout;
  std::ifstream in(dir + "shot.png.layout");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    for (float v; fields >> v;) layout[key].push_back(v);
  }
  ASSERT_EQ(layout["picture"].size(), 4u) << "no layout file";
  ASSERT_EQ(layout["panel_right"].size(), 1u);
  const float right = layout["panel_right"][0];
  EXPECT_LE(right, layout["picture"][0]) << "the panel reaches into the picture";
  const auto ends = [&](const char* key) {
    const std::vector<float>& r = layout[key];
    return r.size() == 4 && r[2] > 0 ? r[0] + r[2] : 1e9f;
  };
  const std::vector<float>& area = layout["grid_area"];
  ASSERT_EQ(area.size(), 4u);
  EXPECT_LE(ends("grid_last_of_first_row"), area[0] + area[2]) << "the grid's last column is cut";
  EXPECT_LE(area[0] + area[2], right + 1) << "the grid runs past the panel";
  EXPECT_LE(ends("speed_last"), right) << "the speed row runs past the panel";
}

// The viewer's Record with the name of a file that is there keeps the file
// and says so; Record again with the same name replaces it. The first click
// is known to have been handled by a frame saved (S) after it; the second by
// the recording's temporary that appears. Esc finishes the recording.
TEST(ViewerRecord, AFileThatIsThereIsReplacedOnlyByASecondRecord) {
  if (liveconv::enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  if (!onPath("Xvfb") || !onPath("xdotool")) GTEST_SKIP() << "no Xvfb or no xdotool: cannot click in the viewer";
  const TestFolder folder("record_twice");
  const std::string& dir = folder.path();
  std::ofstream(dir + "script.txt") << "4 screenshot shot.png\n";
  std::ofstream(dir + "liveconv-recording.mkv") << "precious";
  std::ofstream(dir + "type.sh") << kTypingHelpers << R"sh(
start_window "$1" --source testpattern:320x240 --script script.txt --stats-json stats.json
button=$(layout_line record_button) || { wait $window_pid; exit 1; }
echo "Record at $button in window $window"
xdotool windowfocus --sync "$window"  # no window manager: the window is given the keyboard
xdotool mousemove --window "$window" $button click 1
passes
xdotool key s
until ls liveconv-frame-*.png >/dev/null 2>&1; do
  kill -0 "$window_pid" 2>/dev/null || { wait $window_pid; exit 1; }
  sleep 0.05
done
cat liveconv-recording.mkv > after-first.txt
ls -a > files-after-first.txt
xdotool mousemove --window "$window" $button click 1
until [ -n "$(find . -maxdepth 1 -name '.liveconv-recording.mkv.liveconv-part-*')" ]; do
  kill -0 "$window_pid" 2>/dev/null || { wait $window_pid; exit 1; }
  passes
  sleep 0.05
done
passes
xdotool key Escape
wait $window_pid
)sh";
  runViewerTyping(dir);
  EXPECT_EQ(readFile(dir + "after-first.txt"), "precious") << "the first Record replaced the file";
  EXPECT_EQ(readFile(dir + "files-after-first.txt").find(".liveconv-part-"), std::string::npos)
      << "the first Record started a recording";
  const std::string recorded = readFile(dir + "liveconv-recording.mkv");
  EXPECT_NE(recorded, "precious") << "the second Record did not replace the file";
  EXPECT_EQ(recorded.compare(0, 4, "\x1a\x45\xdf\xa3"), 0) << "not a Matroska file";
  const std::string json = readFile(dir + "stats.json");
  EXPECT_NE(json.find("liveconv-recording.mkv"), std::string::npos) << "no recording listed\n" << json;
}

// Keys tapped as a user taps them (xdotool: each press and its release
// together, 80 and 250 ms apart) all reach a text field, in both windows,
// however the window's passes fall: ten BackSpace taps delete ten characters,
// Ctrl+A selects what the field holds so typing replaces it, and Enter opens
// the source typed. The viewer's source field is found through its layout
// file, Qt's through Ctrl+Shift+O ("Open Stream or Device", once the first
// source plays: the title names it). Esc quits once the new source plays (Esc
// while it opens would cancel the open): the Qt title names it, the viewer's
// S saves its frame at its own size. The stats file names the source that
// plays: a tap lost leaves a name that does not open, and the run then ends
// at the hang limit.
TEST_P(WindowScript, EveryKeyTapReachesTheTextFieldAndEnterOpens) {
  if (!onPath("Xvfb") || !onPath("xdotool")) GTEST_SKIP() << "no Xvfb or no xdotool: cannot type into a window";
  std::ofstream(dir_ + "script.txt") << "4 screenshot shot.png\n";
  std::ofstream(dir_ + "type.sh") << kTypingHelpers << R"sh(
kind=$2
start_window "$1" testpattern:320x240 --script script.txt --stats-json stats.json
if [ "$kind" = viewer ]; then
  field=$(layout_line source_field) || { wait $window_pid; exit 1; }
  echo "source field at $field in window $window"
  xdotool windowfocus --sync "$window"  # no window manager: the window is given the keyboard
  xdotool mousemove --window "$window" $field click 1
  passes
else
  until_title 'testpattern:320x240' || { wait $window_pid; exit 1; }
  xdotool windowfocus --sync "$window"  # no window manager: the window is given the keyboard
  xdotool key ctrl+shift+o
  dialog=$(xdotool search --sync --onlyvisible --name 'Open stream or device' | head -1)
  xdotool windowfocus --sync "$dialog"
fi
xdotool type --delay 80 'lavfi:testsrc'
xdotool key ctrl+a
xdotool type --delay 80 'testpattern:160x120'
xdotool type --delay 80 '0123456789'
xdotool key --delay 250 BackSpace BackSpace BackSpace BackSpace BackSpace BackSpace BackSpace BackSpace BackSpace BackSpace
xdotool key Return
if [ "$kind" = viewer ]; then
  until file -b liveconv-frame-*.png 2>/dev/null | grep 'PNG image data' | grep -qv ' 320 x 240,'; do
    kill -0 "$window_pid" 2>/dev/null || { wait $window_pid; exit 1; }
    xdotool key s
    sleep 0.2
  done
else
  until_title -v 'testpattern:320x240' || { wait $window_pid; exit 1; }
  xdotool windowfocus --sync "$window"  # Qt's dialog had the keyboard; no window manager gives it back
fi
xdotool key Escape
wait $window_pid
)sh";
  const std::string cmd = "cd " + dir_ + " && HOME=" + dir_ + "home LIVECONV_SCREENSHOT_LAYOUT=1 " + kHangLimit +
                          kXvfbRun + "sh type.sh " + GetParam().binary + " " + GetParam().name + " 2>&1";
  std::printf("running: %s\n", cmd.c_str());
  const int status = std::system(cmd.c_str());
  std::printf("%s", readFile(dir_ + "out.log").c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the window did not end well on Esc (124: it did not end)";
  const std::string json = readFile(dir_ + "stats.json");
  EXPECT_NE(json.find("\"source\": \"test pattern 160x120 "), std::string::npos)
      << "typed over (Ctrl+A) with testpattern:160x120 and ten more characters, ten BackSpace taps, Enter\n"
      << json;
}

// The viewer with vsync on keeps to the display's refresh rate where the
// display does not pace its swaps (Xvfb reports no rate: 60 Hz is taken): a
// pattern that filters and draws in a few milliseconds still takes most of
// a refresh per frame, and leaves the cores to the decoder and the filter.
TEST(ViewerPacing, WithVsyncOnItDrawsNoFasterThanTheDisplayRefreshes) {
  if (liveconv::enumerateDevices().empty()) GTEST_SKIP() << "SKIP: no OpenCL device";
  if (!onPath("Xvfb")) GTEST_SKIP() << "SKIP: no Xvfb: cannot open a window";
  const TestFolder folder("pacing");
  const std::string& dir = folder.path();
  std::ofstream(dir + "script.txt") << "90 quit\n";
  const std::string cmd = "cd " + dir + " && HOME=" + dir + "home " + kHangLimit + kXvfbRun + LIVECONV_VIEWER_BIN +
                          " --source testpattern:64x48 --script script.txt --stats-json stats.json > out.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << readFile(dir + "out.log");
  const std::string json = readFile(dir + "stats.json");
  std::smatch median;
  ASSERT_TRUE(std::regex_search(json, median, std::regex(R"("ui_frame_ms": \{"median": ([0-9.]+))"))) << json;
  EXPECT_GE(std::stod(median[1]), 0.9 * 1000 / 60 - 0.5) << "frames drawn faster than a 60 Hz display shows them";
}

INSTANTIATE_TEST_SUITE_P(BothWindows, WindowScript, ::testing::ValuesIn(windows()),
                         [](const ::testing::TestParamInfo<Window>& i) { return std::string(i.param.name); });

}  // namespace
