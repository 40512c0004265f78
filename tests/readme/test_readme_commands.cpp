// Every command line of the code blocks of README.md and of each docs/*.md,
// run as a user would type it: one ctest entry per line, named by its file and
// line, so a documented command that breaks turns CI red.
//
// Each line runs through /bin/sh, word for word, in a fresh folder that holds
// the files the docs name as placeholders (clip.mp4, edge.json, script.txt, and
// docs/examples' files by their names). The only
// changes, each printed with the command:
//  - `liveconv`, `liveconv-viewer` and `liveconv-qt` are this build's (a PATH
//    entry); `build/...` is this build tree;
//  - `run` without --frames gets `--frames 12`; `bench` gets small sizes and one
//    timed run (the docs' sizes are for a GPU); `bench --pipeline` gets a small
//    --size and 12 --frames;
//  - the windows (liveconv-qt, liveconv-viewer, `liveconv --ui`) run on an X
//    server of their own (tests/xvfb_run.sh) with `--frames 5 --quit`, and a
//    settings folder of their own.
// Each line's folder is named by its file, its line and this process, so the
// lines run side by side (and beside another build tree's); it is removed
// after a line that passed.
// The exit code expected is 0, or the one the docs give for what this
// machine lacks: 3 for `--device gpu` without a GPU, 7 for a camera that is
// not there (a window's `--quit` run too: its source never played). Files a command names with -o, --json or
// --stats-json must exist afterwards. The files: LIVECONV_DOC_FILES, "|"-separated paths under LIVECONV_SOURCE_DIR
// (tests/CMakeLists.txt lists README.md and docs/*.md when it is configured).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct ReadmeCommand {
  std::string file;  // as the source tree names it: README.md, docs/cli.md, ...
  int line = 0;      // in that file
  std::string text;  // as written, without its trailing comment

  std::string where() const { return file + ":" + std::to_string(line); }
};

// How GoogleTest prints a case: the file, the line and the command.
void PrintTo(const ReadmeCommand& c, std::ostream* os) { *os << c.where() << ": " << c.text; }

// README.md and the docs/*.md files, as tests/CMakeLists.txt found them.
std::vector<std::string> docFiles() {
  std::vector<std::string> files;
  std::istringstream list(LIVECONV_DOC_FILES);
  for (std::string file; std::getline(list, file, '|');)
    if (!file.empty()) files.push_back(file);
  return files;
}

// Lines of ```sh (or unlabelled) code blocks of one file that start a liveconv program.
std::vector<ReadmeCommand> commandsOf(const std::string& file) {
  std::ifstream in(fs::path(LIVECONV_SOURCE_DIR) / file);
  if (!in) throw std::runtime_error("cannot read " + file + " (listed by tests/CMakeLists.txt)");
  std::vector<ReadmeCommand> commands;
  std::string line;
  bool inBlock = false, shellBlock = false;
  const std::regex program(
      R"(^(liveconv|liveconv-viewer|liveconv-qt|build/app/liveconv|build/ui/qt/liveconv-qt|build/ui/glfw/liveconv-viewer)( |$))");
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind("```", 0) == 0) {
      shellBlock = !inBlock && (line == "```" || line == "```sh" || line == "```bash");
      inBlock = !inBlock;
      continue;
    }
    if (!inBlock || !shellBlock) continue;
    if (const auto hash = line.find(" #"); hash != std::string::npos) line.erase(hash);
    line.erase(line.find_last_not_of(' ') + 1);
    if (std::regex_search(line, program)) commands.push_back({file, number, line});
  }
  return commands;
}

std::vector<ReadmeCommand> documentedCommands() {
  std::vector<ReadmeCommand> commands;
  for (const std::string& file : docFiles()) {
    const auto some = commandsOf(file);
    commands.insert(commands.end(), some.begin(), some.end());
  }
  return commands;
}

struct Outcome {
  int exitCode = -1;
  std::string output;
};

