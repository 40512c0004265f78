#include "feed/frame_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "feed/display_link.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/media/staged_output.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/variants.hpp"
#include "model/mask_edit.hpp"
#include "model/start_params.hpp"

namespace liveconv::ui {

namespace {
std::string defaultSelector() {
  const char* env = std::getenv(kDeviceEnvVar);
  return env ? env : "";
}

double secondsNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}


// The counters of `now` since `base` was taken (a feed's counters only grow).
void subtractCounters(FrameStats& now, const FrameStats& base) {
  now.framesShown -= std::min(now.framesShown, base.framesShown);
  now.framesTotal -= std::min(now.framesTotal, base.framesTotal);
  for (DropCause& d : now.drops)
    for (const DropCause& b : base.drops)
      if (b.cause == d.cause) d.count -= std::min(d.count, b.count);
}
}  // namespace

FrameLoop::FrameLoop(ViewerModel& model, Opener opener, std::string selector)
    : model_(model),
      opener_(opener ? std::move(opener)
                     : Opener([](const std::string& source, const std::string& selector,
                                 std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display,
                                 const OpenControl& control) {
                         return makeFrameFeed(source, selector, std::move(initial), display, control);
                       })),
      defaultSelector_(selector.empty() ? defaultSelector() : std::move(selector)),
      switcher_(
          [this](const std::string& source, const std::string& selector, std::shared_ptr<const ParamsSnapshot> initial,
                 const OpenControl& control) {
            return opener_(source, selector, std::move(initial), link_.load(), control);
          },
          defaultSelector_) {}

std::string FrameLoop::deviceSelector() const {
  if (model_.deviceIndex() >= 0) return std::to_string(model_.deviceIndex());
  return defaultSelector_;
}

void FrameLoop::open(const std::string& source) {
  stopRecording();  // the recording of the playing source ends with the request
  // A device switch that failed is not asked for again with the next source.
  if (deviceSwitchFailed()) model_.setDevice(playingDevice_);
  // The same source again (the playing one, or one whose feed failed) opens again.
  if (!model_.setSource(source) || source == playingSource_) switcher_.reopen();
  askedAny_ = false;  // tick() finishes the recording of the playing source
}

bool FrameLoop::deviceSwitchFailed() const {
  return running() && openingMessage().empty() && !openError().empty() && model_.deviceIndex() != playingDevice_;
}

int FrameLoop::deviceToKeep() const {
  return deviceSwitchFailed() ? playingDevice_ : model_.deviceIndex();
}

void FrameLoop::adopt(std::unique_ptr<FrameFeed> feed, const std::string& source) {
  stopRecording();
  model_.setSource(source);
  switcher_.adopt(std::move(feed), source, model_.deviceIndex(), model_.format());
  askedSource_ = source;
  askedDevice_ = model_.deviceIndex();
  askedFormat_ = model_.format();
  askedAny_ = true;
  installed(source);
}

void FrameLoop::shutdown() {
  stopRecording();
  waitForRecordings();
  switcher_.reset();
  frame_ = FeedFrame{};
}

// A new feed took over: only now is the old one (and the frame it owns) gone.
// The same file on another device or in another format goes on where it was.
void FrameLoop::installed(const std::string& source) {
  resumeAt_ = source == playingSource_ && stats_.durationSeconds > 0 ? seekOrigin() : -1;
  frame_ = FeedFrame{};
  playingSource_ = source;
  playingDevice_ = askedDevice_;  // what the switcher opened the installed feed on
  handedVersion_ = 0;
  notedRejection_ = 0;
  failure_.clear();
  firstFrameWanted_ = true;
  playbackHanded_ = false;
  baseline_ = FrameStats{};
  ++installs_;
}

const FeedFrame& FrameLoop::tick(bool step) {
  rememberParams();
  advance(step || stepWanted_);
  stepWanted_ = false;
  collectRecordings();
  updateCheck();
  logTick();
  timeTick();
  updateCard();
  decideRedraw();
  return frame_;
}

void FrameLoop::updateCard() {
  const std::string& text = !openError().empty() ? openError() : !failure_.empty() ? failure_ : stats_.sourceMessage;
  const auto now = std::chrono::steady_clock::now();
  if (text != cardText_) {
    cardText_ = text;
    cardSince_ = now;
  }
  const bool stays = !failure_.empty() || !running();  // the picture stopped, or nothing ever played: say why
  card_ = !text.empty() && (stays || now - cardSince_ < kCardSeconds) ? text : std::string();
}

