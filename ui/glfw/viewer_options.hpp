// The viewer's command line, including the test hooks
// (--screenshot FILE --frames N --quit).
#pragma once

#include <string>

#include "gl/interop_policy.hpp"
#include "model/start_params.hpp"

namespace liveconv::ui {

struct ViewerOptions {
  std::string source;  // empty: defaultSourceSpec() (the bundled clip in the media build)
  StartParams params;  // --mask, --variant, --border, --alpha, --workgroup, --format, --device
  DisplayPathRequest displayPath = DisplayPathRequest::Auto;
  int windowWidth = 1600;  // without --size: no larger than the screen's work area
  int windowHeight = 900;
  bool sizeGiven = false;  // --size: exactly that
  bool zoomNative = false;
  bool compare = false;
  bool overlay = true;
  bool panels = true;
  std::string screenshot;  // written after `frames` frames
  long frames = 0;         // 0: run until closed
  bool quit = false;       // exit after `frames` frames
  std::string saveFrame;   // write the filtered frame at its own size after --frames frames
  std::string script;     // --script FILE: timed commands (feed/script.hpp)
  std::string statsJson;  // --stats-json FILE: written on exit
  std::string switchTo;    // test hook: after the first frame, open this source as the panel would
  bool help = false;
  bool version = false;
};

// Returns an empty string, or the sentence that says what is wrong.
std::string parseViewerOptions(int argc, char** argv, ViewerOptions* options);
const char* viewerUsage();

}  // namespace liveconv::ui
