#include "liveconv/kernel_builder.hpp"

#include <algorithm>
#include <chrono>

#include "liveconv/autotune.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/thread_name.hpp"
#include "liveconv/variants.hpp"

namespace liveconv {

KernelBuilder::KernelBuilder(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache,
                             std::shared_ptr<AutoTuner> tuner)
    : device_(std::move(device)),
      cache_(std::move(cache)),
      tuner_(std::move(tuner)),
      queue_(device_->context, device_->info.device) {
  thread_ = std::thread([this] { loop(); });
}

KernelBuilder::~KernelBuilder() {
  stop();
  if (thread_.joinable()) thread_.join();
}

void KernelBuilder::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  stop_ = true;
  changed_.notify_all();
}

bool KernelBuilder::stopped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_;
}

void KernelBuilder::request(std::uint64_t generation, const FilterParams& params, PixelFormat format, int width,
                            int height, bool raceOnly, std::uint64_t tag) {
  Job job{generation, params, format, width, height, raceOnly ? Stage::Race : Stage::Set, tag};
  if (!raceOnly) {
    std::lock_guard<std::mutex> lock(mutex_);
    // In a window, a variant that compiles each mask is served by a stopgap
    // while it compiles, where the picture changes: a new mask, border, alpha
    // or format. A switch of variant alone keeps what runs until the new one
    // is built (the picture is the same either way).
    job.stopgap = idleWork_ && params.variant != VariantId::Auto && servedByStopgap(params.variant) &&
                  (!lastSet_ || changesPicture(*lastSet_, job));
    lastSet_ = job;
  }
  // A kernel whose program is built already (the set's own, or the stopgap
  // that serves it) is handed over here, in the caller's thread: no compile,
  // and no wait for a compile or a race the builder's thread is in the middle of.
  const bool isAuto = params.variant == VariantId::Auto;
  std::unique_ptr<Convolver> ready = !raceOnly && (!isAuto || stopgapServes(job)) ? cachedKernel(job) : nullptr;
  const bool onStopgap = ready && ready->lastRun().stopgap;
  std::lock_guard<std::mutex> lock(mutex_);
  // A race for the set that runs never displaces a newer set on its way (that
  // one is built for the current size anyway).
  if (raceOnly && requested_ && requested_->stage != Stage::OtherFormats && requested_->generation >= generation) return;
  if (ready && generation > finished_) {
    built_ = std::move(ready);
    builtGeneration_ = generation;
    builtTag_ = tag;
    builtFormat_ = format;
    error_.clear();
    buildLog_.clear();
    finished_ = generation;
    // A set served by its stopgap goes on with its own kernel (for `auto`, its
    // provisional kernel and race) once the edits settle; a set on its own
    // kernel is done. A builder with idle work turns to the set's other format
    // first (done at once where that is built already).
    resumeAfterIdle_.reset();  // a set that waited for the idle work is replaced
    if (onStopgap) {
      Job own = job;
      own.stage = Stage::Provisional;
      own.notBefore = std::chrono::steady_clock::now() + settle_;
      lastRequest_ = std::chrono::steady_clock::now();
      if (idleWork_)
        resumeAfterIdle_.emplace(std::move(own));
      else
        requested_.emplace(std::move(own));
    }
    if (idleWork_) {
      Job other = job;
      other.stage = Stage::OtherFormats;
      requested_.emplace(std::move(other));
    } else if (!onStopgap && requested_ && requested_->generation < generation) {
      requested_.reset();  // older, and replaced
    }
    changed_.notify_all();
    return;
  }
  lastRequest_ = std::chrono::steady_clock::now();
  requested_ = job;
  resumeAfterIdle_.reset();  // the set that waited for the idle work is replaced
  changed_.notify_all();
}

std::unique_ptr<Convolver> KernelBuilder::first(std::uint64_t generation, const FilterParams& params,
                                                PixelFormat format, int width, int height, std::uint64_t tag) {
  request(generation, params, format, width, height, false, tag);
  while (!wait(generation, 100)) {
    if (failed(generation)) {
      std::lock_guard<std::mutex> lock(mutex_);
      // The engine's own kind of error, so a window exits as `liveconv run` would.
      if (unsupported_) throw UnsupportedError(error_);
      throw BuildError(error_, buildLog_);
    }
    if (stopped()) throw Cancelled("The kernel builder stopped before the first kernel was built.");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!built_ || builtGeneration_ != generation) throw Cancelled("A newer set replaced the first one.");
  takenGeneration_ = builtGeneration_;
  return std::move(built_);
}

