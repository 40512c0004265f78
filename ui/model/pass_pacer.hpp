// When a window's next pass and its next swap may come, where the window
// keeps to the display's refresh rate itself (vsync asked for, and a display
// whose swap returns at once: Xvfb, some virtual or remote displays; where the
// swap does wait for the display, the same rules never hold a frame past a
// refresh). Toolkit-free: the viewer's loop asks it, the tests drive it.
//
// Two clocks, not one: a pass that draws nothing (no new frame yet) looks
// again a refresh after it began, as a display's timer would, but it does not
// hold back the swap of the pass that draws the frame once it comes. That
// swap waits only for a refresh after the last swap.
#pragma once

#include <chrono>

namespace liveconv::ui {

class PassPacer {
 public:
  using Clock = std::chrono::steady_clock;

  // `interval`: the shortest time between two swaps (vsyncFrameInterval);
  // zero: no pacing (vsync off), and a pass that drew nothing looks again
  // after `idlePoll`.
  explicit PassPacer(std::chrono::microseconds interval,
                     std::chrono::microseconds idlePoll = std::chrono::microseconds(2000))
      : interval_(interval), idlePoll_(idlePoll) {}

  void setInterval(std::chrono::microseconds interval) { interval_ = interval; }

  // A pass begins (it looks for input and a new frame).
  void passBegan(Clock::time_point now) { passBegan_ = now; }
  // A pass that drew nothing: the next one comes no later than this (input
  // or a frame that is ready may wake it sooner).
  Clock::time_point nextLook() const {
    return passBegan_ + (interval_.count() > 0 ? interval_ : idlePoll_);
  }
  // A pass that drew: its swap comes no sooner than this.
  Clock::time_point swapAllowed() const { return lastSwap_ + interval_; }
  void swapped(Clock::time_point at) { lastSwap_ = at; }

 private:
  std::chrono::microseconds interval_, idlePoll_;
  Clock::time_point passBegan_{}, lastSwap_{};
};

}  // namespace liveconv::ui
