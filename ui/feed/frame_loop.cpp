#include "feed/frame_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>

#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"

namespace liveconv::ui {

namespace {
std::string defaultSelector() {
  const char* env = std::getenv(kDeviceEnvVar);
  return env ? env : "";
}
}  // namespace

FrameLoop::FrameLoop(ViewerModel& model, Opener opener, std::string selector)
    : model_(model),
      opener_(opener ? std::move(opener) : Opener(makeFrameFeed)),
      switcher_(
          [this](const std::string& source, const std::string& selector, std::shared_ptr<const ParamsSnapshot> initial,
                 const OpenControl& control) {
            return opener_(source, selector, std::move(initial), link_.load(), control);
          },
          selector.empty() ? defaultSelector() : std::move(selector)) {}

// ---- the feed

void FrameLoop::open(const std::string& source) {
  recordings_.stop();  // the recording of the playing source ends with the request
  // A device switch that failed is not asked for again with the next source.
  if (switcher_.deviceSwitchFailed(model_.deviceIndex())) model_.setDevice(playingDevice());
  // The same source again (the playing one, or one whose feed failed) opens again.
  if (!model_.setSource(source) || source == playingSource()) switcher_.reopen();
  asked_.any = false;  // tick() finishes the recording of the playing source
}

void FrameLoop::adopt(std::unique_ptr<FrameFeed> feed, const std::string& source) {
  recordings_.stop();
  model_.setSource(source);
  const bool sameSource = source == playingSource();
  switcher_.adopt(std::move(feed), source, model_.deviceIndex(), model_.format());
  asked_ = {source, model_.deviceIndex(), model_.format(), true};
  installed(sameSource);
}

void FrameLoop::shutdown() {
  recordings_.stop();
  recordings_.waitForAll();
  switcher_.reset();
  frame_ = FeedFrame{};
}

// A new feed took over: only now is the old one (and the frame it owns) gone.
// The same file on another device or in another format goes on where it was.
void FrameLoop::installed(bool sameSource) {
  seek_.replaced(sameSource, stats());
  frame_ = FeedFrame{};
  handed_ = Handed{};
  failure_.clear();
  numbers_.restart();
}

// A request for another source, device or format (or the same source again):
// the recording of what plays now ends here, before its feed is replaced.
void FrameLoop::follow() {
  const Asked now{model_.source(), model_.deviceIndex(), model_.format(), true};
  if (asked_.any && now.source == asked_.source && now.device == asked_.device && now.format == asked_.format) return;
  if (asked_.any || running()) recordings_.stop();
  asked_ = now;
}

// ---- a pass

const FeedFrame& FrameLoop::tick(bool step) {
  kernelFile_.poll(model_);  // a saved kernel file: its new version goes with this pass's hand-over
  check_.remember(model_);
  advance(step || std::exchange(stepWanted_, false));
  recordings_.collect();
  numbers_.stats().checking = model_.view().checking;
  check_.update(model_.view().checking && failure_.empty(), frame_, numbers_.stats(), link_.load(), log_,
                passes_.shown);
  logPass();
  redraw_.timePass(passes_.ticks > 2);  // the first passes carry start-up
  const std::string& text = !openError().empty() ? openError() : !failure_.empty() ? failure_ : stats().sourceMessage;
  card_.update(text, !failure_.empty() || !running());  // the picture stopped, or nothing ever played: say why
  decideRedraw();
  return frame_;
}

void FrameLoop::advance(bool step) {
  follow();
  const std::string before = playingSource();
  if (switcher_.sync(model_)) installed(before == playingSource());
  FrameFeed* feed = switcher_.feed();
  if (!feed || !failure_.empty()) return;
  try {
    handOver(*feed);
    // A source opened while paused shows its first frame: one step, then hold.
    const bool stepNow = step || (handed_.firstFrameWanted && model_.view().paused);
    handed_.firstFrameWanted = false;
    frame_ = feed->advance(stepNow ? Advance::Step : model_.view().paused ? Advance::Hold : Advance::Play);
    numbers_.take(feed->stats());
    seek_.passed(*feed, stats());
  } catch (const cl::Error& e) {
    fail(std::string("The OpenCL device stopped working: ") + e.what() + " failed with " + clErrorName(e.err()) + ".");
    return;
  } catch (const std::exception& e) {
    fail(std::string("Filtering stopped: ") + e.what());
    return;
  }
  afterAdvance();
}

// The model's parameters and playback settings, where they changed since the feed was last told.
void FrameLoop::handOver(FrameFeed& feed) {
  if (model_.version() != handed_.version) {
    // nullptr: an invalid mask, keep the last good one. The feed keeps its
    // own device; a device change makes a new feed through the switcher.
    if (auto snapshot = model_.snapshot()) feed.setParams(switcher_.forFeed(snapshot));
    handed_.version = model_.version();
  }
  const Playback wanted{model_.view().loop, model_.view().playbackSpeed};
  if (!handed_.playback || wanted.loop != handed_.playback->loop || wanted.speed != handed_.playback->speed) {
    feed.setPlayback(wanted);
    handed_.playback = wanted;
  }
}

void FrameLoop::afterAdvance() {
  const FrameStats& s = stats();
  // The feed drops its recorder on a write error (a full disk) and says why in sourceMessage.
  if (recordings_.active() && s.recordingPath.empty())
    recordings_.end(s.sourceMessage.empty() ? "The recorder stopped." : s.sourceMessage);
  if (s.rejectedVersion > handed_.rejection) {
    handed_.rejection = s.rejectedVersion;
    model_.noteVariantFailure(s.rejectedVariant, s.error);
    lastRefusal_ = s.error;
    ++refusals_;
  }
  numbers_.passed(frame_, log_);
  if (frame_.hasPicture()) ++passes_.shown;
  if (frame_.fresh) ++passes_.fresh;
  ++passes_.ticks;
}

void FrameLoop::fail(const std::string& why) {
  failure_ = why;
  frame_ = FeedFrame{};  // its pixels belong to the failed feed; the viewport keeps the last upload
  recordings_.end(why);  // the frames written so far stay a playable file
}

void FrameLoop::logPass() {
  const FrameStats& s = stats();
  log_.tick();
  log_.dropped(s.framesDropped());
  log_.modelAt(model_.version(), {}, passes_.shown, passes_.fresh);
  // While another feed opens (a source, device or format switch) the old one's frames do not show the edit.
  if (frame_.hasPicture() && frame_.paramsVersion && !switcher_.pending())
    log_.shown(frame_.paramsVersion, s.variantText(), passes_.shown, passes_.fresh);
  if (s.rejectedVersion) log_.refused(s.rejectedVersion, passes_.shown);
  log_.message("open", switcher_.error(), passes_.shown);
  log_.message("source", s.sourceMessage, passes_.shown);
  log_.message("filter", s.error, passes_.shown);
  log_.message("failure", failure_, passes_.shown);
  log_.message("kernel", kernelFile_.error(), passes_.shown);
  log_.notices(model_.notices(), model_.notice(), passes_.shown);
}

void FrameLoop::decideRedraw() {
  RedrawPolicy::Shown shown;
  shown.modelVersion = model_.version();
  shown.installs = switcher_.installs();
  shown.refusals = refusals_;
  shown.seekRefusals = seek_.refusals();
  shown.scriptLines = script_.linesRun();
  shown.recordings = recordings_.finished();
  shown.checks = static_cast<std::uint64_t>(check_.finished());
  shown.view = model_.view();
  shown.opening = openingMessage();
  shown.picture = pictureMessage();
  shown.recording = recordings_.active();
  redraw_.decide(frame_.fresh, std::move(shown));
}

// ---- keys, seeking, checking

bool FrameLoop::checkPending() const {
  return model_.view().checking && running() && failure_.empty() && check_.pending(frame_);
}

bool FrameLoop::settled() const {
  // Edits on screen, no feed opening, no seek on its way (nor a switched file's return to its place).
  return log_.settled() && !switcher_.pending() && seek_.settled() && !stats().comparing && !checkPending();
}

void FrameLoop::resetCounters() {
  FrameFeed* feed = switcher_.feed();
  const FrameStats feedStats = feed ? feed->stats() : FrameStats{};
  numbers_.reset(feed ? &feedStats : nullptr);
}

bool FrameLoop::seekTo(double seconds) {
  FrameFeed* feed = switcher_.feed();
  return feed && failure_.empty() && seek_.to(*feed, seconds, stats(), log_, passes_.shown);
}

}  // namespace liveconv::ui
