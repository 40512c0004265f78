// The liveconv binary end to end: exit codes and the sentences users see.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "liveconv/frequency_response.hpp"
#include "liveconv/variants.hpp"
#include "shell.hpp"
#include "test_support.hpp"

namespace {

using liveconv::test::Result;

Result run(const std::string& args, const std::string& env = "") {
  return liveconv::test::shell(env + " " + LIVECONV_BIN + " " + args);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The pipeline benchmark, and with --keep-on-device the same stream with
// nothing read back (the engine's side of the viewer's zero-copy path).
TEST(Cli, PipelineBenchRunsEveryFrameWithAndWithoutReadback) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string common = "bench --pipeline --size 96x64 --frames 12 --mask box:3 --variant local";
  Result r = run(common);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "frames: in 12, out 12, dropped 0")) << r.output;
  EXPECT_FALSE(has(r.output, "kept on the device")) << r.output;
  r = run(common + " --keep-on-device");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "frames: in 12, out 12, dropped 0")) << r.output;
  EXPECT_TRUE(has(r.output, "kept on the device (no readback)")) << r.output;
  EXPECT_TRUE(has(r.output, "readback 0.000 ")) << "frames kept on the device were read back:\n" << r.output;
  EXPECT_FALSE(has(r.output, "copied to and from the device")) << "the summary contradicts the header:\n" << r.output;
}

// The stop path of `bench`, as `run`'s: SIGTERM (or Ctrl-C, SIGHUP) between
// rows ends the table there, writes the rows measured into --json, says so in
// one line and exits 128 + the signal; in `bench --pipeline` it ends the
// stream and says how far it got.
TEST(Cli, BenchEndsAtASignalWithTheRowsItMeasured) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string dir = ::testing::TempDir() + "liveconv_bench_signal";
  std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
  // Sent once two rows are printed (a table of 3 variants x 8 masks takes far longer).
  const Result r = run("bench --variants naive,local,unrolled --masks 3,5,7,9,11,13,15,17 --sizes 160x120 --runs 3 "
                       "--json " + dir + "/rows.json > " + dir + "/out.log 2>&1 & pid=$!; n=0; "
                       "until [ $(grep -c -E '^(naive|local|unrolled) ' " + dir + "/out.log) -ge 2 ] || [ $n -ge 600 ]; "
                       "do sleep 0.05; n=$((n+1)); done; kill -TERM $pid; wait $pid; echo exit $?; cat " + dir +
                       "/out.log; :");
  EXPECT_TRUE(has(r.output, "exit 143")) << r.output;
  const std::size_t at = r.output.find("liveconv: interrupted by SIGTERM; ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const int said = std::atoi(r.output.c_str() + at + std::string("liveconv: interrupted by SIGTERM; ").size());
  EXPECT_GE(said, 2) << r.output;
  EXPECT_LT(said, 24) << "the table went on to its end: " << r.output;
  EXPECT_TRUE(has(r.output, " row(s) were measured and written.")) << r.output;
  std::ifstream json(dir + "/rows.json");
  const std::string text((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
  std::size_t rows = 0;
  for (std::size_t p = text.find("\"variant\":"); p != std::string::npos; p = text.find("\"variant\":", p + 1)) ++rows;
  EXPECT_EQ(rows, static_cast<std::size_t>(said)) << text;
  EXPECT_NE(text.rfind("]\n}"), std::string::npos) << "the JSON file was not finished: " << text;

  const Result p = run("bench --pipeline --size 320x240 --frames 1000000 --variant naive > " + dir +
                       "/pipe.log 2>&1 & pid=$!; n=0; until grep -q '^pipeline:' " + dir + "/pipe.log || [ $n -ge 600 ]; "
                       "do sleep 0.05; n=$((n+1)); done; sleep 0.5; kill -INT $pid; wait $pid; echo exit $?; cat " + dir +
                       "/pipe.log; :");
  EXPECT_TRUE(has(p.output, "exit 130")) << p.output;
  EXPECT_TRUE(has(p.output, "liveconv: interrupted by Ctrl-C (SIGINT) after ")) << p.output;
}

TEST(Cli, DevicesListsTheDefaultDevice) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const Result r = run("devices");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, ctx->info.name)) << r.output;
  EXPECT_TRUE(has(r.output, "* ")) << r.output;
}

