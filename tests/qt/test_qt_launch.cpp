// `liveconv --ui qt|viewer ARGS`: the CLI becomes the window program with the
// remaining arguments, or says in one sentence that it is not part of this
// build and exits with 127. No window is opened: --help and --version answer
// before Qt starts.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <csignal>
#include <string>

namespace {

struct Outcome {
  int exitCode = -1;
  std::string output;  // stdout and stderr
};

Outcome runCommand(const std::string& command) {
  Outcome r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) r.output += buffer.data();
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(LaunchUi, QtShellGetsTheRemainingArguments) {
  const Outcome help = runCommand(std::string("'") + LIVECONV_BIN + "' --ui qt --help");
  EXPECT_EQ(help.exitCode, 0) << help.output;
  EXPECT_EQ(help.output.rfind("usage: liveconv-qt", 0), 0u) << help.output;
  const Outcome version = runCommand(std::string("'") + LIVECONV_BIN + "' --ui=qt --version");
  EXPECT_EQ(version.exitCode, 0) << version.output;
  EXPECT_EQ(version.output.rfind("liveconv-qt ", 0), 0u) << version.output;
  // Without a display liveconv-qt says so itself (its exit code comes back through the exec).
  const Outcome headless =
      runCommand(std::string("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM '") + LIVECONV_BIN + "' --ui qt");
  EXPECT_EQ(headless.exitCode, 1) << headless.output;
  EXPECT_EQ(headless.output.rfind("liveconv-qt: no display", 0), 0u) << headless.output;
}

// --display-path as the viewer takes it: listed in --help, a wrong word is
// the viewer's sentence and 2, before any window (no display needed).
TEST(LaunchUi, QtShellTakesTheViewersDisplayPath) {
  const Outcome help = runCommand(std::string("'") + LIVECONV_BIN + "' --ui qt --help");
  EXPECT_NE(help.output.find("  --display-path auto|interop|readback\n"), std::string::npos) << help.output;
  for (const char* args : {"--display-path fast", "--display-path"}) {
    const Outcome bad = runCommand(std::string("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM '") +
                                   LIVECONV_BIN + "' --ui qt " + args);
    EXPECT_EQ(bad.exitCode, 2) << args << ": " << bad.output;
    EXPECT_EQ(bad.output, "liveconv-qt: --display-path takes auto, interop or readback.\n") << args;
  }
  // A good word goes on to the display check, as any run does.
  const Outcome good = runCommand(std::string("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM '") + LIVECONV_BIN +
                                  "' --ui qt --display-path readback");
  EXPECT_EQ(good.exitCode, 1) << good.output;
  EXPECT_EQ(good.output.rfind("liveconv-qt: no display", 0), 0u) << good.output;
}

TEST(LaunchUi, Viewer) {
#ifdef LIVECONV_VIEWER_BUILT
  const Outcome help = runCommand(std::string("'") + LIVECONV_BIN + "' --ui viewer --help");
  EXPECT_EQ(help.exitCode, 0) << help.output;
  EXPECT_EQ(help.output.rfind("usage: liveconv-viewer", 0), 0u) << help.output;
#else
  const Outcome missing = runCommand(std::string("'") + LIVECONV_BIN + "' --ui viewer");
  EXPECT_EQ(missing.exitCode, 127) << missing.output;
  EXPECT_NE(missing.output.find("liveconv-viewer"), std::string::npos) << missing.output;
#endif
}

// A liveconv installed without the window programs: bin/liveconv (the launcher
// as installed) and libexec/liveconv/liveconv, copied into an empty prefix.
TEST(LaunchUi, MissingProgramIsOneSentenceAnd127) {
  // A folder of this process's own: tests run side by side, and build trees share the temporary folder.
  const auto prefix = std::filesystem::path(::testing::TempDir()) / ("liveconv-launch-test-" + std::to_string(getpid()));
  const auto dir = prefix / "bin";
  std::filesystem::remove_all(prefix);
  std::filesystem::create_directories(dir);
  std::filesystem::create_directories(prefix / "libexec" / "liveconv");
  std::filesystem::copy_file(LIVECONV_INSTALLED_LAUNCHER, dir / "liveconv");
  std::filesystem::copy_file(LIVECONV_PROGRAM_BIN, prefix / "libexec" / "liveconv" / "liveconv");
  const Outcome missing = runCommand("'" + (dir / "liveconv").string() + "' --ui qt testpattern");
  EXPECT_EQ(missing.exitCode, 127) << missing.output;
  EXPECT_EQ(missing.output.rfind("liveconv: liveconv-qt, the Qt desktop shell", 0), 0u) << missing.output;
  EXPECT_NE(missing.output.find("is not part of this build"), std::string::npos) << missing.output;
  EXPECT_EQ(std::count(missing.output.begin(), missing.output.end(), '\n'), 1) << "one sentence: " << missing.output;
  // The program itself gone: the launcher says where it looked, in one sentence, and 127 as a shell does.
  std::filesystem::remove(prefix / "libexec" / "liveconv" / "liveconv");
  const Outcome gone = runCommand("'" + (dir / "liveconv").string() + "' --version");
  EXPECT_EQ(gone.exitCode, 127) << gone.output;
  EXPECT_EQ(gone.output, "liveconv: cannot start " + (dir / "../libexec/liveconv/liveconv").string() +
                             ": No such file or directory.\n");
  std::filesystem::remove_all(prefix);
}

// What bin/liveconv hands its program: SIGINT, SIGTERM and SIGHUP blocked (the
// program's first code takes them once its handlers are in place), the
// arguments as given. The program here is a script that says what it was
// given; a signal mask survives the exec into it.
TEST(LaunchUi, TheLauncherStartsItsProgramWithTheStopSignalsBlocked) {
  const auto prefix = std::filesystem::path(::testing::TempDir()) / ("liveconv-launcher-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(prefix);
  std::filesystem::create_directories(prefix / "bin");
  std::filesystem::create_directories(prefix / "libexec" / "liveconv");
  std::filesystem::copy_file(LIVECONV_INSTALLED_LAUNCHER, prefix / "bin" / "liveconv");
  const auto program = prefix / "libexec" / "liveconv" / "liveconv";
  {
    std::ofstream script(program);
    // bash, not sh: dash clears the signal mask it starts with; bash passes it on.
    script << "#!/bin/bash\necho \"args: $*\"\nexec grep '^SigBlk:' /proc/self/status\n";
  }
  std::filesystem::permissions(program, std::filesystem::perms::owner_all);
  const Outcome said = runCommand("cd '" + prefix.string() + "/bin' && ./liveconv run -i 'a b.mp4'");
  EXPECT_EQ(said.exitCode, 0) << said.output;
  const std::size_t at = said.output.find("SigBlk:");
  ASSERT_NE(at, std::string::npos) << said.output;
  const unsigned long long blocked = std::strtoull(said.output.c_str() + at + 7, nullptr, 16);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP})
    EXPECT_TRUE(blocked & (1ULL << (signal - 1))) << "signal " << signal << " not blocked: " << said.output;
  EXPECT_NE(said.output.find("args: run -i a b.mp4"), std::string::npos) << said.output;
  std::filesystem::remove_all(prefix);
}

