// The one decode loop: a source's frames into a FrameChannel (the engine's
// Pipeline, or the pass-through of `run --decode-only`) on a thread of its own,
// "lc-decode". `liveconv run`, `liveconv bench --pipeline` (through runStream)
// and both windows (PipelineFeed) play every source through it, so pacing,
// late frames, corrupt-packet counts, looping and the end of a source are
// decided once.
//
// The loop is steered by commands (play, hold, step, seek, refilter, set
// format, set playback, stop) posted from any thread into a bounded queue and
// applied between frames, in the order posted. A command that supersedes one
// still waiting replaces it (the newest seek, play or hold, format and playback
// win; a refilter waits once; steps are counted, up to the queue's bound), so a
// UI that posts on every pass never grows the queue.
//
//   post() ──► [commands] ──► lc-decode: read, judge by the clock, push ──► channel
//
// Pacing: a live source (camera, stream) keeps its own time; its frames are
// only judged by a LiveClock, and one that left the decoder too late is
// dropped (counted as decode late) where the channel drops late frames. A
// file is paced to its timestamps (times the playback speed) when the options
// ask for it (a window, `run --realtime`), else read as fast as the channel
// takes it. Held, nothing is paced: a step or a seek shows its frame at once.
//
// No FFmpeg here: the engine's interfaces only (every build has it).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "liveconv/frame.hpp"
#include "liveconv/live_clock.hpp"
#include "liveconv/pipeline.hpp"

namespace liveconv::media {

struct DecoderCommand {
  enum class Kind {
    Invalid = 0,
    Play,         // decode on, paced (the default)
    Hold,         // stop after the frame in hand; filter again or step only when asked
    Step,         // hold, then exactly one more frame
    Seek,         // the frame at `seconds` from the clip's first frame next (held or not)
    Refilter,     // held: push the frame pushed last again (the parameters changed)
    SetFormat,    // frames from the next on in `format`; held, the frame on screen is decoded again in it
    SetPlayback,  // `loop` and `speed`
    Stop,         // end the loop (before any command still waiting)
  };
  Kind kind = Kind::Invalid;
  double seconds = -1;
  PixelFormat format = PixelFormat::Invalid;
  bool loop = false;
  double speed = 1;

  static DecoderCommand play() { return {Kind::Play}; }
  static DecoderCommand hold() { return {Kind::Hold}; }
  static DecoderCommand step() { return {Kind::Step}; }
  static DecoderCommand refilter() { return {Kind::Refilter}; }
  static DecoderCommand stop() { return {Kind::Stop}; }
  static DecoderCommand seek(double seconds) { return {Kind::Seek, seconds}; }
  static DecoderCommand setFormat(PixelFormat format) { return {Kind::SetFormat, -1, format}; }
  static DecoderCommand setPlayback(bool loop, double speed) {
    return {Kind::SetPlayback, -1, PixelFormat::Invalid, loop, speed};
  }
};

// Why the loop ended.
enum class DecodeEnd {
  Invalid = 0,
  SourceEnded,    // the source had no more frames (and was not looped)
  Stopped,        // a Stop command, or stopWhen
  FrameLimit,     // maxFrames were read
  ChannelClosed,  // the channel refused a frame (cancelled)
  Failed,         // opening or reading the source threw: error() has it
};

struct DecodeOptions {
  PixelFormat format = PixelFormat::Invalid;  // what the source delivers at the start (SetFormat changes it)
  long long maxFrames = -1;  // frames read from the source (late ones included), then the end; -1: no limit
  bool paceToClock = false;  // a file plays at its timestamps x speed (a window; run --realtime)
  LiveClockOptions clock;
  // Refilter and a format switch while held need the frame pushed last: its
  // pixels are kept (lent to the channel, not copied, except where the source
  // lends its own buffers again). A window sets it; `run` does not.
  bool keepLastFrame = false;
  bool loop = false;  // a file that ends is opened again with `open` (SetPlayback changes it)
  double speed = 1;   // of a paced file (SetPlayback changes it)
  // Opens the source in a format, on lc-decode: at the start when the loop was
  // given none, and again each time a file loops. Throws as the source's open does.
  std::function<std::unique_ptr<FrameSource>(PixelFormat)> open;
  std::function<bool()> stopWhen;  // asked before each frame and during waits (`run`: a signal arrived)
  // On lc-decode: the source opened (or a stream changed its frame size); a
  // line the user should read; and how the loop ended (before the channel's end of input).
  std::function<void(const FrameSource&)> described;
  std::function<void(const std::string&)> message;
  std::function<void(DecodeEnd, const std::exception_ptr&)> finished;
  std::size_t capacity = 32;  // commands waiting at most
};

class DecodeLoop {
 public:
  // The loop owns the source (null: options.open opens it on lc-decode), or
  // uses one its caller keeps (`run` reads it after the stream).
  DecodeLoop(std::unique_ptr<FrameSource> source, FrameChannel& channel, DecodeOptions options);
  DecodeLoop(FrameSource& source, FrameChannel& channel, DecodeOptions options);
  ~DecodeLoop();  // stop() and join
  DecodeLoop(const DecodeLoop&) = delete;
  DecodeLoop& operator=(const DecodeLoop&) = delete;

