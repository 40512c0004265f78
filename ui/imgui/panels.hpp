// The Dear ImGui panels: they render the ViewerModel and edit it through its
// commands; what the shell itself must do (screenshot, fullscreen, step) comes
// back as a request. No panel sees an OpenCL or GL object.
#pragma once

#include <string>
#include <vector>

#include "model/frame_stats.hpp"
#include "model/view_state.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

struct ScreenRect {
  float x = 0, y = 0, width = 0, height = 0;  // window coordinates
};

struct ShellRequests {
  bool screenshot = false;
  bool toggleFullscreen = false;
  bool stepFrame = false;
  bool startRecording = false;  // to PanelState::recordPath
  bool stopRecording = false;
  double seekTo = -1;  // seconds from the start, from the seek bar; -1: none
  bool compareVariants = false;  // "Compare variants on this frame" (key_commands.hpp)
  bool toggleCheck = false;      // check mode on / off (key_commands.hpp)
  bool openKernel = false;       // PanelState::kernelPath as the user's kernel (Open kernel)
};

// Widget-local state the model does not need (text being typed).
struct PanelState {
  bool seeking = false;  // the seek bar is held; seekSeconds is where it points
  float seekSeconds = 0;
  char spec[256] = "";
  std::string specError;
  bool workgroupDefault = true;
  char sourcePath[512] = "";
  char recordPath[512] = "liveconv-recording.mkv";
  std::string recordError;
  std::string replaceAsked;  // the existing file Record was clicked for once: a second click replaces it
  char kernelPath[512] = "kernel.cl";
  std::string kernelMessage;  // the last Open kernel's result
  bool kernelFailed = false;
  char maskPath[512] = "mask.json";
  std::string maskFileMessage;  // the last load/save result
  bool maskFileFailed = false;
  bool saveResponse = false;  // Save writes the frequency response beside the mask file
  // The mask grid: a cell to give the keyboard next frame (Up/Down while typing
  // in a cell), and where its first cell lies (window pixels, for the window
  // tests' layout file).
  int focusCellX = -1, focusCellY = -1;
  // The passes for which the keys typed after that arrow wait (the shell holds
  // them), until the cell below or above is open for typing: a digit typed at
  // once went nowhere (or to the window's own keys) while the focus moved.
  int keysWaitPasses = 0;
  int focusTargetX = -1, focusTargetY = -1;
  ScreenRect firstCell;
  // A number being typed into a grid cell: applied when the cell is left (Tab,
  // Enter, an arrow key, a click elsewhere; Esc puts the old number back), as
  // in GIMP's matrix dialog and the Qt dock's grid. A drag applies as it moves.
  struct TypedCell {
    int x = -1, y = -1;
    float value = 0;
    bool pending = false;
  } typedCell;
  // The grid's last cell of its first row and the grid's visible area, and the
  // last of the speed buttons and the panel's width (window pixels, for the
  // layout file: the window tests check that a narrow window cuts none of them).
  ScreenRect lastCellOfFirstRow, gridArea, lastSpeedButton;
  float panelRight = 0;
  ScreenRect sourceField;  // the source field (window pixels, for the window tests' layout file)
  ScreenRect recordButton;  // Record, or Stop while recording (the same)
};

// One message of the window's log, as the Messages section lists it.
struct SessionLogLine {
  double seconds = 0;  // since the window opened
  std::string kind, text;
};

struct PanelInputs {
  std::vector<std::string> deviceNames;  // index = enumerateDevices() index
  std::vector<std::string> cameras;      // "camera:N" specs found at start
  bool decodedSources = false;           // the build can open files, lavfi, cameras
  // The frame side's stats (what runs, on which device, recording, position), as the overlay shows them.
  FrameStats stats;
  std::string playingSource;  // the spec of the source that plays ("" = the bundled clip), whatever was asked
  std::string finishingRecording;  // a recording ended whose file is still being finished, or ""
  // Every message the window showed, oldest first (the session log's): the
  // panel's Messages section lists them after their cards have gone.
  const std::vector<SessionLogLine>* messages = nullptr;
};

// The control panel, docked on the left at `width` x `height` window pixels.
// What the panel says after Open kernel: `error`, or that the file runs as `user`.
void kernelOpened(PanelState& state, const std::string& error);

void drawControlPanel(ViewerModel& model, PanelState& state, const PanelInputs& inputs, float width, float height,
                      ShellRequests* requests);
// The mask editor section (also usable on its own).
void drawMaskEditor(ViewerModel& model, PanelState& state, const PanelInputs& inputs);
// The source section: open a file or a test source, playback, recording.
void drawSourceControls(ViewerModel& model, PanelState& state, const PanelInputs& inputs, ShellRequests* requests);
// Why nothing plays (the source failed to open, or ended), centred on the picture area.
// `hint` says where to open another (each shell has its own place for it).
void drawSourceMessage(const std::string& message, const ScreenRect& area,
                       const char* hint = "Open another source in the panel on the left.");
// What the shell is doing in the background ("opening ...", "switching device ..."),
// a small banner at the top left of the picture area while the old picture plays
// on, with a Cancel button where `button` (a window whose ImGui takes clicks);
// true when it was clicked. Without the button it says that Esc cancels.
bool drawPendingBanner(const std::string& text, const ScreenRect& area, bool button = true);
// A short confirmation ("Saved frame liveconv-frame-....png (1280x720)") at the
// bottom left of the picture area; the shell decides how long it stays.
void drawNotice(const std::string& text, const ScreenRect& area);
// The performance overlay in the top-right corner of the picture area; returns where it went.
// In the corner of `area` that view.overlayCorner names; view.overlayCompact keeps the first two lines.
ScreenRect drawOverlay(const FrameStats& stats, const FrameTimeHistory& history, const OverlayRates& rates,
                       const ViewState& view, const ScreenRect& area);

// Colours and spacing for a tool that is looked at for hours.
void applyViewerStyle();

}  // namespace liveconv::ui
