// The frame side of both windows, without a toolkit: hand the model's newest
// snapshot and playback settings to the feed, take a frame, and tell the model
// which variant the feed refused. The Qt window calls tick() from a timer, the
// GLFW viewer once per pass of its loop; the tests call it directly. Keys of
// both windows arrive as Commands (model/commands.hpp) through command();
// `--script` lines through runScript(); what happened goes into log() for
// `--stats-json`. Sources and devices open through the FeedSwitcher on its
// "lc-open" thread, through the window's display link, while the old feed
// plays on; the new feed takes over in tick(), and a source that fails to open
// leaves the old one playing, so a bad file never leaves the window without a
// picture.
//
// Recording goes to the feed's own recorder (FrameFeed::startRecording, the
// sink of `liveconv run -o`), as in the GLFW viewer; this class only keeps the
// clock and notices when the feed stopped a recording by itself.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "feed/feed_switcher.hpp"
#include "feed/frame_checker.hpp"
#include "feed/frame_feed.hpp"
#include "feed/script.hpp"
#include "feed/session_log.hpp"
#include "model/commands.hpp"
#include "model/frame_stats.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

class FrameLoop {
 public:
  // Makes a feed as makeFrameFeed(source, selector, initial, display, control)
  // does; runs on "lc-open". The tests hand in one that blocks, as a slow camera would.
  using Opener = std::function<std::unique_ptr<FrameFeed>(const std::string& source, const std::string& selector,
                                                          std::shared_ptr<const ParamsSnapshot> initial,
                                                          const DisplayLink* display, const OpenControl& control)>;
  // `defaultSelector` names the device when the model names none ("": $LIVECONV_DEVICE, else the default).
  explicit FrameLoop(ViewerModel& model, Opener opener = {}, std::string defaultSelector = {});
  ViewerModel& model() { return model_; }

  // The display the feeds open their device through (the viewport's GL
  // context), so the display path is chosen for it; set once, before the
  // first tick(), and it must outlive the loop. Null: no display, readback.
  void setDisplayLink(const DisplayLink* link) { link_ = link; }

  // Asks for `source` on the model's device (after a failed device switch, on
  // the device that plays on, which the model names again); it opens in the background and
  // takes over in a later tick() (the same source again is opened again). A
  // recording of the playing source is finished now (see lastRecording()), as
  // it is by tick() when the model names another device.
  void open(const std::string& source);
  // Puts `feed` in place of the current one at once, as tick() does with an
  // opened one (the tests hand in feeds of their own through this).
  void adopt(std::unique_ptr<FrameFeed> feed, const std::string& source);
  // Lets go of the feed; the caller makes the display's GL context current first.
  void shutdown();
  bool running() const { return switcher_.feed() != nullptr; }
  // "opening SOURCE ..." or "switching device ..." while an open runs; else "".
  const std::string& openingMessage() const { return switcher_.pendingMessage(); }
  // Gives up the open in flight (Esc, or the Cancel beside "opening ..."): the
  // source playing stays and openError() says it was cancelled. False when
  // nothing was opening.
  bool cancelOpen() { return switcher_.cancel(); }
  // Why the last open failed ("Cannot open SOURCE: ..."); "" once one worked.
  const std::string& openError() const { return switcher_.error(); }
  // What a window would exit with for that failure, were it the first source (kExitOk: none).
  media::ExitCode openErrorExitCode() const { return switcher_.errorExitCode(); }
  const std::string& openErrorBuildLog() const { return switcher_.errorBuildLog(); }
  // The model's version the failed open was asked with.
  std::uint64_t openRefusedVersion() const { return switcher_.refusedVersion(); }
  // The source the feed in hand plays (the model names the one asked for last).
  const std::string& playingSource() const { return playingSource_; }
  // The model's device index the feed in hand was opened on (-1: the default
  // selector). After a failed device switch the model still names the device
  // asked for; this names the one that plays on.
  int playingDevice() const { return playingDevice_; }
  // The device the settings keep: the one asked for, unless switching to it
  // failed (then the one that plays on).
  int deviceToKeep() const;
  // Grows by one each time a new feed takes over.
  std::uint64_t feedsInstalled() const { return installs_; }
  // The device the feed is asked for: the model's index, else $LIVECONV_DEVICE,
  // else "" (the first GPU, else the CPU), as `liveconv devices` marks with *.
  std::string deviceSelector() const;

