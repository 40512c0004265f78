// A live source that may go away and come back: a camera busy when opened,
// or unplugged mid-stream, a network stream that stops. The wrapper reopens
// it with a bounded backoff, says so in a visible line each time, and gives up
// with an InputError (exit 7) once the source has been away for the budget.
// Ctrl-C ends the wait at once. The source comes from a factory, so tests
// drive every path with fakes and no camera.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "liveconv/frame.hpp"

namespace liveconv::media {

struct ReconnectPolicy {
  double budgetS = 10;        // how long the source may stay away before the run gives up; 0 = no waiting
  double firstDelayS = 0.25;  // the first wait; each further wait doubles, up to maxDelayS
  double maxDelayS = 2;
};

class ReconnectingSource : public FrameSource {
 public:
  // Opens a source; throws InputError (SourceUnavailable when waiting may help).
  using Opener = std::function<std::unique_ptr<FrameSource>()>;
  using Reporter = std::function<void(const std::string& line)>;
  using StopRequested = std::function<bool()>;

  // Opens the source now. A SourceUnavailable (busy) is retried within the
  // budget; any other error (no such camera) is thrown at once, as is
  // Interrupted when stop() turns true during a wait.
  ReconnectingSource(Opener open, ReconnectPolicy policy, Reporter report, StopRequested stop);
  // Around a source already open (a window's, opened on its own thread); `open` reopens it once lost.
  ReconnectingSource(std::unique_ptr<FrameSource> first, Opener open, ReconnectPolicy policy, Reporter report,
                     StopRequested stop);

  // The next frame. When the source stops with SourceUnavailable, reopens it
  // (now any InputError counts as "not back yet") and goes on; frame indices
  // continue. False at the end of the source or when stopped during a wait.
  bool next(Frame& frame) override;
  std::string describe() const override { return source_->describe(); }
  bool isLive() const override { return source_->isLive(); }
  long long expectedFrames() const override { return source_->expectedFrames(); }
  bool frameSize(int* width, int* height) const override { return source_->frameSize(width, height); }
  YuvLayout planesLayout() const override { return source_->planesLayout(); }
  long long corruptPackets() const override { return corruptBefore_ + source_->corruptPackets(); }
  bool seek(double seconds) override { return source_->seek(seconds); }
  double durationSeconds() const override { return source_->durationSeconds(); }
  double startSeconds() const override { return source_->startSeconds(); }
  // Kept for the source reopened after a loss, too.
  bool setFormat(PixelFormat format) override;

  FrameSource& current() { return *source_; }
  int reconnects() const { return reconnects_; }

 private:
  // Opens until it works; `afterLoss` makes every InputError worth a retry.
  // Null when stopped.
  std::unique_ptr<FrameSource> openWithRetry(const std::string& firstProblem, bool afterLoss);

  Opener open_;
  ReconnectPolicy policy_;
  Reporter report_;
  StopRequested stop_;
  std::unique_ptr<FrameSource> source_;
  long long delivered_ = 0, corruptBefore_ = 0;
  PixelFormat format_ = PixelFormat::Invalid;  // set by setFormat(): the reopened source converts to it too
  int reconnects_ = 0;
};

// The one place a live source (a camera, a stream: the live rows of
// source_kinds.hpp) is made to come back, for `liveconv run` (openSource) and
// the windows' feed alike: the source `open` opens, wrapped where it is live
// in a ReconnectingSource that reopens it with `open` when it goes away, each
// wait said through `report`; any other source as it is. `liveKind`: the
// spec's row is live, so the source is wrapped and one busy at this first
// open is waited for too (`run`); false: the first open's failure is the
// caller's at once (a window says it, and the source playing stays) and the
// source's own isLive() says whether it is wrapped.
std::unique_ptr<FrameSource> openReconnecting(ReconnectingSource::Opener open, bool liveKind,
                                              const ReconnectPolicy& policy, ReconnectingSource::Reporter report,
                                              ReconnectingSource::StopRequested stop);

}  // namespace liveconv::media
