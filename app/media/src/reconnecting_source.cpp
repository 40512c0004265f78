#include "liveconv/media/reconnecting_source.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "liveconv/media/media_errors.hpp"

namespace liveconv::media {
namespace {

using Clock = std::chrono::steady_clock;

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", s);
  return text;
}

// "Camera x is busy." -> "Camera x is busy" (to go on with "; ...").
std::string withoutFullStop(std::string s) {
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
  return s;
}

// Stands in for a source that is gone, so describe() and the counters still answer.
class EmptySource : public FrameSource {
 public:
  explicit EmptySource(std::string text) : text_(std::move(text)) {}
  bool next(Frame&) override { return false; }
  std::string describe() const override { return text_; }
  bool isLive() const override { return true; }

 private:
  std::string text_;
};

}  // namespace

ReconnectingSource::ReconnectingSource(Opener open, ReconnectPolicy policy, Reporter report, StopRequested stop)
    : open_(std::move(open)), policy_(policy), report_(std::move(report)), stop_(std::move(stop)) {
  try {
    source_ = open_();
  } catch (const SourceUnavailable& e) {
    if (policy_.budgetS <= 0) throw;
    source_ = openWithRetry(e.what(), false);
    if (!source_) throw Interrupted("Interrupted while waiting for the source.");
  }
}

ReconnectingSource::ReconnectingSource(std::unique_ptr<FrameSource> first, Opener open, ReconnectPolicy policy,
                                       Reporter report, StopRequested stop)
    : open_(std::move(open)),
      policy_(policy),
      report_(std::move(report)),
      stop_(std::move(stop)),
      source_(std::move(first)) {}

bool ReconnectingSource::setFormat(PixelFormat format) {
  if (!source_->setFormat(format)) return false;
  format_ = format;
  return true;
}

std::unique_ptr<FrameSource> ReconnectingSource::openWithRetry(const std::string& firstProblem, bool afterLoss) {
  const auto start = Clock::now();
  std::string problem = firstProblem;
  double delayS = policy_.firstDelayS;
  for (int attempt = 1;; ++attempt) {
    const double awayS = std::chrono::duration<double>(Clock::now() - start).count();
    const double leftS = policy_.budgetS - awayS;
    if (leftS <= 0)
      throw InputError(withoutFullStop(problem) + "; gave up after waiting " + seconds(policy_.budgetS) + " (" +
                       std::to_string(attempt - 1) + " attempts).");
    const double waitS = std::min(delayS, leftS);
    if (report_)
      report_(withoutFullStop(problem) + "; trying again in " + seconds(waitS) + " (attempt " +
              std::to_string(attempt) + ", giving up " + seconds(leftS) + " from now).");
    // Waits in short steps so Ctrl-C is answered at once.
    const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(waitS));
    while (Clock::now() < until) {
      if (stop_ && stop_()) return nullptr;
      std::this_thread::sleep_for(std::min<Clock::duration>(until - Clock::now(), std::chrono::milliseconds(20)));
    }
    if (stop_ && stop_()) return nullptr;
    delayS = std::min(delayS * 2, policy_.maxDelayS);
    try {
      return open_();
    } catch (const SourceUnavailable& e) {
      problem = e.what();
    } catch (const InputError& e) {
      if (!afterLoss) throw;
      problem = e.what();  // unplugged: the device node is gone until it comes back
    }
  }
}

bool ReconnectingSource::next(Frame& frame) {
  for (;;) {
    try {
      if (!source_->next(frame)) return false;
      frame.index = delivered_++;
      return true;
    } catch (const SourceUnavailable& e) {
      if (policy_.budgetS <= 0) throw;
      const std::string what = describe();
      corruptBefore_ += source_->corruptPackets();
      source_.reset();  // closes the device, so it can be opened again
      try {
        source_ = openWithRetry(e.what(), true);
      } catch (...) {
        source_ = std::make_unique<EmptySource>(what);  // describe() keeps working for the caller
        throw;
      }
      if (!source_) {
        source_ = std::make_unique<EmptySource>(what);
        return false;  // stopped while waiting
      }
      ++reconnects_;
      if (format_ != PixelFormat::Invalid) source_->setFormat(format_);
      if (report_) report_(source_->describe() + " is back; the stream goes on.");
    }
  }
}

std::unique_ptr<FrameSource> openReconnecting(ReconnectingSource::Opener open, bool liveKind,
                                              const ReconnectPolicy& policy, ReconnectingSource::Reporter report,
                                              ReconnectingSource::StopRequested stop) {
  if (liveKind)
    return std::make_unique<ReconnectingSource>(std::move(open), policy, std::move(report), std::move(stop));
  std::unique_ptr<FrameSource> first = open();
  if (!first->isLive()) return first;
  return std::make_unique<ReconnectingSource>(std::move(first), std::move(open), policy, std::move(report),
                                              std::move(stop));
}

}  // namespace liveconv::media
