// `--stats-json FILE` of both windows: the session log, the final stats, the
// mask and the parameters as their flags spell them, as one JSON object.
#pragma once

#include <string>

namespace liveconv::ui {

class FrameLoop;

// Writes the file whole or not at all (staged); "" or why it could not be written.
std::string writeStatsJson(const FrameLoop& loop, const std::string& path);

}  // namespace liveconv::ui