  // Installs a feed that finished opening, then advances (or holds, when
  // paused and not stepping) and returns the frame; never waits for an open.
  // Never throws: when the feed does (a device that stopped answering, a
  // driver error), failure() says so, a recording is finished, and the feed
  // is asked for nothing more until a source is opened or another device is
  // picked in the model; the last picture stays on screen. With a display
  // link, the display's GL context must be current (zero-copy acquires GL
  // buffers here).
  const FeedFrame& tick(bool step = false);
  const std::string& failure() const { return failure_; }
  // What both windows write on the picture (a card): a source that did not
  // open (the one playing stays), else the feed's failure, else what the
  // source said. A card goes after kCardSeconds, unless the picture stopped
  // or nothing plays; every one stays in the session log (log().messages()),
  // which both windows show on demand. Set by tick().
  static constexpr std::chrono::seconds kCardSeconds{8};
  const std::string& pictureMessage() const { return card_; }
  // Parameter sets the feed refused (the previous ones run on), and the last one's sentence.
  std::uint64_t refusals() const { return refusals_; }
  const std::string& lastRefusal() const { return lastRefusal_; }
  const FeedFrame& frame() const { return frame_; }
  // The feed's stats with displayMs filled in by the caller through setDisplayMs().
  const FrameStats& stats() const { return stats_; }
  void setDisplayMs(double ms) { displayMs_ = ms; }
  std::uint64_t framesTicked() const { return ticks_; }
  // Ticks that had a picture to show: what `--frames` and script lines count.
  std::uint64_t framesShown() const { return framesShown_; }
  // New source frames shown per second (not redraws); 0 while paused.
  double videoFps() const;

  // ---- drawing only what changed
  // The loop turns at the display's rate (input, frames taken, script lines),
  // but a pass draws only when tick() found something the window shows
  // changed: a new frame, an edit or a view setting, a message, a new feed,
  // a script line; or when the shell said input came (inputCame()); or at
  // least every kRedrawInterval (the overlay's and status bar's numbers).
  // On a software GL a redraw of an unchanged window costs as much as one of
  // a new frame (llvmpipe: most of a core at 60 Hz), taken from the cores
  // that decode and filter.
  static constexpr std::chrono::milliseconds kRedrawInterval{250};
  // After input, every pass draws for this long: hover highlights, tooltips
  // and a text field's cursor follow the pointer and the clock, not the model.
  static constexpr std::chrono::milliseconds kInputRedraw{1000};
  bool redrawDue() const { return redrawDue_; }
  // Input came (a key, the pointer, the wheel): the passes of the next kInputRedraw draw (call before tick()).
  void inputCame();
  // The window was exposed, resized or focused: the next pass draws (call before tick()).
  void exposed() { exposed_ = true; }
  // The shell drew this pass (what the stats file counts as redraws).
  void drew();
  std::uint64_t redraws() const { return redraws_; }
  // The loop's own rate and its pass times, the UI thread's responsiveness
  // (what `ui_frame_ms` in the stats file summarises); the same in both windows.
  double uiFps() const { return uiMs_ > 0 ? 1000 / uiMs_ : 0; }
  const FrameTimeHistory& uiFrameTimes() const { return uiFrameTimes_; }

