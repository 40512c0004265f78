// The seam between the viewer and whatever produces filtered frames. The
// viewer hands in parameter snapshots and asks for the newest frame; it never
// sees an OpenCL object. Today TestPatternFeed implements it on the engine's
// Convolver; the decode pipeline (issue 4) implements it the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "liveconv/image.hpp"
#include "model/frame_stats.hpp"
#include "model/snapshot.hpp"

namespace liveconv::ui {

struct FeedFrame {
  ImageView source;    // before the filter; valid until the next advance()
  ImageView filtered;  // after the filter, same size and format
  std::uint64_t index = 0;          // source frame number
  std::uint64_t paramsVersion = 0;  // the snapshot this frame was filtered with
  bool fresh = false;               // differs from what the previous advance() returned
};

enum class Advance {
  Invalid = 0,
  Play,  // move on to the next source frame
  Hold,  // keep the current source frame (paused); re-filter it only if the parameters changed
};

class FrameFeed {
 public:
  virtual ~FrameFeed() = default;
  // Takes effect at the next frame boundary. A snapshot that cannot run (a
  // build failure, a variant that refuses the mask) leaves the previous
  // parameters in force and is reported through stats().error.
  virtual void setParams(std::shared_ptr<const ParamsSnapshot> snapshot) = 0;
  virtual FeedFrame advance(Advance mode) = 0;
  // Everything but displayMs, which the display layer measures itself.
  virtual FrameStats stats() const = 0;
};

// Makes the feed for a source spec on the device the selector names
// ("" = default). Throws liveconv::Error subclasses with a sentence (no device,
// unknown source).
std::unique_ptr<FrameFeed> makeFrameFeed(const std::string& source, const std::string& deviceSelector,
                                         std::shared_ptr<const ParamsSnapshot> initial);

}  // namespace liveconv::ui