  // Starts lc-decode. Whatever way it ends, the channel gets endOfInput().
  void start();
  // Any thread. False when the queue is full (the command is dropped) or the loop has ended.
  bool post(const DecoderCommand& command);
  // Posts Stop (ahead of everything waiting) and waits for lc-decode to end.
  // A read blocked in the source is the source's to end (its own stop callback).
  void stop();
  // Waits for lc-decode to end by itself; then end() and error() say how.
  DecodeEnd join();
  DecodeEnd end() const { return end_; }
  std::exception_ptr error() const { return error_; }
  long long framesRead() const { return read_; }

 private:
  enum class Next { Invalid = 0, Stop, Seek, Redecode, Refilter, Frame };
  enum class Paced { Invalid = 0, Push, Drop, Skip, Stop };
  struct Kept {  // the frame pushed last, for a refilter
    std::shared_ptr<const void> owner;
    ImageView pixels;                        // its pixels; for planes, no data but the size and format they convert to
    std::shared_ptr<const YuvImage> planes;  // a frame of planes: a copy of them (the pipeline takes the frame's)
    std::int64_t index = -1;
    double ptsSeconds = 0;
    bool hasPts = false;
    std::uint32_t timeline = 0;
    // Planes mode (Frame::planes): a copy of them, and their format.
    std::shared_ptr<const std::vector<Image>> sourcePlanes;
    int planesFormat = -1;
  };

  void run();
  DecodeEnd loop();
  Next waitForNext();
  void apply(const DecoderCommand& command);
  bool stopAsked() const;  // under mutex_
  bool read(Frame& frame, LiveClock& clock);
  Paced pace(LiveClock& clock, const Frame& frame);
  bool push(Frame frame);
  bool pushKept();
  void followFormat();
  void countCorrupt();

  std::unique_ptr<FrameSource> owned_;
  FrameSource* source_;
  FrameChannel& channel_;
  DecodeOptions options_;
  bool live_ = false;

  // Under mutex_: the commands and the state they set.
  std::mutex mutex_;
  std::condition_variable posted_;
  std::deque<DecoderCommand> commands_;
  bool stopping_ = false, ended_ = false;

  // lc-decode's own (set from the commands it takes).
  bool held_ = false, refilter_ = false, redecode_ = false, loop_ = false;
  double speed_ = 1;
  int steps_ = 0;
  double seekTo_ = -1;
  PixelFormat wantFormat_ = PixelFormat::Invalid, format_ = PixelFormat::Invalid;
  std::int64_t index_ = 0;
  std::uint32_t timeline_ = 0;  // Frame::timeline: one more at every seek and loop
  double lastPts_ = -1;         // of the frame read last, as paced (a frame without one: the last + 1/30 s)
  double lastPosition_ = -1;    // of the frame pushed last, from the clip's first frame (-1: unknown)
  long long corruptSeen_ = 0;
  int describedWidth_ = 0, describedHeight_ = 0;
  Kept kept_;

  std::atomic<long long> read_{0};
  DecodeEnd end_ = DecodeEnd::Invalid;  // set by lc-decode before it ends; read after join()
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace liveconv::media
