#include "stream.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "liveconv/errors.hpp"
#include "liveconv/live_clock.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/parameters.hpp"

namespace liveconv::app {
namespace {

using Clock = std::chrono::steady_clock;

// {"a":1} + "\"b\":2" -> {"a":1,"b":2}
std::string withExtra(std::string json, const std::string& extra) {
  if (extra.empty() || json.empty() || json.back() != '}') return json;
  json.pop_back();
  return json + "," + extra + "}";
}

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

std::string clock(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

// One line of the JSON log, on disk now: a log that cannot be written (a
// full disk) ends the run with exit 8, as an output that cannot be written does.
void writeLogLine(std::ofstream& log, const std::string& line, const std::string& path) {
  errno = 0;
  log << line << "\n";
  log.flush();
  if (!log)
    throw media::OutputError("Cannot write the JSON log " + path + ": " + std::strerror(errno ? errno : EIO) + ".");
}

class Progress {
 public:
  Progress(ProgressStyle style, long long expected) : expected_(expected) {
    style_ = style == ProgressStyle::Auto ? (isatty(STDERR_FILENO) ? ProgressStyle::Bar : ProgressStyle::Lines) : style;
  }

  // `mediaSeconds`: the position of the last frame out in the source (from its
  // first frame), or < 0 when unknown; shown when there is no credible total.
  // True when a line is due (4 a second for the bar, 1 for lines): the
  // caller takes a stats snapshot only then, not once per frame.
  bool due() const {
    if (style_ == ProgressStyle::Quiet) return false;
    return std::chrono::duration<double>(Clock::now() - last_).count() >= (style_ == ProgressStyle::Bar ? 0.25 : 1.0);
  }

  void update(const StatsSnapshot& s, bool final, double mediaSeconds = -1) {
    if (style_ == ProgressStyle::Quiet) return;
    if (!final && !due()) return;
    last_ = Clock::now();
    const double fps = s.windowFps > 0 ? s.windowFps : s.averageFps;
    // A total only while it is credible: not past it (a header that lies, a
    // growing stream) and not on the last line, which says what was done.
    const long long expected = !final && s.framesOut <= expected_ ? expected_ : -1;
    if (style_ == ProgressStyle::Bar) {
      std::string bar;
      if (expected > 0) {
        const int filled = static_cast<int>(30.0 * std::min<long long>(s.framesOut, expected) / expected);
        bar = "[" + std::string(filled, '#') + std::string(30 - filled, '.') + "] ";
      }
      std::fprintf(stderr, "\r%s%lld%s frames  %.1f fps", bar.c_str(), s.framesOut,
                  expected > 0 ? ("/" + std::to_string(expected)).c_str() : "", fps);
      if (expected <= 0 && mediaSeconds >= 0) std::fprintf(stderr, "  at %s", clock(mediaSeconds).c_str());
      if (expected > 0 && fps > 0) std::fprintf(stderr, "  eta %s", clock((expected - s.framesOut) / fps).c_str());
      std::fprintf(stderr, "   %s", final ? "\n" : "");
    } else if (!final) {
      std::fprintf(stderr, "frames %lld%s, %.1f fps, dropped %lld%s\n", s.framesOut,
                   expected > 0 ? ("/" + std::to_string(expected)).c_str() : "", fps, s.droppedTotal(),
                   expected <= 0 && mediaSeconds >= 0 ? (", at " + clock(mediaSeconds)).c_str() : "");
    }
    std::fflush(stderr);
  }

 private:
  ProgressStyle style_;
  long long expected_;
  Clock::time_point last_ = Clock::now();
};

}  // namespace

StreamResult runStream(FrameSource& source, FrameSink& sink, FrameChannel& pipeline, const StreamOptions& options) {
  media::InterruptScope interruptScope;
  PipelineStats& stats = pipeline.stats();
  // The JSON log is the one file written as it goes (not staged): it is read
  // while the run goes (`tail -f`, a memory check), a line a second, each line
  // whole on disk. `run` refuses an existing log unless -y, as it does an output.
  std::ofstream jsonLog;
  if (!options.jsonLogPath.empty()) {
    jsonLog.open(options.jsonLogPath, std::ios::trunc);
    if (!jsonLog)
      throw media::OutputError("Cannot write the JSON log " + options.jsonLogPath + ": " + std::strerror(errno) + ".");
  }

  // lc-decode owns the source for the length of the stream: the frames into the
  // pipeline, paced by the clock for a live source or --realtime (late frames
  // dropped under the live policy), until the end, --frames or a signal.
  media::DecodeOptions decode;
  decode.maxFrames = options.maxFrames;
  decode.paceToClock = options.realtime;
  decode.clock = options.liveClock;
  decode.stopWhen = media::interruptRequested;
  media::DecodeLoop decoder(source, pipeline, decode);
  decoder.start();

  long long expected = source.isLive() ? -1 : source.expectedFrames();  // a stream has no end to count to
  if (options.maxFrames >= 0 && (expected < 0 || expected > options.maxFrames)) expected = options.maxFrames;
  Progress progress(options.progress, expected);
  std::exception_ptr streamError;
  auto lastLog = Clock::now();
  double firstPts = -1;
  try {
    while (std::optional<Frame> frame = pipeline.pop()) {
      if (frame->hasPts && firstPts < 0) firstPts = frame->ptsSeconds;
      const double position = frame->hasPts && firstPts >= 0 ? frame->ptsSeconds - firstPts : -1;
      const auto start = Clock::now();
      sink.write(*frame);
      stats.addStageMs(Stage::Output, msSince(start));
      // A snapshot (the stage medians) only when a progress line or a log line
      // is due: per frame it took the engine's stats lock and its time.
      const bool logDue = jsonLog.is_open() && std::chrono::duration<double>(Clock::now() - lastLog).count() >= 1.0;
      if (!progress.due() && !logDue) continue;
      const StatsSnapshot s = stats.snapshot();
      progress.update(s, false, position);
      if (logDue) {
        writeLogLine(jsonLog, withExtra(toJson(s), options.jsonExtra), options.jsonLogPath);
        lastLog = Clock::now();
      }
    }
  } catch (...) {
    streamError = std::current_exception();
    pipeline.cancel();
  }
  decoder.join();
  const std::exception_ptr sourceError = decoder.error();
  // The output is finished whatever happened, so a file is never left without its trailer.
  try {
    sink.finish();
  } catch (...) {
    if (!streamError) streamError = std::current_exception();
  }

  StreamResult result;
  result.stats = stats.snapshot();
  result.interrupted = media::interruptRequested();
  progress.update(result.stats, true);
  if (jsonLog.is_open()) {
    try {
      writeLogLine(jsonLog, withExtra(toJson(result.stats), options.jsonExtra), options.jsonLogPath);
    } catch (...) {
      if (!streamError) streamError = std::current_exception();
    }
  }
  if (sourceError) std::rethrow_exception(sourceError);
  if (streamError) std::rethrow_exception(streamError);
  return result;
}

std::string defaultVariantName() {
  return paramDescription(ParamId::Variant).defaultText;
}

ParamValues paramValuesFromArgs(const Args& args) {
  ParamValues v = defaultParams();
  for (const ParamDescription& d : paramDescriptions())
    if (args.has(d.flag)) setParam(v, d.id, args.get(d.flag));
  applyKernelFile(v);
  return v;
}

FilterParams filterParamsFromArgs(const Args& args) {
  return paramValuesFromArgs(args).filter;
}

void parseFrameSize(const std::string& text, const char* what, int* width, int* height) {
  std::istringstream in(text);
  char x = 0;
  int w = 0, h = 0;
  if (!(in >> w >> x >> h) || (x != 'x' && x != 'X') || !in.eof() || w <= 0 || h <= 0 || w > 16384 || h > 16384)
    throw UsageError(std::string("Bad ") + what + " '" + text + "'; write WxH, for example 1920x1080.");
  *width = w;
  *height = h;
}

}  // namespace liveconv::app