  // ---- keys and scripts
  // Acts on a key's command where it concerns the model, the playback or the
  // counters (true); the shell's own (full screen, screenshots, quit) are left
  // to it (false).
  bool command(Command command);
  // What a script line or key asks of the shell itself.
  struct ShellRequest {
    Command command = Command::Invalid;  // SaveFrame, SaveWindow, ToggleFullscreen or Quit
    std::string path;                    // for SaveFrame / SaveWindow from a script
  };
  // `--script FILE`: "" or the sentence why it cannot run.
  std::string loadScript(const std::string& path) { return script_.load(path); }
  // Runs the script lines now due (call once per pass, before tick()); a line
  // that fails says why in log() and on the shell's notice line.
  std::vector<ShellRequest> runScript();
  bool scriptFinished() const { return script_.finished(); }
  std::uint64_t scriptLinesRun() const { return scriptLinesRun_; }
  // The overlay's frame and drop counters start again from here (R).
  void resetCounters();
  // "Compare the variants on this frame" (B, a menu item, a button): the
  // feed races them off the frame path; stats().race has the chart's numbers
  // when it is done. False, with a notice, when it cannot start now.
  bool compareVariants();
  // Check mode (E, a menu item, the script's `check on`): while the view's
  // `checking` is on, the frame on screen is copied (source and filtered)
  // and checked against the CPU reference on "lc-check", one check after
  // another, each new frame or parameter set once; stats().check has the
  // last, the log every one. A check of the frame on screen is pending while
  // none has finished for the set that filtered it (a script's `wait` waits).
  void setChecking(bool on);
  bool checkPending() const;
  static constexpr std::chrono::milliseconds kCheckInterval{200};
  int checksFinished() const { return checks_; }
  // Files: the frame at `seconds` next (the arrow keys, Home, End, the seek
  // bars); false, with a notice, where the source cannot seek.
  bool seekTo(double seconds);
  double seekOrigin() const;
  // Grows each time a seek was refused (the shells say so where the user looks).
  std::uint64_t seekRefusals() const { return seekRefusals_; }
  static constexpr double kSeekStepSeconds = 5;
  SessionLog& log() { return log_; }
  // `--stats-json FILE`: the log and the final stats; "" or why it could not be written.
  std::string writeStatsJson(const std::string& path) const;

  // ---- recording the filtered output
  struct Recording {
    std::string path;
    long long frames = 0;
    double seconds = 0;
    std::string stoppedBy;  // why the feed ended it on its own (a write error); empty when stopped by the user
    // The file is there under `path`, finished. False: the recorder failed (a
    // write error, a full disk) and what it had written was discarded; a file
    // that was there before keeps its old contents.
    bool complete = true;
  };
  // Starts writing every filtered frame to `path` (.mkv: FFV1, lossless; .mp4:
  // H.264; as `liveconv run -o`). Returns "" or the sentence why not. A file
  // already there is kept (refused) unless `replace`: the user said to
  // replace it (a save dialog that asked, the viewer's second Record).
  std::string startRecording(const std::string& path, bool replace = false);
  // Whether a recording to `path` would replace a file that is there.
  static bool recordingWouldReplace(const std::string& path);
  // Ends the recording; its file is finished (encoder flushed, trailer
  // written) on the recorder's thread, and once it is complete lastRecording()
  // says what was recorded (a tick later at the earliest). Does nothing when
  // not recording.
  void stopRecording();
  // Waits until every recording ended is a complete file (closing the window, a signal).
  void waitForRecordings();
  // The file being finished (the last one, where there are several), or "".
  std::string finishingPath() const;
  bool recording() const { return !recordingPath_.empty(); }
  // "" when the source playing can be recorded, else why not.
  std::string whyNoRecording() const;
  const std::string& recordingPath() const { return recordingPath_; }
  double recordingSeconds() const;
  // The recording finished last (by stopRecording(), a source change, or the
  // feed itself); recordingsFinished() grows by one each time.
  const Recording& lastRecording() const { return lastRecording_; }
  std::uint64_t recordingsFinished() const { return recordingsFinished_; }

 private:
  void endRecording(const std::string& stoppedBy);
  void collectRecordings();
  void report(const Recording& r);
  void fail(const std::string& why);
  void installed(const std::string& source);
  bool deviceSwitchFailed() const;
  void advance(bool step);
  void runScriptLine(const ScriptLine& line, std::vector<ShellRequest>* requests);
  void logTick();
  void measureLatency();
  void timeTick();
  void decideRedraw();
  void updateCard();
  void rememberParams();
  void updateCheck();

