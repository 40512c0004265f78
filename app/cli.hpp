// A small command-line reader: `--name value`, `--name=value` and flags, with
// a sentence for every mistake. Each subcommand declares what it accepts.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace liveconv::app {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // valueOptions take a value; flags do not. Aliases map short names ("-i") to long ones ("--input").
  // A value option given twice is a mistake (which one was meant?), except
  // the repeatable ones (each value counts: getAll()).
  Args(const std::vector<std::string>& argv, const std::set<std::string>& valueOptions,
       const std::set<std::string>& flags, const std::map<std::string, std::string>& aliases = {},
       const std::set<std::string>& repeatable = {});

  bool has(const std::string& name) const;
  std::string get(const std::string& name, const std::string& fallback = "") const;
  int getInt(const std::string& name, int fallback, int min, int max) const;
  // Every value of a repeatable option, in order.
  std::vector<std::string> getAll(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::multimap<std::string, std::string> allValues_;
  std::vector<std::string> positional_;
};

std::vector<std::string> splitList(const std::string& text, char sep = ',');

// While alive, a signal (Ctrl-C, SIGTERM, SIGHUP under an InterruptScope)
// stops auto's race: AutoTuner throws Cancelled. For run and both benches.
class RaceStopsOnSignal {
 public:
  RaceStopsOnSignal();
  ~RaceStopsOnSignal();
  RaceStopsOnSignal(const RaceStopsOnSignal&) = delete;
  RaceStopsOnSignal& operator=(const RaceStopsOnSignal&) = delete;
};

}  // namespace liveconv::app
