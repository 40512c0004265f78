#include "feed/session_log.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace liveconv::ui {
namespace {
// Checks the file keeps whole (some 25 minutes at a few a second); later ones are counted.
constexpr std::size_t kChecksKept = 5000;
}  // namespace

std::string jsonQuote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

namespace {
// One candidate of a race as the stats file writes it: bench --json's names,
// and the limit it is nearest ("fma", "bw"; null where it did not run).
std::string raceEntryJson(const RaceReport& r, const RaceEntry& e, bool chosen) {
  std::ostringstream out;
  out << "{\"variant\": " << jsonQuote(variantInfo(e.params.variant).name) << ", \"workgroup\": \""
      << e.params.workgroup.x << "x" << e.params.workgroup.y << "\", \"packet\": " << e.params.packet
      << ", \"kernel_ms\": " << e.kernelMs << ", \"kernel_mpix_s\": " << r.megapixelsPerSecond(e)
      << ", \"frac_bandwidth\": " << r.copyShare(e) << ", \"frac_fma\": " << r.fmaShare(e)
      << ", \"chosen\": " << (chosen ? "true" : "false") << ", \"outcome\": " << jsonQuote(e.outcome)
      << ", \"roof\": " << (e.kernelMs > 0 ? jsonQuote(roofOf(r.copyShare(e), r.fmaShare(e)).limit) : "null") << "}";
  return out.str();
}
}  // namespace

SessionLog::SessionLog() : start_(std::chrono::steady_clock::now()) {}

double SessionLog::nowMs() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
}

void SessionLog::message(const std::string& kind, const std::string& text, std::uint64_t frame) {
  if (text.empty()) return;
  for (auto it = messages_.rbegin(); it != messages_.rend(); ++it)
    if (it->kind == kind) {
      if (it->text == text) return;
      break;
    }
  messages_.push_back({frame, nowMs(), kind, text});
  if (echo_) echo_(text);
}

void SessionLog::edited(std::uint64_t version, const std::string& what, std::uint64_t frame, std::uint64_t newFrames) {
  if (!edits_.empty() && edits_.back().version >= version) return;
  Edit e;
  e.version = version;
  e.what = what;
  e.askedFrame = frame;
  e.askedNewFrames = newFrames;
  e.askedMs = nowMs();
  edits_.push_back(e);
}

void SessionLog::shown(std::uint64_t version, const std::string& variant, std::uint64_t frame,
                       std::uint64_t newFrames) {
  for (Edit& e : edits_)
    if (e.version <= version && e.shownFrame == 0 && !e.refused) {
      e.shownFrame = frame;
      e.shownNewFrames = newFrames;
      e.shownMs = nowMs();
      e.variant = variant;
    }
}

void SessionLog::refused(std::uint64_t version, std::uint64_t frame) {
  (void)frame;
  for (Edit& e : edits_)
    if (e.version <= version && e.shownFrame == 0) e.refused = true;
}

void SessionLog::tick() {
  const double now = nowMs();
  if (lastTickMs_ >= 0) frameMs_.push_back(now - lastTickMs_);
  lastTickMs_ = now;
}

void SessionLog::dropped(std::uint64_t total) {
  if (total < droppedSeen_) droppedSeen_ = 0;  // counters started again (another source)
  if (total == droppedSeen_) return;
  const double sinceFirst = firstFrameMs_ < 0 ? 0 : (nowMs() - firstFrameMs_) / 1000;
  const auto second = static_cast<std::size_t>(sinceFirst);
  if (dropsPerSecond_.size() <= second) dropsPerSecond_.resize(second + 1, 0);
  dropsPerSecond_[second] += total - droppedSeen_;
  droppedSeen_ = total;
}

std::string SessionLog::dropsPerSecondJson() const {
  std::ostringstream out;
  out << "[";
  for (std::size_t i = 0; i < dropsPerSecond_.size(); ++i) out << (i ? ", " : "") << dropsPerSecond_[i];
  out << "]";
  return out.str();
}

// The UI thread's frame times: {"median": .., "p99": .., "max": ..} in ms.
std::string SessionLog::uiFrameMsJson() const {
  const Percentiles p = percentiles(frameMs_);
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(2);
  out << "{\"median\": " << p.median << ", \"p99\": " << p.p99 << ", \"max\": " << p.max << "}";
  return out.str();
}

// Source to screen of every new frame shown: {"median": .., "p99": .., "frames": N} in ms.
std::string SessionLog::latencyMsJson() const {
  const Percentiles p = percentiles(latencyMs_);
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(2);
  out << "{\"median\": " << p.median << ", \"p99\": " << p.p99 << ", \"frames\": " << latencyMs_.size() << "}";
  return out.str();
}

