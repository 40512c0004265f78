// Opening a source or switching the device makes a new CL context, builds a
// kernel and may wait on a file, a network stream or a camera. FeedSwitcher
// does that on its own thread "lc-open" while the window goes on drawing the
// feed it has; the finished feed replaces the old one at a frame boundary,
// in sync(). A request made while another is opening supersedes it (the
// superseded feed is thrown away when it arrives).
//
// The feed the window holds never reopens a device itself: it is given the
// model's snapshots with its own device index (forFeed()), and a device
// change makes a new feed through here instead.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "feed/frame_feed.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

// Size: one open at a time on lc-open, and everything a window may ask to open
// anew (a source, a device, a format, planes mode), each with its own sentence
// when it fails or is cancelled; the UI thread's and lc-open's halves meet here.
class FeedSwitcher {
 public:
  // Makes a feed, as makeFrameFeed(source, selector, snapshot, link, control) does; runs on "lc-open".
  // `control.abandoned` turns true once a newer request came, the open was
  // cancelled or the switcher closes; its timeout is the model's (ViewState::openTimeoutSeconds).
  using Factory = std::function<std::unique_ptr<FrameFeed>(const std::string& source, const std::string& selector,
                                                           std::shared_ptr<const ParamsSnapshot> initial,
                                                           const OpenControl& control)>;
  // `defaultSelector` is used while the model names no device (index -1).
  FeedSwitcher(Factory factory, std::string defaultSelector);
  ~FeedSwitcher();  // waits for an open in flight, then drops it
  FeedSwitcher(const FeedSwitcher&) = delete;
  FeedSwitcher& operator=(const FeedSwitcher&) = delete;

  // The feed the window starts with, opened by the caller (whose errors end the program).
  void adopt(std::unique_ptr<FrameFeed> feed, const std::string& source, int deviceIndex,
             PixelFormat format = PixelFormat::RGBA8);

  // Once per frame, on the UI thread; never waits for an open. Starts one when
  // the model names another source, device or (for a decoded source) pixel
  // format than the last one asked for, and installs a finished one. True
  // when a new feed was installed by this call.
  bool sync(const ViewerModel& model);
  // The next sync() opens the model's source and device even when they are
  // the ones asked for last: reopening the playing source, or the same
  // source again after its feed failed.
  void reopen() { asked_.any = false; }
  // Gives up the open in flight (the user pressed Esc or Cancel): its wait on
  // the source ends at once, and error() says it was cancelled; the feed
  // playing stays. False when nothing was opening.
  bool cancel();

  FrameFeed* feed() const { return feed_.get(); }
  // Lets go of the feed (before its display's GL context goes away).
  void reset();
  // The model's snapshot for the feed in hand: same parameters, the feed's own
  // device (and format, unless the feed changes format in place).
  std::shared_ptr<const ParamsSnapshot> forFeed(std::shared_ptr<const ParamsSnapshot> snapshot) const;

  // The source and the model's device index (-1: the default selector) the
  // feed in hand plays; after a failed device switch the model still names
  // the device asked for, this the one that plays on.
  const std::string& playingSource() const { return playing_.source; }
  int playingDevice() const { return playing_.device; }
  // Grows by one each time a feed takes over (adopt() or sync()).
  std::uint64_t installs() const { return installs_; }
  // A switch to the device the model asks for (`askedDevice`) failed: the feed plays on where it was.
  bool deviceSwitchFailed(int askedDevice) const {
    return feed_ && !pending() && !error().empty() && askedDevice != playing_.device;
  }

  // The selector a device index opens ("": the default one the switcher was made with).
  std::string selectorFor(int deviceIndex) const;

  bool pending() const { return !pending_.message.empty(); }
  // "opening SOURCE ..." or "switching device ..." while an open runs; else "".
  const std::string& pendingMessage() const { return pending_.message; }
  // Why the last open failed ("" after one that worked); the old feed plays on.
  const std::string& error() const { return failure_.error; }
  // What a window would exit with for that failure (`liveconv run`'s number for it); kExitOk after one that worked.
  media::ExitCode errorExitCode() const { return failure_.exitCode; }
  // The compiler's log of that failure, where a kernel failed to build ("" otherwise).
  const std::string& errorBuildLog() const { return failure_.buildLog; }
  // The model's version of the set that failure opened with: a newer set opens the source again (see sync()).
  std::uint64_t refusedVersion() const { return failure_.refusedVersion; }

 private:
  struct Job {
    std::uint64_t ticket = 0;
    std::string source, selector;
    int deviceIndex = -1;
    std::shared_ptr<const ParamsSnapshot> snapshot;
    int openTimeoutSeconds = 0;
    std::string hwaccel;
    bool planes = false;
  };
  struct Result {
    std::uint64_t ticket = 0;
    std::unique_ptr<FrameFeed> feed;
    std::string error;
    media::ExitCode exitCode = media::kExitInputFailed;  // where error is not empty
    std::string buildLog;                        // the compiler's, for a kernel that failed
  };
  void workerLoop();
  Job nextJob(const ViewerModel& model);  // the open the model asks for, with the next ticket

  Factory factory_;
  std::string defaultSelector_;

  // UI thread.
  std::unique_ptr<FrameFeed> feed_;
  struct Playing {  // what feed_ plays
    std::string source;
    int device = -1;
    PixelFormat format = PixelFormat::RGBA8;
  } playing_;
  std::uint64_t installs_ = 0;
  struct Asked {  // what the model asked for last
    std::string source;
    int device = -1;
    PixelFormat format = PixelFormat::RGBA8;
    bool planes = false;  // planes mode (ViewState::planes)
    bool any = false;
  } asked_;
  std::uint64_t lastTicket_ = 0;
  struct Pending {  // the open in flight
    std::string message, source;
    std::uint64_t version = 0;  // the model's version it was asked with
    int device = -1;
    PixelFormat format = PixelFormat::RGBA8;
    bool isDeviceSwitch = false;  // the same source again: another device, format or planes mode
    std::string switchTo;         // ... what it switches to, e.g. "the device", "the source's planes"
  } pending_;
  struct Failure {  // the last open that failed
    std::string error;
    media::ExitCode exitCode = media::kExitOk;
    std::string buildLog;
    std::uint64_t refusedVersion = 0;  // the set it opened with (exit codes 4 and 5: that set is refused)
  } failure_;
  std::shared_ptr<const ParamsSnapshot> lastGood_;

  // Between the UI thread and "lc-open".
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> job_;
  std::optional<Result> result_;
  std::uint64_t cancelled_ = 0;  // the ticket of the last open cancelled
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace liveconv::ui
