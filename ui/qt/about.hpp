// The Help > About text: versions of what the picture depends on.
#pragma once

#include <QString>
#include <string>

#include "model/frame_stats.hpp"

namespace liveconv::ui {

// `stats` names the device the feed runs on now; its platform, OpenCL and
// driver versions come from the enumeration, through the same selector the
// feed was opened with (FrameLoop::deviceSelector()).
QString aboutText(const FrameStats& stats, const std::string& deviceSelector);

}  // namespace liveconv::ui
