// Text helpers the engine's parsers share (engine-internal).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace liveconv::detail {

// The text with ASCII letters in lower case (names and options compare so).
inline std::string asciiLower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace liveconv::detail