// Every command answers --help on stdout with exit 0, without a device.
TEST(Cli, EveryCommandAnswersHelp) {
  std::vector<std::string> commands = {"devices", "variants", "presets", "response", "bench", "bench --pipeline"};
#ifdef LIVECONV_WITH_MEDIA
  commands.insert(commands.end(), {"run", "cameras"});
#endif
  for (const std::string& c : commands) {
    const Result r = run(c + " --help", "LIVECONV_DEVICE=no-such-device");
    EXPECT_EQ(r.exitCode, 0) << c << ": " << r.output;
    EXPECT_TRUE(has(r.output, "usage: liveconv " + c.substr(0, c.find(' '))))
        << c << ": " << r.output;
    const Result h = run("help " + c.substr(0, c.find(' ')));
    EXPECT_EQ(h.exitCode, 0) << "help " << c << ": " << h.output;
  }
  const Result top = run("--help");
  EXPECT_EQ(top.exitCode, 0) << top.output;
  for (const std::string& c : commands) EXPECT_TRUE(has(top.output, "  " + c.substr(0, c.find(' ')) + " ")) << c;
  EXPECT_EQ(run("devices extra").exitCode, 2);
}

// One line per registry row, every name followed by its description.
TEST(Cli, VariantsListsEveryRow) {
  const Result r = run("variants");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::size_t lines = 0;
  for (char ch : r.output) lines += ch == '\n';
  EXPECT_EQ(lines, liveconv::variantRegistry().size()) << r.output;
  for (const auto& v : liveconv::variantRegistry())
    EXPECT_TRUE(has(r.output, std::string(v.name) + "  ")) << v.name << " missing or without its description:\n"
                                                           << r.output;
}

// `response` says what a mask does and lists the gain along x and y; a bad
// spec or a missing one is one sentence and exit 2.
TEST(Cli, ResponseSaysWhatAMaskDoesToTheFrequencies) {
  const Result blur = run("response gaussian:9", "LIVECONV_DEVICE=no-such-device");
  ASSERT_EQ(blur.exitCode, 0) << blur.output;
  EXPECT_TRUE(has(blur.output, "a low-pass: gain 1 at DC; half at")) << blur.output;
  EXPECT_TRUE(has(blur.output, "   0.0000             1             1\n")) << blur.output;
  EXPECT_TRUE(has(blur.output, "   0.5000")) << "the cuts reach 0.5 cycles/px\n" << blur.output;
  const Result grid = run("response 3x1:1,0,-1 --grid");
  ASSERT_EQ(grid.exitCode, 0) << grid.output;
  std::istringstream rows(grid.output);
  int lines = 0;
  for (std::string line; std::getline(rows, line); ++lines) {
    std::istringstream values(line);
    int n = 0;
    for (double v; values >> v;) ++n;
    EXPECT_EQ(n, liveconv::kFrequencyResponseSize) << line;
  }
  EXPECT_EQ(lines, liveconv::kFrequencyResponseSize);
  const Result bad = run("response 4x4:1");
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
  EXPECT_TRUE(has(bad.output, "liveconv: Mask spec")) << bad.output;
  EXPECT_EQ(run("response").exitCode, 2);
  EXPECT_EQ(run("response box:3 sharpen").exitCode, 2);
}

