#include "liveconv/autotune.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>

#include "liveconv/compare.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/reference.hpp"
#include "liveconv/thread_name.hpp"

namespace liveconv {
namespace {

constexpr int kWarmupRuns = 2;
constexpr int kTimedRuns = 7;
// Candidates are timed on at most this many pixels (1080p's worth), cut from
// the real frame's shape: an 8K frame (or a header claiming 16000x16000) races
// in seconds, not minutes. What depends on the real size (row padding, the
// workgroup that fits) is checked at the real size.
constexpr double kMaxRacePixels = 1920.0 * 1080.0;

double fastest(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

void makeParentDirs(const std::string& path) {
  for (std::size_t i = 1; i < path.size(); ++i)
    if (path[i] == '/') ::mkdir(path.substr(0, i).c_str(), 0755);
}

// A race kept on the choice's line of the tuner's file (one field: no tab or
// newline): its numbers and texts '|'-separated, the entries ';'-separated,
// an entry's fields ','-separated; those characters (and '%') in a text
// written as %XX.
std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '%' || c == '|' || c == ';' || c == ',' || c == '\t' || c == '\n' || c == '\r') {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescaped(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, by)) parts.push_back(part);
  if (!text.empty() && text.back() == by) parts.emplace_back();
  return parts;
}

// race2 adds whether alpha was filtered (the channels the FMA share counts); a
// race1 line (before it) is read with alpha copied, as every race then was unless asked.
constexpr const char* kReportVersion = "race2";

std::string encodeReport(const RaceReport& r) {
  std::ostringstream out;
  out.precision(9);
  out << kReportVersion << '|' << escaped(r.racedAt) << '|' << escaped(r.device) << '|' << toString(r.format) << '|'
      << escaped(r.mask) << '|' << toString(r.border) << '|' << r.width << '|' << r.height << '|' << r.sampleWidth
      << '|' << r.sampleHeight << '|' << r.copyBytesPerSecond << '|' << r.fma.fmaPerSecond << '|' << escaped(r.fma.how)
      << '|' << r.maskWidth << '|' << r.maskHeight << '|' << r.channels << '|' << r.chosen << '|' << r.timedRuns << '|'
      << (r.filterAlpha ? 1 : 0) << '|';
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    const RaceEntry& e = r.entries[i];
    out << (i ? ";" : "") << variantInfo(e.params.variant).name << ',' << e.params.workgroup.x << ','
        << e.params.workgroup.y << ',' << e.params.packet << ',' << e.kernelMs << ',' << escaped(e.outcome);
  }
  return out.str();
}

