// The staged output's promise, as a matrix: for every sink kind (mkv, mp4,
// mov, nut, avi, raw .rgba/.gray and raw:FILE) and names with spaces, ':' and
// non-ASCII characters, over an existing file and with -y: a finished run
// leaves the whole new file; a full disk, the file size limit, SIGINT, SIGTERM, SIGHUP and SIGKILL
// each leave either the complete new file or the untouched old one under the
// name; what a killed run left is named by the next run in that folder and
// removed with -y. Outputs FFmpeg cannot write as video are refused before
// anything is written.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <iostream>
#include <iterator>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "full_disk.hpp"
#include "media/media_test_support.hpp"
#include "test_support.hpp"

namespace liveconv::media {
namespace {

namespace fs = std::filesystem;
using test_media::has;
using test_media::liveconv;
using test_media::quoted;
using test_media::Result;
using test_media::shell;

constexpr int kWidth = 160, kHeight = 120;
const char* const kPrecious = "the old file, kept\n";

struct SinkKind {
  const char* label;   // the test's name
  const char* ext;     // of the file
  bool raw;            // frames back to back (no container)
  bool rawPrefix;      // written as raw:FILE
  int bytesPerPixel;   // raw only
};

// How gtest (and so ctest's test list) names a parameter.
void PrintTo(const SinkKind& kind, std::ostream* out) {
  *out << kind.label;
}

const SinkKind kSinks[] = {
    {"mkv", ".mkv", false, false, 0}, {"mp4", ".mp4", false, false, 0}, {"mov", ".mov", false, false, 0},
    {"nut", ".nut", false, false, 0}, {"avi", ".avi", false, false, 0}, {"rgba", ".rgba", true, false, 4},
    {"gray", ".gray", true, false, 1}, {"rawPrefix", ".bin", true, true, 4},
};

// Names a user gives: a space and ':' (an FFmpeg protocol's shape), a time of
// day, non-ASCII.
const char* const kNames[] = {"take 1:2", "12:30", "prise de vue é"};

// A folder of the program's own, removed with the media suites' folder when it ends.
std::string folderFor(const std::string& what) {
  const fs::path p = fs::path(test_media::tempDir()) / "outputs" / what;
  fs::create_directories(p);
  return p.string();
}

// The old file, untouched (compared here: a failure must not print a video).
bool isTheOldFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {}) == kPrecious;
}

std::vector<std::string> partFiles(const std::string& folder) {
  std::vector<std::string> parts;
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().filename().string().find(".liveconv-part-") != std::string::npos)
      parts.push_back(e.path().filename().string());
  return parts;
}

class Outputs : public ::testing::TestWithParam<SinkKind> {
 protected:
  std::string target(const std::string& folder, const char* name) const {
    return folder + "/" + name + GetParam().ext;
  }
  std::string outputArg(const std::string& path) const { return (GetParam().rawPrefix ? "raw:" : "") + path; }

  // A run into `path` over what is there (-y), or with `overwrite` false, as a run that was not told.
  std::string runArgs(const std::string& path, bool overwrite = true) const {
    const std::string format = std::string(GetParam().ext) == ".gray" ? " --format gray" : "";
    return "run -i lavfi:testsrc2=size=" + std::to_string(kWidth) + "x" + std::to_string(kHeight) +
           ":rate=25 -o " + quoted(outputArg(path)) + format + " --mask box:3 --variant naive" + (overwrite ? " -y" : "");
  }