// ---- drawing only what changed

bool FrameLoop::Shown::operator==(const Shown& o) const {
  return modelVersion == o.modelVersion && installs == o.installs && refusals == o.refusals &&
         seekRefusals == o.seekRefusals && scriptLines == o.scriptLines && recordings == o.recordings &&
         checks == o.checks &&
         view == o.view && opening == o.opening && picture == o.picture && recording == o.recording;
}

void FrameLoop::timeTick() {
  const auto now = std::chrono::steady_clock::now();
  if (ticks_ > 2) {  // the first ticks carry start-up
    const double ms = std::chrono::duration<double, std::milli>(now - lastTick_).count();
    uiFrameTimes_.push(static_cast<float>(ms));
    // The mean pass time, then its rate (a mean of rates would read high where the passes vary).
    uiMs_ = uiMs_ == 0 ? ms : uiMs_ + (ms - uiMs_) / 20;
  }
  lastTick_ = now;
}

void FrameLoop::decideRedraw() {
  const auto now = std::chrono::steady_clock::now();
  Shown shown;
  shown.modelVersion = model_.version();
  shown.installs = installs_;
  shown.refusals = refusals_;
  shown.seekRefusals = seekRefusals_;
  shown.scriptLines = scriptLinesRun_;
  shown.recordings = recordingsFinished_;
  shown.checks = static_cast<std::uint64_t>(checks_);
  shown.view = model_.view();
  shown.opening = openingMessage();
  shown.picture = pictureMessage();
  shown.recording = recording();
  redrawDue_ = frame_.fresh || std::exchange(exposed_, false) || now < inputUntil_ ||
               now - lastDraw_ >= kRedrawInterval || !(shown == drawnState_);
  if (redrawDue_) drawnState_ = std::move(shown);
}

void FrameLoop::inputCame() {
  inputUntil_ = std::chrono::steady_clock::now() + kInputRedraw;
}

void FrameLoop::drew() {
  lastDraw_ = std::chrono::steady_clock::now();
  ++redraws_;
}

void FrameLoop::advance(bool step) {
  // A request for another source, device or format (or the same source again):
  // the recording of what plays now ends here, before its feed is replaced.
  if (!askedAny_ || model_.source() != askedSource_ || model_.deviceIndex() != askedDevice_ ||
      model_.format() != askedFormat_) {
    if (askedAny_ || running()) stopRecording();
    askedSource_ = model_.source();
    askedDevice_ = model_.deviceIndex();
    askedFormat_ = model_.format();
    askedAny_ = true;
  }
  if (switcher_.sync(model_)) installed(askedSource_);
  FrameFeed* feed = switcher_.feed();
  if (!feed || !failure_.empty()) return;
  try {
    if (model_.version() != handedVersion_) {
      // nullptr: an invalid mask, keep the last good one. The feed keeps its
      // own device; a device change makes a new feed through the switcher.
      if (auto snapshot = model_.snapshot()) feed->setParams(switcher_.forFeed(snapshot));
      handedVersion_ = model_.version();
    }
    const Playback wanted{model_.view().loop, model_.view().playbackSpeed};
    if (!playbackHanded_ || wanted.loop != playback_.loop || wanted.speed != playback_.speed) {
      feed->setPlayback(wanted);
      playback_ = wanted;
      playbackHanded_ = true;
    }
    // A source opened while paused shows its first frame: one step, then hold.
    const bool stepNow = step || (firstFrameWanted_ && model_.view().paused);
    firstFrameWanted_ = false;
    frame_ = feed->advance(stepNow ? Advance::Step : model_.view().paused ? Advance::Hold : Advance::Play);
    stats_ = feed->stats();
    subtractCounters(stats_, baseline_);
    if (awaitedPosition_ >= 0 && std::abs(stats_.positionSeconds - awaitedPosition_) < 0.25) awaitedPosition_ = -1;
    if (resumeAt_ >= 0 && stats_.durationSeconds > 0) {  // the new feed knows its file now
      if (feed->seek(resumeAt_)) awaitedPosition_ = resumeAt_;
      resumeAt_ = -1;
    }
  } catch (const cl::Error& e) {
    fail(std::string("The OpenCL device stopped working: ") + e.what() + " failed with " + clErrorName(e.err()) + ".");
    return;
  } catch (const std::exception& e) {
    fail(std::string("Filtering stopped: ") + e.what());
    return;
  }
  stats_.stages.displayMs = displayMs_;
  // The feed drops its recorder on a write error (a full disk) and says why in sourceMessage.
  if (recording() && stats_.recordingPath.empty())
    endRecording(stats_.sourceMessage.empty() ? "The recorder stopped." : stats_.sourceMessage);
  if (stats_.rejectedVersion > notedRejection_) {
    notedRejection_ = stats_.rejectedVersion;
    model_.noteVariantFailure(stats_.rejectedVariant, stats_.error);
    lastRefusal_ = stats_.error;
    ++refusals_;
  }
  if (frame_.fresh) videoRate_.shown(secondsNow());
  measureLatency();
  if (frame_.hasPicture()) ++framesShown_;
  if (frame_.fresh) ++newFramesShown_;
  ++ticks_;
}

