// Planes mode: a frame's own planes filtered one by one, as FFmpeg's
// `convolution` filter does (its 0m..3m masks and its `planes` option): each
// plane a GRAY8 or GRAY16 frame at its own size, through a Pipeline of its own
// with its own mask (the planes of a frame run side by side on the device); a
// plane without a mask is handed on as it came. Nothing converts a colour, so
// with the identity mask every plane comes out as it went in, bit for bit.
//
//   push() -> [input queue: the stream's policy] -> thread "lc-planes"
//          -> a Pipeline per filtered plane (lossless) -> pop() joins the planes
//
// A frame's planes go in together and come out together, in order: a live
// stream drops whole frames at the input queue (engine late), never a plane.
//
// Live edits (a window): setParams() hands one set to every filtered plane's
// pipeline, which builds it off the frame path as Pipeline does; a plane may
// take it a frame before another, and under the live policy a picture whose
// planes ran under two sets is dropped (engine late), so every picture that
// comes out was filtered by one set (Frame::paramsTag). The rest of the live
// controls answer for the first filtered plane (Y, or G), the largest.
#pragma once

#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "liveconv/pipeline.hpp"

namespace liveconv {

struct PlanesOptions {
  QueuePolicy policy = QueuePolicy::Lossless;
  int queueCapacity = 3;  // the input queue and each plane's pipeline, 2..4
  int deviceSlots = 2;    // each plane's pipeline, 2..4
  bool deliverPixels = true;
  // The planes the source will hand out (size and GRAY8 or GRAY16): each
  // filtered plane's pipeline builds its kernel, and `auto` races, for its
  // plane before the first frame. A frame must bring at least these planes.
  struct Plane {
    int width = 0, height = 0;
    PixelFormat format = PixelFormat::Invalid;
  };
  std::vector<Plane> planes;
  std::shared_ptr<AutoTuner> tuner;  // null: AutoTuner::shared()
  // As PipelineOptions' for each plane: the first kernels from the builders
  // (a window), and the caller's number for the first set.
  bool liveEdits = false;
  std::uint64_t paramsTag = 0;
  // Output frames carry the planes they were filtered from (Frame::sourcePlanes):
  // a window shows them beside the result and checks against them.
  bool returnSource = false;
};

class PlanesChannel : public LiveChannel {
 public:
  // filters[i]: plane i's filter, or nullopt to hand it on as it is; planes
  // past the end of `filters` are handed on too. Builds every plane's kernel
  // now (throws as Pipeline does) and starts the threads.
  PlanesChannel(std::shared_ptr<DeviceContext> device, const std::vector<std::optional<FilterParams>>& filters,
                const PlanesOptions& options);
  ~PlanesChannel() override;
  PlanesChannel(const PlanesChannel&) = delete;
  PlanesChannel& operator=(const PlanesChannel&) = delete;

  bool push(Frame frame) override;
  void endOfInput() override;
  // The next frame with every plane filtered, in order; nullopt at the end.
  // Rethrows what a plane's pipeline met.
  std::optional<Frame> pop() override;
  void cancel() override;
  PipelineStats& stats() override { return stats_; }
  QueuePolicy policy() const override { return options_.policy; }

  // Plane i's pipeline, or null for a plane handed on as it is.
  const Pipeline* plane(int i) const;

  // The live controls (LiveChannel; the class comment says how they answer).
  // `format` is ignored: the planes keep theirs.
  void setParams(const FilterParams& params, std::uint64_t tag = 0, PixelFormat format = PixelFormat::Invalid) override;
  // Built once every plane has built it; failed where one failed.
  ParamsState paramsState(std::uint64_t tag) const override;
  bool kernelWaiting() const override;
  FilterParams currentParams() const override { return primary().currentParams(); }
  VariantId lastVariant() const override { return primary().lastVariant(); }
  bool compareVariants() override { return primary().compareVariants(); }
  bool comparing() const override { return primary().comparing(); }
  std::shared_ptr<const RaceReport> lastRace() const override { return primary().lastRace(); }
  void setDeliverPixels(bool on) override;

 private:
  Pipeline& primary() const;  // the first filtered plane's
  void feed();  // lc-planes: from the input queue into the planes' pipelines

  PlanesOptions options_;
  PipelineStats stats_;
  BoundedQueue<Frame> input_;
  // Each frame as it waits for its planes (without them), fed in order, and
  // its size (its planes may come back empty: deliverPixels off).
  struct Waiting {
    Frame frame;
    int width = 0, height = 0;
    std::shared_ptr<const std::vector<Image>> source;  // returnSource: a copy of its planes
  };
  BoundedQueue<Waiting> waiting_;
  std::vector<std::unique_ptr<Pipeline>> pipelines_;  // indexed by plane; null: handed on
  std::thread feeder_;
};

}  // namespace liveconv
