#include "cli.hpp"

#include <cstdlib>

#include "liveconv/autotune.hpp"
#include "liveconv/media/stop_signals.hpp"

namespace liveconv::app {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& valueOptions,
           const std::set<std::string>& flags, const std::map<std::string, std::string>& aliases,
           const std::set<std::string>& repeatable) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    std::string value;
    bool hasValue = false;
    if (const auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    const std::string typed = arg;
    if (auto a = aliases.find(arg); a != aliases.end()) arg = a->second;
    if (flags.count(arg)) {
      if (hasValue) throw UsageError("Option " + arg + " takes no value.");
      values_[arg] = "1";
    } else if (valueOptions.count(arg)) {
      if (!hasValue) {
        if (i + 1 >= argv.size()) throw UsageError("Option " + arg + " needs a value.");
        value = argv[++i];
      }
      if (const auto given = values_.find(arg); given != values_.end() && !repeatable.count(arg))
        throw UsageError("Option " + typed + " is given twice ('" + given->second + "', then '" + value +
                         "'); give it once.");
      values_[arg] = value;
      allValues_.emplace(arg, value);
    } else {
      throw UsageError("Unknown option " + arg + ".");
    }
  }
}

bool Args::has(const std::string& name) const { return values_.count(name) != 0; }

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

int Args::getInt(const std::string& name, int fallback, int min, int max) const {
  if (!has(name)) return fallback;
  const std::string text = get(name);
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < min || v > max)
    throw UsageError("Option " + name + " needs a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", not '" + text + "'.");
  return static_cast<int>(v);
}

std::vector<std::string> Args::getAll(const std::string& name) const {
  std::vector<std::string> out;
  const auto [begin, end] = allValues_.equal_range(name);
  for (auto it = begin; it != end; ++it) out.push_back(it->second);
  return out;
}

std::vector<std::string> splitList(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) parts.push_back(cur);
  return parts;
}

RaceStopsOnSignal::RaceStopsOnSignal() {
  AutoTuner::shared()->setStopRequest(media::interruptRequested);
}

RaceStopsOnSignal::~RaceStopsOnSignal() {
  AutoTuner::shared()->setStopRequest(nullptr);
}

}  // namespace liveconv::app