  // Frames in the file as its reader sees them; -1 when it does not read.
  long long framesIn(const std::string& path) const {
    const SinkKind& k = GetParam();
    if (k.raw) {
      const long long frameBytes = static_cast<long long>(kWidth) * kHeight * k.bytesPerPixel;
      const auto size = static_cast<long long>(fs::file_size(path));
      return size % frameBytes == 0 ? size / frameBytes : -1;
    }
    const Result probe = shell("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                               "stream=nb_read_frames -of csv=p=0 " + quoted("file:" + path));
    return probe.exitCode == 0 && !probe.output.empty() ? std::atoll(probe.output.c_str()) : -1;
  }
};

// Every odd name, over an existing file with -y: the whole new file, no part file beside it.
TEST_P(Outputs, OddNamesAreWrittenWhole) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string folder = folderFor(std::string("names_") + GetParam().label);
  for (const char* name : kNames) {
    const std::string path = target(folder, name);
    std::ofstream(path) << kPrecious;
    const Result r = liveconv(runArgs(path) + " --frames 6");
    EXPECT_EQ(r.exitCode, 0) << name << ": " << r.output;
    EXPECT_EQ(framesIn(path), 6) << name << ": " << r.output;
  }
  EXPECT_TRUE(partFiles(folder).empty()) << "left beside the outputs: " << partFiles(folder).front();
}

// A signal in the middle of a run: the complete new file (every frame the run
// says it wrote) or, had none been written, the old one. SIGKILL: the old one,
// and the killed run's part file, which the next run names and -y removes.
// Every signal into every sink, each into an odd name; the names take turns
// by sink and signal, so that across the sinks every signal meets every name
// (a name's own handling is the test above's; all three names for every
// signal and sink ran 12 runs a sink for the same paths).
TEST_P(Outputs, SignalsLeaveTheNewFileOrTheOld) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string folder = folderFor(std::string("signals_") + GetParam().label);
  const std::pair<const char*, int> signals[] = {{"INT", 130}, {"TERM", 143}, {"HUP", 129}, {"KILL", -1}};
  const auto sink = std::find_if(std::begin(kSinks), std::end(kSinks),
                                 [&](const SinkKind& k) { return std::string(k.label) == GetParam().label; });
  ASSERT_NE(sink, std::end(kSinks));
  const std::size_t turn = static_cast<std::size_t>(sink - std::begin(kSinks));
  std::vector<std::pair<const char*, std::pair<const char*, int>>> cases;
  for (std::size_t k = 0; k < std::size(signals); ++k)
    cases.push_back({kNames[(turn + k) % std::size(kNames)], signals[k]});
  int killed = 0;
  for (const auto& [name, sent] : cases) {
    const auto& [signal, code] = sent;
    const std::string path = target(folder, name);
    std::ofstream(path) << kPrecious;
    // Sent once the run has written into its part file (a frame has reached the sink).
    const std::string log = folder + "/run.log";
    const Result r =
        shell(std::string(LIVECONV_BIN) + " " + runArgs(path) + " --frames 3000 >" + log + " 2>&1 & pid=$!; n=0; " +
              "until [ -n \"$(find " + quoted(folder) + " -name '.*liveconv-part-*' -size +0)\" ] || " +
              "[ $n -ge 1200 ]; do sleep 0.05; n=$((n+1)); done; kill -" + signal +
              " $pid; wait $pid; echo \"exit $?\"; cat " + log);
    const std::string what = std::string("SIG") + signal + " into " + path;
    if (code < 0) {
      EXPECT_TRUE(has(r.output, "exit 137")) << what << ": " << r.output;
      EXPECT_TRUE(isTheOldFile(path)) << what << ": the old file was touched";
      const std::vector<std::string> parts = partFiles(folder);
      ASSERT_EQ(parts.size(), 1u) << what;
      const std::string another = folder + "/another " + std::to_string(++killed) + ".mkv";  // a new name each time
      const Result named = liveconv(runArgs(another, false) + " --frames 2");
      EXPECT_TRUE(has(named.output, "holds a part file left by a killed run (" + parts.front() + ")")) << named.output;
      const Result removed = liveconv(runArgs(another) + " --frames 2");
      EXPECT_TRUE(has(removed.output, "removed a part file left by a killed run (" + parts.front() + ")"))
          << removed.output;
      EXPECT_TRUE(partFiles(folder).empty()) << what << ": " << removed.output;
      continue;
    }
    EXPECT_TRUE(has(r.output, "exit " + std::to_string(code))) << what << ": " << r.output;
    std::smatch m;
    const std::string& text = r.output;
    if (std::regex_search(text, m, std::regex("; ([0-9]+) frames were written and the output was finished properly")))
      EXPECT_EQ(framesIn(path), std::atoll(m[1].str().c_str())) << what << ": " << r.output;
    else  // no frame had reached the output
      EXPECT_TRUE(isTheOldFile(path)) << what << ": " << r.output;
    EXPECT_TRUE(partFiles(folder).empty()) << what << ": left " << partFiles(folder).front();
  }
}

