#include "feed/script_runner.hpp"

#include <chrono>
#include <sstream>

#include "feed/frame_loop.hpp"
#include "feed/key_commands.hpp"
#include "liveconv/variants.hpp"

namespace liveconv::ui {
std::vector<ShellRequest> ScriptRunner::run() {
  std::vector<ShellRequest> requests;
  SessionLog& log = loop_.log();
  if (waitingSince_) {
    const bool settled = loop_.settled();
    const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - *waitingSince_;
    if (!settled && waited.count() < kWaitSeconds) return requests;
    if (!settled)
      log.message("script", "line " + std::to_string(waitLine_) + ": still waiting after 30 s; going on.",
                  loop_.framesShown());
    waitingSince_.reset();
  }
  for (const ScriptLine& line : script_.takeDue(loop_.framesShown())) {
    runLine(line, &requests);
    ++linesRun_;
  }
  return requests;
}

void ScriptRunner::runLine(const ScriptLine& line, std::vector<ShellRequest>* requests) {
  ViewerModel& model = loop_.model();
  const std::string& verb = line.verb;
  const std::string& arg = line.argument;
  std::string error;
  if (verb == "key") {
    const Command c = commandForKeyText(arg);
    if (!runCommand(loop_, c)) requests->push_back({c, {}});
  } else if (verb == "mask") {
    model.applySpec(arg, &error);
  } else if (verb == "cell") {
    std::istringstream in(arg);
    int x = 0, y = 0;
    float value = 0;
    in >> x >> y >> value;
    const Mask& m = model.mask();
    if (x < 0 || y < 0 || x >= m.width || y >= m.height)
      error = "the mask is " + std::to_string(m.width) + "x" + std::to_string(m.height) + "; there is no cell " +
              std::to_string(x) + " " + std::to_string(y) + ".";
    else
      model.setCell(x, y, value);
  } else if (verb == "variant") {
    const VariantId id = findVariant(arg)->id;
    error = model.variantUnusableReason(id);  // greyed in both windows: a script cannot pick it either
    if (error.empty()) model.setVariant(id);
  } else if (verb == "kernel") {  // a kernel file of one's own (Open Kernel...): read now, followed from here
    error = loop_.kernelFile().load(model, arg);
  } else if (verb == "border") {
    model.setBorder(parseBorderMode(arg));
  } else if (verb == "format") {
    model.setFormat(parsePixelFormat(arg));
  } else if (verb == "device") {
    model.setDevice(std::stoi(arg));
  } else if (verb == "source") {
    loop_.open(arg);
  } else if (verb == "pause" || verb == "play") {
    model.view().paused = verb == "pause";
  } else if (verb == "step") {
    runCommand(loop_, Command::StepFrame);
  } else if (verb == "seek") {
    if (!loop_.seekTo(std::stod(arg))) error = "this source cannot seek.";
  } else if (verb == "save-frame" || verb == "screenshot") {
    requests->push_back({verb == "save-frame" ? Command::SaveFrame : Command::SaveWindow, arg});
  } else if (verb == "record") {
    error = loop_.recordings().start(arg);
  } else if (verb == "stop-record") {
    loop_.recordings().stop();
  } else if (verb == "quit") {
    requests->push_back({Command::Quit, {}});
  } else if (verb == "check") {
    setChecking(loop_, arg == "on");
  } else if (verb == "planes") {
    model.view().planes = arg == "on";
  } else if (verb == "wait") {
    waitingSince_ = std::chrono::steady_clock::now();
    waitLine_ = line.lineNumber;
  }
  SessionLog& log = loop_.log();
  if (!error.empty())
    log.message("script", "line " + std::to_string(line.lineNumber) + ": " + error, loop_.framesShown());
  log.modelAt(model.version(), line.text, loop_.framesShown(), loop_.newFramesShown());
}

}  // namespace liveconv::ui