// A refused mask is one sentence on stderr and exit 2, before any device is touched.
// `presets` is a table: every description starts in one column, however long
// a preset's syntax (unsharp's options pushed its line out of line).
TEST(Cli, PresetsAreOneTable) {
  const Result r = run("presets");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::istringstream lines(r.output);
  std::size_t column = 0;
  int rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0 || line[2] == ' ' || line.rfind("  options", 0) == 0 || line.rfind("  (e.g.", 0) == 0 ||
        line.rfind("  sizes", 0) == 0)
      continue;
    const std::size_t gap = line.find("  ", 2);  // after the syntax, before the description
    ASSERT_NE(gap, std::string::npos) << line;
    const std::size_t at = line.find_first_not_of(' ', gap);
    if (column == 0) column = at;
    EXPECT_EQ(at, column) << "out of the column: " << line;
    ++rows;
  }
  EXPECT_GE(rows, 10) << r.output;
}

TEST(Cli, RefusedMasksExitWith2InOneSentence) {
  for (const char* mask : {"sharpen:99", "'3x1:3e38,0,-3e38'", "gaussian:7:sigmaa=2", "'3x3:1,1,1,1,1,1,1,1,1;divisor=0'",
                           "4294967299x1:1,2,1", "@/dev/zero", "@/tmp"}) {
    const Result r = run(std::string("bench --mask ") + mask, "LIVECONV_DEVICE=no-such-device");
    EXPECT_EQ(r.exitCode, 2) << mask << ": " << r.output;
    EXPECT_EQ(r.output.rfind("liveconv: ", 0), 0u) << mask << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << mask << ": " << r.output;
  }
  // @- reads the mask file from standard input (its sentence names the width read there).
  const Result stdinMask = run("presets >/dev/null && echo '{\"width\":4,\"height\":1,\"coefficients\":[[1,2,3,4]]}' | " LIVECONV_BIN
                               " bench --mask @-", "LIVECONV_DEVICE=no-such-device");
  EXPECT_EQ(stdinMask.exitCode, 2) << stdinMask.output;
  EXPECT_TRUE(has(stdinMask.output, "Mask width 4 is even")) << stdinMask.output;
  // @/dev/stdin on a pipe is not a file: the sentence says to write @-.
  const Result devStdin = run("presets >/dev/null && echo '{}' | " LIVECONV_BIN " bench --mask @/dev/stdin",
                              "LIVECONV_DEVICE=no-such-device");
  EXPECT_EQ(devStdin.exitCode, 2) << devStdin.output;
  EXPECT_TRUE(has(devStdin.output, "use @- to read a mask from standard input")) << devStdin.output;
}

TEST(Cli, UsageErrorsExitWith2) {
  Result r = run("bench --variants nope");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Unknown variant 'nope'")) << r.output;
  r = run("bench --masks 4 --device 0");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "even")) << r.output;
  r = run("frobnicate");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  r = run("bench --runs");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "--runs needs a value")) << r.output;
  r = run("bench --format rgba,rgb48");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Unknown pixel format 'rgb48'")) << r.output;
  // The channels are --format, the depth --depth (run): a 16-bit name says so.
  r = run("run -i testpattern:64x48 --frames 1 -o null --format rgba16");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Format rgba16 names a depth: give --format rgba: a source of more than 8 bits"))
      << r.output;
}

TEST(Cli, UnknownDeviceExitsWith3) {
  Result r = run("bench --device no-such-device-anywhere");
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_TRUE(has(r.output, "No OpenCL device")) << r.output;
  r = run("devices", "LIVECONV_DEVICE=no-such-device-anywhere");
  EXPECT_EQ(r.exitCode, 0) << "listing devices ignores a selector that matches nothing: " << r.output;
}

TEST(Cli, NoOpenCLPlatformIsOneSentence) {
  // An ICD loader pointed at an empty vendor directory sees no platform.
  const Result r = run("bench", "OCL_ICD_VENDORS=/nonexistent-liveconv-vendors");
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_TRUE(has(r.output, "No OpenCL device found")) << r.output;
}

