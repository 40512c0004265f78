#include "liveconv/media/decode_loop.hpp"

#include <algorithm>
#include <chrono>

#include "liveconv/errors.hpp"
#include "liveconv/thread_name.hpp"

namespace liveconv::media {
namespace {

using Clock = std::chrono::steady_clock;
using Kind = DecoderCommand::Kind;
constexpr double kFallbackFps = 30;                         // frames without timestamps are paced at this rate
constexpr auto kStopPoll = std::chrono::milliseconds(100);  // how often a wait asks stopWhen

// Whether a command posted now makes one still waiting pointless.
bool supersedes(Kind newer, Kind older) {
  switch (newer) {
    case Kind::Play:
    case Kind::Hold:
      return older == Kind::Play || older == Kind::Hold;
    case Kind::Seek:
    case Kind::SetFormat:
    case Kind::SetPlayback:
    case Kind::Refilter:
      return older == newer;
    default:
      return false;
  }
}

// Pixels that stay as they are while the frame is kept: the decoder's own
// image (moved, not copied), or a copy where the source lends buffers it hands out again.
std::shared_ptr<Image> keepPixels(Frame& frame) {
  if (!frame.external.data) return std::make_shared<Image>(std::move(frame.image));
  const ImageView& from = frame.external;
  auto pixels = std::make_shared<Image>(from.width, from.height, from.format);
  for (int y = 0; y < from.height; ++y) std::copy_n(from.row(y), from.rowBytes(), pixels->view().row(y));
  return pixels;
}

}  // namespace

DecodeLoop::DecodeLoop(std::unique_ptr<FrameSource> source, FrameChannel& channel, DecodeOptions options)
    : owned_(std::move(source)), source_(owned_.get()), channel_(channel), options_(std::move(options)) {
  if (!source_ && !options_.open) throw InvalidArgument("The decode loop needs a source or a way to open one.");
}

DecodeLoop::DecodeLoop(FrameSource& source, FrameChannel& channel, DecodeOptions options)
    : source_(&source), channel_(channel), options_(std::move(options)) {}

DecodeLoop::~DecodeLoop() {
  stop();
}

void DecodeLoop::start() {
  loop_ = options_.loop;
  speed_ = options_.speed;
  format_ = wantFormat_ = options_.format;
  thread_ = std::thread([this] { run(); });
}

bool DecodeLoop::post(const DecoderCommand& command) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ended_ || stopping_) return false;
    if (command.kind == Kind::Stop) {
      stopping_ = true;
      commands_.clear();
    } else {
      commands_.erase(std::remove_if(commands_.begin(), commands_.end(),
                                     [&](const DecoderCommand& c) { return supersedes(command.kind, c.kind); }),
                      commands_.end());
      if (commands_.size() >= options_.capacity) return false;
    }
    commands_.push_back(command);
  }
  posted_.notify_all();
  return true;
}

void DecodeLoop::stop() {
  post(DecoderCommand::stop());
  join();
}

DecodeEnd DecodeLoop::join() {
  if (thread_.joinable()) thread_.join();
  return end_;
}

void DecodeLoop::run() {
  setThreadName("lc-decode");
  try {
    end_ = loop();
  } catch (...) {
    error_ = std::current_exception();
    end_ = DecodeEnd::Failed;
  }
  if (source_) countCorrupt();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
  }
  if (options_.finished) options_.finished(end_, error_);
  channel_.endOfInput();
}