// A small filesystem that fills up mid-run (a tmpfs mounted here; root only):
// the old file under the name, untouched, no part file, exit 8 with the reason.
TEST_P(Outputs, AFullDiskLeavesTheOldFile) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string folder = folderFor(std::string("full_") + GetParam().label);
  if (::mount("tmpfs", folder.c_str(), "tmpfs", 0, "size=96k") != 0)
    GTEST_SKIP() << "SKIP: a full disk needs a small tmpfs, and mounting one needs root (" << std::strerror(errno)
                 << ")";
  struct Unmount {
    std::string at;
    ~Unmount() { ::umount2(at.c_str(), MNT_DETACH); }
  } unmount{folder};
  for (const char* name : kNames) {
    const std::string path = target(folder, name);
    std::ofstream(path) << kPrecious;
    const Result r = liveconv(runArgs(path) + " --frames 200");
    EXPECT_EQ(r.exitCode, 8) << name << ": " << r.output;
    EXPECT_TRUE(has(r.output, "No space left on device")) << r.output;
    EXPECT_TRUE(isTheOldFile(path)) << name << ": the old file was touched";
    EXPECT_TRUE(partFiles(folder).empty()) << name << ": left " << partFiles(folder).front();
  }
}

// The file size limit (`ulimit -f`, any user): a write past it fails with
// EFBIG (liveconv ignores SIGXFSZ, and the writing threads block signals):
// exit 8 with the reason, the old file under the name untouched, no part file.
TEST_P(Outputs, AFileSizeLimitLeavesTheOldFile) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string folder = folderFor(std::string("limit_") + GetParam().label);
  for (const char* name : kNames) {
    const std::string path = target(folder, name);
    std::ofstream(path) << kPrecious;
    // 2 MiB (/bin/sh counts 512-byte blocks): under each output of 3000 frames (H.264
    // lossless, else it fits), over the preprocessed kernel source PoCL writes to hash
    // it (over 1 MiB; the limit holds for every file the process writes).
    const std::string ext = GetParam().ext;
    const std::string lossless = ext == ".mp4" || ext == ".mov" ? " --crf 0" : "";
    const Result r = shell("ulimit -f 4096 && exec " + std::string(LIVECONV_BIN) + " " + runArgs(path) + lossless +
                           " --frames 3000");
    EXPECT_EQ(r.exitCode, 8) << name << ": " << r.output;
    EXPECT_TRUE(has(r.output, "File too large")) << r.output;
    EXPECT_TRUE(isTheOldFile(path)) << name << ": the old file was touched";
    EXPECT_TRUE(partFiles(folder).empty()) << name << ": left " << partFiles(folder).front();
  }
}

INSTANTIATE_TEST_SUITE_P(EverySink, Outputs, ::testing::ValuesIn(kSinks),
                         [](const ::testing::TestParamInfo<SinkKind>& info) { return std::string(info.param.label); });

