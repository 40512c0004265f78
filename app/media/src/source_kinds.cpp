#include "liveconv/media/source_kinds.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace liveconv::media {
namespace {

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool isFifo(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

bool allDigits(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

ParsedSource refused(std::string sentence, bool inputError) {
  ParsedSource p;
  p.error = std::move(sentence);
  p.inputError = inputError;
  return p;
}

// "WxH" after `prefix`, both in 1..16384; false when malformed.
bool parseSize(const std::string& text, std::size_t prefix, int* width, int* height) {
  int w = 0, h = 0;
  char tail = 0;
  if (text.size() <= prefix || text[prefix] != ':' ||
      std::sscanf(text.c_str() + prefix + 1, "%dx%d%c", &w, &h, &tail) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384)
    return false;
  *width = w;
  *height = h;
  return true;
}

// Each kind's matcher and parser, in the table's order.

bool isTestPattern(const std::string& text) {
  return text == "testpattern" || startsWith(text, "testpattern:");
}
ParsedSource parseTestPattern(const std::string& text) {
  ParsedSource p;
  p.width = 1280, p.height = 720;
  if (text == "testpattern" || parseSize(text, 11, &p.width, &p.height)) return p;
  return refused("testpattern:WxH needs a frame size such as testpattern:640x480, not '" + text + "'.", false);
}

bool isSynthetic(const std::string& text) {
  return startsWith(text, "synthetic:");
}
ParsedSource parseSynthetic(const std::string& text) {
  ParsedSource p;
  if (parseSize(text, 9, &p.width, &p.height)) return p;
  return refused("synthetic:WxH needs a frame size such as synthetic:1280x720, not '" + text + "'.", false);
}

bool isLavfi(const std::string& text) {
  return startsWith(text, "lavfi:");
}
ParsedSource parseLavfi(const std::string& text) {
  ParsedSource p;
  p.url = text.substr(6);
  p.inputFormat = "lavfi";
  if (p.url.empty())
    return refused(
        "lavfi:GRAPH needs a source filter such as lavfi:testsrc2=size=1280x720:rate=30, not '" + text + "'.", true);
  return p;
}

bool isCamera(const std::string& text) {
  return startsWith(text, "camera:") || startsWith(text, "/dev/video");
}
// "camera:N[:WxH][@FPS]" or "/dev/videoN[:WxH][@FPS]": v4l2 and its options.
ParsedSource parseCamera(const std::string& text) {
  const std::string rest = startsWith(text, "camera:") ? text.substr(7) : text.substr(10);
  std::size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  if (digits == 0) return refused("A camera is written camera:N or /dev/videoN, optionally with :WxH and @FPS.", true);
  ParsedSource p;
  p.url = "/dev/video" + rest.substr(0, digits);
  p.inputFormat = "v4l2";
  std::string size = rest.substr(digits), rate;
  if (const auto at = size.find('@'); at != std::string::npos) {
    rate = size.substr(at + 1);
    size = size.substr(0, at);
  }
  if (!size.empty() && size[0] == ':') size = size.substr(1);
  if (!size.empty()) p.options["video_size"] = size;
  if (!rate.empty()) p.options["framerate"] = rate;
  return p;
}

const char* const kStreamSchemes[] = {"rtsp://", "rtsps://", "rtmp://", "udp://", "rtp://", "srt://", "tcp://"};
bool isStream(const std::string& text) {
  return std::any_of(std::begin(kStreamSchemes), std::end(kStreamSchemes),
                     [&](const char* scheme) { return startsWith(text, scheme); });
}
ParsedSource parseStream(const std::string& text) {
  ParsedSource p;
  p.url = text;
  if (text.find("://") + 3 == text.size())
    return refused("A stream needs an address such as rtsp://cam.local/stream or udp://@:1234, not '" + text + "'.",
                   true);
  return p;
}

bool isPipe(const std::string& text) {
  return text == "-" || startsWith(text, "pipe:") || isFifo(startsWith(text, "file:") ? text.substr(5) : text);
}
// "-" (standard input), "pipe:" or "pipe:N" (a descriptor), or a FIFO's path.
ParsedSource parsePipe(const std::string& text) {
  ParsedSource p;
  p.url = text == "-" ? "pipe:0" : text;
  if (text == "-") p.name = "standard input";
  if (startsWith(text, "pipe:") && !allDigits(text.substr(5)))
    return refused("A pipe is written -, pipe:N (a descriptor) or a FIFO's path, not '" + text + "'.", true);
  return p;
}

bool isFile(const std::string&) {
  return true;
}
ParsedSource parseFile(const std::string& text) {
  ParsedSource p;
  p.url = text;  // a path or a URL FFmpeg reads; "" is the bundled clip
  return p;
}

}  // namespace

const std::vector<SourceKind>& sourceKinds() {
  // id, syntax, help, live, seekable, generated, matcher, parser
  static const std::vector<SourceKind> kinds = {
      {SourceKindId::TestPattern, "testpattern[:WxH]",
       "a moving test picture (1280x720), endless; a window pulls one per frame it shows", false, false, true,
       isTestPattern, parseTestPattern},
      {SourceKindId::Synthetic, "synthetic:WxH", "frames made in memory, no decoding; 60 a second, endless", false,
       false, true, isSynthetic, parseSynthetic},
      {SourceKindId::Lavfi, "lavfi:GRAPH", "an FFmpeg source filter: lavfi:testsrc2=size=1280x720:rate=30", false,
       false, false, isLavfi, parseLavfi},
      {SourceKindId::Camera, "camera:N[:WxH][@FPS]", "a camera (/dev/videoN); waited for when it goes away", true,
       false, false, isCamera, parseCamera},
      {SourceKindId::Stream, "rtsp:// udp:// srt:// ...", "a live network stream; waited for when it goes away", true,
       false, false, isStream, parseStream},
      {SourceKindId::Pipe, "- | pipe:N | FIFO", "standard input, a descriptor or a named pipe", false, false, false,
       isPipe, parsePipe},
      {SourceKindId::File, "FILE | http(s)://...", "a video file FFmpeg reads, or its URL", false, true, false, isFile,
       parseFile},
  };
  return kinds;
}

const SourceKind& sourceKindOf(const std::string& text) {
  const auto& kinds = sourceKinds();
  for (const SourceKind& k : kinds)
    if (k.matches(text)) return k;
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