// The report of a line's last field; null where it is not one this version
// wrote (a file of an earlier version, or damaged): the choice alone stays.
std::shared_ptr<const RaceReport> decodeReport(const std::string& text) {
  std::vector<std::string> f = split(text, '|');
  const bool earlier = f.size() == 19 && f[0] == "race1";
  if (!earlier && (f.size() != 20 || f[0] != kReportVersion)) return nullptr;
  if (earlier) f.insert(f.begin() + 18, "0");  // alpha copied
  try {
    auto r = std::make_shared<RaceReport>();
    r->trigger = "auto";
    r->cached = true;
    r->racedAt = unescaped(f[1]);
    r->device = unescaped(f[2]);
    r->format = parsePixelFormat(f[3]);
    r->mask = unescaped(f[4]);
    r->border = parseBorderMode(f[5]);
    r->width = std::stoi(f[6]);
    r->height = std::stoi(f[7]);
    r->sampleWidth = std::stoi(f[8]);
    r->sampleHeight = std::stoi(f[9]);
    r->copyBytesPerSecond = std::stod(f[10]);
    r->fma.fmaPerSecond = std::stod(f[11]);
    r->fma.how = unescaped(f[12]);
    r->maskWidth = std::stoi(f[13]);
    r->maskHeight = std::stoi(f[14]);
    r->channels = std::stoi(f[15]);
    r->chosen = std::stoi(f[16]);
    r->timedRuns = std::stoi(f[17]);
    r->filterAlpha = f[18] == "1";
    for (const std::string& entry : f[19].empty() ? std::vector<std::string>{} : split(f[19], ';')) {
      const std::vector<std::string> e = split(entry, ',');
      const VariantInfo* v = e.size() == 6 ? findVariant(e[0]) : nullptr;
      if (!v) return nullptr;
      RaceEntry out;
      out.params.variant = v->id;
      out.params.workgroup = {std::stoi(e[1]), std::stoi(e[2])};
      out.params.packet = std::stoi(e[3]);
      out.kernelMs = std::stod(e[4]);
      out.outcome = unescaped(e[5]);
      r->entries.push_back(out);
    }
    if (r->format == PixelFormat::Invalid || r->border == BorderMode::Invalid || r->chosen >= int(r->entries.size()))
      return nullptr;
    return r;
  } catch (const std::exception&) {
    return nullptr;  // a number that is not one
  }
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

AutoTuner::AutoTuner(std::string cachePath) : path_(std::move(cachePath)) {}

// The candidates of a race: every kernel variant that can take this mask, in
// the shapes and packets its race plan names (variants.cpp).
std::vector<FilterParams> AutoTuner::candidates(const FilterParams& base, bool gpu, bool everyVariant) {
  std::vector<FilterParams> out;
  const bool separable = factorSeparable(base.mask, nullptr);
  for (const VariantInfo& v : variantRegistry()) {
    if (v.id == VariantId::Auto || (v.needsSeparableMask && !separable) || !variantAvailable(v)) continue;
    RacePlan plan = racePlan(v, gpu);
    if (everyVariant && plan.packets.empty()) plan = RacePlan{{0}, {{0, 0}}};  // at its own defaults
    for (int packet : plan.packets)
      for (const auto& [wx, wy] : plan.workgroups) {
        FilterParams p = base;
        p.variant = v.id;
        p.packet = packet;
        p.workgroup = {wx, wy};
        out.push_back(p);
      }
  }
  return out;
}

std::pair<int, int> AutoTuner::raceSample(int width, int height) {
  const double pixels = double(width) * height;
  if (pixels <= kMaxRacePixels) return {width, height};
  const double f = std::sqrt(kMaxRacePixels / pixels);
  int w = std::clamp(static_cast<int>(width * f), std::min(width, 64), width);
  int h = std::clamp(static_cast<int>(height * f), std::min(height, 64), height);
  // A very thin frame keeps its short side: the long one gives up the rest.
  if (double(w) * h > kMaxRacePixels) (w > h ? w : h) = static_cast<int>(kMaxRacePixels / (w > h ? h : w));
  return {w, h};
}

std::shared_ptr<AutoTuner> AutoTuner::shared() {
  static std::shared_ptr<AutoTuner> tuner = std::make_shared<AutoTuner>(defaultCachePath());
  return tuner;
}

std::string AutoTuner::defaultCachePath() {
  if (const char* p = std::getenv("LIVECONV_TUNING_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/liveconv/autotune.tsv";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/liveconv/autotune.tsv";
  return {};
}

std::string AutoTuner::key(const DeviceInfo& d, const FilterParams& p, PixelFormat format, int w, int h) const {
  std::ostringstream k;
  k << d.fingerprint() << "|" << toString(format) << "|" << p.mask.width << "x" << p.mask.height << "|"
    << (factorSeparable(p.mask, nullptr) ? "sep" : "nonsep") << "|" << toString(p.border) << "|"
    << (p.alpha == AlphaMode::Filter ? "alpha" : "keepalpha") << "|" << w << "x" << h;
  // With a kernel of the user's own, its text is a candidate: a race with it
  // is remembered apart from one without, and apart from another version of it.
  if (const UserKernel own = userKernel(p.userKernel); !own.path.empty()) k << "|user=" << own.digest;
  return k.str();
}

void AutoTuner::load() {
  if (loaded_) return;
  loaded_ = true;
  if (path_.empty()) return;
  std::ifstream in(path_);
  std::string line;
  while (std::getline(in, line)) {
    // key \t variant \t wx \t wy \t packet \t kernel_ms
    std::istringstream f(line);
    std::string k, name;
    Choice c;
    if (!std::getline(f, k, '\t') || !std::getline(f, name, '\t')) continue;
    double kernelMs = 0;
    if (!(f >> c.workgroup.x >> c.workgroup.y >> c.packet >> kernelMs)) continue;
    const VariantInfo* v = findVariant(name);
    if (!v || v->id == VariantId::Auto) continue;  // a file from another version: race again
    c.variant = v->id;
    if (std::string race; f.get() == '\t' && std::getline(f, race)) c.report = decodeReport(race);
    choices_[k] = c;
  }
}

void AutoTuner::append(const std::string& k, const FilterParams& choice, double kernelMs, const RaceReport& report) {
  if (path_.empty()) return;
  makeParentDirs(path_);
  std::ofstream out(path_, std::ios::app);
  if (out)  // a cache that cannot be written only means racing again next time
    out << k << '\t' << variantInfo(choice.variant).name << '\t' << choice.workgroup.x << '\t' << choice.workgroup.y
        << '\t' << choice.packet << '\t' << kernelMs << '\t' << encodeReport(report) << '\n';
}

std::optional<FilterParams> AutoTuner::lookup(const DeviceInfo& device, const FilterParams& params, PixelFormat format,
                                              int width, int height) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  const std::string k = key(device, params, format, width, height);
  const auto it = choices_.find(k);
  if (it == choices_.end()) return std::nullopt;
  // An answer for other parameters than the last (asked for every frame):
  // the race behind it becomes the one to show. A later race (B) stays shown
  // until the parameters change.
  if (k != answeredKey_) {
    answeredKey_ = k;
    if (it->second.report) lastReport_ = it->second.report;
  }
  FilterParams p = params;
  p.variant = it->second.variant;
  p.workgroup = it->second.workgroup;
  p.packet = it->second.packet;
  return p;
}

FilterParams AutoTuner::provisional(const FilterParams& params, DeviceKind device) {
  FilterParams p = params;
  p.workgroup = {};
  p.packet = 0;
  p.variant = provisionalVariant(params.mask.width, params.mask.height, factorSeparable(params.mask, nullptr),
                                 device == DeviceKind::GPU);
  return p;
}

FilterParams AutoTuner::resolve(const std::shared_ptr<DeviceContext>& shared, const std::shared_ptr<ProgramCache>& cache,
                                const FilterParams& params, PixelFormat format, int width, int height,
                                const std::function<bool()>& interrupted) {
  if (std::optional<FilterParams> known = lookup(shared->info, params, format, width, height)) return *known;
  const RaceReport report = race(shared, cache, params, format, width, height, interrupted, "auto");
  if (report.chosen < 0) throw UnsupportedError("No kernel variant can run this mask on " + shared->info.name + ".");
  const RaceEntry& best = report.entries[static_cast<size_t>(report.chosen)];
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string k = key(shared->info, params, format, width, height);
  choices_[k] = Choice{best.params.variant, best.params.workgroup, best.params.packet,
                       std::make_shared<const RaceReport>(report)};
  answeredKey_ = k;  // the race just run is the one shown
  append(k, best.params, best.kernelMs, report);
  return best.params;
}

namespace {

// The report's head: what is raced, where, why and when.
RaceReport reportFor(const DeviceInfo& device, const FilterParams& params, PixelFormat format, int width, int height,
                     const std::string& trigger) {
  RaceReport report;
  report.trigger = trigger;
  report.racedAt = utcNow();
  report.device = device.name;
  report.format = format;
  report.mask = describe(params.mask);
  report.border = params.border;
  report.fma = fmaLimit(device);
  report.maskWidth = params.mask.width;
  report.maskHeight = params.mask.height;
  report.channels = channelCount(format);
  report.filterAlpha = params.alpha == AlphaMode::Filter;
  report.width = width;
  report.height = height;
  const auto [raceWidth, raceHeight] = AutoTuner::raceSample(width, height);
  report.sampleWidth = raceWidth;
  report.sampleHeight = raceHeight;
  return report;
}

// What every candidate is run on: a small odd-sized frame and its reference
// result (correctness), and a frame of the sample's size on the device (time).
struct RaceFrames {
  RaceFrames(DeviceContext& device, const FilterParams& params, PixelFormat format, const RaceReport& report)
      : small(randomImage(53, 37, format, 7)),
        want(small.width(), small.height(), format),
        got(small.width(), small.height(), format),
        tolerance(params.mask.toleranceLsb(maxSampleValue(format))),
        src(allocateDeviceImage(device.context, report.sampleWidth, report.sampleHeight, format, CL_MEM_READ_ONLY)),
        dst(allocateDeviceImage(device.context, report.sampleWidth, report.sampleHeight, format, CL_MEM_WRITE_ONLY)),
        tightPitch(static_cast<std::size_t>(report.width) * bytesPerPixel(format)) {
    convolveReference(small.view(), want.view(), params.mask, params.border, params.alpha);
    const Image frame = randomImage(report.sampleWidth, report.sampleHeight, format, 11);
    device.queue.enqueueWriteBuffer(src.buffer, CL_TRUE, 0, frame.sizeBytes(), frame.data());
  }
  const Image small;
  Image want, got;
  const int tolerance;
  DeviceImage src, dst;
  const std::size_t tightPitch;  // the pipeline's rows, tightly packed
};

[[noreturn]] void raceInterrupted() {
  throw Cancelled("The measurement of auto's candidates was interrupted.");
}

// A candidate built, checked against the reference and warmed up: its
// convolver where it is ready to be timed ("ok"), else null and the reason.
std::unique_ptr<Convolver> prepare(const std::shared_ptr<DeviceContext>& device,
                                   const std::shared_ptr<ProgramCache>& cache, RaceFrames& frames,
                                   const RaceReport& report, const std::function<bool()>& stopRequested,
                                   RaceEntry* entry) {
  const PixelFormat format = report.format;
  std::unique_ptr<Convolver> conv;
  try {
    conv = std::make_unique<Convolver>(device, cache, nullptr);
    conv->setParams(entry->params);
    conv->process(frames.small.view(), frames.got.view());
    if (auto mm = compareImages(frames.got.view(), frames.want.view(), frames.tolerance)) {
      entry->outcome = "wrong result: " + mm->toString();
    } else if (conv->devicePitchBytes(format, report.width, report.height) != frames.tightPitch) {
      entry->outcome = "skipped: needs padded rows";  // the pipeline's buffers are tightly packed
    } else {
      for (int r = 0; r < kWarmupRuns && !stopRequested(); ++r) {
        cl::Event done;
        conv->enqueue(frames.src, frames.dst, nullptr, &done, nullptr);
        done.wait();
      }
      entry->outcome = "ok";
      entry->params.workgroup = conv->activeKernel(format, report.width, report.height).workgroup;  // what ran
    }
  } catch (const Error& e) {
    entry->outcome = std::string("unavailable: ") + e.what();
  } catch (const cl::Error& e) {
    entry->outcome = std::string("unavailable: ") + e.what();
  }
  if (entry->outcome != "ok") conv.reset();
  return conv;
}

// Timed in turns, one run each a round, so that a load that comes and goes (a
// window playing, another program) falls on all of them alike instead of on
// whichever was being timed then. Each keeps its fastest run: what a load adds
// to a run is never negative, so the fastest is the nearest to what the kernel
// itself takes. (Timed one candidate after another, five runs each, while a
// window played on a 2-core machine with a core busy, the medians of one
// kernel's packets varied 2-3x.) A candidate that fails leaves the race.
void timeInTurns(std::vector<std::unique_ptr<Convolver>>& timed, RaceFrames& frames, RaceReport& report,
                 const std::function<bool()>& stopRequested) {
  for (int round = 0; round < kTimedRuns; ++round) {
    for (std::size_t c = 0; c < timed.size(); ++c) {
      if (!timed[c]) continue;
      if (stopRequested()) raceInterrupted();
      try {
        cl::Event first, done;
        timed[c]->enqueue(frames.src, frames.dst, nullptr, &done, &first);
        done.wait();
        report.entries[c].runMs.push_back(eventSpanMs(first, done));
        report.entries[c].runOrder.push_back(++report.timedRuns);
      } catch (const Error& e) {
        report.entries[c].outcome = std::string("unavailable: ") + e.what();
        timed[c].reset();
      } catch (const cl::Error& e) {
        report.entries[c].outcome = std::string("unavailable: ") + e.what();
        timed[c].reset();
      }
    }
  }
}

// Each timed candidate's fastest run; the fastest of them chosen.
void chooseTheFastest(const std::vector<std::unique_ptr<Convolver>>& timed, RaceReport& report) {
  double bestMs = 0;
  for (std::size_t c = 0; c < timed.size(); ++c) {
    if (!timed[c]) continue;
    RaceEntry& entry = report.entries[c];
    entry.kernelMs = fastest(entry.runMs);
    if (report.chosen < 0 || entry.kernelMs < bestMs) {
      report.chosen = static_cast<int>(c);
      bestMs = entry.kernelMs;
    }
  }
}

}  // namespace

double AutoTuner::copyBandwidthOf(DeviceContext& device, const std::string& fingerprint) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto known = copyBandwidth_.find(fingerprint);
  if (known != copyBandwidth_.end()) return known->second;
  lock.unlock();
  const double measured = copyBandwidth(device, kTimedRuns);  // without the lock: lookup() answers meanwhile
  lock.lock();
  copyBandwidth_[fingerprint] = measured;
  return measured;
}

RaceReport AutoTuner::race(const std::shared_ptr<DeviceContext>& shared, const std::shared_ptr<ProgramCache>& cache,
                           const FilterParams& params, PixelFormat format, int width, int height,
                           const std::function<bool()>& interrupted, const std::string& trigger) {
  const std::function<bool()> stopRequested = [&] { return this->stopRequested() || (interrupted && interrupted()); };
  // The race's own command queue: the stream on the device's queue goes on beside it.
  auto device = std::make_shared<DeviceContext>(*shared);
  device->queue = cl::CommandQueue(shared->context, shared->info.device, CL_QUEUE_PROFILING_ENABLE);
  // The race, without the lock (lookup() answers other threads meanwhile):
  // correctness on a small odd-sized frame first, then the fastest kernel time
  // on a frame of the real size, beside the device's copy bandwidth.
  RaceReport report = reportFor(shared->info, params, format, width, height, trigger);
  RaceFrames frames(*device, params, format, report);
  report.copyBytesPerSecond = copyBandwidthOf(*device, shared->info.fingerprint());
  // Auto races the variants written for this kind of device; a comparison
  // (B) asked for every variant the device can run, and gets them all.
  const bool everyVariant = trigger == "compare";
  std::vector<std::unique_ptr<Convolver>> timed;
  for (const FilterParams& candidate : candidates(params, device->info.kind == DeviceKind::GPU, everyVariant)) {
    if (stopRequested()) raceInterrupted();
    RaceEntry entry;
    entry.params = candidate;
    timed.push_back(prepare(device, cache, frames, report, stopRequested, &entry));
    report.entries.push_back(entry);
  }
  timeInTurns(timed, frames, report, stopRequested);
  chooseTheFastest(timed, report);
  if (stopRequested()) raceInterrupted();
  std::lock_guard<std::mutex> lock(mutex_);
  ++races_;
  report.number = static_cast<std::uint64_t>(races_);
  lastRaceThread_ = currentThreadName();
  lastReport_ = std::make_shared<const RaceReport>(report);
  return report;
}

double RaceReport::megapixelsPerSecond(const RaceEntry& e) const {
  return e.kernelMs > 0 ? double(sampleWidth) * sampleHeight / (e.kernelMs * 1000.0) : 0;
}

double RaceReport::copyShare(const RaceEntry& e) const {
  if (copyBytesPerSecond <= 0) return 0;
  return megapixelsPerSecond(e) * 1e6 * 2.0 * bytesPerPixel(format) / copyBytesPerSecond;
}

double RaceReport::fmaShare(const RaceEntry& e) const {
  if (e.kernelMs <= 0 || fma.fmaPerSecond <= 0) return 0;
  const VariantInfo& v = variantInfo(e.params.variant);
  const double fmas = fmasPerOutput(v, maskWidth, maskHeight) * channelsComputed(v, channels, filterAlpha);
  return megapixelsPerSecond(e) * 1e6 * fmas / fma.fmaPerSecond;
}

std::shared_ptr<const RaceReport> AutoTuner::lastReport() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lastReport_;
}

void AutoTuner::setStopRequest(std::function<bool()> stop) {
  std::lock_guard<std::mutex> lock(mutex_);
  stop_ = std::move(stop);
}

bool AutoTuner::stopRequested() const {
  std::function<bool()> stop;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop = stop_;
  }
  return stop && stop();
}

std::vector<RaceEntry> AutoTuner::lastRace() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lastReport_ ? lastReport_->entries : std::vector<RaceEntry>{};
}

std::string AutoTuner::lastRaceThread() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lastRaceThread_;
}

int AutoTuner::racesRun() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return races_;
}

}  // namespace liveconv
