// A frame on its way through the stream, and the two ends the pipeline is
// wired between: a source (decoder, camera, in-memory generator) and a sink
// (encoder, display, nothing). The FFmpeg implementations live in app/media;
// the engine only knows these interfaces.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "liveconv/convolver.hpp"
#include "liveconv/image.hpp"
#include "liveconv/pipeline_convert.hpp"

namespace liveconv {

// A filtered frame left in device memory (PipelineOptions::keepOnDevice): the
// pipeline's output buffer for that frame, lent to the consumer until this
// object is gone. The consumer reads image() on its own queue after ready()
// and names its last use with doneWith(): the kernel that next writes that
// buffer waits for that event on the device, so neither side waits on the
// host for the other. Hold at most deviceSlots - 1 of them at a time: the
// engine reuses a buffer only once its DeviceFrame has been let go.
class DeviceFrame {
 public:
  virtual ~DeviceFrame() = default;
  virtual const DeviceImage& image() const = 0;
  virtual const cl::Event& ready() const = 0;  // the filter that wrote image()
  virtual void doneWith(const cl::Event& lastUse) = 0;
};

struct Frame {
  Image image;  // the pixels, owned; or empty when `external` or `yuv` is set
  // Pixels the frame does not own (an in-memory source handing out the same
  // buffers again, possibly pinned): the pipeline uploads straight from them.
  ImageView external;
  std::shared_ptr<const void> externalOwner;  // keeps `external` alive while the frame is in flight
  // Decoded planes still to be converted (on the device) to yuv.convertTo:
  // set instead of `image` when the source leaves the conversion to the engine.
  YuvImage yuv;
  // Planes mode (PlanesChannel): the source's own planes, each a GRAY8 or
  // GRAY16 image at its own size (chroma planes smaller), set instead of
  // `image`. Samples of 9 to 15 bits sit at the top of their 16 (shifted left
  // by 16 - bits), so the engine's 0..65535 range is theirs. `planesFormat`
  // names the planes' pixel format for the two ends that know pixel formats
  // (an AVPixelFormat: the source sets it, the sink reads it); the engine only
  // carries it.
  std::vector<Image> planes;
  int planesFormat = -1;
  std::int64_t index = -1;  // position in the source, from 0
  double ptsSeconds = 0;    // presentation time, when the source has one (hasPts)
  bool hasPts = false;
  double durationSeconds = 0;  // how long the source shows it (its packet's duration); 0: unknown
  // Which unbroken stretch of the source's clock the frame is on: the decode
  // loop counts one more at every seek and every loop to the start, so whoever
  // follows the source's times (a window's recording) knows where they jump.
  std::uint32_t timeline = 0;
  double decodeMs = 0;      // source-side cost, set by the source
  double convertMs = 0;
  // When the source handed the frame to the filter (host clock), for the
  // source-to-screen latency a window shows; the pipeline carries it through.
  std::chrono::steady_clock::time_point handedOverAt{};
  // The caller's number (a window's model version) for the parameter set that
  // filtered it (output frames; Pipeline::setParams): the only tag a frame carries.
  std::uint64_t paramsTag = 0;
  VariantId variantAsked = VariantId::Invalid;  // ... the variant it names (`auto`, or a concrete one)
  VariantId variantRan = VariantId::Invalid;    // ... and the concrete variant that filtered the frame
  // Output frames of lent input (`external`): the source pixels it was filtered
  // from and their owner, kept alive with the frame so a caller can show both.
  ImageView sourcePixels;
  std::shared_ptr<const void> sourceOwner;
  // Output frames of planes mode (PlanesOptions::returnSource): the planes
  // they were filtered from, every plane of the source.
  std::shared_ptr<const std::vector<Image>> sourcePlanes;
  FrameTimings timings;                // device times of this frame (output frames)
  std::shared_ptr<DeviceFrame> onDevice;  // output frames of a keepOnDevice pipeline

  ImageView pixels() const { return external.data ? external : image.view(); }
  // What the engine filters: the pixels' size and format, or those the planes convert to.
  // (A frame of planes: its first plane's, the picture's full size.)
  int width() const { return !planes.empty() ? planes[0].width() : yuv.empty() ? pixels().width : yuv.width; }
  int height() const { return !planes.empty() ? planes[0].height() : yuv.empty() ? pixels().height : yuv.height; }
  PixelFormat engineFormat() const {
    return !planes.empty() ? planes[0].format() : yuv.empty() ? pixels().format : yuv.convertTo;
  }
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // Fills `frame` with the next frame; false at the end of the stream.
  virtual bool next(Frame& frame) = 0;
  virtual std::string describe() const = 0;
  // A camera or network stream runs in real time: the pipeline uses the live policy.
  virtual bool isLive() const { return false; }
  // Frames the source expects to deliver, or -1 when unknown (for the ETA).
  virtual long long expectedFrames() const { return -1; }
  // The size of the frames it will deliver, where known before the first
  // (a stream may still change it); false when unknown.
  virtual bool frameSize(int* width, int* height) const {
    (void)width, (void)height;
    return false;
  }
  // The layout of the planes it will hand out for the engine to convert
  // (Frame::yuv), where known before the first frame; YuvLayout::Invalid for
  // a source that hands out pixels, or that cannot say yet.
  virtual YuvLayout planesLayout() const { return YuvLayout::Invalid; }
  // Packets the decoder refused and skipped so far.
  virtual long long corruptPackets() const { return 0; }
  // Files: the next next() delivers the frame shown at `seconds` from the start
  // (the first frame at or after it). False when the source cannot seek (live).
  virtual bool seek(double seconds) {
    (void)seconds;
    return false;
  }
  // Seconds from the first frame to the end (0: unknown, or live), and the
  // timestamp of the first frame (positions are counted from it).
  virtual double durationSeconds() const { return 0; }
  // Frames from the next next() on come in `format` (a window's switch to
  // gray and back, without opening the source again); false where the source
  // hands out one format only. Asking for the format it has is true and changes nothing.
  virtual bool setFormat(PixelFormat format) {
    (void)format;
    return false;
  }
  virtual double startSeconds() const { return 0; }
};

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void write(const Frame& frame) = 0;
  // Flushes and closes the output (trailer written); called also after Ctrl-C.
  virtual void finish() = 0;
  virtual std::string describe() const = 0;
};

// Frames generated in memory, no decoding: measures upload + kernel + readback
// alone. A few distinct patterns handed out in turn without a copy; given a
// device, they live in pinned host memory, as a capture card's DMA buffers would.
class SyntheticSource : public FrameSource {
 public:
  SyntheticSource(int width, int height, PixelFormat format, long long frameCount,
                  std::shared_ptr<DeviceContext> pinnedOn = nullptr);
  bool next(Frame& frame) override;
  std::string describe() const override;
  long long expectedFrames() const override { return frameCount_; }
  bool frameSize(int* width, int* height) const override {
    *width = width_, *height = height_;
    return true;
  }

 private:
  int width_, height_;
  PixelFormat format_;
  long long frameCount_, produced_ = 0;
  struct Buffers;
  std::vector<std::shared_ptr<Buffers>> frames_;
};

// Discards every frame (`-o null`).
class NullSink : public FrameSink {
 public:
  void write(const Frame&) override {}
  void finish() override {}
  std::string describe() const override { return "null (frames discarded)"; }
};

}  // namespace liveconv
