// The frame side of both windows, without a toolkit. Each pass it sequences
// its parts: the feed switcher installs a feed that finished opening (sources
// and devices open on "lc-open" while the old feed plays on, so a bad file
// never leaves the window without a picture), the model's newest snapshot and
// playback settings go to the feed, a frame comes back, and then the
// recordings (RecordingControls), the check (CheckMode), the numbers
// (LoopStats), the session log, the card (PictureCard) and the redraw policy
// (RedrawPolicy) each take what the pass brought. `--script` runs through
// ScriptRunner, keys arrive as Commands (model/commands.hpp) through runCommand()
// (key_commands.hpp), and `--stats-json` is written by writeStatsJson() (stats_file.hpp).
// The Qt window calls tick() from a timer, the GLFW viewer once per pass of
// its loop; the tests call it directly.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "feed/check_mode.hpp"
#include "feed/feed_switcher.hpp"
#include "feed/frame_feed.hpp"
#include "feed/kernel_file_watch.hpp"
#include "feed/loop_stats.hpp"
#include "feed/picture_card.hpp"
#include "feed/recording_controls.hpp"
#include "feed/redraw_policy.hpp"
#include "feed/script_runner.hpp"
#include "feed/seek_control.hpp"
#include "feed/session_log.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

class FrameLoop {
 public:
  // Makes a feed as makeFrameFeed(source, selector, initial, display, control)
  // does; runs on "lc-open". The tests hand in one that blocks, as a slow camera would.
  using Opener = std::function<std::unique_ptr<FrameFeed>(const std::string& source, const std::string& selector,
                                                          std::shared_ptr<const ParamsSnapshot> initial,
                                                          const DisplayLink* display, const OpenControl& control)>;
  using Recording = RecordingControls::Recording;
  static constexpr std::chrono::seconds kCardSeconds = PictureCard::kCardSeconds;
  static constexpr double kSeekStepSeconds = 5;

  // `defaultSelector` names the device when the model names none ("": $LIVECONV_DEVICE, else the default).
  explicit FrameLoop(ViewerModel& model, Opener opener = {}, std::string defaultSelector = {});
  ViewerModel& model() { return model_; }
  const ViewerModel& model() const { return model_; }
  // The display the feeds open their device through (the viewport's GL
  // context), so the display path is chosen for it; set once, before the
  // first tick(), and it must outlive the loop. Null: no display, readback.
  void setDisplayLink(const DisplayLink* link) { link_ = link; }

  // ---- the feed
  // Asks for `source` on the model's device (after a failed device switch, the
  // one that plays on); it opens in the background and takes over in a later
  // tick(). A recording of the playing source is finished now.
  void open(const std::string& source);
  // Puts `feed` in place of the current one at once (the tests hand in feeds of their own).
  void adopt(std::unique_ptr<FrameFeed> feed, const std::string& source);
  // Lets go of the feed; the caller makes the display's GL context current first.
  void shutdown();
  bool running() const { return switcher_.feed() != nullptr; }
  // The open in flight, the last failed one and what plays (feed_switcher.hpp).
  const FeedSwitcher& switcher() const { return switcher_; }
  const std::string& openingMessage() const { return switcher_.pendingMessage(); }
  bool cancelOpen() { return switcher_.cancel(); }
  const std::string& openError() const { return switcher_.error(); }
  const std::string& playingSource() const { return switcher_.playingSource(); }
  int playingDevice() const { return switcher_.playingDevice(); }
  std::uint64_t feedsInstalled() const { return switcher_.installs(); }
  // The model's index, else $LIVECONV_DEVICE, else "" (as `liveconv devices` marks with *).
  std::string deviceSelector() const { return switcher_.selectorFor(model_.deviceIndex()); }

