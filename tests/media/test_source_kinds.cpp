// The one table of source kinds: every spec a user writes lands on one row,
// and every program's help lists the rows it takes from the table itself.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "liveconv/errors.hpp"
#include "liveconv/media/generated_sources.hpp"
#include "liveconv/media/open_source.hpp"
#include "liveconv/media/source_kinds.hpp"
#include "media/media_test_support.hpp"
#include "test_support.hpp"

namespace liveconv::media {
namespace {

using test_media::has;
using test_media::liveconv;
using test_media::Result;
using test_media::shell;

TEST(SourceKinds, EverySpecLandsOnItsRow) {
  const std::pair<const char*, SourceKindId> cases[] = {
      {"testpattern", SourceKindId::TestPattern},       {"testpattern:640x480", SourceKindId::TestPattern},
      {"synthetic:1280x720", SourceKindId::Synthetic},   {"lavfi:testsrc2=size=320x240", SourceKindId::Lavfi},
      {"camera:0:640x480@30", SourceKindId::Camera},     {"/dev/video2", SourceKindId::Camera},
      {"rtsp://cam.local/stream", SourceKindId::Stream}, {"udp://127.0.0.1:1234", SourceKindId::Stream},
      {"srt://host:9000", SourceKindId::Stream},         {"-", SourceKindId::Pipe},
      {"pipe:3", SourceKindId::Pipe},                    {"clip.mp4", SourceKindId::File},
      {"take 1:2.mov", SourceKindId::File},              {"https://example.org/a.mp4", SourceKindId::File},
      {"", SourceKindId::File},
  };
  for (const auto& [text, id] : cases) EXPECT_EQ(sourceKindOf(text).id, id) << text;
  EXPECT_TRUE(sourceKindOf("camera:0").live);
  EXPECT_TRUE(sourceKindOf("rtsp://x").live);
  EXPECT_FALSE(sourceKindOf("clip.mkv").live);
  EXPECT_TRUE(sourceKindOf("clip.mkv").seekable);
}

// Each row as a newcomer adding one meets it: a text of the kind its parser
// takes, one it refuses ("" for the file, which takes what no other row does),
// and one that parses and cannot be opened, with what that open's sentence says.
struct RowCase {
  SourceKindId id;
  const char* example;
  const char* malformed;
  const char* absent;
  const char* says;
};
const RowCase kRowCases[] = {
    {SourceKindId::TestPattern, "testpattern:64x48", "testpattern:64", "testpattern:0x5", "needs a frame size such as"},
    {SourceKindId::Synthetic, "synthetic:64x48", "synthetic:64", "synthetic:99999x9", "needs a frame size such as"},
    // FFmpeg's own words after ours differ between its releases ("No such filter", "Filter not found").
    {SourceKindId::Lavfi, "lavfi:testsrc2=size=64x48", "lavfi:", "lavfi:nosuchfilter",
     "Input lavfi:nosuchfilter cannot be opened: "},
    {SourceKindId::Camera, "camera:0:640x480@30", "camera:x", "camera:99", "(/dev/video99) cannot be opened"},
    {SourceKindId::Stream, "rtsp://cam.local/stream", "rtsp://", "rtsp://127.0.0.1:9/nothing", "Connection refused"},
    {SourceKindId::Pipe, "pipe:3", "pipe:x", "pipe:99", "cannot be opened: Bad file descriptor"},
    {SourceKindId::File, "clip.mp4", "", "/nonexistent/liveconv-clip.mp4", "does not exist"},
};

const RowCase* caseOf(SourceKindId id) {
  for (const RowCase& c : kRowCases)
    if (c.id == id) return &c;
  return nullptr;
}

// One sentence (or two, the second what to do): one line that ends in a full stop.
void expectOneSentence(const std::string& text, const std::string& what) {
  ASSERT_FALSE(text.empty()) << what;
  EXPECT_EQ(text.find('\n'), std::string::npos) << what << ": " << text;
  EXPECT_EQ(text.back(), '.') << what << ": " << text;
}

TEST(SourceKinds, EachRowsHelpParseAndOpenFailure) {
  const std::string help = sourceKindsHelp("");
  std::set<SourceKindId> ids;
  for (const SourceKind& k : sourceKinds()) {
    EXPECT_TRUE(ids.insert(k.id).second) << k.syntax << " is in the table twice";
    EXPECT_FALSE(std::string(k.syntax).empty());
    EXPECT_FALSE(std::string(k.help).empty()) << k.syntax;
    EXPECT_TRUE(has(help, std::string(k.syntax) + "  ") && has(help, std::string(k.help) + "\n")) << k.syntax;
    const RowCase* c = caseOf(k.id);
    ASSERT_NE(c, nullptr) << k.syntax << " has no case in kRowCases";
    ASSERT_TRUE(k.matches && k.parse) << k.syntax;
    // The example is of the row and parses into what its opener needs.
    EXPECT_EQ(sourceKindOf(c->example).id, k.id) << c->example;
    const ParsedSource parsed = k.parse(c->example);
    EXPECT_EQ(parsed.error, "") << c->example;
    EXPECT_TRUE(k.generated ? parsed.width > 0 && parsed.height > 0 : !parsed.url.empty()) << c->example;
    // A generated row opens without FFmpeg; no other row does.
    EXPECT_EQ(openGeneratedSource(k, c->example, PixelFormat::RGBA8, nullptr).source != nullptr, k.generated)
        << k.syntax;
    // The malformed text is of the row too, and refused in one sentence, the one its open says
    // (every row has one but the last, which takes whatever no other row does).
    if (&k != &sourceKinds().back()) {
      EXPECT_EQ(sourceKindOf(c->malformed).id, k.id) << c->malformed;
      const std::string refusal = k.parse(c->malformed).error;
      expectOneSentence(refusal, c->malformed);
      try {
        parseOrThrow(k, c->malformed);
        ADD_FAILURE() << c->malformed << " opened";
      } catch (const Error& e) {
        EXPECT_EQ(e.what(), refusal);
      }
    }
    // What cannot be there fails the open with the kind's sentence, naming the text.
    OpenRequest request;
    request.text = c->absent;
    request.openTimeoutSeconds = 5;
    try {
      openSource(request);
      ADD_FAILURE() << c->absent << " opened";
    } catch (const Error& e) {
      const std::string what = e.what();
      expectOneSentence(what, c->absent);
      const bool noDeviceInputs = !hasCameraSupport() && (k.id == SourceKindId::Lavfi || k.id == SourceKindId::Camera);
      EXPECT_TRUE(has(what, c->says) || (noDeviceInputs && has(what, "device inputs"))) << what;
      EXPECT_TRUE(has(what, c->absent)) << what;
    }
  }
  EXPECT_EQ(ids.size(), std::size(kRowCases)) << "a case in kRowCases for a kind the table has not";
}

// A FIFO is a pipe whatever its name (it is read through poll(), not as a file).
TEST(SourceKinds, AFifoIsAPipe) {
  const std::string fifo = ::testing::TempDir() + "/kinds_" + std::to_string(::getpid()) + ".mkv";
  ASSERT_EQ(shell("mkfifo " + fifo).exitCode, 0);
  EXPECT_EQ(sourceKindOf(fifo).id, SourceKindId::Pipe);
  EXPECT_EQ(sourceKindOf("file:" + fifo).id, SourceKindId::Pipe);
  std::remove(fifo.c_str());
}

// Each program's help is the table's rows (the man pages are made from it):
// every program takes every kind.
TEST(SourceKinds, EveryHelpListsTheTablesRows) {
  std::vector<std::string> helps = {std::string(LIVECONV_BIN) + " run --help"};
#ifdef LIVECONV_VIEWER_BIN
  helps.push_back(std::string(LIVECONV_VIEWER_BIN) + " --help");
#endif
#ifdef LIVECONV_QT_BIN
  helps.push_back(std::string(LIVECONV_QT_BIN) + " --help");
#endif
  for (const std::string& command : helps) {
    const Result r = shell(command);
    EXPECT_EQ(r.exitCode, 0) << command << ": " << r.output;
    for (const SourceKind& k : sourceKinds())
      EXPECT_TRUE(has(r.output, std::string(k.syntax) + " ") && has(r.output, k.help))
          << command << " and " << k.syntax << ":\n" << r.output;
  }
}

// docs/cli.md lists the sources as the table does (a kind added to the table
// and not to the guide fails here), row for row as `--help` prints them.
TEST(SourceKinds, DocsListTheTablesRows) {
  std::ifstream in(LIVECONV_SOURCE_DIR "/docs/cli.md");
  ASSERT_TRUE(in) << "cannot read docs/cli.md";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(has(text.str(), "```text\n" + sourceKindsHelp(""))) << "docs/cli.md's list of sources is not the table's:\n"
                                                                 << sourceKindsHelp("");
}

// The rows' openers as `run` meets them: synthetic frames and the test
// pattern end at --frames (the same endless sources the windows play), a
// malformed size is one sentence.
TEST(SourceKinds, RunOpensEachKindByItsRow) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Result r = liveconv("run -i synthetic:64x48 --frames 7 -o null --variant naive");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "frames: in 7, out 7")) << r.output;
  r = liveconv("run -i testpattern:96x64 --frames 5 -o null --variant naive");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "frames: in 5, out 5")) << r.output;
  EXPECT_TRUE(has(r.output, "test pattern 96x64")) << r.output;
  for (const char* spec : {"synthetic:64", "testpattern:0x5", "testpattern:64"}) {
    r = liveconv(std::string("run -i ") + spec + " -o null --variant naive");
    EXPECT_EQ(r.exitCode, 2) << spec << ": " << r.output;
    EXPECT_TRUE(has(r.output, "needs a frame size such as")) << r.output;
  }
}

}  // namespace
}  // namespace liveconv::media
