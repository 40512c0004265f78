#include "feed/frame_checker.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include "liveconv/frame_check.hpp"
#include "liveconv/thread_name.hpp"

namespace liveconv::ui {

FrameChecker::~FrameChecker() {
  if (worker_.joinable()) worker_.join();
}

bool FrameChecker::start(Image source, Image filtered, const FilterParams& params, CheckReport report) {
  if (busy_.exchange(true)) return false;
  if (worker_.joinable()) worker_.join();  // the last one, done
  try {
    worker_ = std::thread([this, source = std::move(source), filtered = std::move(filtered), params,
                           report = std::move(report)]() mutable {
      setThreadName("lc-check");
      // Half the cores: the decoder and the engine keep the others.
      const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
      try {
        const Region region = checkRegionFor(source.width(), source.height(), params.mask, source.format());
        report.check = checkFrame(source.view(), filtered.view(), params, region, threads);
        if (!report.check.wholeFrame && region.pixels() > 0)
          report.wholeFrameEstimateMs = report.check.referenceMs * static_cast<double>(source.width()) *
                                        source.height() / static_cast<double>(region.pixels());
        std::lock_guard<std::mutex> lock(mutex_);
        finished_ = std::make_shared<const CheckReport>(std::move(report));
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = std::string("The check could not run: ") + e.what();
      }
      busy_ = false;
    });
  } catch (...) {  // no thread: no check
    busy_ = false;
    throw;
  }
  return true;
}

std::shared_ptr<const CheckReport> FrameChecker::takeFinished() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(finished_);
}

std::string FrameChecker::takeError() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(error_, {});
}

}  // namespace liveconv::ui
