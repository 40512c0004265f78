// What the windows' feed (pipeline_feed.cpp) takes from the media library, in
// one seam: the sources it opens and the sink it records to. With FFmpeg
// (feed_sources_media.cpp) every kind of the source table opens and any
// container records; without it (feed_sources_none.cpp) the generated kinds
// (the test pattern, synthetic frames) play through the same feed and nothing
// records.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "liveconv/device.hpp"
#include "liveconv/frame.hpp"

namespace liveconv::media {
class StreamCopy;
}

namespace liveconv::ui {

struct FeedSourceRequest {
  std::string text;  // the source spec as the user wrote it ("" = the bundled clip)
  PixelFormat format = PixelFormat::RGBA8;
  std::shared_ptr<DeviceContext> device;  // synthetic frames live in its pinned memory
  std::function<bool()> stop;             // ends a wait on the input (a stream that sends nothing)
  double openTimeoutSeconds = 0;          // an input that sends nothing to open for this long fails (0: waits)
  std::string hwaccel = "none";           // how a decoded source decodes (--hwaccel)
  // Decoded planes go to the OpenCL device as they are and are converted
  // there (`liveconv run --convert auto`) where it takes their format; else
  // swscale converts on the decode thread.
  bool convertOnDevice = false;
};

struct FeedSource {
  std::unique_ptr<FrameSource> source;
  int rateNum = 30, rateDen = 1;  // frames per second, nominal
  std::string note;               // the decoder's line (--hwaccel other than none), or ""
  int sampleBits = 8;             // of the decoder's samples (10 for HEVC Main10); 8 for generated sources
  // A decoded source's description for a recording of it, as `liveconv run`
  // carries it: its pixel format (a 4:4:4 source is recorded 4:4:4), colour
  // tags, HDR metadata, aspect and tags; no other stream, no chapter. Null for
  // generated sources.
  std::shared_ptr<media::StreamCopy> description;
};

// "" where `name` is a --hwaccel value this build takes, else the sentence.
std::string whyNotHwAccel(const std::string& name);

// Opens the source once (the feed wraps a live one in ReconnectingSource).
// Throws liveconv::Error subclasses with the sentence.
FeedSource openFeedSource(const FeedSourceRequest& request);

// "" where this build records, else the sentence why not.
std::string whyNoRecordingInThisBuild();

// The sink of a recording to `path` (its extension picks the container, as
// `liveconv run -o`), its frames at the times the recorder gives them (the
// given rate: the grid of a container that needs a constant one); throws with the
// sentence. `leftovers`: a line naming the part files killed runs left
// beside it (removed only by `liveconv run -y`), or "". `source`: the
// recorded source's description (FeedSource::description), or null.
std::unique_ptr<FrameSink> openRecordingSink(const std::string& path, int rateNum, int rateDen, std::string* leftovers,
                                             std::shared_ptr<media::StreamCopy> source);

}  // namespace liveconv::ui