TEST(Cli, BenchVerifiesEveryVariant) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string json = testing::TempDir() + "/bench.json";
  // With a kernel of one's own (the docs' example): the row `user` too.
  const Result r = run("bench --masks 3,3x7 --sizes 67x45 --format both --runs 2 --warmup 1 --verify --json " + json +
                       " --kernel-file " + liveconv::test::exampleUserKernelPath());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "copy bandwidth")) << r.output;
  EXPECT_TRUE(has(r.output, "launch round trip")) << r.output;
  EXPECT_TRUE(has(r.output, "FMA limit")) << r.output;
  EXPECT_FALSE(has(r.output, "FAIL")) << r.output;
  for (const auto& v : liveconv::variantRegistry()) EXPECT_TRUE(has(r.output, std::string(v.name) + " ")) << v.name;
  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(has(text, "\"device\": \"" + ctx->info.name)) << text.substr(0, 300);
  // Each row names the limit it is nearest (the packet kernels' FMAs count three channels for rgba).
  EXPECT_TRUE(has(text, "\"roof\": \"fma\"") || has(text, "\"roof\": \"bw\"")) << text.substr(0, 600);
  EXPECT_TRUE(has(r.output, "roof = the nearer of the two limits")) << r.output;
  EXPECT_TRUE(has(text, "\"verify\": \"ok(exact)\""));
}

// RGBA16 and GRAY16 in bench: each variant asked for runs and verifies
// against the reference, and the rows and the JSON name the format.
TEST(Cli, BenchVerifiesTheSixteenBitFormats) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string json = testing::TempDir() + "/bench16.json";
  const Result r =
      run("bench --masks 3x7 --sizes 67x45 --format rgba16,gray16 --variants naive,multi_pixel,rows "
          "--runs 2 --warmup 1 --verify --json " +
          json);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(has(r.output, "FAIL")) << r.output;
  for (const char* row : {"naive          rgba16", "multi_pixel    gray16", "rows           rgba16"})
    EXPECT_TRUE(has(r.output, row)) << row << "\n" << r.output;
  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(has(text, "\"format\": \"rgba16\"") && has(text, "\"format\": \"gray16\"")) << text.substr(0, 600);
  EXPECT_TRUE(has(text, "\"verify\": \"ok(exact)\"")) << text.substr(0, 600);
}

// A kernel of one's own on the command line: one that does not build, or
// computes wrong, is its sentence and what follows it (exit 4 for run, a
// failed row for bench); one that
// cannot be read, or the variant user without one, is a bad command line (2).
TEST(Cli, AKernelOfOnesOwnIsRefusedInOneSentenceWithItsExitCode) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string broken = testing::TempDir() + "/broken_user.cl", wrong = testing::TempDir() + "/wrong_user.cl";
  std::ofstream(broken) << "__kernel void convolve(__global const uchar* src) { undeclared_thing; }\n";
  std::ofstream(wrong) << "__kernel void convolve(__global const uchar* src, int srcPitch, __global uchar* dst,\n"
                          "  int dstPitch, int width, int height, __constant float* mask, int maskW, int maskH,\n"
                          "  float scale, float offset) {\n"
                          "  const int x = get_global_id(0), y = get_global_id(1);\n"
                          "  if (x < width && y < height) store_result(dst, dstPitch, src, srcPitch, x, y,\n"
                          "    load_bordered(src, srcPitch, x, y, width, height), 1.0f, 0.0f);\n"
                          "}\n";
  const std::string bench = "bench --masks 3 --sizes 67x45 --runs 1 --warmup 0 --variants user --kernel-file ";
  Result r = run(bench + broken);
  EXPECT_NE(r.exitCode, 0) << r.output;  // bench: a row that failed
  EXPECT_TRUE(has(r.output, "The kernel file " + broken + " does not build; the compiler's log follows.")) << r.output;
  EXPECT_TRUE(has(r.output, "undeclared_thing")) << r.output;
  r = run(bench + wrong + " --verify");
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "The kernel file " + wrong + " computes wrong results: first mismatch at (")) << r.output;
  r = run(bench + testing::TempDir() + "/no_such_kernel.cl");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "Cannot read the kernel file ")) << r.output;
  r = run("bench --masks 3 --sizes 67x45 --runs 1 --warmup 0 --variants user");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "The variant user runs a kernel of your own: give its file with --kernel-file FILE.cl."))
      << r.output;
