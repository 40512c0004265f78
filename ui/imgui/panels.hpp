// The Dear ImGui panels: they render the ViewerModel and edit it through its
// commands; what the shell itself must do (screenshot, fullscreen, step) comes
// back as a request. No panel sees an OpenCL or GL object.
#pragma once

#include <string>
#include <vector>

#include "model/frame_stats.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

struct ShellRequests {
  bool screenshot = false;
  bool toggleFullscreen = false;
  bool stepFrame = false;
};

// Widget-local state the model does not need (text being typed).
struct PanelState {
  char spec[256] = "";
  std::string specError;
  bool workgroupDefault = true;
};

struct PanelInputs {
  std::vector<std::string> deviceNames;  // index = enumerateDevices() index
  std::string activeDevice;              // what the frame side runs on
};

// The control panel, docked on the left at `width` x `height` window pixels.
void drawControlPanel(ViewerModel& model, PanelState& state, const PanelInputs& inputs, float width, float height,
                      ShellRequests* requests);
// The mask editor section (also usable on its own).
void drawMaskEditor(ViewerModel& model, PanelState& state);
struct ScreenRect {
  float x = 0, y = 0, width = 0, height = 0;  // window coordinates
};
// The performance overlay in the top-right corner of the picture area; returns where it went.
ScreenRect drawOverlay(const FrameStats& stats, const FrameTimeHistory& history, double fps, float areaRight,
                       float areaTop);

// Colours and spacing for a tool that is looked at for hours.
void applyViewerStyle();

}  // namespace liveconv::ui