// Every other file the CLI writes is staged as the video outputs are
// (bench --json and --csv; run's --json-log is read as it grows, and is
// refused when it exists, below), a matrix of writers x cases:
//  - through a symbolic link to an existing 0600 file: the file the link
//    leads to is replaced, the link stays, the mode stays 0600;
//  - into a full disk (a small tmpfs, filled; root only): exit 8 with the
//    reason, the old file under the name untouched, no part file.
// Before, each was written in place: a full disk left half a file.
TEST(StagedWrites, EveryFileTheCliWritesIsWholeOrNotAtAllThroughLinksKeepingItsMode) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  struct Writer {
    const char* name;
    std::string args;  // `FILE` is the written file
    const char* begins;  // what the new file starts with
  };
  const std::string bench = "bench --variants naive --masks 3 --sizes 32x32 --runs 1 --warmup 0 --no-transfers ";
  const Writer writers[] = {
      {"bench --json", bench + "--json FILE", "{"},
      {"bench --csv", bench + "--csv FILE", "device,"},
  };
  const std::string linked = folderFor("staged_links");
  const std::string full = folderFor("staged_full");
  const test::FullDisk disk(full, "64k");
  const bool mounted = disk.mounted();
  if (mounted) {
    for (const Writer& w : writers) std::ofstream(full + "/" + w.name) << kPrecious;
    disk.fill();
  } else {
    std::cout << "[   SKIP   ] the full-disk cases: " << disk.why() << "\n";
  }
  for (const Writer& w : writers) {
    const std::string real = linked + "/" + w.name + ".real", link = linked + "/" + w.name;
    std::ofstream(real) << kPrecious;
    fs::permissions(real, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    fs::create_symlink(fs::path(real).filename(), link);
    std::string args = w.args;
    args.replace(args.find("FILE"), 4, quoted(link));
    Result r = liveconv(args);
    EXPECT_EQ(r.exitCode, 0) << w.name << ": " << r.output;
    EXPECT_TRUE(fs::is_symlink(link)) << w.name << ": the link was replaced by a file";
    std::ifstream in(real);
    const std::string written(std::istreambuf_iterator<char>(in), {});
    EXPECT_EQ(written.rfind(w.begins, 0), 0u) << w.name << ": the file the link leads to was not written: " << written;
    EXPECT_EQ(fs::status(real).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write)
        << w.name << ": the mode of the file replaced changed";
    EXPECT_TRUE(partFiles(linked).empty()) << w.name << ": left " << partFiles(linked).front();
    if (!mounted) continue;
    const std::string path = full + "/" + w.name;
    args = w.args;
    args.replace(args.find("FILE"), 4, quoted(path));
    r = liveconv(args);
    EXPECT_EQ(r.exitCode, 8) << w.name << " into a full disk: " << r.output;
    EXPECT_TRUE(has(r.output, "No space left on device")) << w.name << ": " << r.output;
    EXPECT_TRUE(isTheOldFile(path)) << w.name << ": the old file was touched";
    EXPECT_TRUE(partFiles(full).empty()) << w.name << ": left " << partFiles(full).front();
  }
}

// `run --json-log` is written as the run goes (read meanwhile), so a log
// that is there is replaced only with -y, as an output is: without it, exit 2
// with the sentence and the old file as it was.
TEST(StagedWrites, AnExistingJsonLogIsReplacedOnlyWithY) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string log = folderFor("json_log") + "/stats.jsonl";
  std::ofstream(log) << kPrecious;
  const std::string run = "run -i lavfi:testsrc2=size=64x48:rate=25 --frames 3 --variant naive -o null --json-log " + quoted(log);
  Result r = liveconv(run);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, log + " exists; pass -y to overwrite it, or -n to keep it.")) << r.output;
  EXPECT_TRUE(isTheOldFile(log)) << "the old log was touched";
  r = liveconv(run + " -y");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  std::ifstream in(log);
  const std::string written(std::istreambuf_iterator<char>(in), {});
  EXPECT_EQ(written.rfind("{", 0), 0u) << written;
}