void FrameLoop::fail(const std::string& why) {
  failure_ = why;
  frame_ = FeedFrame{};  // its pixels belong to the failed feed; the viewport keeps the last upload
  if (recording()) endRecording(why);  // the frames written so far stay a playable file
}

std::string FrameLoop::whyNoRecording() const {
  if (!running()) return "No source is open, so there is nothing to record.";
  return switcher_.feed()->whyNoRecording();
}

bool FrameLoop::recordingWouldReplace(const std::string& path) {
  std::error_code ec;
  return !path.empty() && std::filesystem::exists(path, ec);
}

std::string FrameLoop::startRecording(const std::string& path, bool replace) {
  if (!running()) return "No source is open, so there is nothing to record.";
  if (recording()) return "Already recording to " + recordingPath_ + "; stop that recording first.";
  if (!replace && recordingWouldReplace(path))
    return path + " exists and was kept; record to another name.";
  const std::string error = switcher_.feed()->startRecording(path);
  if (!error.empty()) return error;
  recordingPath_ = path;
  recordingStart_ = std::chrono::steady_clock::now();
  stats_.recordedFrames = 0;  // until the next tick brings the feed's count
  return {};
}

void FrameLoop::stopRecording() {
  if (recording()) endRecording({});
}

// The file is finished on the recorder's thread; collectRecordings() reports it once it is complete.
void FrameLoop::endRecording(const std::string& stoppedBy) {
  std::shared_ptr<FinishingRecording> ending;
  try {
    ending = switcher_.feed()->stopRecording();
  } catch (const std::exception&) {
  }
  Finishing f{{recordingPath_, stats_.recordedFrames, recordingSeconds(), stoppedBy}, std::move(ending)};
  recordingPath_.clear();
  if (!f.ending) {  // no recorder is finishing a file: it failed, and its part file went with it
    f.recording.complete = false;
    report(f.recording);
    return;
  }
  finishing_.push_back(std::move(f));
}

void FrameLoop::collectRecordings() {
  for (auto it = finishing_.begin(); it != finishing_.end();) {
    if (!it->ending->done()) {
      ++it;
      continue;
    }
    Recording r = it->recording;
    r.frames = it->ending->frames();
    const std::string error = it->ending->error();
    if (r.stoppedBy.empty() && !error.empty()) r.stoppedBy = "Recording stopped: " + error;
    r.complete = error.empty();  // a write error: the staged file was discarded
    it = finishing_.erase(it);
    report(r);
  }
}

void FrameLoop::waitForRecordings() {
  for (Finishing& f : finishing_) f.ending->wait();
  collectRecordings();
}

std::string FrameLoop::finishingPath() const {
  return finishing_.empty() ? std::string() : finishing_.back().recording.path;
}

double FrameLoop::recordingSeconds() const {
  if (!recording()) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - recordingStart_).count();
}

void FrameLoop::report(const Recording& r) {
  lastRecording_ = r;
  ++recordingsFinished_;
  if (r.complete)
    log_.recorded(r.path, r.frames, r.stoppedBy);
  else
    log_.recordingFailed(r.path, r.frames, r.stoppedBy);
}

// ---- the log, keys and scripts