#ifdef LIVECONV_WITH_MEDIA
  r = run("run -i testpattern:64x48 --frames 3 -o null --variant user --kernel-file " + wrong);
  EXPECT_EQ(r.exitCode, 4) << r.output;
  EXPECT_TRUE(has(r.output, "computes wrong results: first mismatch at (")) << r.output;
  // auto leaves it out, says why, and runs a built-in variant.
  r = run("run -i testpattern:64x48 --frames 3 -o null --kernel-file " + wrong,
          "LIVECONV_TUNING_CACHE=" + testing::TempDir() + "/user_race.tsv");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "auto: your kernel " + wrong + " was left out: The kernel file")) << r.output;
  r = run("run -i testpattern:64x48 --frames 3 -o null --kernel-file " + liveconv::test::exampleUserKernelPath(),
          "LIVECONV_TUNING_CACHE=" + testing::TempDir() + "/user_race.tsv");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "auto: your kernel " + liveconv::test::exampleUserKernelPath())) << r.output;
#endif
}

// A table of skipped rows only measured nothing: exit 5 and one sentence that
// says why and what to give; the skipped rows' numbers in --csv and --json are
// empty and null, not zeros that would read as measurements.
TEST(Cli, BenchThatMeasuresNothingSaysWhyAndFails) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string csv = testing::TempDir() + "/skipped.csv", json = testing::TempDir() + "/skipped.json";
  Result r =
      run("bench --variants separable --masks 3 --sizes 32x24 --runs 1 --warmup 0 --csv " + csv + " --json " + json);
  EXPECT_EQ(r.exitCode, 5) << r.output;
  EXPECT_TRUE(has(r.output, "nothing was measured; every row was skipped (Variant separable needs a rank-1"))
      << r.output;
  EXPECT_TRUE(has(r.output, "give one with --mask, e.g. --mask gaussian:5.")) << r.output;
  std::ifstream c(csv);
  const std::string csvText((std::istreambuf_iterator<char>(c)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(has(csvText, ",separable,rgba,32x24,3x3,,,,,,,,\"\",\"Variant separable needs")) << csvText;
  std::ifstream j(json);
  const std::string jsonText((std::istreambuf_iterator<char>(j)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(has(jsonText, "\"kernel_ms\": null")) << jsonText;
  // A separable mask measures: exit 0.
  r = run("bench --variants separable --mask gaussian:3 --sizes 32x24 --runs 1 --warmup 0");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(has(r.output, "nothing was measured")) << r.output;
}

TEST(Cli, KernelBuildFailureShowsTheBuildLog) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string dir = testing::TempDir() + "/broken_kernels";
  std::system(("mkdir -p " + dir).c_str());
  for (const char* f : {"common.cl", "naive.cl", "local.cl"}) {
    std::ofstream out(dir + "/" + f);
    out << (std::string(f) == "naive.cl" ? "__kernel void convolve_naive(__global int* p) { p[0] = undeclared_thing; }\n"
                                         : "\n");
  }
  const Result r = run("bench --variants naive --masks 3 --sizes 8x8 --runs 1 --warmup 0", "LIVECONV_KERNEL_DIR=" + dir);
  EXPECT_EQ(r.exitCode, 6) << r.output;  // bench reports failed builds per row and exits non-zero
  EXPECT_TRUE(has(r.output, "failed to build")) << r.output;
  EXPECT_TRUE(has(r.output, "undeclared_thing")) << "the build log must be shown: " << r.output;
}

}  // namespace