// Names FFmpeg cannot write video to are refused before anything is opened:
// exit 2, one sentence, no file.
TEST(OutputNames, WhatCannotHoldVideoIsRefusedBeforeAnythingIsWritten) {
  const std::string folder = folderFor("refused");
  const std::string run = "run -i lavfi:testsrc2=size=64x48:rate=25 --frames 3 --variant naive -o ";
  const std::pair<std::string, std::string> cases[] = {
      {"''", "The output name is empty"},
      {quoted(folder + "/o.png"), "is a single picture, not a video: write one frame into it with --frames 1"},
      {quoted(folder + "/o.xyz"), "Cannot tell the container of"},
      {quoted(folder + "/o.wav"), "cannot hold video"},
  };
  for (const auto& [output, sentence] : cases) {
    const Result r = liveconv(run + output);
    EXPECT_EQ(r.exitCode, 2) << output << ": " << r.output;
    EXPECT_TRUE(has(r.output, sentence)) << output << ": " << r.output;
  }
  EXPECT_TRUE(fs::is_empty(folder)) << "something was written for a refused output";
}

// One frame into a picture file: the picture's own format, under any name.
TEST(OutputNames, OneFrameIntoAPictureFile) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string folder = folderFor("pictures");
  for (const auto& [name, codec] : {std::pair<const char*, const char*>{"frame 1:2.png", "png"}, {"é.jpg", "mjpeg"}}) {
    const std::string path = folder + "/" + name;
    const Result r = liveconv("run -i lavfi:testsrc2=size=64x48:rate=25 --frames 1 --variant naive -o " + quoted(path));
    EXPECT_EQ(r.exitCode, 0) << r.output;
    const Result probe = shell("ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 " +
                               quoted("file:" + path));
    EXPECT_EQ(probe.output, std::string(codec) + ",64,48\n") << name;
  }
  EXPECT_TRUE(partFiles(folder).empty());
}

// Pictures both ways, as ffmpeg users write them: a numbered sequence in
// (in%03d.png) and out (out%03d.png: one picture a frame, from 001, each
// written whole), the first picture of an existing sequence kept unless -y,
// and a still picture into a picture without --frames; a video into one
// picture name is refused, naming the sequence form.
TEST(OutputNames, PictureSequencesAndStillsGoBothWays) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string folder = folderFor("sequences");
  ASSERT_EQ(shell("ffmpeg -v error -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 5 " + quoted(folder + "/in%03d.png")).exitCode, 0);
  const std::string filter = " --mask box:3 --variant naive";
  Result r = liveconv("run -i " + quoted(folder + "/in%03d.png") + " -o " + quoted(folder + "/out%03d.png") + filter);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  for (int k = 1; k <= 5; ++k) {
    const std::string name = folder + "/out00" + std::to_string(k) + ".png";
    const Result probe = shell("ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 " + quoted(name));
    EXPECT_EQ(probe.output, "png,64,48\n") << name;
  }
  EXPECT_FALSE(fs::exists(folder + "/out006.png")) << "more pictures than frames";
  for (const auto& e : fs::directory_iterator(folder))
    EXPECT_EQ(e.path().extension(), ".png") << "left " << e.path().filename();  // no temporary of a picture

  r = liveconv("run -i " + quoted(folder + "/in%03d.png") + " -o " + quoted(folder + "/out%03d.png") + filter);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, folder + "/out001.png exists; pass -y to overwrite it")) << r.output;
  EXPECT_EQ(liveconv("run -i " + quoted(folder + "/in%03d.png") + " -o " + quoted(folder + "/out%03d.png") + filter + " -y")
                .exitCode,
            0);

  // A still into a still: its one frame, the same pixels as the sequence's first picture.
  r = liveconv("run -i " + quoted(folder + "/in001.png") + " -o " + quoted(folder + "/still.png") + filter);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const auto pixels = [](const std::string& file) {
    return shell("ffmpeg -v error -i " + quoted(file) + " -f rawvideo -pix_fmt rgba - | md5sum").output;
  };
  EXPECT_EQ(pixels(folder + "/still.png"), pixels(folder + "/out001.png"));

  r = liveconv("run -i lavfi:testsrc2=size=64x48:rate=25 -o " + quoted(folder + "/video.png") + filter);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r.output, "video.png is a single picture, not a video")) << r.output;
  EXPECT_TRUE(has(r.output, "video%03d.png")) << r.output;
  EXPECT_FALSE(fs::exists(folder + "/video.png"));
}

}  // namespace
}  // namespace liveconv::media
