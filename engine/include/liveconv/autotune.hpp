// The `auto` variant: for each (device + driver, pixel format, mask size,
// separability, border, frame size) it races the registered variants and a few
// workgroup shapes and packet sizes, checks each candidate against the CPU
// reference on a small frame, times them on a frame of the real shape capped
// at 1080p's pixel count (what depends on the size, row padding and the
// workgroup that fits, is checked at the real size), and keeps the fastest
// correct one. Results are remembered in memory and on disk (XDG cache dir),
// keyed by the device's fingerprint, so a new driver or device races again.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "liveconv/convolver.hpp"

namespace liveconv {

struct RaceEntry {
  FilterParams params;     // concrete variant, workgroup, packet
  double kernelMs = 0;     // its fastest timed run; 0 when it did not run
  std::string outcome;     // "ok", or why it was left out
  std::vector<int> runOrder;  // when each of its timed runs came in the race (1, 2, ...: the candidates take turns)
  std::vector<double> runMs;  // each timed run's kernel time
};

// One race, as the windows chart it and `--stats-json` records it: what was
// raced (device, format, mask, border, the frame size and the sample the
// candidates were timed on), every candidate's time or why it did not run,
// the winner, and the device's copy bandwidth measured beside them (what a
// kernel that reads and writes each pixel once cannot beat) and FMA limit.
struct RaceReport {
  std::uint64_t number = 0;  // 1, 2, ... for each race of this tuner
  std::string trigger;       // "auto" (a race for an answer) or "compare" (asked for, changes nothing)
  std::string device;
  PixelFormat format = PixelFormat::Invalid;
  std::string mask;  // describe(mask)
  BorderMode border = BorderMode::Clamp;
  int width = 0, height = 0;              // the frame raced for
  int sampleWidth = 0, sampleHeight = 0;  // the frame the candidates were timed on
  double copyBytesPerSecond = 0;          // the device's copy bandwidth (copyBandwidth())
  FmaLimit fma;                           // the device's peak FMA rate (fmaLimit())
  int maskWidth = 1, maskHeight = 1, channels = 4;  // the FMAs each output takes, per variant (channels: 4 or 1)
  bool filterAlpha = false;                         // alpha filtered, not copied: what channelsComputed() counts
  std::vector<RaceEntry> entries;
  int chosen = -1;  // the fastest correct entry; -1 when none ran
  int timedRuns = 0;  // the timed runs of all entries together
  std::string racedAt;  // when it ran (UTC, ISO 8601)
  bool cached = false;  // read back from the tuner's file with the choice it made (an earlier run's race)

  // Per entry (0 when it did not run): megapixels per second on the sample,
  // and the bytes it read and wrote per second over the copy bandwidth
  // (1 = as fast as copying the frame; bench's %bw).
  double megapixelsPerSecond(const RaceEntry& e) const;
  double copyShare(const RaceEntry& e) const;
  // The FMAs it did per second over the device's peak (bench's %fma): the
  // taps times the channels its kernel computes (channelsComputed()).
  double fmaShare(const RaceEntry& e) const;
};

// The limit a rung is nearest, of the two a convolution meets: memory
// bandwidth (its share of copying the frame) and arithmetic (its share of the
// FMA limit). The larger share names it: bench's "roof" column, the race
// chart's "at N% of its FMA roof".
struct Roof {
  const char* limit = "";  // "fma" or "bw"
  double share = 0;        // 0..1 (above 1: faster than the limit as counted)
};
inline Roof roofOf(double copyShare, double fmaShare) {
  return fmaShare >= copyShare ? Roof{"fma", fmaShare} : Roof{"bw", copyShare};
}

class AutoTuner {
 public:
  // cachePath empty: in memory only.
  explicit AutoTuner(std::string cachePath);

  // The process-wide tuner, caching in defaultCachePath().
  static std::shared_ptr<AutoTuner> shared();
  // $LIVECONV_TUNING_CACHE, else $XDG_CACHE_HOME/liveconv/autotune.tsv, else ~/.cache/liveconv/autotune.tsv.
  static std::string defaultCachePath();