// The last race, with bench --json's names for the same numbers: every
// candidate's variant, workgroup, kernel_ms (0: it did not run, `outcome`
// says why), kernel_mpix_s, frac_bandwidth, frac_fma, and which was chosen.
std::string SessionLog::raceJson(const RaceReport* r) {
  if (!r) return "null";
  std::ostringstream out;
  out << "{\"number\": " << r->number << ", \"trigger\": " << jsonQuote(r->trigger)
      << ", \"cached\": " << (r->cached ? "true" : "false") << ", \"raced_at\": " << jsonQuote(r->racedAt)
      << ", \"device\": " << jsonQuote(r->device) << ", \"format\": " << jsonQuote(toString(r->format))
      << ", \"mask\": " << jsonQuote(r->mask) << ", \"border\": " << jsonQuote(toString(r->border))
      << ", \"image\": \"" << r->width << "x" << r->height << "\", \"sample\": \"" << r->sampleWidth << "x"
      << r->sampleHeight << "\", \"copy_bandwidth_gb_s\": " << r->copyBytesPerSecond * 1e-9 << ", \"fma_limit\": " << jsonQuote(r->fma.how)
      << ", \"entries\": [";
  for (std::size_t i = 0; i < r->entries.size(); ++i) {
    const RaceEntry& e = r->entries[i];
    out << (i ? "," : "") << "\n    " << raceEntryJson(*r, e, static_cast<int>(i) == r->chosen);
  }
  out << (r->entries.empty() ? "" : "\n  ") << "]}";
  return out.str();
}

// Every check, with the numbers the overlay shows: what was compared (the
// whole frame or a region), the tolerance, how many pixels differ, by how much and where.
void SessionLog::checked(const CheckReport& r, std::uint64_t frame) {
  const FrameCheck& c = r.check;
  if (checks_.size() >= kChecksKept) {
    ++checksNotKept_;
    return;
  }
  std::ostringstream out;
  out << "{\"number\": " << r.number << ", \"frame\": " << frame << ", \"source_frame\": " << r.frameIndex
      << ", \"version\": " << r.paramsVersion << ", \"position_seconds\": " << r.positionSeconds
      << ", \"device\": " << jsonQuote(r.device)
      << ", \"variant\": " << jsonQuote(variantLine(r.variantAsked, r.variantRan))
      << ", \"variant_ran\": " << jsonQuote(r.variantRan == VariantId::Invalid ? "" : variantInfo(r.variantRan).name)
      << ", \"mask\": " << jsonQuote(r.mask) << ", \"border\": " << jsonQuote(toString(r.border))
      << ", \"format\": " << jsonQuote(toString(c.format)) << ", \"plane\": " << jsonQuote(r.plane) << ", \"image\": \""
      << c.frameWidth << "x" << c.frameHeight << "\", \"whole_frame\": " << (c.wholeFrame ? "true" : "false")
      << ", \"region\": {\"x\": " << c.region.x << ", \"y\": " << c.region.y << ", \"width\": " << c.region.width
      << ", \"height\": " << c.region.height << "}, \"tolerance_lsb\": " << c.toleranceLsb
      << ", \"pixels_compared\": " << c.pixelsCompared << ", \"pixels_differing\": " << c.pixelsDiffering
      << ", \"pixels_beyond_tolerance\": " << c.pixelsBeyondTolerance << ", \"max_difference\": " << c.maxDifference
      << ", \"worst\": "
      << (c.worstX < 0 ? std::string("null")
                       : "{\"x\": " + std::to_string(c.worstX) + ", \"y\": " + std::to_string(c.worstY) + "}")
      << ", \"passed\": " << (c.passed() ? "true" : "false") << ", \"reference_ms\": " << c.referenceMs
      << ", \"copy_ms\": " << r.copyMs << "}";
  checks_.push_back(out.str());
}

bool SessionLog::settled() const {
  for (const Edit& e : edits_)
    if (e.shownFrame == 0 && !e.refused) return false;
  return true;
}

