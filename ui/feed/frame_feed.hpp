// The seam between the viewer and whatever produces filtered frames. The
// viewer hands in parameter snapshots and asks for the newest frame; it never
// sees an OpenCL object. PipelineFeed implements it for every source kind, on
// the engine's Pipeline behind the one decode loop; the tests fake it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "liveconv/image.hpp"
#include "model/frame_stats.hpp"
#include "model/snapshot.hpp"

namespace liveconv::ui {
class DisplayLink;
}

namespace liveconv::ui {

struct FeedFrame {
  ImageView source;                 // before the filter; valid until the next advance()
  ImageView filtered;               // after the filter, same size and format
  std::uint64_t index = 0;          // source frame number
  std::uint64_t paramsVersion = 0;  // the snapshot this frame was filtered with
  bool fresh = false;               // differs from what the previous advance() returned
  // When the source handed this frame to the filter (the decode thread's
  // hand-over, whatever the source kind): the start of its
  // source-to-screen latency. Default: unknown.
  std::chrono::steady_clock::time_point sourceAt{};
  // Zero-copy display path: the filtered pixels are in this GL pixel buffer
  // (filtered names their shape, filtered.data is null). 0: they are in filtered.data.
  std::uint32_t glPixelBuffer = 0;
  // Planes mode: what was filtered, plane by plane (source and filtered are the
  // picture they show); the check compares these. Valid as source is.
  std::vector<ImageView> sourcePlanes, filteredPlanes;

  bool hasPicture() const { return filtered.data != nullptr || glPixelBuffer != 0; }
};

enum class Advance {
  Invalid = 0,
  Play,  // move on to the next source frame
  Hold,  // keep the current source frame (paused); re-filter it only if the parameters changed
  Step,  // move on by exactly one source frame, then behave as Hold
};

// How a decoded source plays. Test sources ignore it.
struct Playback {
  bool loop = true;    // a file starts again at its end
  double speed = 1.0;  // times the clip's own frame rate (files only; live sources run in real time)
};

// A recording whose file is being finished on the recorder's thread.
class FinishingRecording {
 public:
  virtual ~FinishingRecording() = default;  // waits for the file where it is not done yet
  virtual bool done() const = 0;
  virtual void wait() = 0;                   // until done()
  virtual long long frames() const = 0;      // written to the file
  virtual std::string error() const = 0;     // "" when the file is complete
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

  // True when a snapshot with another pixel format is taken at a frame boundary
  // like any edit (the test pattern; an FFmpeg decoder, which converts to
  // either format); false when the feed must be opened anew for it (a source
  // that hands out one format).
  virtual bool changesFormatInPlace() const { return false; }
  // True for a feed that filters the source's own planes (OpenControl::planes).
  virtual bool filtersPlanes() const { return false; }

  // The optional controls of decoded sources; the defaults say they are absent.
  virtual void setPlayback(const Playback&) {}
  // Files: shows the frame at `seconds` from the start next (paused or not);
  // false when the source cannot seek (live, generated). See FrameStats::durationSeconds.
  virtual bool seek(double seconds) {
    (void)seconds;
    return false;
  }
  // Starts writing the filtered frames to `path` (the extension picks the
  // container, as `liveconv run -o`); returns "" or the sentence why not.
  virtual std::string startRecording(const std::string& path) {
    (void)path;
    return whyNoRecording();
  }
  // "" when startRecording() can work, else the sentence why not (asked before
  // a window offers to record, so nobody names a file for nothing).
  virtual std::string whyNoRecording() const {
    return "This source cannot be recorded.";
  }
  // Ends the recording without waiting for its file: the encoder's flush and
  // the trailer are written on the recorder's own thread, so the UI thread
  // never waits for an encoder. Null when nothing was recording.
  virtual std::shared_ptr<FinishingRecording> stopRecording() { return nullptr; }
  // Races the variants for the set that runs on this frame's format and size,
  // off the frame path, changing nothing that runs (FrameStats::race shows
  // it); false when it cannot start now (one runs, no frame yet).
  virtual bool compareVariants() { return false; }
};

// The source the viewer opens without --source: the bundled clip in the
// media build, else the test pattern.
std::string defaultSourceSpec();
// True in the media build: files, URLs, lavfi, cameras and recording are available.
bool decodedSourcesAvailable();
// "camera:N" for every video capture device found (empty without the media build).
std::vector<std::string> listCameraSources();

// How a feed's open of its source may end early. `abandoned` is asked while
// it waits (FFmpeg on a stream that sends nothing): true once the open is no
// longer wanted (a newer request came, the user cancelled, the window closes),
// and the open gives up with an InputError. A source that sends nothing to
// open for `timeoutSeconds` fails with a sentence that says so (0: no limit).
// `hwaccel` is how the source is decoded, at this open and every reopen
// (ViewState::hwaccel).
struct OpenControl {
  std::function<bool()> abandoned;
  double timeoutSeconds = 0;
  std::string hwaccel = "none";
  // Planes mode (ViewState::planes): the source's own planes filtered as they
  // are, as `liveconv run --planes all`; a source without planes fails the open.
  bool planes = false;
};

// Makes the feed for a source spec on the device the selector names
// ("" = default): testpattern[:WxH] is generated on the UI thread; anything
// else (a file, lavfi:..., camera:N, synthetic:WxH; "" = the bundled clip)
// decodes on its own thread into the engine's Pipeline (media build only).
// Throws liveconv::Error subclasses with a sentence (no device, unknown
// source); a decoded source that fails to open is reported by stats().sourceMessage.
// With a display link (which must outlive the feed) the device is opened
// through it, so the display path is chosen for it; without, it reads back.
std::unique_ptr<FrameFeed> makeFrameFeed(const std::string& source, const std::string& deviceSelector,
                                         std::shared_ptr<const ParamsSnapshot> initial,
                                         const DisplayLink* display = nullptr, OpenControl control = {});

}  // namespace liveconv::ui
