// How the picture is shown. Not part of the filter, so edits here never make
// a new parameter snapshot.
#pragma once

#include <chrono>

namespace liveconv::ui {

enum class CompareMode {
  Invalid = 0,
  Off,    // filtered picture only
  Split,  // source on one side of a draggable divider, filtered on the other
};

enum class SplitOrientation {
  Invalid = 0,
  Vertical,    // a vertical divider: source left, filtered right
  Horizontal,  // a horizontal divider: source above, filtered below
};

// Where the performance overlay sits on the picture area.
enum class OverlayCorner {
  Invalid = 0,
  TopRight,
  BottomRight,
  BottomLeft,
  TopLeft,
};
// The next corner, clockwise (Shift+O in both windows).
inline OverlayCorner nextCorner(OverlayCorner c) {
  switch (c) {
    case OverlayCorner::TopRight: return OverlayCorner::BottomRight;
    case OverlayCorner::BottomRight: return OverlayCorner::BottomLeft;
    case OverlayCorner::BottomLeft: return OverlayCorner::TopLeft;
    default: return OverlayCorner::TopRight;
  }
}

constexpr float kMinOverlayOpacity = 0.2f;

struct ViewState {
  CompareMode compare = CompareMode::Off;
  SplitOrientation orientation = SplitOrientation::Vertical;
  float splitPosition = 0.5f;  // 0..1 across the picture
  bool overlayVisible = true;
  bool overlayCompact = false;  // the first two lines only (Alt+O)
  float overlayOpacity = 0.92f;  // of its background, kMinOverlayOpacity..1
  OverlayCorner overlayCorner = OverlayCorner::TopRight;
  bool panelsVisible = true;
  bool paused = false;
  bool loop = true;           // a file starts again at its end
  float playbackSpeed = 1.0f;  // times the clip's own frame rate
  bool fullscreen = false;
  bool vsync = true;
  // Check mode (E): the frame on screen is checked against the CPU reference,
  // one check after another, and the differences are laid over the picture.
  bool checking = false;
  // A source that sends nothing to open for this long fails with a sentence
  // (a stream that accepts and never answers); 0 waits. The default is
  // --open-timeout's row's (liveconv/parameters.hpp), as `liveconv run`'s;
  // ViewerModel.StartsWithTheParameterTablesDefaults holds them together.
  int openTimeoutSeconds = 20;
  // How sources are decoded (--hwaccel, as `liveconv run`'s): "none", "auto" or a hardware device type.
  std::string hwaccel = "none";
  // Planes mode (--planes, as `liveconv run --planes all`): a decoded
  // source's own planes (Y, U, V or G, B, R, A) filtered as they are, each
  // with the mask, no colour conversion; off: the picture in RGBA or gray.
  bool planes = false;
};

// Every field (the windows draw again when any of them changed).
inline bool operator==(const ViewState& a, const ViewState& b) {
  return a.compare == b.compare && a.orientation == b.orientation && a.splitPosition == b.splitPosition &&
         a.overlayVisible == b.overlayVisible && a.overlayCompact == b.overlayCompact &&
         a.overlayOpacity == b.overlayOpacity && a.overlayCorner == b.overlayCorner &&
         a.panelsVisible == b.panelsVisible && a.paused == b.paused && a.loop == b.loop &&
         a.playbackSpeed == b.playbackSpeed && a.fullscreen == b.fullscreen && a.vsync == b.vsync &&
         a.checking == b.checking && a.openTimeoutSeconds == b.openTimeoutSeconds && a.hwaccel == b.hwaccel &&
         a.planes == b.planes;
}

// With vsync on, both windows draw frames at least this far apart: 0.9 of a
// refresh of the fastest screen (`refreshHz`; 0 or less where no screen says,
// as on Xvfb: 60 Hz), so a display that does not pace them gets no more
// frames than it shows, and the cores that decode and filter keep the rest.
inline std::chrono::microseconds vsyncFrameInterval(int refreshHz) {
  return std::chrono::microseconds(900000 / (refreshHz > 0 ? refreshHz : 60));
}

}  // namespace liveconv::ui
