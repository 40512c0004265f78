// The hand-off from the UI thread to the frame side: the UI publishes an
// immutable snapshot of the filter parameters with a version number; the frame
// side takes the newest one at a frame boundary, so a frame is filtered with
// one consistent parameter set and an edit never waits on a frame.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "liveconv/convolver.hpp"
#include "liveconv/image.hpp"

namespace liveconv::ui {

struct ParamsSnapshot {
  std::uint64_t version = 0;  // grows with every edit; 0 is never published
  FilterParams filter;
  PixelFormat format = PixelFormat::RGBA8;
  int deviceIndex = -1;  // index into enumerateDevices(); -1: the default selection
  std::string source;    // source spec, e.g. "testpattern"
};

// A single-slot mailbox: publish() replaces, the reader sees only the newest.
class SnapshotSlot {
 public:
  void publish(std::shared_ptr<const ParamsSnapshot> snapshot) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!latest_ || (snapshot && snapshot->version > latest_->version)) latest_ = std::move(snapshot);
  }
  // The newest snapshot when it is newer than `seenVersion`, else nullptr.
  std::shared_ptr<const ParamsSnapshot> takeIfNewer(std::uint64_t seenVersion) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return latest_ && latest_->version > seenVersion ? latest_ : nullptr;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const ParamsSnapshot> latest_;
};

}  // namespace liveconv::ui