Outcome runShell(const std::string& command, const fs::path& dir) {
  const std::string full = "cd '" + dir.string() + "' && " + command + " >output.txt 2>&1";
  const int status = std::system(full.c_str());
  Outcome o;
  o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream log(dir / "output.txt");
  std::stringstream text;
  text << log.rdbuf();
  o.output = text.str();
  return o;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The value after `option` in `text` ("" when absent).
std::string optionValue(const std::string& text, const std::string& option) {
  const auto w = words(text);
  for (std::size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == option) return w[i + 1];
  return {};
}

bool machineHasGpu() {
  static const bool gpu = [] {
    const Outcome o = runShell(std::string("env -u LIVECONV_DEVICE '") + LIVECONV_BIN + "' devices", fs::temp_directory_path());
    return has(o.output, "[GPU,");
  }();
  return gpu;
}

// camera:N or /dev/videoN named by the command, when that device is absent.
std::string missingCamera(const std::string& text) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(R"((camera:|/dev/video)([0-9]+))")) &&
      !fs::exists("/dev/video" + m[2].str()))
    return "/dev/video" + m[2].str();
  return {};
}

class ReadmeCommandTest : public ::testing::TestWithParam<ReadmeCommand> {
 protected:
  void SetUp() override {
    std::string name = "liveconv_doc_" + GetParam().where() + "_" + std::to_string(getpid());
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    dir_ = fs::path(::testing::TempDir()) / name;
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "bin");
    fs::create_directories(dir_ / "home");
    fs::create_symlink(LIVECONV_BIN, dir_ / "bin" / "liveconv");
    fs::create_symlink(fs::path(LIVECONV_BUILD_DIR) / "ui/glfw/liveconv-viewer", dir_ / "bin" / "liveconv-viewer");
    fs::create_symlink(fs::path(LIVECONV_BUILD_DIR) / "ui/qt/liveconv-qt", dir_ / "bin" / "liveconv-qt");
    // The placeholders: a clip with audio and a mask file in the format the UIs save.
    const Outcome clip = runShell(
        "ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=25 -f lavfi -i sine=frequency=440 -t 2 "
        "-c:v libx264 -pix_fmt yuv420p -c:a aac -shortest clip.mp4",
        dir_);
    ASSERT_EQ(clip.exitCode, 0) << "could not make clip.mp4 with ffmpeg:\n" << clip.output;
    if (GetParam().text.find("phone10.mp4") != std::string::npos) {  // a 10-bit HEVC clip, as a phone records
      const Outcome ten = runShell(
          "ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=25 -t 1 -c:v libx265 -preset ultrafast "
          "-x265-params log-level=error -pix_fmt yuv420p10le phone10.mp4",
          dir_);
      ASSERT_EQ(ten.exitCode, 0) << "could not make phone10.mp4 with ffmpeg:\n" << ten.output;
    }
    std::ofstream(dir_ / "script.txt") << "# script.txt\n10 mask box:5\n10 wait\n20 variant separable\n30 save-frame f.png\n40 quit\n";
    std::ofstream(dir_ / "edge.json")
        << R"({"width":3,"height":3,"coefficients":[-1,-1,-1,-1,8,-1,-1,-1,-1],"divisor":1,"bias":0,"normalize":"none"})";
    // The docs' example kernels (docs/examples/*.cl), by their names.
    for (const auto& example : fs::directory_iterator(fs::path(LIVECONV_SOURCE_DIR) / "docs" / "examples"))
      fs::copy_file(example.path(), dir_ / example.path().filename());
  }
  void TearDown() override {
    std::error_code ignored;
    if (!HasFailure()) fs::remove_all(dir_, ignored);
  }

  fs::path dir_;
};