void FrameLoop::logTick() {
  log_.tick();
  log_.dropped(stats_.framesDropped());
  if (loggedVersion_ == 0) loggedVersion_ = model_.version();  // the state the window started in is no edit
  if (model_.version() > loggedVersion_) {
    loggedVersion_ = model_.version();
    log_.edited(loggedVersion_, {}, framesShown_, newFramesShown_);
  }
  // While another feed opens (a source, device or format switch) the old one's frames do not show the edit.
  if (frame_.hasPicture() && frame_.paramsVersion && !switcher_.pending())
    log_.shown(frame_.paramsVersion, stats_.variantText(), framesShown_, newFramesShown_);
  if (stats_.rejectedVersion) log_.refused(stats_.rejectedVersion, framesShown_);
  log_.message("open", switcher_.error(), framesShown_);
  log_.message("source", stats_.sourceMessage, framesShown_);
  log_.message("filter", stats_.error, framesShown_);
  log_.message("failure", failure_, framesShown_);
  if (model_.notices() != loggedNotices_) {
    loggedNotices_ = model_.notices();
    log_.message("notice", model_.notice(), framesShown_);
  }
}

// A new frame is on its way to the screen now: from its source's hand-over to
// here, plus what the display takes to draw it (smoothed, as the overlay shows).
void FrameLoop::measureLatency() {
  if (frame_.fresh && frame_.sourceAt != std::chrono::steady_clock::time_point{}) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_.sourceAt).count() +
        displayMs_;
    latency_.push(ms);
    log_.latency(ms);
  }
  const Percentiles p = latency_.summary();
  stats_.latencyMedianMs = p.median;
  stats_.latencyP99Ms = p.p99;
}

double FrameLoop::videoFps() const {
  return model_.view().paused ? 0 : videoRate_.perSecond(secondsNow());
}

bool FrameLoop::compareVariants() {
  FrameFeed* feed = switcher_.feed();
  if (feed && feed->compareVariants()) {
    log_.message("notice", "Comparing the variants on this frame ...", framesShown_);
    return true;
  }
  log_.message("notice",
               stats_.comparing ? "A comparison of the variants is running already."
                                : "The variants can be compared once a frame plays.",
               framesShown_);
  return false;
}

void FrameLoop::rememberParams() {
  if (model_.version() == rememberedVersion_) return;
  rememberedVersion_ = model_.version();
  if (auto snapshot = model_.snapshot()) paramsOf_[snapshot->version] = snapshot->filter;
  while (paramsOf_.size() > 64) paramsOf_.erase(paramsOf_.begin());
}

void FrameLoop::setChecking(bool on) {
  if (model_.view().checking == on) return;
  model_.view().checking = on;
  log_.message("notice", on ? "Check mode: each frame on screen against the CPU reference." : "Check mode off.",
               framesShown_);
}

bool FrameLoop::checkPending() const {
  if (!model_.view().checking || !running() || !failure_.empty()) return false;
  // Until the result of a check of the set on screen has been collected (or that check failed).
  if (checker_.busy()) return true;
  const bool collected = lastCheck_ && lastCheck_->paramsVersion == frame_.paramsVersion;
  return !collected && failedCheckVersion_ != frame_.paramsVersion;
}

// Collects a finished check, then starts the next on the frame on screen
// when the mode is on and that frame (or its set) has not been checked.
void FrameLoop::updateCheck() {
  // Asked before the result is taken: the worker stores its result, then
  // clears the flag, so "not busy" here means nothing is left to collect after.
  const bool busy = checker_.busy();
  if (auto done = checker_.takeFinished()) {
    lastCheck_ = done;
    ++checks_;
    nextCheckAt_ = std::max(nextCheckAt_, std::chrono::steady_clock::now() +
                                              std::chrono::microseconds(static_cast<long long>(1000 * done->check.referenceMs)));
    log_.checked(*done, framesShown_);
  }
  if (const std::string why = checker_.takeError(); !why.empty()) {
    log_.message("notice", why, framesShown_);
    failedCheckVersion_ = checkedVersion_;
  }
  stats_.check = lastCheck_;
  stats_.checking = model_.view().checking;
  if (!model_.view().checking || busy || !failure_.empty()) return;
  const FeedFrame& f = frame_;
  if (!f.hasPicture() || !f.source.data || f.source.format != f.filtered.format ||
      f.source.width != f.filtered.width || f.source.height != f.filtered.height)
    return;
  if (checkedAny_ && f.index == checkedIndex_ && f.paramsVersion == checkedVersion_) return;  // checked already
  // A new set is checked at once; the frames of one set at most half the time.
  if (checkedAny_ && f.paramsVersion == checkedVersion_ && std::chrono::steady_clock::now() < nextCheckAt_) return;
  const auto params = paramsOf_.find(f.paramsVersion);
  if (params == paramsOf_.end()) return;
  const auto t0 = std::chrono::steady_clock::now();
  Image source(f.source.width, f.source.height, f.source.format);
  Image filtered(f.filtered.width, f.filtered.height, f.filtered.format);
  for (int y = 0; y < f.source.height; ++y) std::copy_n(f.source.row(y), f.source.rowBytes(), source.view().row(y));
  if (f.filtered.data) {
    for (int y = 0; y < f.filtered.height; ++y)
      std::copy_n(f.filtered.row(y), f.filtered.rowBytes(), filtered.view().row(y));
  } else {
    const DisplayLink* link = link_.load();
    if (!link || !link->readPixelBuffer(f.glPixelBuffer, filtered.view())) return;  // no way to the pixels
  }
  CheckReport report;
  report.number = ++checksStarted_;
  report.frameIndex = f.index;
  report.paramsVersion = f.paramsVersion;
  report.positionSeconds = stats_.positionSeconds;
  report.device = stats_.device;
  report.variantAsked = stats_.variantAsked;
  report.variantRan = stats_.variantRan;
  report.mask = describe(params->second.mask);
  report.border = params->second.border;
  report.copyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  nextCheckAt_ = t0 + kCheckInterval;
  if (checker_.start(std::move(source), std::move(filtered), params->second, std::move(report))) {
    checkedAny_ = true;
    checkedIndex_ = f.index;
    checkedVersion_ = f.paramsVersion;
  }
}

