// Runs `--script FILE` (feed/script.hpp) on a frame loop, as a user would: each
// line when its frame comes, through the loop's own calls (the model, open,
// seek, record, check, the keys' commands); a `wait` holds the lines after it
// until the loop has put every request on screen. What concerns the shell
// itself (screenshots, full screen, quit) comes back as ShellRequests.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "feed/script.hpp"
#include "model/commands.hpp"

namespace liveconv::ui {

class FrameLoop;

// What a script line or key asks of the shell itself.
struct ShellRequest {
  Command command = Command::Invalid;  // SaveFrame, SaveWindow, ToggleFullscreen or Quit
  std::string path;                    // for SaveFrame / SaveWindow from a script
};

class ScriptRunner {
 public:
  static constexpr double kWaitSeconds = 30;  // the longest a `wait` holds

  explicit ScriptRunner(FrameLoop& loop) : loop_(loop) {}
  // `--script FILE`: "" or the sentence why it cannot run.
  std::string load(const std::string& path) { return script_.load(path); }
  // Runs the lines now due (call once per pass, before the loop's tick()); a
  // line that fails says why in the loop's log and on the shell's notice line.
  std::vector<ShellRequest> run();
  bool finished() const { return script_.finished(); }
  std::uint64_t linesRun() const { return linesRun_; }

 private:
  void runLine(const ScriptLine& line, std::vector<ShellRequest>* requests);

  FrameLoop& loop_;
  Script script_;
  std::uint64_t linesRun_ = 0;
  std::optional<std::chrono::steady_clock::time_point> waitingSince_;  // a `wait` holds the lines after it
  int waitLine_ = 0;
};

}  // namespace liveconv::ui
