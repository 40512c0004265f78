// The one table of source kinds: what a source spec can be, how it is
// written, what it is, whether it is live (its own clock; reopened when it
// goes away) or seekable. A row is the whole kind: its matcher, its parser
// (the text into what the opener needs, or the sentence that refuses it),
// its help line and which opener takes it. The CLI, both windows, their help
// texts (and so the man pages) and the openers (liveconv/media/open_source.hpp)
// read it, so a kind means one thing everywhere. Plain C++: the windows built
// without FFmpeg read it too, which is why the openers are named here and
// live elsewhere: the generated ones (generated_sources.cpp) in every build,
// FFmpeg's (open_source.cpp) where FFmpeg is built. Adding a source kind is a
// row here, its id below, and, for a generated kind, its opener in
// generated_sources.cpp (an FFmpeg kind opens from its parse alone); the
// tests then ask for its case in tests/media/test_source_kinds.cpp and its
// help line in docs/cli.md.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace liveconv::media {

enum class SourceKindId {
  Invalid = 0,
  TestPattern,
  Synthetic,
  Lavfi,
  Camera,
  Stream,
  Pipe,
  File,
};

// What a row's parser makes of a spec: what the row's opener needs, or the
// one sentence that says why the text is malformed.
struct ParsedSource {
  std::string error;          // the sentence; "" when the text parsed
  bool inputError = false;    // the sentence is the input's (InputError, exit 7), else the command line's (exit 2)
  int width = 0, height = 0;  // a generated kind's frame size
  // For FFmpeg: what avformat_open_input gets (SourceSpec).
  std::string url;                             // "" with the text "": the bundled clip
  std::string inputFormat;                     // "lavfi", "v4l2", or "" to let FFmpeg probe
  std::map<std::string, std::string> options;  // e.g. video_size, framerate
  std::string name;                            // how messages name it, where not as written ("standard input")
};

struct SourceKind {
  SourceKindId id = SourceKindId::Invalid;
  const char* syntax = "";  // as the help writes it, e.g. "camera:N[:WxH][@FPS]"
  const char* help = "";    // one line: what it is
  bool live = false;        // its own clock: the live queue policy, and reopened when it goes away
  bool seekable = false;
  // Its opener: made in memory (generated_sources.cpp, every build opens it),
  // else FFmpeg's (open_source.cpp, only where FFmpeg is built).
  bool generated = false;
  bool (*matches)(const std::string& text) = nullptr;  // whether the text is of this kind
  ParsedSource (*parse)(const std::string& text) = nullptr;
};

// In the order they are matched; the last (a file) takes what no other does.
const std::vector<SourceKind>& sourceKinds();
// The kind of a source spec as the user wrote it ("" is the bundled clip: a file).
const SourceKind& sourceKindOf(const std::string& text);
// "<indent>SYNTAX  HELP" lines for a --help: every program takes every kind.
std::string sourceKindsHelp(const std::string& indent);

}  // namespace liveconv::media
