// One statistics structure for the whole stream: per-stage times (from CL
// events and steady clocks), fps and Mpixel/s over windows of at least one
// second, frames in and out, drops by cause. The CLI summary, the progress
// line, the UI overlay and the JSON log all read the same snapshot.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

namespace liveconv {

// Stages of one frame's trip; the values index the arrays below.
enum class Stage { Decode = 0, Convert, Upload, Kernel, Readback, Output };
constexpr int kStageCount = 6;
const char* toString(Stage stage);

// Why a live stream lost a frame (lossless streams never drop).
enum class DropCause {
  DecodeLate = 0,  // the source delivered a frame after its display time had passed
  EngineLate,      // the engine had not taken the previous frame when the next one arrived
  OutputLate,      // the display or encoder had not taken the filtered frame in time
};
constexpr int kDropCauseCount = 3;
const char* toString(DropCause cause);

struct StageTime {
  double lastMs = 0;
  double medianMs = 0;  // over the most recent samples (up to kStageWindow)
  long long samples = 0;
};

struct StatsSnapshot {
  double elapsedS = 0;
  long long framesIn = 0;   // taken from the source
  long long framesOut = 0;  // delivered to the output
  long long corruptPackets = 0;
  std::array<long long, kDropCauseCount> dropped{};
  double windowFps = 0;  // the last complete window of >= 1 s
  double windowMpixPerS = 0;
  double averageFps = 0;  // framesOut over the whole run
  double averageMpixPerS = 0;
  int width = 0, height = 0;  // the latest frame's size
  std::uint64_t paramsTag = 0;  // the caller's number for the set that filtered the newest frame out
  std::array<StageTime, kStageCount> stages{};

  long long droppedTotal() const { return dropped[0] + dropped[1] + dropped[2]; }
};

class PipelineStats {
 public:
  static constexpr int kStageWindow = 256;

  PipelineStats();
  void addStageMs(Stage stage, double ms);
  void frameIn();
  void frameOut(int width, int height, std::uint64_t paramsTag);
  void dropped(DropCause cause);
  // A frame counted out that the full output queue then dropped (live policy):
  // it never reached the output, so it counts as output late instead.
  void outputDroppedOldest();
  // A frame taken from the source and dropped there, too late to show (counts in framesIn as well).
  void decodeLate();
  void corruptPacket();
  void reset();
  StatsSnapshot snapshot() const;

 private:
  using Clock = std::chrono::steady_clock;
  mutable std::mutex mutex_;
  Clock::time_point start_, windowStart_;
  long long windowFrames_ = 0;
  double windowPixels_ = 0, totalPixels_ = 0;
  std::array<std::deque<double>, kStageCount> recent_;
  StatsSnapshot s_;
};

// One JSON object on one line (for --json-log, one line per report).
std::string toJson(const StatsSnapshot& s);
// Several lines for a person: frames, fps, drops, per-stage medians.
std::string summaryText(const StatsSnapshot& s);

}  // namespace liveconv
