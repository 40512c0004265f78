// The keys of both windows, in one table. A shell turns its own key event
// into a Key (letters and digits as their upper-case ASCII code, the named
// keys below) plus modifiers, looks the command up here, and hands it to the
// frame loop; the Qt shell also builds its menu shortcuts from keyText(), and
// both `--help` texts list keyHelp(). A `--script` line `key Shift+O` goes
// through the same table.
#pragma once

#include <string>
#include <vector>

namespace liveconv::ui {

enum class Command {
  Invalid = 0,
  TogglePause,           // Space
  StepFrame,             // .  one frame, then hold
  NextVariant,           // V
  ToggleCompare,         // C  source | filtered split
  ToggleFullscreen,      // F
  TogglePanels,          // H
  SaveFrame,             // S  the filtered frame at its own size
  SaveWindow,            // Shift+S  the window as seen
  ToggleOverlay,         // O
  NextOverlayCorner,     // Shift+O
  ToggleOverlayCompact,  // Alt+O
  ResetCounters,         // R  the overlay's frame and drop counters start again
  CompareVariants,       // B  race the variants on this frame; the chart shows every time
  ToggleCheck,           // E  check mode: the frame on screen against the CPU reference
  SeekBack,              // Left   5 s back (files)
  SeekForward,           // Right  5 s on
  SeekStart,             // Home
  SeekEnd,               // End    the last half second
  FrameBack,             // Shift+Left   paused, one frame back (files)
  FrameForward,          // Shift+Right  paused, one frame on
  Quit,                  // Esc
};

// Keys that are not a character. Letters, digits and punctuation are their ASCII code.
enum Key : int {
  kKeySpace = ' ',
  kKeyPeriod = '.',
  kKeyEscape = 256,
  kKeyLeft,
  kKeyRight,
  kKeyHome,
  kKeyEnd,
};

enum Modifier : int {
  kModNone = 0,
  kModShift = 1,
  kModAlt = 2,
};

struct KeyBinding {
  int key = 0;
  int modifiers = kModNone;
  Command command = Command::Invalid;
  const char* help = "";
};

// Every binding, in the order the help lists them.
const std::vector<KeyBinding>& keyBindings();
// The command bound to this key and modifiers; Invalid when none.
Command commandForKey(int key, int modifiers);
// "Space", ".", "V", "Shift+O", "Esc": the text QKeySequence and the help use.
std::string keyText(const KeyBinding& binding);
// The binding of a command (the first, where there are several); null when none.
const KeyBinding* bindingFor(Command command);
// Parses keyText()'s form back ("shift+o" too); Invalid when it names no binding.
Command commandForKeyText(const std::string& text);
// The keys section of both windows' --help: one line per binding.
std::string keyHelp();

}  // namespace liveconv::ui
