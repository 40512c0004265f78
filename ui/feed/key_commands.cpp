#include "feed/key_commands.hpp"

#include "feed/frame_loop.hpp"

namespace liveconv::ui {

bool compareVariants(FrameLoop& loop) {
  FrameFeed* feed = loop.switcher().feed();
  if (feed && feed->compareVariants()) {
    loop.log().message("notice", "Comparing the variants on this frame ...", loop.framesShown());
    return true;
  }
  loop.log().message("notice",
                     loop.stats().comparing ? "A comparison of the variants is running already."
                                            : "The variants can be compared once a frame plays.",
                     loop.framesShown());
  return false;
}

void setChecking(FrameLoop& loop, bool on) {
  ViewState& view = loop.model().view();
  if (view.checking == on) return;
  view.checking = on;
  loop.log().message("notice", on ? "Check mode: each frame on screen against the CPU reference." : "Check mode off.",
                     loop.framesShown());
}

bool runCommand(FrameLoop& loop, Command command) {
  ViewState& view = loop.model().view();
  const FrameStats& stats = loop.stats();
  switch (command) {
    case Command::TogglePause:
      view.paused = !view.paused;
      return true;
    case Command::StepFrame:
    case Command::FrameForward:
      loop.stepOnce();
      return true;
    case Command::NextVariant:
      loop.model().nextVariant();
      return true;
    case Command::ToggleCompare:
      view.compare = view.compare == CompareMode::Split ? CompareMode::Off : CompareMode::Split;
      return true;
    case Command::TogglePanels:
      view.panelsVisible = !view.panelsVisible;
      return true;
    case Command::ToggleOverlay:
      view.overlayVisible = !view.overlayVisible;
      return true;
    case Command::NextOverlayCorner:
      view.overlayCorner = nextCorner(view.overlayCorner);
      return true;
    case Command::ToggleOverlayCompact:
      view.overlayCompact = !view.overlayCompact;
      return true;
    case Command::ResetCounters:
      loop.resetCounters();
      return true;
    case Command::CompareVariants:
      compareVariants(loop);
      return true;
    case Command::ToggleCheck:
      setChecking(loop, !view.checking);
      return true;
    case Command::SeekBack:
      loop.seekTo(loop.seekOrigin() - FrameLoop::kSeekStepSeconds);
      return true;
    case Command::SeekForward:
      loop.seekTo(loop.seekOrigin() + FrameLoop::kSeekStepSeconds);
      return true;
    case Command::SeekStart:
      loop.seekTo(0);
      return true;
    case Command::SeekEnd:
      loop.seekTo(stats.durationSeconds);
      return true;
    case Command::FrameBack:  // the frame before the one on screen, found by a seek (decoders only go forward)
      view.paused = true;
      if (loop.seekOrigin() >= 0 && stats.frameSeconds > 0) loop.seekTo(loop.seekOrigin() - stats.frameSeconds);
      return true;
    case Command::Quit:
      return loop.cancelOpen();  // Esc while a source opens cancels the open; else the shell's
    default:
      return false;  // the shell's: full screen, screenshots, quit
  }
}

}  // namespace liveconv::ui
