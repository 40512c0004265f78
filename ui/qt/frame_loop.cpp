#include "qt/frame_loop.hpp"

#include <exception>

#include "liveconv/errors.hpp"

namespace liveconv::ui {

std::string FrameLoop::open(const std::string& source) {
  const std::string device = model_.deviceIndex() < 0 ? "" : std::to_string(model_.deviceIndex());
  std::unique_ptr<FrameFeed> next;
  try {
    next = makeFrameFeed(source, device, model_.snapshot());
  } catch (const BuildError& e) {
    return std::string(e.what()) + "\n" + e.buildLog();
  } catch (const std::exception& e) {
    return e.what();
  }
  // Only now is the old feed (and the frame it owns) let go.
  frame_ = FeedFrame{};
  feed_ = std::move(next);
  model_.setSource(source);
  handedVersion_ = model_.version();
  notedRejection_ = 0;
  return {};
}

const FeedFrame& FrameLoop::tick(bool step) {
  if (!feed_) return frame_;
  if (model_.version() != handedVersion_) {
    if (auto snapshot = model_.snapshot()) feed_->setParams(snapshot);  // nullptr: invalid mask, keep the last good one
    handedVersion_ = model_.version();
  }
  frame_ = feed_->advance(model_.view().paused && !step ? Advance::Hold : Advance::Play);
  stats_ = feed_->stats();
  stats_.stages.displayMs = displayMs_;
  if (stats_.rejectedVersion > notedRejection_) {
    notedRejection_ = stats_.rejectedVersion;
    model_.noteVariantFailure(stats_.rejectedVariant, stats_.error.substr(0, stats_.error.find('\n')));
  }
  ++ticks_;
  return frame_;
}

}  // namespace liveconv::ui
