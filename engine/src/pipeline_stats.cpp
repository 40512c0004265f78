#include "liveconv/pipeline_stats.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace liveconv {

const char* toString(Stage stage) {
  switch (stage) {
    case Stage::Decode:
      return "decode";
    case Stage::Convert:
      return "convert";
    case Stage::Upload:
      return "upload";
    case Stage::Kernel:
      return "kernel";
    case Stage::Readback:
      return "readback";
    case Stage::Output:
      return "output";
  }
  return "?";
}

const char* toString(DropCause cause) {
  switch (cause) {
    case DropCause::DecodeLate:
      return "decode late";
    case DropCause::EngineLate:
      return "engine late";
    case DropCause::OutputLate:
      return "output late";
  }
  return "?";
}

PipelineStats::PipelineStats() {
  reset();
}

void PipelineStats::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  s_ = StatsSnapshot();
  for (auto& r : recent_) r.clear();
  start_ = windowStart_ = Clock::time_point();
  windowFrames_ = 0;
  windowPixels_ = totalPixels_ = 0;
}

void PipelineStats::addStageMs(Stage stage, double ms) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& r = recent_[static_cast<int>(stage)];
  r.push_back(ms);
  if (r.size() > kStageWindow) r.pop_front();
  StageTime& t = s_.stages[static_cast<int>(stage)];
  t.lastMs = ms;
  ++t.samples;
}

void PipelineStats::frameIn() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (s_.framesIn++ == 0) start_ = windowStart_ = Clock::now();  // the clock starts with the first frame
}

void PipelineStats::frameOut(int width, int height, std::uint64_t paramsTag) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = Clock::now();
  if (start_ == Clock::time_point()) start_ = windowStart_ = now;
  ++s_.framesOut;
  s_.width = width;
  s_.height = height;
  s_.paramsTag = paramsTag;
  const double pixels = double(width) * height;
  totalPixels_ += pixels;
  ++windowFrames_;
  windowPixels_ += pixels;
  const double windowS = std::chrono::duration<double>(now - windowStart_).count();
  if (windowS >= 1.0) {
    s_.windowFps = windowFrames_ / windowS;
    s_.windowMpixPerS = windowPixels_ / windowS / 1e6;
    windowStart_ = now;
    windowFrames_ = 0;
    windowPixels_ = 0;
  }
}

void PipelineStats::dropped(DropCause cause) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++s_.dropped[static_cast<int>(cause)];
}

void PipelineStats::outputDroppedOldest() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (s_.framesOut > 0) --s_.framesOut;
  ++s_.dropped[static_cast<int>(DropCause::OutputLate)];
}

void PipelineStats::decodeLate() {
  frameIn();
  dropped(DropCause::DecodeLate);
}

void PipelineStats::corruptPacket() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++s_.corruptPackets;
}

StatsSnapshot PipelineStats::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  StatsSnapshot s = s_;
  if (start_ != Clock::time_point()) s.elapsedS = std::chrono::duration<double>(Clock::now() - start_).count();
  if (s.elapsedS > 0) {
    s.averageFps = s.framesOut / s.elapsedS;
    s.averageMpixPerS = totalPixels_ / s.elapsedS / 1e6;
  }
  for (int i = 0; i < kStageCount; ++i) {
    std::vector<double> v(recent_[i].begin(), recent_[i].end());
    if (v.empty()) continue;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    s.stages[i].medianMs = v[v.size() / 2];
  }
  return s;
}

std::string toJson(const StatsSnapshot& s) {
  std::ostringstream o;
  o.precision(6);
  o << "{\"elapsed_s\":" << s.elapsedS << ",\"frames_in\":" << s.framesIn << ",\"frames_out\":" << s.framesOut
    << ",\"corrupt_packets\":" << s.corruptPackets << ",\"dropped\":{\"decode_late\":" << s.dropped[0]
    << ",\"engine_late\":" << s.dropped[1] << ",\"output_late\":" << s.dropped[2] << "},\"window_fps\":" << s.windowFps
    << ",\"window_mpix_per_s\":" << s.windowMpixPerS << ",\"average_fps\":" << s.averageFps
    << ",\"average_mpix_per_s\":" << s.averageMpixPerS << ",\"width\":" << s.width << ",\"height\":" << s.height
    << ",\"params_tag\":" << s.paramsTag << ",\"stages_ms\":{";
  for (int i = 0; i < kStageCount; ++i)
    o << (i ? "," : "") << "\"" << toString(static_cast<Stage>(i)) << "\":{\"median\":" << s.stages[i].medianMs
      << ",\"last\":" << s.stages[i].lastMs << ",\"samples\":" << s.stages[i].samples << "}";
  o << "}}";
  return o.str();
}

std::string summaryText(const StatsSnapshot& s) {
  char line[256];
  std::string out;
  std::snprintf(line, sizeof line,
                "frames: in %lld, out %lld, dropped %lld (decode late %lld, engine late %lld, output late %lld), "
                "corrupt packets %lld\n",
                s.framesIn, s.framesOut, s.droppedTotal(), s.dropped[0], s.dropped[1], s.dropped[2], s.corruptPackets);
  out += line;
  std::snprintf(line, sizeof line, "speed: %.1f fps, %.1f Mpixel/s average over %.2f s (%dx%d)", s.averageFps,
                s.averageMpixPerS, s.elapsedS, s.width, s.height);
  out += line;
  if (s.windowFps > 0) {
    std::snprintf(line, sizeof line, "; last 1 s window %.1f fps, %.1f Mpixel/s", s.windowFps, s.windowMpixPerS);
    out += line;
  }
  out += "\nstage medians (ms):";
  for (int i = 0; i < kStageCount; ++i) {
    if (s.stages[i].samples == 0) continue;
    std::snprintf(line, sizeof line, " %s %.3f", toString(static_cast<Stage>(i)), s.stages[i].medianMs);
    out += line;
  }
  return out + "\n";
}

}  // namespace liveconv
