#include "liveconv/autotune.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/stat.h>

#include "liveconv/compare.hpp"
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

Image randomImage(int w, int h, PixelFormat f, unsigned seed) {
  Image img(w, h, f);
  std::mt19937 rng(seed);
  for (std::size_t k = 0; k < img.sizeBytes(); ++k) img.data()[k] = static_cast<std::uint8_t>(rng() >> 24);
  return img;
}

}  // namespace

AutoTuner::AutoTuner(std::string cachePath) : path_(std::move(cachePath)) {}

// The candidates of a race: every kernel variant that can take this mask, in
// the shapes and packets its race plan names (variants.cpp).
std::vector<FilterParams> AutoTuner::candidates(const FilterParams& base, bool gpu) {
  std::vector<FilterParams> out;
  const bool separable = factorSeparable(base.mask, nullptr);
  for (const VariantInfo& v : variantRegistry()) {
    if (v.needsSeparableMask && !separable) continue;
    const RacePlan plan = racePlan(v, gpu);
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
    if (!(f >> c.workgroup.x >> c.workgroup.y >> c.packet)) continue;
    const VariantInfo* v = findVariant(name);
    if (!v || v->id == VariantId::Auto) continue;  // a file from another version: race again
    c.variant = v->id;
    choices_[k] = c;
  }
}

void AutoTuner::append(const std::string& k, const FilterParams& choice, double kernelMs) {
  if (path_.empty()) return;
  makeParentDirs(path_);
  std::ofstream out(path_, std::ios::app);
  if (out)  // a cache that cannot be written only means racing again next time
    out << k << '\t' << variantInfo(choice.variant).name << '\t' << choice.workgroup.x << '\t' << choice.workgroup.y
        << '\t' << choice.packet << '\t' << kernelMs << '\n';
}

std::optional<FilterParams> AutoTuner::lookup(const DeviceInfo& device, const FilterParams& params, PixelFormat format,
                                              int width, int height) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  const auto it = choices_.find(key(device, params, format, width, height));
  if (it == choices_.end()) return std::nullopt;
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
  choices_[k] = Choice{best.params.variant, best.params.workgroup, best.params.packet};
  append(k, best.params, best.kernelMs);
  return best.params;
}