void KernelBuilder::setIdleWork(bool on) {
  std::lock_guard<std::mutex> lock(mutex_);
  idleWork_ = on;
}

void KernelBuilder::setBackgroundAfterFirst(int nice) {
  std::lock_guard<std::mutex> lock(mutex_);
  backgroundNice_ = nice;
}

int KernelBuilder::builderNice() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return builderNice_;
}

void KernelBuilder::setSettleTime(std::chrono::milliseconds settle) {
  std::lock_guard<std::mutex> lock(mutex_);
  settle_ = settle;
}

void KernelBuilder::setFirstLaunchElsewhere(FirstLaunchElsewhere elsewhere) {
  std::lock_guard<std::mutex> lock(mutex_);
  elsewhere_ = std::move(elsewhere);
}

void KernelBuilder::launchCandidatesElsewhere(const Job& job) {
  if (device_->info.kind == DeviceKind::GPU) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!elsewhere_) return;
  }
  const auto interrupted = [this, generation = job.generation] {
    std::lock_guard<std::mutex> lock(mutex_);
    return stop_ || requested_.has_value() || finished_ > generation;  // as the race itself
  };
  std::vector<std::unique_ptr<Convolver>> built;
  for (const FilterParams& candidate : AutoTuner::candidates(job.params, false)) {
    if (interrupted()) throw Cancelled("The race was interrupted before it started.");
    Job set = job;
    set.params = candidate;
    set.stage = Stage::Set;
    if (std::unique_ptr<Convolver> c = idleKernel(set)) built.push_back(std::move(c));  // else the race says why
  }
  launchOnce(built, false, interrupted);
  if (interrupted()) throw Cancelled("The race was interrupted before it started.");
}

void KernelBuilder::firstLaunch(const std::vector<Convolver*>& cs, bool here, const std::function<bool()>& abandon) {
  std::vector<Convolver::PreparedSet> all;  // read from the driver: outside the lock request() takes
  for (const Convolver* c : cs)
    for (Convolver::PreparedSet& set : c->preparedSets()) all.push_back(std::move(set));
  std::vector<Convolver::PreparedSet> sets;
  std::vector<std::string> keys;
  FirstLaunchElsewhere elsewhere;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Convolver::PreparedSet& set : all) {
      std::string key = set.launchKey();
      if (launched_.count(key) || std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      keys.push_back(std::move(key));
      sets.push_back(std::move(set));
    }
    if (sets.empty()) return;
    elsewhere = elsewhere_;
  }
  const bool gpu = device_->info.kind == DeviceKind::GPU;
  bool ran = false;
  if (!gpu && elsewhere) {
    // Not abandoned for a request unless the caller says (a race would be):
    // one that needs no compile is handed over in request(), and idle work
    // killed at each edit would never finish.
    const auto stop = [&] { return stopped() || (abandon && abandon()); };
    ran = elsewhere(device_->info, sets, stop);
    if (!ran && stop()) return;
  }
  if (!ran && (here || gpu)) {
    for (Convolver* c : cs) c->runOnce(queue_);
    ran = true;
  }
  if (!ran) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (launched_.size() > 4096) launched_.clear();  // a long session of baked masks: forget, launch again
  launched_.insert(keys.begin(), keys.end());
}

std::unique_ptr<Convolver> KernelBuilder::cachedKernel(const Job& job) {
  try {
    auto c = std::make_unique<Convolver>(device_, cache_, tuner_);
    c->setParams(job.params);
    const VariantId stopgap = stopgapVariant(device_->info.kind == DeviceKind::GPU);
    bool ready = job.params.variant != VariantId::Auto && c->prepareIfCached(job.format);
    if (!ready && (job.params.variant == VariantId::Auto || job.stopgap)) {
      c = std::make_unique<Convolver>(device_, cache_, tuner_);
      c->setParams(job.params);
      ready = c->prepareStopgap(job.format, stopgap, true);
    }
    if (!ready) return nullptr;
    c->setBuildPolicy(BuildPolicy::FramePath);
    return c;
  } catch (const std::exception&) {
    return nullptr;  // the builder's thread builds it and reports what is wrong
  }
}