  // The answer for `params` (variant Auto) on this frame when one is known
  // (in memory or on disk); never races, never waits for a race. Thread-safe.
  std::optional<FilterParams> lookup(const DeviceInfo& device, const FilterParams& params, PixelFormat format,
                                     int width, int height);
  // Concrete parameters for `params` (variant Auto) on this frame; races when
  // unknown, on a command queue of its own (frames on the device's queue never
  // wait behind race kernels). `interrupted` is asked with the stop request
  // below; either stops the race (Cancelled). Thread-safe.
  FilterParams resolve(const std::shared_ptr<DeviceContext>& device, const std::shared_ptr<ProgramCache>& cache,
                       const FilterParams& params, PixelFormat format, int width, int height,
                       const std::function<bool()>& interrupted = {});

  // Asked between the candidates of a race (and between their timed runs):
  // when it answers true, the race stops and resolve() throws Cancelled
  // (nothing is remembered). `run` passes its Ctrl-C / SIGTERM flag.
  void setStopRequest(std::function<bool()> stop);

  // The candidates a race times for `params` (variant Auto): every variant
  // that can take its mask, with the work-group shapes and packets the
  // registry names for this kind of device (on a CPU device the row kernels
  // only); `everyVariant` (a comparison, B) adds the others at their defaults.
  static std::vector<FilterParams> candidates(const FilterParams& params, bool gpu, bool everyVariant = false);

  // The frame size a race for width x height times its candidates on: the same
  // size up to 1920x1080's pixel count, else the same shape scaled down to it.
  static std::pair<int, int> raceSample(int width, int height);

  // Times every candidate for `params` (variant Auto's set; for the trigger
  // "compare", every variant the device can run) on this frame size, as
  // resolve() does when it races, and keeps the report (lastReport()); the
  // answers auto keeps are not touched. `trigger` names it in the report.
  // Throws Cancelled as resolve() does.
  RaceReport race(const std::shared_ptr<DeviceContext>& device, const std::shared_ptr<ProgramCache>& cache,
                  const FilterParams& params, PixelFormat format, int width, int height,
                  const std::function<bool()>& interrupted = {}, const std::string& trigger = "compare");

  // The entries of the last race run by this tuner (empty when answers came from the cache).
  std::vector<RaceEntry> lastRace() const;
  // The last race's whole report: the last one run, or, once lookup()
  // answers for other parameters than before, the race behind that answer
  // (an earlier run's is kept in the file with its choice: `cached` says so);
  // null before either.
  std::shared_ptr<const RaceReport> lastReport() const;
  // What `auto` runs before a race has answered for a frame size (the size is
  // not known yet, or the race runs off the frame path): a variant that is
  // good for most masks on this kind of device, chosen without running anything
  // (provisionalVariant() in the registry).
  static FilterParams provisional(const FilterParams& params, DeviceKind device);
  int racesRun() const;
  // The name of the thread that ran the last race (a pipeline races on "lc-build").
  std::string lastRaceThread() const;

 private:
  std::string key(const DeviceInfo& device, const FilterParams& params, PixelFormat format, int width,
                  int height) const;
  void load();
  void append(const std::string& key, const FilterParams& choice, double kernelMs, const RaceReport& report);
  // The device's copy bandwidth (the races' reference point), measured at its first race.
  double copyBandwidthOf(DeviceContext& device, const std::string& fingerprint);

  std::string path_;
  mutable std::mutex mutex_;
  bool loaded_ = false;
  struct Choice {
    VariantId variant = VariantId::Invalid;
    WorkgroupShape workgroup;
    int packet = 0;
    std::shared_ptr<const RaceReport> report;  // the race that chose it (null: a file of an earlier version)
  };
  std::map<std::string, Choice> choices_;
  std::string answeredKey_;  // the parameters lookup() or resolve() answered for last
  std::shared_ptr<const RaceReport> lastReport_;
  std::map<std::string, double> copyBandwidth_;  // per device fingerprint, measured at its first race
  int races_ = 0;
  std::string lastRaceThread_;
  std::function<bool()> stop_;
  bool stopRequested() const;
};

}  // namespace liveconv
