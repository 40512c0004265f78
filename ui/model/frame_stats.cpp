#include "model/frame_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace liveconv::ui {

std::uint64_t FrameStats::framesDropped() const {
  std::uint64_t n = 0;
  for (const auto& d : drops) n += d.count;
  return n;
}

double FrameStats::droppedPercent() const {
  return framesTotal == 0 ? 0.0 : 100.0 * static_cast<double>(framesDropped()) / static_cast<double>(framesTotal);
}

std::string variantLine(VariantId asked, VariantId ran) {
  if (asked == VariantId::Invalid) return "";  // nothing has run yet
  std::string line = variantInfo(asked).name;
  if (ran == VariantId::Invalid || ran == asked) return line;
  if (asked == VariantId::Auto) return line + " -> " + variantInfo(ran).name;
  // A variant that compiles each mask, served meanwhile by a stopgap.
  return std::string(variantInfo(ran).name) + ", until " + line + " is built";
}

double megapixelsPerSecond(int width, int height, double kernelMs) {
  if (kernelMs <= 0) return 0;
  return static_cast<double>(width) * height / (kernelMs * 1e3);
}

double gigabytesPerSecond(int width, int height, int bytesPerPixel, double kernelMs) {
  if (kernelMs <= 0) return 0;
  return 2.0 * width * height * bytesPerPixel / (kernelMs * 1e6);
}

void FrameTimeHistory::push(float frameMs) {
  if (capacity_ == 0) return;
  if (ring_.size() < capacity_) {
    ring_.push_back(frameMs);
  } else {
    ring_[next_] = frameMs;
  }
  next_ = (next_ + 1) % capacity_;
}

std::vector<float> FrameTimeHistory::values() const {
  if (ring_.size() < capacity_) return ring_;
  std::vector<float> out(ring_.begin() + static_cast<std::ptrdiff_t>(next_), ring_.end());
  out.insert(out.end(), ring_.begin(), ring_.begin() + static_cast<std::ptrdiff_t>(next_));
  return out;
}

float FrameTimeHistory::maxMs() const { return ring_.empty() ? 0.0f : *std::max_element(ring_.begin(), ring_.end()); }

StageTimes smooth(const StageTimes& a, const StageTimes& s, double w) {
  auto mix = [w](double old, double now) { return old == 0 ? now : old + w * (now - old); };
  return {mix(a.decodeMs, s.decodeMs), mix(a.uploadMs, s.uploadMs), mix(a.kernelMs, s.kernelMs),
          mix(a.readbackMs, s.readbackMs), mix(a.displayMs, s.displayMs)};
}

Percentiles percentiles(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const auto at = [&](double q) { return values[std::min(values.size() - 1, static_cast<std::size_t>(q * values.size()))]; };
  return {at(0.5), at(0.99), values.back()};
}

void LatencyWindow::push(double ms) {
  if (ring_.size() < capacity_) {
    ring_.push_back(ms);
  } else {
    ring_[next_] = ms;
    next_ = (next_ + 1) % capacity_;
  }
}

void VideoRate::shown(double nowSeconds) {
  times_.push_back(nowSeconds);
  times_.erase(times_.begin(), std::lower_bound(times_.begin(), times_.end(), nowSeconds - 1.0));
}

double VideoRate::perSecond(double nowSeconds) const {
  return static_cast<double>(times_.end() - std::lower_bound(times_.begin(), times_.end(), nowSeconds - 1.0));
}

namespace {
std::string clockText(double seconds) {
  const long tenths = std::lround(std::max(0.0, seconds) * 10);
  char buf[32];
  const long minutes = tenths / 600, rest = tenths % 600;
  std::snprintf(buf, sizeof buf, "%ld:%02ld.%ld", minutes, rest / 10, rest % 10);
  return buf;
}
}  // namespace

std::string positionText(double positionSeconds, double durationSeconds) {
  if (positionSeconds < 0) return {};
  if (durationSeconds <= 0) return clockText(positionSeconds);
  return clockText(positionSeconds) + " / " + clockText(durationSeconds);
}

}  // namespace liveconv::ui