RaceReport AutoTuner::race(const std::shared_ptr<DeviceContext>& shared, const std::shared_ptr<ProgramCache>& cache,
                           const FilterParams& params, PixelFormat format, int width, int height,
                           const std::function<bool()>& interrupted, const std::string& trigger) {
  const auto stopRequested = [&] { return this->stopRequested() || (interrupted && interrupted()); };
  // The race's own command queue: the stream on the device's queue goes on beside it.
  auto device = std::make_shared<DeviceContext>(*shared);
  device->queue = cl::CommandQueue(shared->context, shared->info.device, CL_QUEUE_PROFILING_ENABLE);

  // The race, without the lock (lookup() answers other threads meanwhile):
  // correctness on a small odd-sized frame first, then the fastest kernel time
  // on a frame of the real size.
  RaceReport report;
  report.trigger = trigger;
  report.device = shared->info.name;
  report.format = format;
  report.mask = describe(params.mask);
  report.border = params.border;
  report.fma = fmaLimit(shared->info);
  report.maskWidth = params.mask.width;
  report.maskHeight = params.mask.height;
  report.channels = bytesPerPixel(format);  // as bench counts them
  report.width = width;
  report.height = height;
  const Image small = randomImage(53, 37, format, 7);
  Image want(small.width(), small.height(), format), got(small.width(), small.height(), format);
  convolveReference(small.view(), want.view(), params.mask, params.border, params.alpha);
  const int tolerance = params.mask.isIntegerValued() ? 0 : 1;
  const auto [raceWidth, raceHeight] = raceSample(width, height);
  report.sampleWidth = raceWidth;
  report.sampleHeight = raceHeight;
  const Image frame = randomImage(raceWidth, raceHeight, format, 11);
  DeviceImage src = allocateDeviceImage(device->context, raceWidth, raceHeight, format, CL_MEM_READ_ONLY);
  DeviceImage dst = allocateDeviceImage(device->context, raceWidth, raceHeight, format, CL_MEM_WRITE_ONLY);
  device->queue.enqueueWriteBuffer(src.buffer, CL_TRUE, 0, frame.sizeBytes(), frame.data());
  const std::size_t tightPitch = static_cast<std::size_t>(width) * bytesPerPixel(format);  // the pipeline's rows
  {  // the reference point, on the race's queue, once per device
    std::unique_lock<std::mutex> lock(mutex_);
    const auto known = copyBandwidth_.find(shared->info.fingerprint());
    report.copyBytesPerSecond = known != copyBandwidth_.end() ? known->second : 0;
    lock.unlock();
    if (report.copyBytesPerSecond <= 0) {
      report.copyBytesPerSecond = copyBandwidth(*device, kTimedRuns);
      lock.lock();
      copyBandwidth_[shared->info.fingerprint()] = report.copyBytesPerSecond;
    }
  }
  // Each candidate is built, checked and warmed up first; then they are timed
  // in turns, one run each a round, so that a load that comes and goes (a
  // window playing, another program) falls on all of them alike instead of
  // on whichever was being timed then. Each keeps its fastest run: what a
  // load adds to a run is never negative, so the fastest is the nearest to
  // what the kernel itself takes. (Timed one candidate after another, five
  // runs each, while a window played on the 2-core machine with a core busy,
  // the medians of one kernel's packets varied 2-3x: 10.6, 25.3 and 29.2 ms.)
  std::vector<std::unique_ptr<Convolver>> timed;
  for (const FilterParams& candidate : candidates(params, device->info.kind == DeviceKind::GPU)) {
    if (stopRequested()) throw Cancelled("The measurement of auto's candidates was interrupted.");
    RaceEntry entry;
    entry.params = candidate;
    std::unique_ptr<Convolver> conv;
    try {
      conv = std::make_unique<Convolver>(device, cache, nullptr);
      conv->setParams(candidate);
      conv->process(small.view(), got.view());
      if (auto mm = compareImages(got.view(), want.view(), tolerance)) {
        entry.outcome = "wrong result: " + mm->toString();
      } else if (conv->devicePitchBytes(format, width, height) != tightPitch) {
        entry.outcome = "skipped: needs padded rows";  // the pipeline's buffers are tightly packed
      } else {
        for (int r = 0; r < kWarmupRuns && !stopRequested(); ++r) {
          cl::Event done;
          conv->enqueue(src, dst, nullptr, &done, nullptr);
          done.wait();
        }
        entry.outcome = "ok";
        const ActiveKernel a = conv->activeKernel(format, width, height);
        entry.params.workgroup = a.workgroup;  // record what actually ran
        entry.params.packet = candidate.packet;
      }
    } catch (const Error& e) {
      entry.outcome = std::string("unavailable: ") + e.what();
    } catch (const cl::Error& e) {
      entry.outcome = std::string("unavailable: ") + e.what();
    }
    if (entry.outcome != "ok") conv.reset();
    report.entries.push_back(entry);
    timed.push_back(std::move(conv));
  }
  for (int round = 0; round < kTimedRuns; ++round) {
    for (std::size_t c = 0; c < timed.size(); ++c) {
      if (!timed[c]) continue;
      if (stopRequested()) throw Cancelled("The measurement of auto's candidates was interrupted.");
      try {
        cl::Event first, done;
        timed[c]->enqueue(src, dst, nullptr, &done, &first);
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
  if (stopRequested()) throw Cancelled("The measurement of auto's candidates was interrupted.");
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
  return megapixelsPerSecond(e) * 1e6 * 2.0 * channels / copyBytesPerSecond;
}

double RaceReport::fmaShare(const RaceEntry& e) const {
  if (e.kernelMs <= 0 || fma.fmaPerSecond <= 0) return 0;
  const double fmas = fmasPerOutput(variantInfo(e.params.variant), maskWidth, maskHeight) * channels;
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
