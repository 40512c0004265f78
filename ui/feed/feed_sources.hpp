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
#include "liveconv/planes_channel.hpp"

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
  // Planes mode (`run --planes`): the decoder hands out its own planes; a
  // source that has none to hand (a generated one, floats) is refused with the sentence.
  bool planes = false;
};

struct FeedSource {
  std::unique_ptr<FrameSource> source;
  int rateNum = 30, rateDen = 1;  // frames per second, nominal
  std::string note;               // the decoder's line (--hwaccel other than none), or ""
  int sampleBits = 8;             // of the decoder's samples (10 for HEVC Main10); 8 for generated sources
  // A decoded source's description for a recording of it, as `liveconv run`
  // carries it: its colour tags (the matrix and range the frames are encoded
  // with), HDR metadata, aspect and tags; not its pixel format (a recording
  // keeps the picture shown), no other stream, no chapter. Null for generated sources.
  std::shared_ptr<media::StreamCopy> description;
  // Planes mode: each plane's size and engine format, and the planes' pixel
  // format (an AVPixelFormat, as Frame::planesFormat names it), with what each plane holds ("Y, U, V").
  std::vector<PlanesOptions::Plane> planes;
  int planesFormat = -1;
  std::string planeNames;
};

// Planes mode's pictures for the screen: a frame's planes (of the source's
// planar format, Frame::planesFormat) converted by swscale into the
// window's format (rgba or gray, 8 or 16 bits), with the source's matrix and
// range (`description`; BT.709 for untagged HD, else BT.601, limited). On the
// presenter's thread; one context kept between frames.
class PlanesPictures {
 public:
  virtual ~PlanesPictures() = default;
  virtual Image picture(const std::vector<Image>& planes, int planesFormat, PixelFormat to) = 0;
};
std::unique_ptr<PlanesPictures> makePlanesPictures(std::shared_ptr<media::StreamCopy> description);

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