  // ---- a pass
  // Installs a feed that finished opening, advances (or holds) it and returns
  // the frame; never waits for an open, never throws: a feed that does (a
  // device that stopped answering) is failure(), its recording finished, and it
  // is asked for nothing more until another source or device; the last picture
  // stays. With a display link, its GL context must be current (zero-copy).
  const FeedFrame& tick(bool step = false);
  const std::string& failure() const { return failure_; }
  // The card on the picture: an open that failed, else failure(), else what the source said.
  const std::string& pictureMessage() const { return card_.shown(); }
  // Parameter sets the feed refused (the previous ones run on), and the last one's sentence.
  std::uint64_t refusals() const { return refusals_; }
  const std::string& lastRefusal() const { return lastRefusal_; }
  const FeedFrame& frame() const { return frame_; }
  // The feed's stats with displayMs filled in through setDisplayMs().
  const FrameStats& stats() const { return numbers_.stats(); }
  void setDisplayMs(double ms) { numbers_.setDisplayMs(ms); }
  std::uint64_t framesTicked() const { return passes_.ticks; }
  // Ticks that had a picture to show: what `--frames` and script lines count.
  std::uint64_t framesShown() const { return passes_.shown; }
  std::uint64_t newFramesShown() const { return passes_.fresh; }
  // New source frames shown per second (not redraws); 0 while paused.
  double videoFps() const { return model_.view().paused ? 0 : numbers_.videoFps(); }

  // ---- the parts the shells drive (each header says what it does)
  RedrawPolicy& redraw() { return redraw_; }
  const RedrawPolicy& redraw() const { return redraw_; }
  RecordingControls& recordings() { return recordings_; }
  const RecordingControls& recordings() const { return recordings_; }
  ScriptRunner& script() { return script_; }
  KernelFileWatch& kernelFile() { return kernelFile_; }
  SessionLog& log() { return log_; }
  const SessionLog& log() const { return log_; }

  // ---- keys, seeking, checking
  // Pauses and shows the next frame (., a script's `step`; key_commands.hpp has every key).
  void stepOnce() {
    model_.view().paused = true;
    stepWanted_ = true;
  }
  // The overlay's frame and drop counters start again from here (R).
  void resetCounters();
  // Check mode (check_mode.hpp; key_commands.hpp turns it on and off): a check of the frame on
  // screen is pending while none has finished for the set that filtered it (a script's `wait` waits).
  bool checkPending() const;
  // Files: the frame at `seconds` next (seek_control.hpp); false, with a notice, where it cannot seek.
  bool seekTo(double seconds);
  double seekOrigin() const { return seek_.origin(stats()); }
  std::uint64_t seekRefusals() const { return seek_.refusals(); }
  // Every request so far is on screen: edits, opens, seeks, a comparison, a check (a script's `wait`).
  bool settled() const;

 private:
  void installed(bool sameSource);
  void follow();
  void advance(bool step);
  void handOver(FrameFeed& feed);
  void afterAdvance();
  void fail(const std::string& why);
  void logPass();
  void decideRedraw();

  ViewerModel& model_;
  Opener opener_;
  std::atomic<const DisplayLink*> link_{nullptr};
  FeedSwitcher switcher_;
  // What the model asked for last: a change of any ends the recording and reopens.
  struct Asked {
    std::string source;
    int device = -1;
    PixelFormat format = PixelFormat::Invalid;
    bool any = false;
  } asked_;
  // What the feed in hand was told; a new feed is told everything again.
  struct Handed {
    std::uint64_t version = 0, rejection = 0;  // the model version handed, the refusal noted
    std::optional<Playback> playback;
    bool firstFrameWanted = true;  // a source opened while paused shows its first frame
  } handed_;
  bool stepWanted_ = false;
  FeedFrame frame_;
  std::string failure_;
  struct Passes {
    std::uint64_t ticks = 0, shown = 0, fresh = 0;  // passes; with a picture; with a new one (FeedFrame::fresh)
  } passes_;
  std::uint64_t refusals_ = 0;
  std::string lastRefusal_;
  SeekControl seek_;
  KernelFileWatch kernelFile_;
  LoopStats numbers_;
  SessionLog log_;
  PictureCard card_;
  RedrawPolicy redraw_;
  RecordingControls recordings_{switcher_, numbers_.stats(), log_};
  ScriptRunner script_{*this};
  CheckMode check_;  // last: its thread ends before the members above go
};

}  // namespace liveconv::ui
