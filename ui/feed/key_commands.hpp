// What a key does to the frame loop, the same in both windows and in a
// script's `key` line: the model's view settings, the playback, seeking, the
// counters, the comparison and the check, through the loop's own calls.
#pragma once

#include "model/commands.hpp"

namespace liveconv::ui {

class FrameLoop;

// Acts on `command` where it concerns the model, the playback or the counters
// (true); the shell's own (full screen, screenshots, quit) are left to it (false).
bool runCommand(FrameLoop& loop, Command command);

}  // namespace liveconv::ui
