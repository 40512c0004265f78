// Drawing only what changed. The loop turns at the display's rate (input,
// frames taken, script lines), but a pass draws only when something the window
// shows changed: a new frame, an edit or a view setting, a message, a new feed,
// a script line; or when the shell said input came (inputCame()); or at least
// every kRedrawInterval (the overlay's and status bar's numbers). On a software
// GL a redraw of an unchanged window costs as much as one of a new frame
// (llvmpipe: most of a core at 60 Hz), taken from the cores that decode and
// filter. It also times the passes: the UI thread's responsiveness, the same
// in both windows (what `ui_frame_ms` in the stats file summarises).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "model/frame_stats.hpp"
#include "model/view_state.hpp"

namespace liveconv::ui {

class RedrawPolicy {
 public:
  static constexpr std::chrono::milliseconds kRedrawInterval{250};
  // After input, every pass draws for this long: hover highlights, tooltips
  // and a text field's cursor follow the pointer and the clock, not the model.
  static constexpr std::chrono::milliseconds kInputRedraw{1000};

  // What the window shows, as far as a redraw depends on it.
  struct Shown {
    std::uint64_t modelVersion = 0, installs = 0, refusals = 0, seekRefusals = 0, scriptLines = 0, recordings = 0,
                  checks = 0;
    ViewState view;
    std::string opening, picture;
    bool recording = false;
    bool operator==(const Shown& o) const;
  };
  // A pass: draws when `freshFrame`, or when `now` differs from what was drawn last, or for the reasons above.
  void decide(bool freshFrame, Shown now);
  bool due() const { return due_; }
  // Input came (a key, the pointer, the wheel): the passes of the next kInputRedraw draw.
  void inputCame();
  // The window was exposed, resized or focused: the next pass draws.
  void exposed() { exposed_ = true; }
  // The shell drew this pass (what the stats file counts as redraws).
  void drew();
  std::uint64_t redraws() const { return redraws_; }

  // A pass began; the first few carry start-up and are not timed.
  void timePass(bool counted);
  // The loop's own rate and its pass times.
  double uiFps() const { return uiMs_ > 0 ? 1000 / uiMs_ : 0; }
  const FrameTimeHistory& uiFrameTimes() const { return uiFrameTimes_; }

 private:
  Shown drawn_;  // what the window showed when it last drew
  std::chrono::steady_clock::time_point lastDraw_{}, inputUntil_{}, lastPass_{};
  bool due_ = true, exposed_ = false;
  std::uint64_t redraws_ = 0;
  double uiMs_ = 0;  // the pass time, smoothed
  FrameTimeHistory uiFrameTimes_{240};
};

}  // namespace liveconv::ui
