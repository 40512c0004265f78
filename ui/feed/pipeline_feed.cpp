// The windows' one feed, for every source kind (a file, camera, stream,
// lavfi graph, pipe, the test pattern, synthetic frames): the source on a
// decode thread "lc-decode", the engine's Pipeline with the live policy, and a
// thread "lc-present" that keeps only the newest filtered frame for the UI.
// What it needs from FFmpeg goes through feed_sources.hpp, so a build without
// FFmpeg plays the generated sources through the same code.
//
//   lc-decode: the one decode loop (liveconv/media/decode_loop.hpp, as `liveconv run`'s): open, pace to the
//              clip's clock x speed, push -> Pipeline -> lc-present: pop, record, mailbox
//              (a frame too late to show is dropped as decode late, as in `liveconv run`: one LiveClock)
//   UI thread: advance() takes the mailbox without waiting and steers the decoder with commands
//              (play, hold, step, seek, refilter, format, playback); setParams() goes to
//              Pipeline::setParams, so a kernel build runs on the pipeline's "lc-build" thread.
//
// Each filtered frame comes out of the pipeline with its source pixels (lent
// to it, shared, not copied), its position and the moment the decode thread
// handed it over, so the compare split shows exactly the frame that was
// filtered and the window measures source-to-screen latency per frame.
//
// Display path. Where the display link opened the device for zero-copy
// (cl_khr_gl_sharing), the pipeline keeps each filtered frame on the device
// (PipelineOptions::keepOnDevice) and reads nothing back; the UI thread copies
// the newest one into the display's GL pixel buffer, device to device, between
// the target's acquire and release, and hands the pipeline that copy's event
// as the buffer's last use. Recording asks the pipeline for host pixels as well.
// Otherwise each frame comes back through the pipeline's pinned staging.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>

#include "feed/display_copy.hpp"
#include "feed/feed_recording.hpp"
#include "feed/feed_sources.hpp"
#include "feed/feeds.hpp"
#include "feed/first_launch_helper.hpp"
#include "feed/param_sets.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/live_clock.hpp"
#include "liveconv/media/decode_loop.hpp"
#include "liveconv/media/reconnecting_source.hpp"
#include "liveconv/media/recorder.hpp"
#include "liveconv/media/source_kinds.hpp"
#include "liveconv/pipeline.hpp"
#include "liveconv/variants.hpp"

namespace liveconv::ui {
namespace {

using Clock = std::chrono::steady_clock;
using media::DecoderCommand;

struct Shown {
  ImageView source;                        // the pixels it was filtered from, kept alive by sourceOwner
  // Planes mode: the planes filtered (kept alive by sourceOwner too) and their result.
  std::vector<ImageView> sourcePlanes;
  std::vector<Image> filteredPlanes;
  std::shared_ptr<const void> sourceOwner;
  Clock::time_point handedOverAt{};        // when lc-decode handed its source to the pipeline
  Image filtered;                          // host pixels (readback path, or while recording)
  std::shared_ptr<DeviceFrame> onDevice;   // zero-copy path: the pipeline's buffer, until copied for display
  int width = 0, height = 0;
  PixelFormat format = PixelFormat::Invalid;
  std::uint64_t index = 0, version = 0;
  VariantId variantAsked = VariantId::Invalid, variantRan = VariantId::Invalid;  // of the set that filtered it
};

// Size: three threads meet here (lc-decode's callbacks, lc-present's mailbox,
// the UI thread's steering) around one pipeline that a device change
// restarts, under one mutex; what needs no part of that meeting has a
// class of its own (ParamSets, FeedRecording, DisplayCopy, the DecodeLoop).
class PipelineFeed final : public FrameFeed {
 public:
  PipelineFeed(std::string source, SourceOpener opener, const LiveClockOptions& clock, std::string selector,
               std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display, OpenControl control = {})
      : sourceText_(std::move(source)),
        open_(control),
        hwaccel_(control.hwaccel),
        planes_(control.planes),
        opener_(std::move(opener)),
        clock_(clock),
        selector_(std::move(selector)),
        display_(display) {
    if (!initial) throw InvalidArgument("The viewer started without valid filter parameters.");
    // Opened here, on the thread that opens feeds (FeedSwitcher's), not on the
    // decode thread: a source that cannot be opened (a stream that refuses, a
    // file that is not video) fails the open, and the source playing stays.
    if (opener_ || media::sourceKindOf(sourceText_).id != media::SourceKindId::Synthetic)
      firstSource_ = openSource(initial->format);
    open_ = {};  // the open is over: from here on only stop() ends the source's waits
    // A decoder that converts to either format switches in place (setFormat),
    // without opening the source, the device or the pipeline again.
    // A source of more than 8 bits plays at 16 (engineFormat), from its first frame.
    // In planes mode the format is the picture shown; the planes keep theirs.
    formatInPlace_ = planes_ || (firstSource_ && firstSource_->setFormat(engineFormat(initial->format)));
    // The test pattern has no clock of its own worth keeping: the window pulls
    // it, one frame per frame shown, as fast as the window shows them (steer()).
    pulled_ = !opener_ && media::sourceKindOf(sourceText_).id == media::SourceKindId::TestPattern;
    held_ = pulled_;
    start(initial);
  }
  ~PipelineFeed() override {
    stop();
    stopRecording();
    dropDisplayTarget();
  }

