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
// "Compare the variants on this frame" (B, a menu item, a button): the feed
// races them off the frame path; stats().race has the chart's numbers when it
// is done. False, with a notice in the log, when it cannot start now.
bool compareVariants(FrameLoop& loop);
// Check mode on or off (E, a menu item, the script's `check on`), said in the log.
void setChecking(FrameLoop& loop, bool on);

}  // namespace liveconv::ui