std::unique_ptr<Convolver> KernelBuilder::take(std::uint64_t* generation, std::uint64_t* tag, PixelFormat* format) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!built_) return nullptr;
  *generation = takenGeneration_ = builtGeneration_;
  if (tag) *tag = builtTag_;
  if (format) *format = builtFormat_;
  return std::move(built_);
}

bool KernelBuilder::wait(std::uint64_t generation, int timeoutMs) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return finished_ >= generation || stop_; });
  return finished_ >= generation && failed_ != generation;
}

bool KernelBuilder::failed(std::uint64_t generation) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failed_ == generation;
}

std::string KernelBuilder::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

std::string KernelBuilder::buildLog() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return buildLog_;
}

std::uint64_t KernelBuilder::finished() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_;
}

bool KernelBuilder::hasBuilt() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return built_ != nullptr;
}

bool KernelBuilder::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requested_.has_value() || building_;
}

void KernelBuilder::loop() {
  setThreadName("lc-build");
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      for (;;) {  // a request, once it has settled (a newer one replaces it and settles anew)
        changed_.wait(lock, [&] { return stop_ || requested_; });
        if (stop_) return;
        const auto due = requested_->notBefore;
        if (due <= std::chrono::steady_clock::now()) break;
        changed_.wait_until(lock, due, [&] { return stop_ || !requested_ || requested_->notBefore != due; });
      }
      job = *requested_;
      requested_.reset();
      building_ = true;
    }
    Outcome outcome = build(job);
    std::unique_lock<std::mutex> lock(mutex_);
    finish(job, std::move(outcome));
    if (backgroundNice_ > 0 && !lowered_) {  // the first set is done: what follows waits for the stream
      lowered_ = true;
      const int nice = backgroundNice_;
      lock.unlock();
      if (currentThreadNice() < nice) setCurrentThreadNice(nice);  // never raised: a nicer process stays so
      const int now = currentThreadNice();
      lock.lock();
      builderNice_ = now;
    }
  }
}

int KernelBuilder::stopgapKey(const Job& job) {
  return static_cast<int>(job.format) * 64 + static_cast<int>(job.params.border) * 4 +
         static_cast<int>(job.params.alpha);
}

bool KernelBuilder::changesPicture(const Job& before, const Job& now) {
  return !(before.params.mask == now.params.mask) || before.params.border != now.params.border ||
         before.params.alpha != now.params.alpha || before.format != now.format;
}

bool KernelBuilder::stopgapServes(const Job& job) const {
  const DeviceInfo& d = device_->info;
  std::lock_guard<std::mutex> lock(mutex_);
  return job.stage == Stage::Set && (job.params.variant == VariantId::Auto || job.stopgap) &&
         !stopgapsFailed_.count(stopgapKey(job)) &&
         stopgapAffordable(job.width, job.height, job.params.mask.width, job.params.mask.height,
                           channelCount(job.format), d.kind == DeviceKind::GPU, d.computeUnits);
}

