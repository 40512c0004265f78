// What the performance overlay shows, as plain numbers the frame side fills
// in and both shells draw: per-stage times, throughput, drops by cause and a
// short history of frame times for the plot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "liveconv/autotune.hpp"
#include "liveconv/variants.hpp"
#include "model/check_figure.hpp"

namespace liveconv::ui {

struct StageTimes {
  double decodeMs = 0;    // producing the source frame (decode or test pattern)
  double uploadMs = 0;    // host -> device, CL event
  double kernelMs = 0;    // the filter, CL event
  double readbackMs = 0;  // device -> host (map), or on the zero-copy path the hand-over into the GL buffer
  double displayMs = 0;   // PBO upload + draw, host clock
  double totalMs() const { return decodeMs + uploadMs + kernelMs + readbackMs + displayMs; }
};

struct DropCause {
  std::string cause;  // e.g. "decoder late", "queue full"
  std::uint64_t count = 0;
};

// The overlay's variant: "local", or for `auto` what it runs, "auto -> separable"
// ("auto" alone before the first frame); a variant that compiles each mask,
// while a stopgap serves a new mask: "rows, until baked is built".
std::string variantLine(VariantId asked, VariantId ran);

// How filtered frames reach the screen.
enum class DisplayPath {
  Invalid = 0,
  ZeroCopy,  // into a GL pixel buffer shared through cl_khr_gl_sharing, device to device
  Readback,  // mapped pinned buffer -> host -> GL pixel buffer -> texture
};

struct FrameStats {
  double fps = 0;
  StageTimes stages;  // averaged over the last second or so
  double megapixelsPerSecond = 0;
  double gigabytesPerSecond = 0;
  // Source to screen, over the last frames shown (see LatencyWindow); 0: none measured yet.
  double latencyMedianMs = 0;
  double latencyP99Ms = 0;
  std::uint64_t framesShown = 0;
  std::uint64_t framesTotal = 0;  // shown + dropped
  std::vector<DropCause> drops;
  int frameWidth = 0;
  int frameHeight = 0;
  // The frames' format as the engine filters them: rgba16 or gray16 for a
  // source of more than 8 bits (sourceBits), as `liveconv run --depth auto`.
  PixelFormat engineFormat = PixelFormat::Invalid;
  int sourceBits = 0;  // 0: unknown (a generated source: 8)
  // Planes mode: what the planes filtered hold ("Y, U, V" ...); "" in RGBA mode.
  std::string planes;
  std::string device;
  VariantId variantAsked = VariantId::Invalid;  // the parameters' variant (may be Auto)
  VariantId variantRan = VariantId::Invalid;    // the concrete one that filtered the last frame
  DisplayPath displayPath = DisplayPath::Invalid;
  std::string displayPathText;  // the overlay's line: "interop: zero-copy (...)" or "interop: readback + PBO (why)"
  std::string error;     // the last refusal or build failure, one sentence
  std::string buildLog;  // the compiler's log when a kernel failed to build; else empty
  std::string source;         // what plays, as the feed describes it
  std::string sourceMessage;  // the source failed to open or ended; shown over the picture
  double positionSeconds = -1;  // of the frame on screen, from the clip's start (-1: unknown)
  double durationSeconds = 0;   // of a file; 0 for live and generated sources (no seeking)
  double frameSeconds = 0;      // one frame's time at the source's rate (0: unknown)
  std::string recordingPath;  // non-empty while the filtered output is being recorded
  long long recordedFrames = 0;
  // The parameter version the frame side refused and the variant it named, so
  // the model can grey that variant; 0 when nothing was refused.
  std::uint64_t rejectedVersion = 0;
  VariantId rejectedVariant = VariantId::Invalid;
  // The last race of the variants on this device (auto's, or one asked for
  // with B: "compare the variants on this frame"); null before any. True
  // while a comparison runs.
  std::shared_ptr<const RaceReport> race;
  bool comparing = false;
  // Check mode: the last check of a frame against the CPU reference (null
  // before any); `checking` while the mode is on (the overlay shows the
  // check, the picture its heat map).
  std::shared_ptr<const CheckReport> check;
  bool checking = false;

