// The one table of source kinds: what a source spec can be, how it is
// written, what it is, whether it is live (its own clock; reopened when it
// goes away) or seekable. The CLI, both windows, their help texts (and so the
// man pages) and the openers (liveconv/media/open_source.hpp) read it. Plain C++: the
// windows built without FFmpeg read it too. Adding a source kind is a row
// here and its opener in open_source.cpp.
#pragma once

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

struct SourceKind {
  SourceKindId id = SourceKindId::Invalid;
  const char* syntax = "";  // as the help writes it, e.g. "camera:N[:WxH][@FPS]"
  const char* help = "";    // one line: what it is
  bool live = false;        // its own clock: the live queue policy, and reopened when it goes away
  bool seekable = false;
  bool generated = false;  // made in memory (generated_sources.hpp): every build opens it, FFmpeg or not
};

// In the order they are matched; the last (a file) takes what no other does.
const std::vector<SourceKind>& sourceKinds();
// The kind of a source spec as the user wrote it ("" is the bundled clip: a file).
const SourceKind& sourceKindOf(const std::string& text);
// "<indent>SYNTAX  HELP" lines for a --help: every program takes every kind.
std::string sourceKindsHelp(const std::string& indent);

}  // namespace liveconv::media