KernelBuilder::Outcome KernelBuilder::build(const Job& job) {
  Outcome out;
  if (job.stage == Stage::OtherFormats) {
    buildOtherFormats(job);
    // Then the other variants: while an edit settles, until the set's next
    // step is due; once the set has nothing left to build, all of them.
    auto until = std::chrono::steady_clock::time_point::max();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (resumeAfterIdle_) until = resumeAfterIdle_->notBefore;
    }
    buildOtherVariants(job, until);
    return out;
  }
  auto followedBy = [&](Stage stage) {
    out.next = job;
    out.next->stage = stage;
  };
  const bool gpu = device_->info.kind == DeviceKind::GPU;
  try {
    auto next = std::make_unique<Convolver>(device_, cache_, tuner_);
    // A newer request (or stop) ends a race in flight: its answer would be thrown away.
    next->setInterrupt([this, generation = job.generation] {
      std::lock_guard<std::mutex> lock(mutex_);
      return stop_ || requested_.has_value() || finished_ > generation;  // or a newer set was handed over
    });
    next->setParams(job.params);
    if (stopgapServes(job) && prepareStopgap(*next, job, gpu)) {
      // At once (no compile after the first): the stopgap serves while the set's own kernel is built.
      followedBy(Stage::Provisional);
    } else if (job.stage != Stage::Race && next->awaitsRace(job.format, job.width, job.height)) {
      // The provisional kernel (rules, one compile); the race for the frame size follows.
      next->prepare(job.format);
      followedBy(Stage::Race);
    } else {
      if (next->awaitsRace(job.format, job.width, job.height)) launchCandidatesElsewhere(job);
      next->prepare(job.format, job.width, job.height);
    }
    firstLaunch({next.get()}, true);  // a first launch's code generation happens here, not on the frame path
    next->setBuildPolicy(BuildPolicy::FramePath);
    next->setInterrupt({});
    out.convolver = std::move(next);
  } catch (const Cancelled&) {
    out.interrupted = true;
  } catch (const BuildError& e) {
    out.error = e.what();
    out.log = e.buildLog();
  } catch (const UnsupportedError& e) {
    out.error = e.what();
    out.unsupported = true;
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

void KernelBuilder::buildOtherFormats(const Job& job) {
  const bool isAuto = job.params.variant == VariantId::Auto;
  // A variant that compiles each mask: the stopgap that serves it, as `auto`'s.
  const bool byStopgap = !isAuto && servedByStopgap(job.params.variant);
  std::vector<std::unique_ptr<Convolver>> built;
  // The channels the window switches between, at the depth that streams (16 bits for a deep source).
  const int bits = sampleBits(job.format) ? sampleBits(job.format) : 8;
  for (const PixelFormat format :
       {withSampleBits(PixelFormat::RGBA8, bits), withSampleBits(PixelFormat::GRAY8, bits)}) {
    if (format == job.format && !isAuto && !byStopgap) continue;  // `auto`: its stopgap in this format too
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_ || requested_) return;  // a request goes first
    }
    Job other = job;
    other.format = format;
    other.stage = Stage::Set;
    if (byStopgap) {
      other.params.variant = stopgapVariant(device_->info.kind == DeviceKind::GPU);
      other.params.workgroup = {};
      other.params.packet = 0;
    }
    if (std::unique_ptr<Convolver> c = idleKernel(other)) built.push_back(std::move(c));
  }
  launchOnce(built, true);
}

void KernelBuilder::buildOtherVariants(const Job& job, std::chrono::steady_clock::time_point until) {
  const bool gpu = device_->info.kind == DeviceKind::GPU;
  std::vector<std::unique_ptr<Convolver>> built;
  for (const VariantInfo& v : variantRegistry()) {
    if (v.id == VariantId::Auto || v.id == job.params.variant || v.binding != MaskBinding::Runtime ||
        (v.cpuOnly && gpu) || !variantAvailable(v))
      continue;  // one program per mask, or not for this device
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_ || requested_) break;  // a request goes first
    }
    if (std::chrono::steady_clock::now() >= until) break;  // and the set's own next step
    Job next = job;  // the set as a switch to `v` asks for it
    next.params.variant = v.id;
    next.stage = Stage::Set;
    if (std::unique_ptr<Convolver> c = idleKernel(next)) built.push_back(std::move(c));
  }
  // Their first launches, all compiled first (a switch to one is then a
  // hand-over): on a GPU, or in a helper. Not here on PoCL: it generates a
  // kernel's code at its first launch and runs nothing else meanwhile, and a
  // stream playing beside would stall for each variant nobody may ask for;
  // the first frame after a switch pays that instead.
  launchOnce(built, false);
}

std::unique_ptr<Convolver> KernelBuilder::idleKernel(const Job& job) {
  Job set = job;  // the set's own program (for `auto`, its stopgap's), never one standing in for it
  set.stopgap = false;
  if (std::unique_ptr<Convolver> c = cachedKernel(set)) return c;  // built already (launched too, perhaps)
  try {
    auto c = std::make_unique<Convolver>(device_, cache_, tuner_);
    c->setParams(set.params);
    if (set.params.variant != VariantId::Auto)
      c->prepare(set.format);
    else if (!prepareStopgap(*c, set, device_->info.kind == DeviceKind::GPU))
      return nullptr;
    return c;
  } catch (const std::exception&) {
    return nullptr;  // a real request for this set says what is wrong
  }
}