DecodeEnd DecodeLoop::loop() {
  if (!source_) {
    owned_ = options_.open(format_);
    source_ = owned_.get();
  }
  live_ = source_->isLive();
  if (options_.described) options_.described(*source_);
  LiveClock clock(options_.clock, channel_.policy() == QueuePolicy::Live ? LateFrames::Drop : LateFrames::Keep);
  for (;;) {
    const Next next = waitForNext();
    if (next == Next::Stop) return DecodeEnd::Stopped;
    followFormat();
    if (next == Next::Refilter) {
      if (!pushKept()) return DecodeEnd::ChannelClosed;
      continue;
    }
    if (next == Next::Redecode && lastPosition_ >= 0) {  // a file: the frame shown
      source_->seek(lastPosition_);
      ++timeline_;
    }
    if (next == Next::Seek) {
      if (!source_->seek(seekTo_) && options_.message) options_.message("This source cannot seek.");
      seekTo_ = -1;
      lastPts_ = -1;
      ++timeline_;      // the clip's times jump here
      clock.restart();  // the clip's clock starts again at the new place
    }
    if (options_.maxFrames >= 0 && read_ >= options_.maxFrames) return DecodeEnd::FrameLimit;
    Frame frame;
    if (!read(frame, clock)) return DecodeEnd::SourceEnded;
    ++read_;
    countCorrupt();
    const Paced paced = pace(clock, frame);
    if (paced == Paced::Stop) return DecodeEnd::Stopped;
    if (paced == Paced::Skip) continue;  // a seek came while it waited for its time
    if (paced == Paced::Drop) {
      channel_.stats().decodeLate();
      ++index_;
      continue;
    }
    if (frame.width() != describedWidth_ || frame.height() != describedHeight_) {
      describedWidth_ = frame.width();  // a stream that changed its size mid-way is described again
      describedHeight_ = frame.height();
      if (options_.described) options_.described(*source_);
    }
    if (!push(std::move(frame))) return DecodeEnd::ChannelClosed;
  }
}

bool DecodeLoop::stopAsked() const {
  return stopping_ || (options_.stopWhen && options_.stopWhen());
}

DecodeLoop::Next DecodeLoop::waitForNext() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (stopAsked()) return Next::Stop;
    while (!commands_.empty()) {
      const DecoderCommand c = commands_.front();
      commands_.pop_front();
      apply(c);
    }
    // A frame decoded now is filtered with the newest parameters: a refilter asked for before it is moot.
    if (seekTo_ >= 0) {
      redecode_ = refilter_ = false;  // the seek decodes in the new format too
      return Next::Seek;
    }
    if (std::exchange(redecode_, false) && held_) {
      refilter_ = false;
      return Next::Redecode;
    }
    if (!held_) {
      refilter_ = false;
      return Next::Frame;
    }
    if (steps_ > 0) {
      --steps_;
      refilter_ = false;
      return Next::Frame;
    }
    // A refilter of a frame in another format than asked is a decode in it (a format switch).
    if (std::exchange(refilter_, false) && kept_.owner &&
        (wantFormat_ == PixelFormat::Invalid || kept_.sourcePlanes || kept_.pixels.format == wantFormat_))
      return Next::Refilter;
    if (options_.stopWhen)
      posted_.wait_for(lock, kStopPoll);
    else
      posted_.wait(lock);
  }
}

void DecodeLoop::apply(const DecoderCommand& c) {
  switch (c.kind) {
    case Kind::Play:
      held_ = false;
      steps_ = 0;
      break;
    case Kind::Hold:
      held_ = true;
      break;
    case Kind::Step:
      held_ = true;
      ++steps_;
      break;
    case Kind::Seek:
      seekTo_ = std::max(0.0, c.seconds);
      break;
    case Kind::Refilter:
      refilter_ = true;
      break;
    case Kind::SetFormat:
      wantFormat_ = c.format;
      redecode_ = true;  // taken only while held: playing, the next frame comes in it anyway
      break;
    case Kind::SetPlayback:
      loop_ = c.loop;
      speed_ = c.speed;
      break;
    default:
      break;
  }
}

// A format switch asked for reaches the decoder before its next frame.
void DecodeLoop::followFormat() {
  if (wantFormat_ != PixelFormat::Invalid && wantFormat_ != format_ && source_->setFormat(wantFormat_))
    format_ = wantFormat_;
}

void DecodeLoop::countCorrupt() {
  for (const long long c = source_->corruptPackets(); corruptSeen_ < c; ++corruptSeen_)
    channel_.stats().corruptPacket();
}

// The next frame, opening a file again at its end when looping (its clock
// starts again); false at the end.
bool DecodeLoop::read(Frame& frame, LiveClock& clock) {
  const auto t0 = Clock::now();
  if (!source_->next(frame)) {
    if (!loop_ || live_ || !options_.open || !owned_) return false;
    countCorrupt();
    owned_ = options_.open(format_);
    source_ = owned_.get();
    corruptSeen_ = 0;
    ++timeline_;  // the clip's times start again
    if (!source_->next(frame)) return false;
    clock.restart();
  }
  if (frame.decodeMs == 0)
    frame.decodeMs =
        std::max(0.0, std::chrono::duration<double, std::milli>(Clock::now() - t0).count() - frame.convertMs);
  return true;
}