  bool changesFormatInPlace() const override { return formatInPlace_; }
  bool filtersPlanes() const override { return planes_; }

  void setParams(std::shared_ptr<const ParamsSnapshot> next) override {
    if (!next || next->version <= sets_.requestedVersion()) return;
    try {
      const bool newFormat = next->format != sets_.requested()->format;
      if (next->deviceIndex != sets_.applied()->deviceIndex || (newFormat && !formatInPlace_)) {
        // A new device (or a pixel format the decoder cannot switch to) needs new buffers: start over.
        stop();
        start(next);
      } else {
        // Built for the format the decoder switches to; frames of the old one still in flight keep their kernel.
        // Asked for before the decoder switches: its first frame in the new format waits for this set (and
        // carries its version), not for the old set built again for the new format.
        pipeline_->setParams(
            next->filter, next->version,
            planes_ ? PixelFormat::Invalid : engineFormat(next->format));  // the model's version is its tag
        if (newFormat && planes_)
          shownFormat_ = engineFormat(next->format);  // the planes' picture, from the next frame
        if (newFormat && !planes_) switchFormat(engineFormat(next->format));
        sets_.building(next);
      }
    } catch (const BuildError& e) {
      sets_.refused(*next, e.what(), e.buildLog());
    } catch (const std::exception& e) {
      sets_.refused(*next, e.what(), {});
    }
    if (!pipeline_) start(sets_.applied());  // a restart that failed: go back to what ran
  }

  FeedFrame advance(Advance mode) override {
    if (pipeline_) sets_.poll(*pipeline_);
    // The newest filtered frame first, so what follows judges the frame it shows.
    bool fresh = false, refilter = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (latest_.sourceOwner) {
        shown_ = std::move(latest_);
        latest_ = Shown();
        fresh = true;
        sets_.freshFrame();
        ++framesShown_;
      }
    }
    // Paused: the frame on screen again, with the newest set or a later kernel of its own.
    if (mode == Advance::Hold && shown_.sourceOwner && pipeline_)
      refilter = sets_.refilterPaused(shown_.version, pipeline_->kernelWaiting());
    steer(mode, refilter, fresh);
    if (fresh && shown_.onDevice) showOnDevice();
    FeedFrame f;
    if (shown_.sourceOwner) {
      f.source = shown_.source;
      f.sourcePlanes = shown_.sourcePlanes;
      for (const Image& p : shown_.filteredPlanes) f.filteredPlanes.push_back(p.view());
      if (displayCopy_.pixelBuffer()) {
        f.filtered = {nullptr, shown_.width, shown_.height, 0, shown_.format};  // the pixels are in the GL buffer
        f.glPixelBuffer = displayCopy_.pixelBuffer();
      } else {
        f.filtered = shown_.filtered.view();
      }
    }
    f.index = shown_.index;
    f.paramsVersion = shown_.version;
    f.sourceAt = shown_.handedOverAt;
    f.fresh = fresh;
    return f;
  }