  ViewerModel& model_;
  Opener opener_;
  std::string defaultSelector_;
  std::atomic<const DisplayLink*> link_{nullptr};
  FeedSwitcher switcher_;
  std::string askedSource_, playingSource_;
  std::string cardText_, card_;  // the message for the card, and what the card shows (faded: "")
  std::chrono::steady_clock::time_point cardSince_{};
  int playingDevice_ = -1;
  int askedDevice_ = -1;
  PixelFormat askedFormat_ = PixelFormat::Invalid;
  bool askedAny_ = false;
  std::uint64_t installs_ = 0;
  FeedFrame frame_;
  FrameStats stats_;
  std::uint64_t handedVersion_ = 0, notedRejection_ = 0, ticks_ = 0;
  double displayMs_ = 0;
  std::string recordingPath_;
  std::chrono::steady_clock::time_point recordingStart_{};
  Recording lastRecording_;
  struct Finishing {
    Recording recording;
    std::shared_ptr<FinishingRecording> ending;
  };
  std::vector<Finishing> finishing_;  // ended, their files still being finished
  std::uint64_t recordingsFinished_ = 0;
  std::string failure_;
  bool firstFrameWanted_ = false;
  bool stepWanted_ = false;
  Playback playback_;
  bool playbackHanded_ = false;
  std::uint64_t framesShown_ = 0;
  std::uint64_t newFramesShown_ = 0;  // passes that brought a new picture (FeedFrame::fresh)
  std::uint64_t loggedVersion_ = 0;
  std::uint64_t loggedNotices_ = 0;
  std::uint64_t scriptLinesRun_ = 0;
  std::uint64_t seekRefusals_ = 0, refusals_ = 0;
  double awaitedPosition_ = -1;  // a seek on its way (a script's wait holds for it); -1: none
  double resumeAt_ = -1;  // where the file was when a device or format switch replaced its feed
  std::string lastRefusal_;
  double waitingSince_ = 0;  // a script `wait` holds the lines after it (seconds on the steady clock; 0: none)
  int waitLine_ = 0;  // the model version the log has seen (0: none yet)
  VideoRate videoRate_;
  LatencyWindow latency_;  // the overlay's; the log keeps every sample
  // What the window showed when it last drew (decideRedraw() compares), and when.
  struct Shown {
    std::uint64_t modelVersion = 0, installs = 0, refusals = 0, seekRefusals = 0, scriptLines = 0, recordings = 0,
                  checks = 0;
    ViewState view;
    std::string opening, picture;
    bool recording = false;
    bool operator==(const Shown& o) const;
  };
  Shown drawnState_;
  std::chrono::steady_clock::time_point lastDraw_{}, inputUntil_{}, lastTick_{};
  bool redrawDue_ = true, exposed_ = false;
  std::uint64_t redraws_ = 0;
  double uiMs_ = 0;  // the pass time, smoothed
  FrameTimeHistory uiFrameTimes_{240};
  FrameStats baseline_;  // the counters at the last resetCounters()
  Script script_;
  SessionLog log_;
  // Check mode: the filter of each recent version (a frame on screen may
  // carry a version older than the model's), the last check and what it checked.
  std::map<std::uint64_t, FilterParams> paramsOf_;
  std::uint64_t rememberedVersion_ = 0;
  std::shared_ptr<const CheckReport> lastCheck_;
  std::uint64_t checkedIndex_ = 0, checkedVersion_ = 0;
  bool checkedAny_ = false;
  std::uint64_t failedCheckVersion_ = 0;  // a check of this version could not be made
  int checks_ = 0, checksStarted_ = 0;
  // The next check of the same set starts no sooner than the last one took
  // after it ended (checks take at most half the time of the cores they
  // use), nor sooner than kCheckInterval after it started: a few a second, as
  // many as anyone reads; a new set is checked at once.
  std::chrono::steady_clock::time_point nextCheckAt_{};
  FrameChecker checker_;  // last: its thread ends before the members above go
};

}  // namespace liveconv::ui