void KernelBuilder::launchOnce(const std::vector<std::unique_ptr<Convolver>>& built, bool here,
                               const std::function<bool()>& abandon) {
  std::vector<Convolver*> cs;
  for (const auto& c : built) cs.push_back(c.get());
  if (cs.empty()) return;
  try {
    firstLaunch(cs, here, abandon);
  } catch (const std::exception&) {
    // A real request for one of them says what is wrong.
  }
}

// False when the stopgap cannot be built here (not asked again for this
// format, border and alpha): the set goes on without it.
bool KernelBuilder::prepareStopgap(Convolver& next, const Job& job, bool gpu) {
  next.checkDeviceFit(job.format);  // the set's own failure (UnsupportedError), not the stopgap's
  try {
    next.prepareStopgap(job.format, stopgapVariant(gpu));
    return true;
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception&) {
    std::lock_guard<std::mutex> lock(mutex_);
    stopgapsFailed_.insert(stopgapKey(job));
    return false;
  }
}

void KernelBuilder::finish(const Job& job, Outcome out) {
  building_ = false;
  if (job.stage == Stage::OtherFormats) {
    // A newer set handed over meanwhile queued idle work of its own, with its
    // own step behind it: that step waits for that idle work, not this one.
    if (requested_ && requested_->stage == Stage::OtherFormats) return;
    // Back to the steps of the set that was interrupted for it, unless a newer request came.
    if (!requested_ && resumeAfterIdle_) requested_ = resumeAfterIdle_;
    resumeAfterIdle_.reset();
    changed_.notify_all();
    return;
  }
  if (out.interrupted) return;
  const bool ok = out.error.empty();
  if (job.stage != Stage::Set) {
    // A later step for a set already handed over; dropped once a newer set
    // was taken. One of `auto`'s that failed leaves what runs running (every
    // step is right); the kernel of a concrete variant its stopgap served is
    // the one asked for, and its failure is the set's (failed(), error()).
    if (ok && job.generation >= takenGeneration_ && (!built_ || builtGeneration_ <= job.generation)) {
      built_ = std::move(out.convolver);
      builtGeneration_ = job.generation;
      builtTag_ = job.tag;
      builtFormat_ = job.format;
    } else if (!ok && job.params.variant != VariantId::Auto && job.generation == finished_) {
      failed_ = job.generation;
      error_ = out.error;
      buildLog_ = out.log;
      unsupported_ = out.unsupported;
    }
  } else if (job.generation < finished_) {
    // A newer set was handed over meanwhile (its stopgap, at once): this one is done with.
  } else if (ok) {
    built_ = std::move(out.convolver);
    builtGeneration_ = job.generation;
    builtTag_ = job.tag;
    builtFormat_ = job.format;
    error_.clear();
    buildLog_.clear();
    finished_ = job.generation;
  } else {
    failed_ = finished_ = job.generation;
    error_ = out.error;
    buildLog_ = out.log;
    unsupported_ = out.unsupported;
  }
  if (!requested_ && ok && out.next) {
    requested_ = out.next;
    if (job.stage == Stage::Set && out.next->stage == Stage::Provisional)  // after a stopgap: settle first
      requested_->notBefore = lastRequest_ + settle_;
    if (idleWork_ && job.stage == Stage::Set) {
      // Right after a set's first hand-over, before its later steps: its
      // other format (for `auto`, that format's stopgap, one compile), so a
      // format switch soon after a window opened is a hand-over too.
      resumeAfterIdle_ = requested_;
      requested_->stage = Stage::OtherFormats;
      requested_->notBefore = {};  // at once; the steps it goes back to settle
    }
  }
  if (idleWork_ && !requested_ && ok && !out.next && job.format != PixelFormat::Invalid) {
    requested_ = job;  // idle: the same set for the other formats
    requested_->stage = Stage::OtherFormats;
  }
  changed_.notify_all();
}

}  // namespace liveconv
