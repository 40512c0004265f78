#include "liveconv/kernel_builder.hpp"

#include <chrono>

#include "liveconv/autotune.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/thread_name.hpp"

namespace liveconv {

KernelBuilder::KernelBuilder(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache,
                             std::shared_ptr<AutoTuner> tuner)
    : device_(std::move(device)), cache_(std::move(cache)), tuner_(std::move(tuner)) {
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
  std::lock_guard<std::mutex> lock(mutex_);
  // A race for the set that runs never displaces a newer set on its way (that
  // one is built for the current size anyway).
  if (raceOnly && requested_ && requested_->generation >= generation) return;
  requested_ = Job{generation, params, format, width, height, raceOnly, tag};
  changed_.notify_all();
}

std::unique_ptr<Convolver> KernelBuilder::take(std::uint64_t* generation, std::uint64_t* tag) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!built_) return nullptr;
  *generation = takenGeneration_ = builtGeneration_;
  if (tag) *tag = builtTag_;
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
      changed_.wait(lock, [&] { return stop_ || requested_; });
      if (stop_) return;
      job = *requested_;
      requested_.reset();
      building_ = true;
    }
    std::unique_ptr<Convolver> next;
    std::string error, log;
    bool interrupted = false;
    std::optional<Job> raceAfter;
    try {
      next = std::make_unique<Convolver>(device_, cache_, tuner_);
      // A newer request (or stop) ends a race in flight: its answer would be thrown away.
      next->setInterrupt([this] {
        std::lock_guard<std::mutex> lock(mutex_);
        return stop_ || requested_.has_value();
      });
      next->setParams(job.params);
      // A new `auto` set shows at once on its provisional kernel (chosen by
      // rules, one compile); the race for the frame size follows as a job of
      // its own, and its winner replaces the provisional one.
      if (!job.raceOnly && next->awaitsRace(job.format, job.width, job.height)) {
        next->prepare(job.format);  // no size: the provisional kernel
        raceAfter = job;
        raceAfter->raceOnly = true;
      } else {
        next->prepare(job.format, job.width, job.height);
      }
      next->setBuildPolicy(BuildPolicy::FramePath);
      next->setInterrupt({});
    } catch (const Cancelled&) {
      interrupted = true;
    } catch (const BuildError& e) {
      error = e.what();
      log = e.buildLog();
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    building_ = false;
    if (interrupted) continue;
    if (job.raceOnly) {
      // An answer for the set that runs; dropped when a newer set came meanwhile.
      // A race that failed leaves what runs running.
      if (error.empty() && job.generation >= takenGeneration_ && (!built_ || builtGeneration_ <= job.generation)) {
        built_ = std::move(next);
        builtGeneration_ = job.generation;
        builtTag_ = job.tag;
      }
    } else if (error.empty()) {
      built_ = std::move(next);
      builtGeneration_ = job.generation;
      builtTag_ = job.tag;
      error_.clear();
      buildLog_.clear();
      finished_ = job.generation;
    } else {
      failed_ = finished_ = job.generation;
      error_ = error;
      buildLog_ = log;
    }
    if (raceAfter && error.empty() && !requested_) requested_ = raceAfter;
    changed_.notify_all();
  }
}

}  // namespace liveconv
