#include "model/race_figure.hpp"

#include <algorithm>
#include <cstdio>

#include "model/figure_text.hpp"

namespace liveconv::ui {
namespace {

std::string label(const RaceEntry& e) {
  std::string text = variantInfo(e.params.variant).name;
  if (e.params.workgroup.x > 0)
    text += " " + std::to_string(e.params.workgroup.x) + "x" + std::to_string(e.params.workgroup.y);
  if (e.params.packet > 0) text += " x" + std::to_string(e.params.packet);
  return text;
}

}  // namespace

RaceFigure raceFigure(const RaceReport& r) {
  RaceFigure f;
  double slowest = 0;
  for (const RaceEntry& e : r.entries) slowest = std::max(slowest, e.kernelMs);
  std::vector<std::size_t> order(r.entries.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double ma = r.entries[a].kernelMs, mb = r.entries[b].kernelMs;
    return (ma > 0) != (mb > 0) ? ma > 0 : ma < mb;  // those that ran first, fastest first
  });
  int ran = 0;
  for (std::size_t i : order) {
    const RaceEntry& e = r.entries[i];
    RaceBar bar;
    bar.label = label(e);
    bar.description = variantInfo(e.params.variant).description;
    bar.chosen = static_cast<int>(i) == r.chosen;
    if (e.kernelMs > 0) {
      ++ran;
      bar.ms = e.kernelMs;
      bar.length = slowest > 0 ? static_cast<float>(e.kernelMs / slowest) : 0;
      const Roof roof = roofOf(r.copyShare(e), r.fmaShare(e));
      bar.numbers = formatNumbers("%.3g ms  %.0f Mpix/s  %.0f%% of copy  %.0f%% of FMA", e.kernelMs,
                                  r.megapixelsPerSecond(e), 100 * r.copyShare(e), 100 * r.fmaShare(e)) +
                    formatNumbers(std::string(roof.limit) == "fma" ? "  at %.0f%% of its FMA roof"
                                                                   : "  at %.0f%% of its bandwidth roof",
                                  100 * roof.share);
    } else {
      bar.reason = e.outcome.empty() ? "did not run" : e.outcome;
    }
    f.bars.push_back(bar);
  }
  if (r.chosen >= 0) {
    const RaceEntry& best = r.entries[static_cast<std::size_t>(r.chosen)];
    double next = 0;
    for (const RaceBar& b : f.bars)
      if (!b.chosen && b.ms > 0 && (next == 0 || b.ms < next)) next = b.ms;
    f.title = label(best) + " won: " + formatNumbers("%.3g ms", best.kernelMs) +
              (next > 0 ? formatNumbers(", %.2fx faster than the next", next / best.kernelMs) : "") + " (" +
              std::to_string(ran) + " of " + std::to_string(r.entries.size()) + " ran)";
  } else {
    f.title = "No candidate ran (" + std::to_string(r.entries.size()) + " tried)";
  }
  // A race an earlier run kept with auto's choice: when it ran, not this run's number.
  const std::string which = r.cached ? "auto's race of " + r.racedAt + " (kept with its choice)"
                                     : "race " + std::to_string(r.number) + " (" + r.trigger + ")";
  f.context = which + " on " + r.device + ": " + toString(r.format) +
              " " + std::to_string(r.width) + "x" + std::to_string(r.height) +
              (r.sampleWidth != r.width || r.sampleHeight != r.height
                   ? " (timed on " + std::to_string(r.sampleWidth) + "x" + std::to_string(r.sampleHeight) + ")"
                   : "") +
              ", border " + toString(r.border) + ", " + r.mask;
  f.limits = formatNumbers("copy bandwidth %.1f GB/s; FMA limit ", r.copyBytesPerSecond * 1e-9) + r.fma.how;
  return f;
}

}  // namespace liveconv::ui
