#include "feed/script.hpp"

#include <cerrno>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>

#include "liveconv/mask.hpp"
#include "liveconv/parameters.hpp"
#include "model/commands.hpp"

namespace liveconv::ui {

namespace {
std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool isNumber(const std::string& s, bool integer) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  if (integer) (void)std::strtol(s.c_str(), &end, 10);
  else (void)std::strtod(s.c_str(), &end);
  return errno == 0 && end && *end == '\0';
}
}  // namespace

const char* scriptOptionHelp() {
  return "  --script FILE       run timed commands (FRAME VERB ARG a line: key, mask, cell, variant,\n"
         "                      kernel, border, format, device, source, save-frame, screenshot, record,\n"
         "                      seek, pause, play, step, check, planes, wait, quit; man liveconv-viewer)\n"
         "  --stats-json FILE   on exit, write the final stats, every message shown and every edit\n"
         "                      with the frame it was asked on and the frame that first showed it\n";
}

std::string Script::check(const ScriptLine& l) {
  const std::string& v = l.verb;
  const std::string& a = l.argument;
  const bool noArgument =
      v == "stop-record" || v == "quit" || v == "wait" || v == "pause" || v == "play" || v == "step";
  if (noArgument) return a.empty() ? "" : v + " takes no argument.";
  if (a.empty() && (v == "key" || v == "mask" || v == "variant" || v == "border" || v == "format" || v == "device" ||
                    v == "source" || v == "save-frame" || v == "screenshot" || v == "record" || v == "cell" ||
                    v == "seek" || v == "check" || v == "kernel" || v == "planes"))
    return v + " needs an argument.";
  if (v == "key") return commandForKeyText(a) == Command::Invalid ? "no key " + a + " (see --help for the keys)." : "";
  // As their flags take them, with the same sentences: the parameter table's check.
  if (v == "variant") return paramRefusal(ParamId::Variant, a);
  if (v == "border") return paramRefusal(ParamId::Border, a);
  if (v == "format") return paramRefusal(ParamId::Format, a);
  // The model's device index, not --device's selector (which a window resolves once, at its start).
  if (v == "device") return isNumber(a, true) ? "" : "device takes a device index (see liveconv devices).";
  if (v == "check") return a == "on" || a == "off" ? "" : "check takes on or off.";
  if (v == "planes") return a == "on" || a == "off" ? "" : "planes takes on or off.";
  if (v == "seek") return isNumber(a, false) ? "" : "seek takes a time in seconds from the start.";
  if (v == "cell") {
    std::istringstream in(a);
    std::string x, y, value, extra;
    in >> x >> y >> value >> extra;
    return isNumber(x, true) && isNumber(y, true) && isNumber(value, false) && extra.empty()
               ? ""
               : "cell takes X Y VALUE (column and row from 0, then the coefficient).";
  }
  if (v == "mask") {  // read as the line will apply it (ViewerModel::applySpec), so a bad one is a bad line
    try {
      (void)parseMaskSpec(a);
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  if (v == "source" || v == "save-frame" || v == "screenshot" || v == "record" || v == "kernel") return "";
  return "unknown command " + v +
         " (key, mask, cell, variant, kernel, border, format, device, source, save-frame, "
         "screenshot, record, stop-record, pause, play, step, seek, check, wait, quit).";
}

std::string Script::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "cannot read the script " + path + ".";
  lines_.clear();
  next_ = 0;
  std::string raw;
  std::uint64_t lastFrame = 0;
  for (int n = 1; std::getline(in, raw); ++n) {
    std::string text = trim(raw.substr(0, raw.find('#')));
    if (text.empty()) continue;
    std::istringstream words(text);
    ScriptLine line;
    std::string frame;
    words >> frame >> line.verb;
    std::getline(words, line.argument);
    line.argument = trim(line.argument);
    line.lineNumber = n;
    line.text = text;
    const std::string where = path + " line " + std::to_string(n) + ": ";
    if (!isNumber(frame, true) || std::strtol(frame.c_str(), nullptr, 10) < 0)
      return where + "a line starts with the frame number it runs at (0 or more), then a command.";
    line.frame = std::strtoull(frame.c_str(), nullptr, 10);
    if (line.frame < lastFrame) return where + "frame " + frame + " comes before the line above it.";
    lastFrame = line.frame;
    if (const std::string why = check(line); !why.empty()) return where + why;
    lines_.push_back(std::move(line));
  }
  if (lines_.empty()) return "the script " + path + " has no commands.";
  return {};
}

std::vector<ScriptLine> Script::takeDue(std::uint64_t framesShown) {
  std::vector<ScriptLine> due;
  while (next_ < lines_.size() && lines_[next_].frame <= framesShown) {
    due.push_back(lines_[next_++]);
    if (due.back().verb == "wait") break;  // the lines after it wait for the edits before it
  }
  return due;
}

}  // namespace liveconv::ui