std::string SessionLog::toJson(const FrameStats& s, std::uint64_t framesShown, std::uint64_t redraws, double videoFps,
                               const std::string& maskSpec,
                               const std::vector<std::pair<std::string, std::string>>& parameters) const {
  std::ostringstream out;
  out << "{\n  \"frames\": " << framesShown << ",\n  \"redraws\": " << redraws
      << ",\n  \"source\": " << jsonQuote(s.source) << ",\n  \"device\": " << jsonQuote(s.device)
      << ",\n  \"variant\": " << jsonQuote(s.variantText()) << ",\n  \"mask\": " << jsonQuote(maskSpec)
      << ",\n  \"parameters\": {";
  for (std::size_t i = 0; i < parameters.size(); ++i)
    out << (i ? ", " : "") << jsonQuote(parameters[i].first) << ": " << jsonQuote(parameters[i].second);
  out << "}"
      << ",\n  \"display_path\": " << jsonQuote(s.displayPathText)
      << ",\n  \"engine_format\": " << jsonQuote(s.engineFormat == PixelFormat::Invalid ? "" : toString(s.engineFormat))
      << ",\n  \"source_bits\": " << s.sourceBits << ",\n  \"planes\": " << jsonQuote(s.planes)
      << ",\n  \"width\": " << s.frameWidth << ",\n  \"height\": " << s.frameHeight
      << ",\n  \"position_seconds\": " << s.positionSeconds << ",\n  \"duration_seconds\": " << s.durationSeconds
      << ",\n  \"video_fps\": " << videoFps << ",\n  \"kernel_ms\": " << s.stages.kernelMs
      << ",\n  \"frames_total\": " << s.framesTotal << ",\n  \"frames_dropped\": " << s.framesDropped()
      << ",\n  \"drops\": {";
  bool firstCause = true;
  for (const DropCause& d : s.drops) {
    out << (firstCause ? "" : ", ") << jsonQuote(d.cause) << ": " << d.count;
    firstCause = false;
  }
  // New frames shown per second, from the first one on screen to now.
  const double shownSeconds = firstFrameMs_ < 0 ? 0 : (nowMs() - firstFrameMs_) / 1000;
  out << "},\n  \"shown_fps\": " << (shownSeconds > 0 ? static_cast<double>(latencyMs_.size() - 1) / shownSeconds : 0)
      << ",\n  \"drops_per_second\": " << dropsPerSecondJson() << ",\n  \"ui_frame_ms\": " << uiFrameMsJson()
      << ",\n  \"latency_ms\": " << latencyMsJson() << ",\n  \"race\": " << raceJson(s.race.get())
      << ",\n  \"messages\": [";
  for (std::size_t i = 0; i < messages_.size(); ++i) {
    const Message& m = messages_[i];
    out << (i ? "," : "") << "\n    {\"frame\": " << m.frame << ", \"ms\": " << static_cast<long long>(m.ms)
        << ", \"kind\": " << jsonQuote(m.kind) << ", \"text\": " << jsonQuote(m.text) << "}";
  }
  out << (messages_.empty() ? "" : "\n  ") << "],\n  \"edits\": [";
  for (std::size_t i = 0; i < edits_.size(); ++i) {
    const Edit& e = edits_[i];
    out << (i ? "," : "") << "\n    {\"version\": " << e.version << ", \"command\": " << jsonQuote(e.what)
        << ", \"frame\": " << e.askedFrame << ", \"shown_frame\": " << e.shownFrame
        << ", \"visible_after_frames\": " << (e.shownFrame ? static_cast<long long>(e.shownFrame - e.askedFrame) : -1)
        << ", \"visible_after_new_frames\": "
        << (e.shownFrame ? static_cast<long long>(e.shownNewFrames - e.askedNewFrames) : -1)
        << ", \"visible_after_ms\": " << (e.shownFrame ? static_cast<long long>(e.shownMs - e.askedMs + 0.5) : -1)
        << ", \"variant_ran\": " << jsonQuote(e.variant) << ", \"refused\": " << (e.refused ? "true" : "false") << "}";
  }
  out << (edits_.empty() ? "" : "\n  ") << "],\n  \"checks\": [";
  for (std::size_t i = 0; i < checks_.size(); ++i) out << (i ? "," : "") << "\n    " << checks_[i];
  out << (checks_.empty() ? "" : "\n  ") << "],\n  \"checks_not_kept\": " << checksNotKept_ << ",\n  \"files\": [";
  for (std::size_t i = 0; i < files_.size(); ++i) out << (i ? ", " : "") << jsonQuote(files_[i]);
  out << "],\n  \"recordings\": [";
  for (std::size_t i = 0; i < recordings_.size(); ++i)
    out << (i ? "," : "") << "\n    {\"path\": " << jsonQuote(recordings_[i].path) << ", \"frames\": " << recordings_[i].frames
        << ", \"stopped_by\": " << jsonQuote(recordings_[i].stoppedBy) << "}";
  out << (recordings_.empty() ? "" : "\n  ") << "],\n  \"recordings_failed\": [";
  for (std::size_t i = 0; i < failedRecordings_.size(); ++i)
    out << (i ? "," : "") << "\n    {\"path\": " << jsonQuote(failedRecordings_[i].path)
        << ", \"frames_lost\": " << failedRecordings_[i].frames << ", \"why\": " << jsonQuote(failedRecordings_[i].stoppedBy) << "}";
  out << (failedRecordings_.empty() ? "" : "\n  ") << "]\n}\n";
  return out.str();
}

}  // namespace liveconv::ui
