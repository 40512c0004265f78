// The Help > About text: versions of what the picture depends on.
#pragma once

#include <QString>

#include "model/frame_stats.hpp"

namespace liveconv::ui {

// `stats` names the device the feed runs on now; the OpenCL platform comes from enumeration.
QString aboutText(const FrameStats& stats, int deviceIndex);

}  // namespace liveconv::ui
