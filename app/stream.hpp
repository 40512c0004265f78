// The headless stream loop shared by `liveconv run` (media build) and
// `liveconv bench --pipeline` (every build): the decode loop (the windows'
// too, liveconv/media/decode_loop.hpp) feeds the pipeline on lc-decode, this thread
// writes its output to a sink, reports progress and logs the stats. No FFmpeg
// here: sources and sinks come in as interfaces.
//
// Under the live policy, a source with a clock (a camera or stream, or a file
// played with `realtime`) is held to its timestamps by a LiveClock
// (liveconv/live_clock.hpp, shared with the viewer's decoded feed): a frame
// that leaves the decoder too late is dropped and counted as "decode late".
#pragma once

#include <string>

#include "cli.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/frame.hpp"
#include "liveconv/live_clock.hpp"
#include "liveconv/media/decode_loop.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/pipeline.hpp"

namespace liveconv::app {

enum class ProgressStyle {
  Invalid = 0,
  Auto,  // a bar on a terminal, plain lines otherwise
  Bar,
  Lines,  // one line a second
  Quiet,
};

struct StreamOptions {
  long long maxFrames = -1;  // stop after this many input frames; -1 = the whole source
  std::string jsonLogPath;   // one JSON stats object per line, once a second and at the end
  ProgressStyle progress = ProgressStyle::Auto;
  bool realtime = false;       // pace a file to its timestamps, as a player would
  LiveClockOptions liveClock;  // when a clocked source's frame is late (live policy: dropped as decode late)
  // Added to every --json-log line, e.g. {"variant":"separable"}: what filtered the frames.
  std::string jsonExtra;  // `"key":value` pairs, comma-separated, or empty
};

struct StreamResult {
  StatsSnapshot stats;
  bool interrupted = false;  // Ctrl-C: the sink was still finished properly
};

// Runs until the source ends, maxFrames is reached or an interrupt signal arrives; always
// finishes the sink. Rethrows the first error of the source, engine or sink.
StreamResult runStream(FrameSource& source, FrameSink& sink, FrameChannel& pipeline, const StreamOptions& options);


// --mask, --variant, --border, --alpha, --workgroup into a parameter set.
// The default variant is "auto" when the registry has it, else "local".
// The parameters of liveconv/parameters.hpp's table from their flags (--mask,
// --variant, --border, --alpha, --workgroup, --format, --device), the rest at
// their defaults. Throws InvalidArgument with the sentence for a bad value.
ParamValues paramValuesFromArgs(const Args& args);
FilterParams filterParamsFromArgs(const Args& args);
std::string defaultVariantName();

// "WxH" -> width, height (both > 0); throws UsageError naming `what`.
void parseFrameSize(const std::string& text, const char* what, int* width, int* height);

}  // namespace liveconv::app