void FrameLoop::resetCounters() {
  if (FrameFeed* feed = switcher_.feed()) baseline_ = feed->stats();
  subtractCounters(stats_, stats_);
  latency_.clear();
  stats_.latencyMedianMs = stats_.latencyP99Ms = 0;
}

bool FrameLoop::command(Command command) {
  ViewState& view = model_.view();
  switch (command) {
    case Command::TogglePause: view.paused = !view.paused; return true;
    case Command::StepFrame:
      view.paused = true;
      stepWanted_ = true;
      return true;
    case Command::NextVariant: model_.nextVariant(); return true;
    case Command::ToggleCompare:
      view.compare = view.compare == CompareMode::Split ? CompareMode::Off : CompareMode::Split;
      return true;
    case Command::TogglePanels: view.panelsVisible = !view.panelsVisible; return true;
    case Command::ToggleOverlay: view.overlayVisible = !view.overlayVisible; return true;
    case Command::NextOverlayCorner: view.overlayCorner = nextCorner(view.overlayCorner); return true;
    case Command::ToggleOverlayCompact: view.overlayCompact = !view.overlayCompact; return true;
    case Command::ResetCounters: resetCounters(); return true;
    case Command::CompareVariants: compareVariants(); return true;
    case Command::ToggleCheck: setChecking(!view.checking); return true;
    case Command::SeekBack: seekTo(seekOrigin() - kSeekStepSeconds); return true;
    case Command::SeekForward: seekTo(seekOrigin() + kSeekStepSeconds); return true;
    case Command::SeekStart: seekTo(0); return true;
    case Command::SeekEnd: seekTo(stats_.durationSeconds); return true;
    case Command::FrameBack:  // the frame before the one on screen, found by a seek (decoders only go forward)
      view.paused = true;
      if (seekOrigin() >= 0 && stats_.frameSeconds > 0) seekTo(seekOrigin() - stats_.frameSeconds);
      return true;
    case Command::FrameForward:
      view.paused = true;
      stepWanted_ = true;
      return true;
    case Command::Quit: return cancelOpen();  // Esc while a source opens cancels the open; else the shell's
    default: return false;  // the shell's: full screen, screenshots, quit
  }
}

// Where a relative seek counts from: a seek still on its way, else the frame
// on screen. Left pressed twice goes 10 s back, however slow the decoder.
double FrameLoop::seekOrigin() const { return awaitedPosition_ >= 0 ? awaitedPosition_ : stats_.positionSeconds; }

bool FrameLoop::seekTo(double seconds) {
  FrameFeed* feed = switcher_.feed();
  if (!feed || !failure_.empty()) return false;
  // Past the end goes to the last half second (a frame is there to show; beyond it the clip would loop).
  const double last = std::max(0.0, stats_.durationSeconds - 0.5);
  if (stats_.durationSeconds <= 0 || !feed->seek(std::clamp(seconds, 0.0, last))) {
    log_.message("notice", "This source cannot seek (a live or generated source).", framesShown_);
    ++seekRefusals_;
    return false;
  }
  awaitedPosition_ = std::clamp(seconds, 0.0, last);
  return true;
}

