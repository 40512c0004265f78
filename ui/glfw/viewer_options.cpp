#include "glfw/viewer_options.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "feed/feed_sources.hpp"
#include "feed/script.hpp"
#include "liveconv/media/source_kinds.hpp"
#include "model/commands.hpp"

namespace liveconv::ui {

namespace {

// The usage text around --display-path, whose lines come from ui/gl (liveconv-qt shows the same).
const char* kUsageHead =
    "usage: liveconv-viewer [options] [SOURCE]\n"
    "  SOURCE, --source SPEC  one of (default: the bundled clip, looping, or the test pattern\n"
    "                      in a build without FFmpeg):\n";
const char* kUsageTail =
    "  --size WxH          window size in screen coordinates (default 1600x900, or the screen's\n"
    "                      work area where that is smaller)\n"
    "  --zoom fit|native   fit the picture to the window, or one frame pixel per screen pixel\n"
    "  --compare           start in the before/after split view\n"
    "  --no-overlay, --no-panels\n"
    "  --screenshot FILE   write the window as PNG after --frames frames\n"
    "  --save-frame FILE   write the filtered frame at its own size as PNG after --frames frames\n"
    "  --frames N          frames to show before the screenshot\n"
    "  --quit              exit after --frames frames\n"
    "  --switch-to SPEC    after the first frame open SPEC as the panel would; --frames then\n"
    "                      counts from when it plays (tests the background open)\n";

}  // namespace

const char* viewerUsage() {
  static const std::string usage = std::string(kUsageHead) + media::sourceKindsHelp("    ") + sourceOptionsHelp() +
                                   startParamsHelp() + displayPathOptionHelp() + kUsageTail + scriptOptionHelp() +
                                   "  --help, --version\n" + keyHelp();
  return usage.c_str();
}

std::string parseViewerOptions(int argc, char** argv, ViewerOptions* o) {
  bool positional = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v, why;
    if (takeParamFlag(argc, argv, &i, &o->params, &why)) {
      if (!why.empty()) return why;
    } else if (arg == "--help" || arg == "-h") {
      o->help = true;
    } else if (arg == "--version") {
      o->version = true;
    } else if (arg == "--source") {
      if (!o->source.empty()) return "The source is given twice (" + o->source + " and --source); give one.";
      if (!value(&o->source)) return "--source needs a value.";
    } else if (arg == "--display-path") {
      const std::string why = parseDisplayPathOption(i + 1 < argc ? argv[++i] : nullptr, &o->displayPath);
      if (!why.empty()) return why;
    } else if (arg == "--size") {
      char tail = 0;
      if (!value(&v) || std::sscanf(v.c_str(), "%dx%d%c", &o->windowWidth, &o->windowHeight, &tail) != 2 ||
          o->windowWidth < 200 || o->windowHeight < 150)
        return "--size needs WxH, at least 200x150.";
      o->sizeGiven = true;
    } else if (arg == "--zoom") {
      if (!value(&v) || (v != "fit" && v != "native")) return "--zoom takes fit or native.";
      o->zoomNative = v == "native";
    } else if (arg == "--compare") {
      o->compare = true;
    } else if (arg == "--no-overlay") {
      o->overlay = false;
    } else if (arg == "--no-panels") {
      o->panels = false;
    } else if (arg == "--screenshot") {
      if (!value(&o->screenshot)) return "--screenshot needs a file name.";
    } else if (arg == "--frames") {
      char* end = nullptr;
      if (!value(&v) || (o->frames = std::strtol(v.c_str(), &end, 10)) < 1 || *end) return "--frames needs N >= 1.";
    } else if (arg == "--script") {
      if (!value(&o->script)) return "--script needs a file name.";
    } else if (arg == "--stats-json") {
      if (!value(&o->statsJson)) return "--stats-json needs a file name.";
    } else if (arg == "--save-frame") {
      if (!value(&o->saveFrame)) return "--save-frame needs a file name.";
    } else if (arg == "--switch-to") {
      if (!value(&o->switchTo)) return "--switch-to needs a source.";
    } else if (arg == "--quit") {
      o->quit = true;
    } else if (!arg.empty() && (arg[0] != '-' || arg == "-")) {  // the source, as `liveconv run` and liveconv-qt take it
      if (positional) return "Unexpected argument " + arg + "; the viewer plays one source (see --help).";
      if (!o->source.empty()) return "The source is given twice (" + o->source + " and " + arg + "); give one.";
      o->source = arg;
      positional = true;
    } else {
      return "Unknown option " + arg + " (see --help).";
    }
  }
  if ((!o->screenshot.empty() || !o->saveFrame.empty() || o->quit) && o->frames == 0) o->frames = 1;
  if (!o->params.hwaccel.empty()) return whyNotHwAccel(o->params.hwaccel);
  return {};
}

}  // namespace liveconv::ui