// `liveconv --version`: version and commit, then the libraries it runs with,
// the windows' toolkits asked from the window programs themselves.
TEST(LaunchUi, VersionNamesTheCommitAndWhatItRunsWith) {
  const Outcome v = runCommand(std::string("'") + LIVECONV_BIN + "' --version");
  EXPECT_EQ(v.exitCode, 0) << v.output;
  EXPECT_EQ(v.output.rfind("liveconv ", 0), 0u) << v.output;
  EXPECT_NE(v.output.find(" (commit "), std::string::npos) << v.output;
  EXPECT_EQ(v.output.find("(commit unknown)"), std::string::npos) << "built from a clone: " << v.output;
  EXPECT_NE(v.output.find("\nOpenCL ICD loader: "), std::string::npos) << v.output;
  EXPECT_NE(v.output.find("\nFFmpeg: "), std::string::npos) << v.output;
  EXPECT_NE(v.output.find("\nQt: 6."), std::string::npos) << v.output;
#ifdef LIVECONV_VIEWER_BUILT
  EXPECT_NE(v.output.find("\nGLFW: 3."), std::string::npos) << v.output;
#endif
  const Outcome viewer = runCommand(std::string("'") + LIVECONV_BIN + "' --ui viewer --version");
#ifdef LIVECONV_VIEWER_BUILT
  EXPECT_EQ(viewer.exitCode, 0) << viewer.output;
  EXPECT_EQ(viewer.output.rfind("liveconv-viewer ", 0), 0u) << viewer.output;
#endif
}

TEST(LaunchUi, UnknownOrMissingNameIsAUsageError) {
  const Outcome unknown = runCommand(std::string("'") + LIVECONV_BIN + "' --ui gtk");
  EXPECT_EQ(unknown.exitCode, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("qt or viewer"), std::string::npos) << unknown.output;
  const Outcome none = runCommand(std::string("'") + LIVECONV_BIN + "' --ui");
  EXPECT_EQ(none.exitCode, 2) << none.output;
}

}  // namespace