TEST_P(ReadmeCommandTest, RunsAsDocumented) {
  const ReadmeCommand& c = GetParam();
  std::string command = c.text;
  if (command.rfind("build/", 0) == 0) command = std::string(LIVECONV_BUILD_DIR) + command.substr(5);
  const auto w = words(c.text);
  const bool window = has(w[0], "liveconv-qt") || has(w[0], "liveconv-viewer") || (w.size() > 1 && w[1] == "--ui");
  const std::string subcommand = w.size() > 1 ? w[1] : "";
  if (subcommand == "run" && optionValue(c.text, "--frames").empty()) command += " --frames 12";
  const bool pipeline = subcommand == "bench" && has(c.text, " --pipeline");
  if (pipeline) {
    for (const auto& [option, small] : {std::pair<std::string, std::string>{"--size", "160x96"}, {"--frames", "12"}}) {
      const std::string value = optionValue(c.text, option);
      if (!value.empty()) command = std::regex_replace(command, std::regex(" " + option + " " + value), " " + option + " " + small);
      else command += " " + option + " " + small;
    }
  } else if (subcommand == "bench") {
    const std::string sizes = optionValue(c.text, "--sizes");
    if (!sizes.empty()) command = std::regex_replace(command, std::regex(" --sizes " + sizes), " --sizes 160x96");
    else command += " --sizes 160x96";
    command += " --runs 1 --warmup 0";
  }
  if (window) command = std::string(LIVECONV_XVFB_RUN) + " " + command + " --frames 5 --quit";
  const std::string env = "env -u LIVECONV_DEVICE -u DISPLAY -u WAYLAND_DISPLAY PATH='" + (dir_ / "bin").string() +
                          ":" + std::getenv("PATH") + "' HOME='" + (dir_ / "home").string() +
                          "' XDG_CONFIG_HOME='" + (dir_ / "home").string() + "' XDG_CACHE_HOME='" +
                          (dir_ / "home").string() + "' ";

  int expected = 0;
  std::string why = "documented to succeed";
  if (!machineHasGpu() && (has(c.text, "--device gpu") || has(c.text, "-d gpu"))) {
    expected = 3;
    why = "this machine has no GPU: 3, \"no (matching) OpenCL device\"";
  } else if (const std::string camera = missingCamera(c.text); !camera.empty()) {
    expected = 7;
    why = camera + " does not exist: 7, " + (window ? "\"a source that does not open ends it with 7\" (a run nobody watches)"
                                                   : "\"a camera that does not exist fails at once\"");
  }
  std::cout << "[   DOCS   ] " << c.where() << ": " << c.text << "\n[   RUNS   ] " << command << "\n[  EXPECTS ] exit "
            << expected << " (" << why << ")\n";
  const Outcome o = runShell(env + command, dir_);
  EXPECT_EQ(o.exitCode, expected) << c.where() << ": " << c.text << "\n" << o.output;
  if (expected != 0) return;
  for (const char* option : {"-o", "--output", "--json", "--json-log", "--stats-json"}) {
    const std::string file = optionValue(c.text, option);
    if (file.empty() || file == "null") continue;
    std::error_code ec;
    EXPECT_GT(fs::file_size(dir_ / file, ec), 0u) << c.text << ": " << file << " was not written\n" << o.output;
  }
}

std::string testName(const ::testing::TestParamInfo<ReadmeCommand>& info) {
  std::string name = info.param.file + "_" + std::to_string(info.param.line) + "_";
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  for (char ch : info.param.text.substr(0, 60)) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeCommandTest, ::testing::ValuesIn(documentedCommands()), testName);

// The parser itself: docs without these would test nothing.
TEST(ReadmeCommands, TheDocsHaveCommandsForEveryProgram) {
  const auto files = docFiles();
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files.front(), "README.md");
  EXPECT_FALSE(commandsOf("README.md").empty()) << "README.md's tour has no command the tests found";
  const auto commands = documentedCommands();
  auto count = [&](const std::string& part) {
    int n = 0;
    for (const auto& c : commands) n += has(c.text, part);
    return n;
  };
  EXPECT_GE(count("liveconv run"), 3);
  EXPECT_GE(count("liveconv bench"), 1);
  EXPECT_GE(count("liveconv devices"), 1);
  EXPECT_GE(count("liveconv-qt"), 1);
  EXPECT_GE(count("liveconv-viewer"), 1);
}

}  // namespace
