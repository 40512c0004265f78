#include "feed/redraw_policy.hpp"

#include <utility>

namespace liveconv::ui {

bool RedrawPolicy::Shown::operator==(const Shown& o) const {
  return modelVersion == o.modelVersion && installs == o.installs && refusals == o.refusals &&
         seekRefusals == o.seekRefusals && scriptLines == o.scriptLines && recordings == o.recordings &&
         checks == o.checks && view == o.view && opening == o.opening && picture == o.picture &&
         recording == o.recording;
}

void RedrawPolicy::decide(bool freshFrame, Shown now) {
  const auto t = std::chrono::steady_clock::now();
  due_ = freshFrame || std::exchange(exposed_, false) || t < inputUntil_ || t - lastDraw_ >= kRedrawInterval ||
         !(now == drawn_);
  if (due_) drawn_ = std::move(now);
}

void RedrawPolicy::inputCame() {
  inputUntil_ = std::chrono::steady_clock::now() + kInputRedraw;
}

void RedrawPolicy::drew() {
  lastDraw_ = std::chrono::steady_clock::now();
  ++redraws_;
}

void RedrawPolicy::timePass(bool counted) {
  const auto now = std::chrono::steady_clock::now();
  if (counted) {
    const double ms = std::chrono::duration<double, std::milli>(now - lastPass_).count();
    uiFrameTimes_.push(static_cast<float>(ms));
    // The mean pass time, then its rate (a mean of rates would read high where the passes vary).
    uiMs_ = uiMs_ == 0 ? ms : uiMs_ + (ms - uiMs_) / 20;
  }
  lastPass_ = now;
}

}  // namespace liveconv::ui