// Held, a frame goes at once. Otherwise a live source is judged by the clock
// (late: dropped where the channel drops late frames), and a file paced to it
// waits for its time, unless a stop or a seek comes first.
DecodeLoop::Paced DecodeLoop::pace(LiveClock& clock, const Frame& frame) {
  const double pts = frame.ptsSeconds > 0 || lastPts_ < 0 ? frame.ptsSeconds : lastPts_ + 1 / kFallbackFps;
  lastPts_ = pts;
  if (held_) {
    clock.restart();  // stepping: no clock
    return Paced::Push;
  }
  if (!live_ && !options_.paceToClock) return Paced::Push;
  const double speed = live_ ? 1 : std::max(0.05, speed_);
  const LiveClock::Decision d = clock.judge(pts, Clock::now(), speed);
  if (d.verdict == LiveClock::Verdict::Late) return Paced::Drop;
  if (d.verdict != LiveClock::Verdict::Early || live_) return Paced::Push;
  std::unique_lock<std::mutex> lock(mutex_);
  auto seekWaiting = [&] {
    return std::any_of(commands_.begin(), commands_.end(),
                       [](const DecoderCommand& c) { return c.kind == Kind::Seek; });
  };
  while (!stopAsked() && !seekWaiting() && Clock::now() < d.due)
    posted_.wait_until(lock, std::min(d.due, Clock::now() + kStopPoll));
  if (stopAsked()) return Paced::Stop;
  return seekWaiting() ? Paced::Skip : Paced::Push;
}

bool DecodeLoop::push(Frame frame) {
  frame.index = index_++;
  frame.timeline = timeline_;
  frame.handedOverAt = Clock::now();
  if (frame.hasPts) lastPosition_ = frame.ptsSeconds - source_->startSeconds();
  if (options_.keepLastFrame && !frame.planes.empty()) {  // planes mode: a copy stays
    auto planes = std::make_shared<const std::vector<Image>>(frame.planes);
    ImageView shape;
    shape.width = frame.planes[0].width();
    shape.height = frame.planes[0].height();
    shape.format = frame.planes[0].format();
    kept_ = {planes,       shape,          nullptr, frame.index,       frame.ptsSeconds,
             frame.hasPts, frame.timeline, planes,  frame.planesFormat};
  } else if (options_.keepLastFrame && frame.yuv.empty()) {
    std::shared_ptr<Image> pixels = keepPixels(frame);
    frame.image = Image();
    frame.external = pixels->view();
    frame.externalOwner = pixels;
    kept_ = {pixels, frame.external, nullptr, frame.index, frame.ptsSeconds, frame.hasPts, frame.timeline};
  } else if (options_.keepLastFrame) {  // planes the device converts: a copy stays (a 720p frame's 1.4 MB)
    auto planes = std::make_shared<const YuvImage>(frame.yuv);
    ImageView shape;
    shape.width = planes->width;
    shape.height = planes->height;
    shape.format = planes->convertTo;
    kept_ = {planes, shape, planes, frame.index, frame.ptsSeconds, frame.hasPts, frame.timeline};
  }
  return channel_.push(std::move(frame));
}

// The frame pushed last, again, with its own place in the clip: where it
// replaces a frame still waiting in the channel, it is that frame.
bool DecodeLoop::pushKept() {
  Frame frame;
  if (kept_.sourcePlanes) {
    frame.planes = *kept_.sourcePlanes;
    frame.planesFormat = kept_.planesFormat;
  } else if (kept_.planes) {
    frame.yuv = *kept_.planes;
  } else {
    frame.external = kept_.pixels;
    frame.externalOwner = kept_.owner;
  }
  frame.index = kept_.index;
  frame.ptsSeconds = kept_.ptsSeconds;
  frame.hasPts = kept_.hasPts;
  frame.timeline = kept_.timeline;
  frame.handedOverAt = Clock::now();
  return channel_.push(std::move(frame));
}

}  // namespace liveconv::media
