#include "model/commands.hpp"

#include <algorithm>
#include <cctype>

namespace liveconv::ui {

const std::vector<KeyBinding>& keyBindings() {
  static const std::vector<KeyBinding> table = {
      {kKeySpace, kModNone, Command::TogglePause, "pause / play"},
      {kKeyPeriod, kModNone, Command::StepFrame, "one frame on, then hold"},
      {'V', kModNone, Command::NextVariant, "next variant"},
      {'C', kModNone, Command::ToggleCompare, "compare: source | filtered, drag the divider"},
      {'F', kModNone, Command::ToggleFullscreen, "full screen"},
      {'H', kModNone, Command::TogglePanels, "hide / show the panels"},
      {'S', kModNone, Command::SaveFrame, "save the filtered frame as PNG (its own size)"},
      {'S', kModShift, Command::SaveWindow, "save the window as PNG"},
      {'O', kModNone, Command::ToggleOverlay, "performance overlay on / off"},
      {'O', kModShift, Command::NextOverlayCorner, "overlay to the next corner"},
      {'O', kModAlt, Command::ToggleOverlayCompact, "overlay compact / full"},
      {'R', kModNone, Command::ResetCounters, "reset the overlay's counters"},
      {'B', kModNone, Command::CompareVariants, "compare the variants on this frame (a race; the chart in the panel)"},
      {'E', kModNone, Command::ToggleCheck, "check mode: the frame on screen against the CPU reference, heat map"},
      {kKeyLeft, kModNone, Command::SeekBack, "5 s back (files)"},
      {kKeyRight, kModNone, Command::SeekForward, "5 s on (files)"},
      {kKeyHome, kModNone, Command::SeekStart, "to the start (files)"},
      {kKeyEnd, kModNone, Command::SeekEnd, "to the last half second (files)"},
      {kKeyLeft, kModShift, Command::FrameBack, "pause, one frame back (files)"},
      {kKeyRight, kModShift, Command::FrameForward, "pause, one frame on"},
      {kKeyEscape, kModNone, Command::Quit, "cancel an open; leave full screen; else quit"},
  };
  return table;
}

Command commandForKey(int key, int modifiers) {
  if (key >= 'a' && key <= 'z') key = key - 'a' + 'A';
  for (const KeyBinding& b : keyBindings())
    if (b.key == key && b.modifiers == modifiers) return b.command;
  return Command::Invalid;
}

namespace {
std::string keyName(int key) {
  switch (key) {
    case kKeySpace: return "Space";
    case kKeyEscape: return "Esc";
    case kKeyLeft: return "Left";
    case kKeyRight: return "Right";
    case kKeyHome: return "Home";
    case kKeyEnd: return "End";
    default: return std::string(1, static_cast<char>(key));
  }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
}  // namespace

std::string keyText(const KeyBinding& binding) {
  std::string text;
  if (binding.modifiers & kModShift) text += "Shift+";
  if (binding.modifiers & kModAlt) text += "Alt+";
  return text + keyName(binding.key);
}

const KeyBinding* bindingFor(Command command) {
  for (const KeyBinding& b : keyBindings())
    if (b.command == command) return &b;
  return nullptr;
}

Command commandForKeyText(const std::string& text) {
  for (const KeyBinding& b : keyBindings())
    if (lower(keyText(b)) == lower(text)) return b.command;
  return Command::Invalid;
}

std::string keyHelp() {
  std::size_t width = 0;
  for (const KeyBinding& b : keyBindings()) width = std::max(width, keyText(b).size());
  std::string out = "Keys (both windows):\n";
  for (const KeyBinding& b : keyBindings()) {
    std::string key = keyText(b);
    key.resize(width, ' ');
    out += "  " + key + "  " + b.help + "\n";
  }
  return out;
}

}  // namespace liveconv::ui
