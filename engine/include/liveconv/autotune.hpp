// The `auto` variant: for each (device + driver, pixel format, mask size,
// separability, border, frame size) it races the registered variants and a few
// workgroup shapes and packet sizes, checks each candidate against the CPU
// reference on a small frame, and keeps the fastest correct one. Results are
// remembered in memory and on disk (XDG cache dir), keyed by the device's
// fingerprint, so a new driver or device races again.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "liveconv/convolver.hpp"

namespace liveconv {

struct RaceEntry {
  FilterParams params;     // concrete variant, workgroup, packet
  double kernelMs = 0;     // median; 0 when it did not run
  std::string outcome;     // "ok", or why it was left out
};

class AutoTuner {
 public:
  // cachePath empty: in memory only.
  explicit AutoTuner(std::string cachePath);

  // The process-wide tuner, caching in defaultCachePath().
  static std::shared_ptr<AutoTuner> shared();
  // $LIVECONV_TUNING_CACHE, else $XDG_CACHE_HOME/liveconv/autotune.tsv, else ~/.cache/liveconv/autotune.tsv.
  static std::string defaultCachePath();

  // Concrete parameters for `params` (variant Auto) on this frame; races when unknown. Thread-safe.
  FilterParams resolve(const std::shared_ptr<DeviceContext>& device, const std::shared_ptr<ProgramCache>& cache,
                       const FilterParams& params, PixelFormat format, int width, int height);

  // The entries of the last race run by this tuner (empty when answers came from the cache).
  std::vector<RaceEntry> lastRace() const;
  int racesRun() const;

 private:
  std::string key(const DeviceInfo& device, const FilterParams& params, PixelFormat format, int width,
                  int height) const;
  void load();
  void append(const std::string& key, const FilterParams& choice, double kernelMs);

  std::string path_;
  mutable std::mutex mutex_;
  bool loaded_ = false;
  struct Choice {
    VariantId variant = VariantId::Invalid;
    WorkgroupShape workgroup;
    int packet = 0;
  };
  std::map<std::string, Choice> choices_;
  std::vector<RaceEntry> lastRace_;
  int races_ = 0;
};

}  // namespace liveconv
