// The race of the variants as both windows chart it: one bar per candidate,
// fastest first, its length the kernel time on the race's frame, the winner
// marked, the candidates that did not run greyed at the end with their
// reason, and per bar the throughput and the share of the device's copy
// bandwidth and FMA limit (bench's %bw and %fma). Toolkit-free: the ImGui
// panel and the Qt dock draw these numbers.
#pragma once

#include <string>
#include <vector>

#include "liveconv/autotune.hpp"

namespace liveconv::ui {

struct RaceBar {
  std::string label;        // "rows_separable 1x8 x8": the registry's name, work-group, outputs per work-item
  std::string description;  // the registry's line on the variant
  double ms = 0;            // its fastest timed run (RaceEntry::kernelMs); 0 when it did not run
  float length = 0;         // 0..1 of the chart's width: ms over the slowest that ran
  std::string numbers;      // "0.125 ms  614 Mpix/s  23% of copy  18% of FMA"
  std::string reason;       // why it did not run; "" when it ran
  bool chosen = false;      // the fastest correct one
};

struct RaceFigure {
  std::string title;    // "rows_separable 1x8 x8 won: 0.125 ms, 1.2x the next (9 of 9 ran)"
  std::string context;  // what was raced: "race 2 (auto) on DEVICE: rgba 320x240, clamp, 5x5 ..."
  std::string limits;   // "copy 21.6 GB/s; FMA 2 CUs x ..."
  std::vector<RaceBar> bars;
};

RaceFigure raceFigure(const RaceReport& report);

}  // namespace liveconv::ui