  FrameStats stats() const override {
    const StatsSnapshot s = pipeline_->stats().snapshot();
    auto median = [&](Stage stage) { return s.stages[static_cast<int>(stage)].medianMs; };
    FrameStats out;
    out.stages.decodeMs = median(Stage::Decode) + median(Stage::Convert);
    out.stages.uploadMs = median(Stage::Upload);
    out.stages.kernelMs = median(Stage::Kernel);
    out.stages.readbackMs = displayCopy_.zeroCopy() ? displayCopy_.copyMs() : median(Stage::Readback);
    out.frameWidth = s.width;
    out.frameHeight = s.height;
    out.megapixelsPerSecond = megapixelsPerSecond(s.width, s.height, out.stages.kernelMs);
    out.engineFormat = engineFormat(sets_.applied()->format);
    if (planes_) {  // the planes' own format (each plane's), not the picture's
      std::lock_guard<std::mutex> lock(mutex_);
      out.planes = planesText_;
      out.engineFormat = sourcePlanes_.empty() ? PixelFormat::Invalid : sourcePlanes_[0].format;
    }
    out.sourceBits = sourceBits_.load();
    out.gigabytesPerSecond =
        gigabytesPerSecond(s.width, s.height, bytesPerPixel(out.engineFormat), out.stages.kernelMs);
    auto dropped = [&](liveconv::DropCause c) { return static_cast<std::uint64_t>(s.dropped[static_cast<int>(c)]); };
    const FeedRecording::Status recording = recording_.status();
    out.recordingPath = recording.path;
    out.recordedFrames = recording.frames;
    std::lock_guard<std::mutex> lock(mutex_);
    out.drops = {{"decoder late", dropped(liveconv::DropCause::DecodeLate)},
                 {"engine busy", dropped(liveconv::DropCause::EngineLate)},
                 {"output queue full", dropped(liveconv::DropCause::OutputLate)},
                 {"display late", displayLate_}};
    out.framesShown = framesShown_;
    out.framesTotal = framesShown_;
    for (const DropCause& d : out.drops) out.framesTotal += d.count;
    out.device = device_->info.name;
    // The variant that filtered the frame on screen (until one is, the set in force).
    out.variantAsked = shown_.sourceOwner ? shown_.variantAsked : pipeline_->currentParams().variant;
    out.variantRan = shown_.sourceOwner ? shown_.variantRan : pipeline_->lastVariant();
    out.displayPath = displayCopy_.zeroCopy() ? DisplayPath::ZeroCopy : DisplayPath::Readback;
    out.displayPathText = displayCopy_.path();
    const ParamSets::Refusal& refusal = sets_.refusal();
    out.error = refusal.error;
    out.buildLog = refusal.buildLog;
    out.rejectedVersion = refusal.version;
    out.rejectedVariant = refusal.variant;
    out.source = sourceDescription_;
    out.sourceMessage = recording.failure.empty() ? sourceMessage_ : recording.failure;
    out.positionSeconds = position_;
    out.durationSeconds = durationSeconds_;
    out.frameSeconds = static_cast<double>(rateDen_.load()) / std::max(1, rateNum_.load());
    out.race = pipeline_->lastRace();
    out.comparing = pipeline_->comparing();
    return out;
  }

  bool compareVariants() override { return pipeline_->compareVariants(); }

