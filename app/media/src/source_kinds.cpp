#include "liveconv/media/source_kinds.hpp"

#include <sys/stat.h>

#include <algorithm>

namespace liveconv::media {
namespace {

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool isFifo(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

// Whether `text` is of `kind`; File takes everything.
bool matches(SourceKindId kind, const std::string& text) {
  switch (kind) {
    case SourceKindId::TestPattern:
      return text == "testpattern" || startsWith(text, "testpattern:");
    case SourceKindId::Synthetic:
      return startsWith(text, "synthetic:");
    case SourceKindId::Lavfi:
      return startsWith(text, "lavfi:");
    case SourceKindId::Camera:
      return startsWith(text, "camera:") || startsWith(text, "/dev/video");
    case SourceKindId::Stream:
      for (const char* scheme : {"rtsp://", "rtsps://", "rtmp://", "udp://", "rtp://", "srt://", "tcp://"})
        if (startsWith(text, scheme)) return true;
      return false;
    case SourceKindId::Pipe:
      return text == "-" || startsWith(text, "pipe:") || isFifo(startsWith(text, "file:") ? text.substr(5) : text);
    case SourceKindId::File:
      return true;
    case SourceKindId::Invalid:
      break;
  }
  return false;
}

}  // namespace

const std::vector<SourceKind>& sourceKinds() {
  static const std::vector<SourceKind> kinds = {
      {SourceKindId::TestPattern, "testpattern[:WxH]",
       "a moving test picture (1280x720), endless; a window pulls one per frame it shows", false, false, true},
      {SourceKindId::Synthetic, "synthetic:WxH", "frames made in memory, no decoding; 60 a second, endless", false,
       false, true},
      {SourceKindId::Lavfi, "lavfi:GRAPH", "an FFmpeg source filter: lavfi:testsrc2=size=1280x720:rate=30", false,
       false},
      {SourceKindId::Camera, "camera:N[:WxH][@FPS]", "a camera (/dev/videoN); waited for when it goes away", true,
       false},
      {SourceKindId::Stream, "rtsp:// udp:// srt:// ...", "a live network stream; waited for when it goes away", true,
       false},
      {SourceKindId::Pipe, "- | pipe:N | FIFO", "standard input, a descriptor or a named pipe", false, false},
      {SourceKindId::File, "FILE | http(s)://...", "a video file FFmpeg reads, or its URL", false, true},
  };
  return kinds;
}

const SourceKind& sourceKindOf(const std::string& text) {
  const auto& kinds = sourceKinds();
  for (const SourceKind& k : kinds)
    if (matches(k.id, text)) return k;
  return kinds.back();
}

std::string sourceKindsHelp(const std::string& indent) {
  std::size_t width = 0;
  for (const SourceKind& k : sourceKinds()) width = std::max(width, std::string(k.syntax).size());
  std::string text;
  for (const SourceKind& k : sourceKinds()) {
    const std::string syntax = k.syntax;
    text += indent + syntax + std::string(width + 2 - syntax.size(), ' ') + k.help + "\n";
  }
  return text;
}

}  // namespace liveconv::media