std::vector<FrameLoop::ShellRequest> FrameLoop::runScript() {
  std::vector<ShellRequest> requests;
  if (waitingSince_) {
    // Edits on screen, no feed opening, no seek on its way (nor a switched file's return to its place).
    const bool settled =
        log_.settled() && !switcher_.pending() && resumeAt_ < 0 && awaitedPosition_ < 0 && !stats_.comparing &&
        !checkPending();
    const double waitedSeconds = secondsNow() - waitingSince_;
    if (!settled && waitedSeconds < 30) return requests;
    if (!settled) log_.message("script", "line " + std::to_string(waitLine_) + ": still waiting after 30 s; going on.", framesShown_);
    waitingSince_ = 0;
  }
  for (const ScriptLine& line : script_.takeDue(framesShown_)) {
    runScriptLine(line, &requests);
    ++scriptLinesRun_;
  }
  return requests;
}

void FrameLoop::runScriptLine(const ScriptLine& line, std::vector<ShellRequest>* requests) {
  const std::string& verb = line.verb;
  const std::string& arg = line.argument;
  std::string error;
  if (verb == "key") {
    const Command c = commandForKeyText(arg);
    if (!command(c)) requests->push_back({c, {}});
  } else if (verb == "mask") {
    model_.applySpec(arg, &error);
  } else if (verb == "cell") {
    std::istringstream in(arg);
    int x = 0, y = 0;
    float value = 0;
    in >> x >> y >> value;
    const Mask& m = model_.mask();
    if (x < 0 || y < 0 || x >= m.width || y >= m.height)
      error = "the mask is " + std::to_string(m.width) + "x" + std::to_string(m.height) + "; there is no cell " +
              std::to_string(x) + " " + std::to_string(y) + ".";
    else
      model_.setCell(x, y, value);
  } else if (verb == "variant") {
    const VariantId id = findVariant(arg)->id;
    error = model_.variantUnusableReason(id);  // greyed in both windows: a script cannot pick it either
    if (error.empty()) model_.setVariant(id);
  } else if (verb == "border") {
    model_.setBorder(parseBorderMode(arg));
  } else if (verb == "format") {
    model_.setFormat(parsePixelFormat(arg));
  } else if (verb == "device") {
    model_.setDevice(std::stoi(arg));
  } else if (verb == "source") {
    open(arg);
  } else if (verb == "pause" || verb == "play") {
    model_.view().paused = verb == "pause";
  } else if (verb == "step") {
    command(Command::StepFrame);
  } else if (verb == "seek") {
    if (!seekTo(std::stod(arg))) error = "this source cannot seek.";
  } else if (verb == "save-frame" || verb == "screenshot") {
    requests->push_back({verb == "save-frame" ? Command::SaveFrame : Command::SaveWindow, arg});
  } else if (verb == "record") {
    error = startRecording(arg);
  } else if (verb == "stop-record") {
    stopRecording();
  } else if (verb == "quit") {
    requests->push_back({Command::Quit, {}});
  } else if (verb == "check") {
    setChecking(arg == "on");
  } else if (verb == "wait") {
    waitingSince_ = secondsNow();
    waitLine_ = line.lineNumber;
  }
  if (!error.empty()) log_.message("script", "line " + std::to_string(line.lineNumber) + ": " + error, framesShown_);
  if (model_.version() > loggedVersion_ && loggedVersion_ != 0) {
    loggedVersion_ = model_.version();
    log_.edited(loggedVersion_, line.text, framesShown_, newFramesShown_);
  }
}

std::string FrameLoop::writeStatsJson(const std::string& path) const {
  FrameStats s = stats_;
  if (s.source.empty()) s.source = playingSource_;
  const Mask& m = model_.mask();
  std::string mask = specForMask(m, {});  // too large to spell out: its size
  if (mask.empty()) mask = "custom " + std::to_string(m.width) + "x" + std::to_string(m.height);
  // The parameters as their flags spell them (the mask above, as a spec).
  std::vector<std::pair<std::string, std::string>> parameters;
  for (const ParamDescription& d : paramDescriptions())
    if (d.id != ParamId::Mask && d.id != ParamId::Device)
      parameters.emplace_back(d.flag + 2, modelParamText(model_, d.id));
  // Whole or not at all (staged): a full disk keeps an older stats file as it was.
  return media::writeStaged(path, log_.toJson(s, framesShown_, redraws_, videoFps(), mask, parameters));
}

}  // namespace liveconv::ui