  std::uint64_t framesDropped() const;
  bool zeroCopy() const { return displayPath == DisplayPath::ZeroCopy; }
  // What runs, as the overlay says it: "local", "auto -> separable", "rows, until baked is built".
  std::string variantText() const { return variantLine(variantAsked, variantRan); }
  // What the mask panels say runs for the model's variant: what the frame
  // side runs (with what `auto` chose) once it runs that variant, else the
  // model's choice alone (an edit on its way).
  std::string runsOnText(VariantId modelVariant) const {
    return variantAsked == modelVariant ? variantText() : variantLine(modelVariant, VariantId::Invalid);
  }
  double droppedPercent() const;
};

// Throughput of the kernel alone, from its CL event time.
double megapixelsPerSecond(int width, int height, double kernelMs);
// Effective bandwidth: each pixel read once and written once (the ideal a tiled kernel approaches).
double gigabytesPerSecond(int width, int height, int bytesPerPixel, double kernelMs);

// A fixed-size ring of the most recent frame times, oldest first when read.
class FrameTimeHistory {
 public:
  explicit FrameTimeHistory(std::size_t capacity = 240) : capacity_(capacity) {}
  void push(float frameMs);
  std::vector<float> values() const;  // oldest first
  std::size_t size() const { return ring_.size(); }
  float maxMs() const;

 private:
  std::size_t capacity_;
  std::size_t next_ = 0;
  std::vector<float> ring_;
};

// New source frames shown per second (not redraws): the frames whose arrival
// times fall in the last second. A paused picture counts 0.
class VideoRate {
 public:
  void shown(double nowSeconds);           // a fresh frame reached the screen
  double perSecond(double nowSeconds) const;

 private:
  std::vector<double> times_;  // arrival times within the last second
};

// The median and 99th percentile of a set of times (nearest rank; 0 when empty).
struct Percentiles {
  double median = 0;
  double p99 = 0;
  double max = 0;
};
Percentiles percentiles(std::vector<double> values);

// Source-to-screen latency of the last frames shown: from the moment the
// source handed a frame to the filter (FeedFrame::sourceAt) to the moment the
// window took it for the screen, plus the display's own draw time.
class LatencyWindow {
 public:
  explicit LatencyWindow(std::size_t capacity = 240) : capacity_(capacity) {}
  void push(double ms);
  Percentiles summary() const { return percentiles(ring_); }
  void clear() { ring_.clear(), next_ = 0; }

 private:
  std::size_t capacity_;
  std::size_t next_ = 0;
  std::vector<double> ring_;
};

// What the display takes to put a frame on the screen (upload, panels, draw
// and the swap, where a software GL rasterises): the median of the last
// passes that drew, so one slow pass (the first, which compiles the shaders
// and rasterises the panels) does not weigh on the latency of the frames
// after it, as a moving average's slow decay did.
class DisplayTime {
 public:
  void push(double ms) {
    passes_.push(ms);
    median_ = passes_.summary().median;
  }
  double ms() const { return median_; }

 private:
  LatencyWindow passes_{15};
  double median_ = 0;
};

// What the overlay's first line says: video fps and the UI's redraw rate apart,
// and PAUSED while the picture holds.
struct OverlayRates {
  double videoFps = 0;
  double uiFps = 0;
  bool paused = false;
};

// "0:12.3 / 1:03.0" for a file, "0:12.3" when the length is unknown; "" without a position.
std::string positionText(double positionSeconds, double durationSeconds);

// Smooths per-frame stage times into a moving average (exponential, ~1 s at 60 fps).
StageTimes smooth(const StageTimes& average, const StageTimes& sample, double weight = 1.0 / 30.0);

}  // namespace liveconv::ui
