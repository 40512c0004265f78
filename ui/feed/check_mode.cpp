#include "feed/check_mode.hpp"

#include <algorithm>

#include "feed/display_link.hpp"
#include "feed/session_log.hpp"
#include "model/frame_stats.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {
namespace {

// Plane k's name in a list like "Y, U, V" (its number where the list is shorter).
std::string planeName(const std::string& names, std::size_t k) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < k && start != std::string::npos; ++i) {
    start = names.find(", ", start);
    if (start != std::string::npos) start += 2;
  }
  if (start == std::string::npos || start >= names.size()) return std::to_string(k);
  return names.substr(start, names.find(", ", start) - start);
}

}  // namespace

void CheckMode::remember(const ViewerModel& model) {
  if (model.version() == rememberedVersion_) return;
  rememberedVersion_ = model.version();
  if (auto snapshot = model.snapshot()) paramsOf_[snapshot->version] = snapshot->filter;
  while (paramsOf_.size() > 64) paramsOf_.erase(paramsOf_.begin());
}

bool CheckMode::pending(const FeedFrame& frame) const {
  // Until the result of a check of the set on screen has been collected (or that check failed).
  if (checker_.busy()) return true;
  const bool collected = last_ && last_->paramsVersion == frame.paramsVersion;
  return !collected && failedVersion_ != frame.paramsVersion;
}

// Whether `f` is a frame to check now: a picture with both sides in memory or
// a GL buffer, not checked already, and its set not checked a moment ago.
bool CheckMode::due(const FeedFrame& f) const {
  if (!f.hasPicture() || !f.source.data || f.source.format != f.filtered.format || f.source.width != f.filtered.width ||
      f.source.height != f.filtered.height)
    return false;
  if (checkedAny_ && f.index == checkedIndex_ && f.paramsVersion == checkedVersion_) return false;
  // A new set is checked at once; the frames of one set at most half the time.
  return !(checkedAny_ && f.paramsVersion == checkedVersion_ && std::chrono::steady_clock::now() < nextAt_);
}

void CheckMode::update(bool wanted, const FeedFrame& f, FrameStats& stats, const DisplayLink* link, SessionLog& log,
                       std::uint64_t framesShown) {
  // Asked before the result is taken: the worker stores its result, then
  // clears the flag, so "not busy" here means nothing is left to collect after.
  const bool busy = checker_.busy();
  if (auto done = checker_.takeFinished()) {
    last_ = done;
    ++checks_;
    nextAt_ = std::max(nextAt_, std::chrono::steady_clock::now() +
                                    std::chrono::microseconds(static_cast<long long>(1000 * done->check.referenceMs)));
    log.checked(*done, framesShown);
  }
  if (const std::string why = checker_.takeError(); !why.empty()) {
    log.message("notice", why, framesShown);
    failedVersion_ = checkedVersion_;
  }
  stats.check = last_;
  if (!wanted || busy || !due(f)) return;
  const auto params = paramsOf_.find(f.paramsVersion);
  if (params == paramsOf_.end()) return;
  const auto t0 = std::chrono::steady_clock::now();
  // Planes mode: what was filtered is the planes, one checked after another.
  CheckReport report;
  ImageView from = f.source, to = f.filtered;
  if (!f.sourcePlanes.empty() && f.sourcePlanes.size() == f.filteredPlanes.size()) {
    const std::size_t k = static_cast<std::size_t>(started_) % f.sourcePlanes.size();
    from = f.sourcePlanes[k];
    to = f.filteredPlanes[k];
    report.plane = planeName(stats.planes, k);
  }
  Image source(from.width, from.height, from.format);
  Image filtered(to.width, to.height, to.format);
  for (int y = 0; y < from.height; ++y) std::copy_n(from.row(y), from.rowBytes(), source.view().row(y));
  if (to.data) {
    for (int y = 0; y < to.height; ++y) std::copy_n(to.row(y), to.rowBytes(), filtered.view().row(y));
  } else if (!link || !link->readPixelBuffer(f.glPixelBuffer, filtered.view())) {
    return;  // no way to the pixels
  }
  report.number = ++started_;
  report.frameIndex = f.index;
  report.paramsVersion = f.paramsVersion;
  report.positionSeconds = stats.positionSeconds;
  report.device = stats.device;
  report.variantAsked = stats.variantAsked;
  report.variantRan = stats.variantRan;
  report.mask = describe(params->second.mask);
  report.border = params->second.border;
  report.copyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  nextAt_ = t0 + kCheckInterval;
  if (checker_.start(std::move(source), std::move(filtered), params->second, std::move(report))) {
    checkedAny_ = true;
    checkedIndex_ = f.index;
    checkedVersion_ = f.paramsVersion;
  }
}

}  // namespace liveconv::ui