  bool seek(double seconds) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (durationSeconds_ <= 0) return false;  // live, or a stream of unknown length
      seconds = std::clamp(seconds, 0.0, durationSeconds_);
    }
    return decoder_ && decoder_->post(DecoderCommand::seek(seconds));
  }

  void setPlayback(const Playback& playback) override {
    playback_ = playback;
    if (decoder_) decoder_->post(DecoderCommand::setPlayback(playback.loop, playback.speed));
  }

  std::string whyNoRecording() const override { return whyNoRecordingInThisBuild(); }

  std::string startRecording(const std::string& path) override {
    try {
      // At the source's times (media::RecordingClock), its nominal rate where the container needs a constant one.
      std::string leftovers;
      const int rateNum = std::max(1, rateNum_.load()), rateDen = std::max(1, rateDen_.load());
      std::shared_ptr<media::StreamCopy> description;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        description = sourceDescriptionForRecording_;
      }
      auto sink = openRecordingSink(path, rateNum, rateDen, &leftovers, std::move(description));
      // What killed runs left beside it is said (only `liveconv run -y` removes it unasked).
      if (!leftovers.empty()) {
        std::lock_guard<std::mutex> lock(mutex_);
        sourceMessage_ = "The folder of " + path + ": " + leftovers;
      }
      recording_.begin(std::make_shared<media::Recorder>(std::move(sink), path,
                                                         double(rateDen) / rateNum));  // encodes on lc-record
      if (pipeline_) pipeline_->setDeliverPixels(true);  // zero-copy: the encoder needs host pixels too
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  // The decoder converts to `format` from its next frame on. A paused
  // picture is decoded again in it (a file: at the position shown; a live or
  // generated source: its next frame: the decode loop's SetFormat). A
  // recording ends here: a file keeps one pixel format.
  void switchFormat(PixelFormat format) {
    if (recording_.active()) {  // (FrameLoop ends it before it asks for another format: this is the fallback)
      recording_.endUnclaimed();
      if (pipeline_ && displayCopy_.zeroCopy()) pipeline_->setDeliverPixels(false);
      std::lock_guard<std::mutex> lock(mutex_);
      sourceMessage_ = std::string("Recording stopped at the switch to ") + toString(format) +
                       ": a recording keeps one pixel format.";
    }
    if (decoder_) decoder_->post(DecoderCommand::setFormat(format));
  }

  // The recorder writes what it still holds and finishes the file on lc-record;
  // the caller (the UI thread) does not wait for it.
  std::shared_ptr<FinishingRecording> stopRecording() override {
    auto ending = recording_.end();
    if (ending && pipeline_ && displayCopy_.zeroCopy()) pipeline_->setDeliverPixels(false);
    return ending;
  }

 private:
  // Opens the device and builds the kernel here (errors go to the caller),
  // then starts the threads; the source itself opens on the decode thread.
  void start(std::shared_ptr<const ParamsSnapshot> params) {
    const std::string sel = params->deviceIndex < 0 ? selector_ : std::to_string(params->deviceIndex);
    OpenedDevice opened = openDevice(display_, sel);
    auto device = std::move(opened.device);
    PipelineOptions options;
    options.policy = QueuePolicy::Live;
    // A window shows the newest frame: one on the device, the newest waiting,
    // so neither a frame nor an edit waits behind a queue of older frames.
    options.queueCapacity = 2;
    options.showNewest = true;
    // The first kernel comes from the pipeline's builder (for `auto`: a stopgap
    // where the announced frame size affords it, else the provisional kernel),
    // and so does every later one; a format switch finds its kernels built.
    options.liveEdits = true;
    options.firstLaunchElsewhere = offeredFirstLaunchHelper();  // PoCL's first launches: off this process
    if (firstSource_) {
      firstSource_->frameSize(&options.expectedWidth, &options.expectedHeight);
      options.expectedLayout = firstSource_->planesLayout();  // its conversion's first launch: here
    }
    options.format = engineFormat(params->format);
    options.paramsTag = params->version;  // frames say which of the model's versions filtered them
    // A decoded source hands out its planes, converted on the device (4-5 ms
    // of a core less per 720p frame than swscale on the 2-core machine); the
    // picture they became comes back with each result, for the compare split
    // and the check. The conversion's kernel is built here, not on the frame path.
    options.prepareYuvConversion = decodesPlanes() && bytesPerSample(options.format) == 1;  // 16 bits: swscale
    options.returnSource = true;
    if (opened.target) {
      options.keepOnDevice = true;
      options.deliverPixels = recording_.active();
      // One buffer waits for the UI thread's copy, one for the presenter's mailbox, one is filtered into.
      options.deviceSlots = 3;
    }
    std::unique_ptr<LiveChannel> pipeline;
    if (planes_) {  // the pictures are made from the planes on the CPU: no device buffer to show
      pipeline = planesChannel(device, params);
      if (opened.target) opened.displayPath = "interop: readback (planes mode: the picture is made from the planes)";
      opened.target.reset();
    } else {
      pipeline = std::make_unique<Pipeline>(device, params->filter, options);
    }
    dropDisplayTarget();  // the old device's GL buffer goes before its context
    displayCopy_.open(*device, std::move(opened.target), opened.displayPath);
    pipeline_ = std::move(pipeline);
    device_ = std::move(device);
    sets_.started(params);
    sourceStop_ = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sourceMessage_ = decoderNote_;  // what the open said stays; older messages go
    }
    decoder_ = std::make_unique<media::DecodeLoop>(std::move(firstSource_), *pipeline_,
                                                   decodeOptions(engineFormat(params->format)));
    if (held_) decoder_->post(DecoderCommand::hold());  // a restart (another device) while paused stays paused
    stepsInFlight_ = 0;
    decoder_->start();
    presenter_ = std::thread([this] { presentLoop(); });
  }

  // Planes mode: every plane filtered with the window's mask, live edits as
  // the pipeline takes them, the whole picture dropped where the device is late.
  std::unique_ptr<LiveChannel> planesChannel(const std::shared_ptr<DeviceContext>& device,
                                             const std::shared_ptr<const ParamsSnapshot>& params) {
    if (!firstSource_ && sourcePlanes_.empty()) firstSource_ = openSource(params->format);  // the planes' shape
    PlanesOptions options;
    options.policy = QueuePolicy::Live;
    options.queueCapacity = 2;
    options.liveEdits = true;
    options.paramsTag = params->version;
    options.returnSource = true;
    options.planes = sourcePlanes_;
    shownFormat_ = engineFormat(params->format);
    return std::make_unique<PlanesChannel>(
        device, std::vector<std::optional<FilterParams>>(options.planes.size(), params->filter), options);
  }

  // How lc-decode plays the source: paced to its clock, the frame pushed last
  // kept for a refilter, looped as the playback says; what it reports goes to the overlay.
  media::DecodeOptions decodeOptions(PixelFormat format) {
    media::DecodeOptions d;
    d.format = format;
    d.paceToClock = true;
    d.clock = clock_;
    d.keepLastFrame = true;
    d.loop = playback_.loop;
    d.speed = playback_.speed;
    d.open = [this](PixelFormat f) { return openSource(f); };  // when the constructor opened none, and to loop
    d.described = [this](const FrameSource& source) {
      std::lock_guard<std::mutex> lock(mutex_);
      sourceDescription_ = source.describe();
      durationSeconds_ = source.isLive() ? 0 : source.durationSeconds();
      startSeconds_ = source.startSeconds();
    };
    d.message = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      sourceMessage_ = line;
    };
    d.finished = [this](media::DecodeEnd end, const std::exception_ptr& error) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (end == media::DecodeEnd::SourceEnded)
        sourceMessage_ = "End of " + sourceDescription_ + " (turn on loop to play it again).";
      if (!error) return;
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        sourceMessage_ = e.what();
      }
    };
    return d;
  }

  // UI thread: the decoder hears of a change of mode (not of every pass), each step, and each refilter.
  // A pulled source (the test pattern) is held and stepped: while playing,
  // the next frame is asked for once the one asked for last is on screen.
  void steer(Advance mode, bool refilter, bool fresh) {
    if (!decoder_) return;
    if (fresh && stepsInFlight_ > 0) --stepsInFlight_;
    if (pulled_ && mode == Advance::Play) {
      // One at a time: the frame asked for is filtered at once, never behind another.
      if (stepsInFlight_ == 0 && decoder_->post(DecoderCommand::step())) ++stepsInFlight_;
    } else if (mode == Advance::Step) {
      decoder_->post(DecoderCommand::step());
      held_ = true;
    } else if ((mode == Advance::Hold) != held_) {
      held_ = mode == Advance::Hold;
      decoder_->post(held_ ? DecoderCommand::hold() : DecoderCommand::play());
    }
    if (refilter) decoder_->post(DecoderCommand::refilter());
  }

  void stop() {
    sourceStop_ = true;  // ends a read FFmpeg is waiting in
    if (decoder_) decoder_->post(DecoderCommand::stop());
    if (pipeline_) pipeline_->cancel();
    decoder_.reset();  // joins lc-decode, which holds the pipeline
    if (presenter_.joinable()) presenter_.join();
    pipeline_.reset();
    std::lock_guard<std::mutex> lock(mutex_);
    latest_.onDevice.reset();
  }

  // Zero-copy: the newest frame goes from the pipeline's buffer into the
  // display's (UI thread, GL context current), and the pipeline gets its
  // buffer back with the copy as its last use. The copy's device time, read
  // once it has completed (never waited for), is the overlay's interop stage.
  void showOnDevice() {
    if (const std::string why = displayCopy_.show(std::move(shown_.onDevice)); !why.empty()) {
      std::lock_guard<std::mutex> lock(mutex_);
      sourceMessage_ = why;
    }
  }

  void dropDisplayTarget() {
    displayCopy_.drop();
    shown_.onDevice.reset();
  }

  // A live source (a camera, a stream) that goes away mid-stream is waited
  // for and reopened as `liveconv run --reconnect` does (its default 10 s), each
  // wait said in the overlay's source message; a failed first open is said at once.
  std::unique_ptr<FrameSource> openSource(PixelFormat format) {
    auto report = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      sourceMessage_ = line;
    };
    auto stop = [this] { return sourceStop_.load() || (open_.abandoned && open_.abandoned()); };
    return media::openReconnecting([this, format] { return openOnce(format); }, false, media::ReconnectPolicy(), report,
                                   stop);
  }
  // The format the engine filters for the model's `format` (rgba, gray): at
  // 16 bits for a source of more than 8 (a 10-bit clip), as `run --depth auto`;
  // the display shows it on its 8-bit path, a recording keeps the depth.
  PixelFormat engineFormat(PixelFormat format) const { return withSampleBits(format, sourceBits_ > 8 ? 16 : 8); }

  // FFmpeg's sources; the generated ones (the test pattern, synthetic frames)
  // and a caller's own opener hand out pixels.
  bool decodesPlanes() const {
    if (opener_) return false;
    const media::SourceKindId kind = media::sourceKindOf(sourceText_).id;
    return kind != media::SourceKindId::Synthetic && kind != media::SourceKindId::TestPattern;
  }

  std::unique_ptr<FrameSource> openOnce(PixelFormat format) {
    if (opener_) return opener_(format);
    FeedSourceRequest request;
    request.text = sourceText_;
    request.format = format;
    request.device = device_;
    // A stream that sends nothing holds up neither stop() nor an open no longer wanted.
    request.stop = [this] { return sourceStop_.load() || (open_.abandoned && open_.abandoned()); };
    request.openTimeoutSeconds = open_.timeoutSeconds;
    request.hwaccel = hwaccel_;
    request.convertOnDevice = decodesPlanes() && !planes_;
    request.planes = planes_;
    FeedSource opened = openFeedSource(request);
    if (!opened.note.empty() && opened.note != decoderNote_) {  // the decoder chosen, or why not the hardware: said once
      std::lock_guard<std::mutex> lock(mutex_);
      sourceMessage_ = decoderNote_ = opened.note;  // (a loop's reopen says nothing new)
    }
    rateNum_ = opened.rateNum;
    rateDen_ = opened.rateDen;
    sourceBits_ = opened.sampleBits;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (planes_) {
        sourcePlanes_ = opened.planes;
        planesText_ = opened.planeNames;
        if (!pictures_) pictures_ = makePlanesPictures(opened.description);
      }
      sourceDescriptionForRecording_ = std::move(opened.description);
    }
    return std::move(opened.source);
  }

  void presentLoop() {
    setThreadName("lc-present");
    try {
      while (std::optional<Frame> frame = pipeline_->pop()) {
        recording_.record(*frame);          // a copy to the recorder, which encodes it on lc-record
        if (planes_) showPlanes(*frame);    // the planes' pictures, before and after
        if (!frame->sourceOwner) continue;  // every frame this feed pushes lends its pixels
        hand(*frame);
        if (display_) display_->frameReady();
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex_);
      sourceMessage_ = e.what();
    }
  }

  // Planes mode (lc-present): the source planes and the filtered ones as the
  // pictures they show, in the window's format, lent to the frame as a
  // decoded frame's pixels are; the planes stay with it for the check.
  void showPlanes(Frame& frame) {
    if (!frame.sourcePlanes || frame.planes.empty()) return;
    struct Owned {
      Image picture;
      std::shared_ptr<const std::vector<Image>> planes;
    };
    auto source = std::make_shared<Owned>();
    const PixelFormat to = shownFormat_.load();
    source->picture = pictures_->picture(*frame.sourcePlanes, frame.planesFormat, to);
    source->planes = frame.sourcePlanes;
    frame.image = pictures_->picture(frame.planes, frame.planesFormat, to);
    frame.sourcePixels = source->picture.view();
    frame.sourceOwner = source;
  }

  // The filtered frame into the display's slot (an older one not yet taken goes back to the pipeline).
  void hand(Frame& frame) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (latest_.sourceOwner) ++displayLate_;  // replaced before the UI took it
    latest_.source = frame.sourcePixels;
    latest_.sourcePlanes.clear();
    if (frame.sourcePlanes)
      for (const Image& p : *frame.sourcePlanes) latest_.sourcePlanes.push_back(p.view());
    latest_.filteredPlanes = std::move(frame.planes);
    latest_.sourceOwner = std::move(frame.sourceOwner);
    latest_.handedOverAt = frame.handedOverAt;
    if (frame.hasPts) position_ = frame.ptsSeconds - startSeconds_;
    latest_.filtered = std::move(frame.image);
    latest_.onDevice = std::move(frame.onDevice);  // an older one not yet shown goes back to the pipeline
    latest_.width = latest_.source.width;  // the filtered frame has its source's shape
    latest_.height = latest_.source.height;
    latest_.format = latest_.source.format;
    latest_.index = static_cast<std::uint64_t>(frame.index);
    latest_.version = frame.paramsTag;
    latest_.variantAsked = frame.variantAsked;
    latest_.variantRan = frame.variantRan;
  }

  const std::string sourceText_;
  OpenControl open_;  // while the constructor opens the source (on lc-open)
  const std::string hwaccel_;  // --hwaccel, for every open of the source (a loop, a reconnection)
  const bool planes_;          // planes mode (OpenControl::planes), fixed for the feed's life
  // Planes mode: the source's planes (from its open), what they hold, the
  // pictures' maker (lc-present) and the format they are shown in.
  std::vector<PlanesOptions::Plane> sourcePlanes_;
  std::string planesText_;
  std::unique_ptr<PlanesPictures> pictures_;
  std::atomic<PixelFormat> shownFormat_{PixelFormat::RGBA8};
  const SourceOpener opener_;  // when set, in place of sourceText_
  const LiveClockOptions clock_;
  const std::string selector_;
  const DisplayLink* display_;
  // Zero-copy display (UI thread): the display's buffer, the queue that copies into it.
  DisplayCopy displayCopy_;
  std::shared_ptr<DeviceContext> device_;
  std::unique_ptr<LiveChannel> pipeline_;            // a Pipeline, or in planes mode a PlanesChannel
  ParamSets sets_;                                   // UI thread
  // The source's sample bits (FeedSource::sampleBits), known once it is open:
  // more than 8 plays at 16 (engineFormat).
  std::atomic<int> sourceBits_{8};
  bool formatInPlace_ = false;                       // the decoder switches formats (setFormat); fixed at open
  bool held_ = false;                                // UI thread: the decoder was told to hold
  bool pulled_ = false;                              // the source is stepped, one frame per frame shown
  int stepsInFlight_ = 0;                            // UI thread: pulled frames asked for, not yet shown
  Playback playback_;                                // UI thread: the decoder's last SetPlayback
  std::atomic<int> rateNum_{30}, rateDen_{1};

  // Shared between the threads, under mutex_.
  mutable std::mutex mutex_;
  std::atomic<bool> sourceStop_{false};  // stop() asks the decoder's waits on the source (SourceSpec::stop)
  double position_ = -1;         // of the frame presented last, seconds from the clip's start
  double durationSeconds_ = 0;   // 0: live or unknown
  double startSeconds_ = 0;      // the timestamp of the clip's first frame
  Shown latest_;
  std::uint64_t framesShown_ = 0, displayLate_ = 0;
  std::string sourceDescription_, sourceMessage_;
  std::string decoderNote_;                   // the last --hwaccel line of an open (FeedSource::note)
  // The source opened last, as a recording describes it (FeedSource::description).
  std::shared_ptr<media::StreamCopy> sourceDescriptionForRecording_;
  std::unique_ptr<FrameSource> firstSource_;  // opened by the constructor, taken by the first decode loop

  Shown shown_;  // UI thread

  FeedRecording recording_;

  std::unique_ptr<media::DecodeLoop> decoder_;  // lc-decode; holds pipeline_ while it runs
  std::thread presenter_;
};

}  // namespace

std::unique_ptr<FrameFeed> makePipelineFeed(const std::string& source, const std::string& deviceSelector,
                                            std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display,
                                            OpenControl control) {
  return std::make_unique<PipelineFeed>(source, nullptr, LiveClockOptions(), deviceSelector, std::move(initial),
                                        display, std::move(control));
}

std::unique_ptr<FrameFeed> makePipelineFeed(SourceOpener opener, const LiveClockOptions& clock,
                                            const std::string& deviceSelector,
                                            std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display) {
  if (!opener) throw InvalidArgument("A decoded feed needs a source.");
  return std::make_unique<PipelineFeed>("", std::move(opener), clock, deviceSelector, std::move(initial), display);
}

}  // namespace liveconv::ui
