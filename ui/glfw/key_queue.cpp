#include "glfw/key_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // the input queue ImGui has yet to take (1.87 and later)
#include <backends/imgui_impl_glfw.h>

#include <algorithm>
#include <cstddef>

namespace liveconv::ui {
namespace {

// One viewer window: the callbacks find their queue through it.
KeyQueue* g_queue = nullptr;
void (*g_onInput)() = nullptr;

void input() {
  if (g_onInput) g_onInput();
}

}  // namespace

KeyQueue::KeyQueue(GLFWwindow* window, void (*onInput)()) : window_(window), onInput_(onInput) {
  g_queue = this;
  g_onInput = onInput;
  glfwSetKeyCallback(window, &KeyQueue::onKey);
  glfwSetCharCallback(window, &KeyQueue::onChar);
  // A click while keys still wait goes in line behind them (a click typed after
  // Return must not land before it); else at once.
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
    if (g_queue && !g_queue->events_.empty()) {
      Event e;
      e.button = true;
      e.key = button;
      e.action = action;
      e.mods = mods;
      g_queue->events_.push_back(e);
    } else {
      ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods);
    }
    input();
  });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double x, double y) {
    ImGui_ImplGlfw_ScrollCallback(w, x, y);
    input();
  });
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double x, double y) {
#if IMGUI_VERSION_NUM >= 18700
    ImGui_ImplGlfw_CursorPosCallback(w, x, y);
#else
    (void)w, (void)x, (void)y;  // 1.86 reads the pointer in NewFrame
#endif
    input();
  });
  glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int entered) {
    ImGui_ImplGlfw_CursorEnterCallback(w, entered);
    input();
  });
}

KeyQueue::~KeyQueue() {
  glfwSetKeyCallback(window_, nullptr);
  glfwSetCharCallback(window_, nullptr);
  glfwSetMouseButtonCallback(window_, nullptr);
  glfwSetScrollCallback(window_, nullptr);
  glfwSetCursorPosCallback(window_, nullptr);
  glfwSetCursorEnterCallback(window_, nullptr);
  g_queue = nullptr;
  g_onInput = nullptr;
}

void KeyQueue::onKey(GLFWwindow*, int key, int scancode, int action, int mods) {
  // ImGui and the viewer make their own repeats from how long a key is held.
  if (g_queue && key != GLFW_KEY_UNKNOWN && action != GLFW_REPEAT) g_queue->events_.push_back({false, false, key, scancode, action, mods, 0});
  input();
}

void KeyQueue::onChar(GLFWwindow*, unsigned codepoint) {
  if (g_queue) g_queue->events_.push_back({true, false, 0, 0, 0, 0, codepoint});
  input();
}

#if IMGUI_VERSION_NUM >= 18700
namespace {

// GLFW's key as ImGui names it; the letters and digits as the keyboard's
// layout writes them (Ctrl+A is the key that types a), as GLFW's backend does.
ImGuiKey imguiKey(int key, int scancode) {
  if ((key >= GLFW_KEY_A && key <= GLFW_KEY_Z) || (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) ||
      (key >= GLFW_KEY_APOSTROPHE && key <= GLFW_KEY_GRAVE_ACCENT)) {
    GLFWerrorfun previous = glfwSetErrorCallback(nullptr);
    const char* name = glfwGetKeyName(key, scancode);
    glfwSetErrorCallback(previous);
    if (name && name[0] && !name[1]) {
      if (name[0] >= 'a' && name[0] <= 'z') key = GLFW_KEY_A + (name[0] - 'a');
      if (name[0] >= 'A' && name[0] <= 'Z') key = GLFW_KEY_A + (name[0] - 'A');
      if (name[0] >= '0' && name[0] <= '9') key = GLFW_KEY_0 + (name[0] - '0');
    }
  }
  if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return static_cast<ImGuiKey>(ImGuiKey_A + (key - GLFW_KEY_A));
  if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return static_cast<ImGuiKey>(ImGuiKey_0 + (key - GLFW_KEY_0));
  if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12) return static_cast<ImGuiKey>(ImGuiKey_F1 + (key - GLFW_KEY_F1));
  if (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_9)
    return static_cast<ImGuiKey>(ImGuiKey_Keypad0 + (key - GLFW_KEY_KP_0));
  switch (key) {
    case GLFW_KEY_TAB: return ImGuiKey_Tab;
    case GLFW_KEY_LEFT: return ImGuiKey_LeftArrow;
    case GLFW_KEY_RIGHT: return ImGuiKey_RightArrow;
    case GLFW_KEY_UP: return ImGuiKey_UpArrow;
    case GLFW_KEY_DOWN: return ImGuiKey_DownArrow;
    case GLFW_KEY_PAGE_UP: return ImGuiKey_PageUp;
    case GLFW_KEY_PAGE_DOWN: return ImGuiKey_PageDown;
    case GLFW_KEY_HOME: return ImGuiKey_Home;
    case GLFW_KEY_END: return ImGuiKey_End;
    case GLFW_KEY_INSERT: return ImGuiKey_Insert;
    case GLFW_KEY_DELETE: return ImGuiKey_Delete;
    case GLFW_KEY_BACKSPACE: return ImGuiKey_Backspace;
    case GLFW_KEY_SPACE: return ImGuiKey_Space;
    case GLFW_KEY_ENTER: return ImGuiKey_Enter;
    case GLFW_KEY_ESCAPE: return ImGuiKey_Escape;
    case GLFW_KEY_APOSTROPHE: return ImGuiKey_Apostrophe;
    case GLFW_KEY_COMMA: return ImGuiKey_Comma;
    case GLFW_KEY_MINUS: return ImGuiKey_Minus;
    case GLFW_KEY_PERIOD: return ImGuiKey_Period;
    case GLFW_KEY_SLASH: return ImGuiKey_Slash;
    case GLFW_KEY_SEMICOLON: return ImGuiKey_Semicolon;
    case GLFW_KEY_EQUAL: return ImGuiKey_Equal;
    case GLFW_KEY_LEFT_BRACKET: return ImGuiKey_LeftBracket;
    case GLFW_KEY_BACKSLASH: return ImGuiKey_Backslash;
    case GLFW_KEY_RIGHT_BRACKET: return ImGuiKey_RightBracket;
    case GLFW_KEY_GRAVE_ACCENT: return ImGuiKey_GraveAccent;
    case GLFW_KEY_CAPS_LOCK: return ImGuiKey_CapsLock;
    case GLFW_KEY_SCROLL_LOCK: return ImGuiKey_ScrollLock;
    case GLFW_KEY_NUM_LOCK: return ImGuiKey_NumLock;
    case GLFW_KEY_PRINT_SCREEN: return ImGuiKey_PrintScreen;
    case GLFW_KEY_PAUSE: return ImGuiKey_Pause;
    case GLFW_KEY_KP_DECIMAL: return ImGuiKey_KeypadDecimal;
    case GLFW_KEY_KP_DIVIDE: return ImGuiKey_KeypadDivide;
    case GLFW_KEY_KP_MULTIPLY: return ImGuiKey_KeypadMultiply;
    case GLFW_KEY_KP_SUBTRACT: return ImGuiKey_KeypadSubtract;
    case GLFW_KEY_KP_ADD: return ImGuiKey_KeypadAdd;
    case GLFW_KEY_KP_ENTER: return ImGuiKey_KeypadEnter;
    case GLFW_KEY_KP_EQUAL: return ImGuiKey_KeypadEqual;
    case GLFW_KEY_LEFT_SHIFT: return ImGuiKey_LeftShift;
    case GLFW_KEY_LEFT_CONTROL: return ImGuiKey_LeftCtrl;
    case GLFW_KEY_LEFT_ALT: return ImGuiKey_LeftAlt;
    case GLFW_KEY_LEFT_SUPER: return ImGuiKey_LeftSuper;
    case GLFW_KEY_RIGHT_SHIFT: return ImGuiKey_RightShift;
    case GLFW_KEY_RIGHT_CONTROL: return ImGuiKey_RightCtrl;
    case GLFW_KEY_RIGHT_ALT: return ImGuiKey_RightAlt;
    case GLFW_KEY_RIGHT_SUPER: return ImGuiKey_RightSuper;
    case GLFW_KEY_MENU: return ImGuiKey_Menu;
    default: return ImGuiKey_None;
  }
}

}  // namespace
#endif

// ImGui 1.86 keeps each key's state, and the modifiers from the keys it was
// handed. 1.87 and later take the modifiers as events of their own: they are
// handed before each key, as they were when it happened (GLFW gives a key's
// modifiers as they were before it; a modifier's own change is kept here).
void KeyQueue::hand(const Event& e) {
#if IMGUI_VERSION_NUM >= 18700
  int held = e.mods;
  if (e.key >= GLFW_KEY_LEFT_SHIFT && e.key <= GLFW_KEY_RIGHT_SUPER) {
    modifierDown_[e.key - GLFW_KEY_LEFT_SHIFT] = e.action != GLFW_RELEASE;
    const auto down = [this](int left) {
      return modifierDown_[left - GLFW_KEY_LEFT_SHIFT] || modifierDown_[left - GLFW_KEY_LEFT_SHIFT + 4];
    };
    held = (down(GLFW_KEY_LEFT_SHIFT) ? GLFW_MOD_SHIFT : 0) | (down(GLFW_KEY_LEFT_CONTROL) ? GLFW_MOD_CONTROL : 0) |
           (down(GLFW_KEY_LEFT_ALT) ? GLFW_MOD_ALT : 0) | (down(GLFW_KEY_LEFT_SUPER) ? GLFW_MOD_SUPER : 0);
  }
  ImGuiIO& io = ImGui::GetIO();
#if IMGUI_VERSION_NUM >= 18900
  io.AddKeyEvent(ImGuiMod_Ctrl, held & GLFW_MOD_CONTROL);
  io.AddKeyEvent(ImGuiMod_Shift, held & GLFW_MOD_SHIFT);
  io.AddKeyEvent(ImGuiMod_Alt, held & GLFW_MOD_ALT);
  io.AddKeyEvent(ImGuiMod_Super, held & GLFW_MOD_SUPER);
#else
  io.AddKeyEvent(ImGuiKey_ModCtrl, held & GLFW_MOD_CONTROL);
  io.AddKeyEvent(ImGuiKey_ModShift, held & GLFW_MOD_SHIFT);
  io.AddKeyEvent(ImGuiKey_ModAlt, held & GLFW_MOD_ALT);
  io.AddKeyEvent(ImGuiKey_ModSuper, held & GLFW_MOD_SUPER);
#endif
  const ImGuiKey key = imguiKey(e.key, e.scancode);
  if (key == ImGuiKey_None) return;
  io.AddKeyEvent(key, e.action == GLFW_PRESS);
#else
  ImGui_ImplGlfw_KeyCallback(window_, e.key, e.scancode, e.action, e.mods);
#endif
}

int KeyQueue::windowKey(int key, int mods) {
  return key | (mods & GLFW_MOD_SHIFT ? kShift : 0) | (mods & GLFW_MOD_ALT ? kAlt : 0);
}

void KeyQueue::deliver(std::vector<int>* windowKeys, bool hold) {
  if (hold) return;  // everything waits, in order, for the next pass
#if IMGUI_VERSION_NUM >= 18700
  // ImGui 1.87 and later queue what they are handed and take it a change a
  // frame themselves: nothing more until they have taken what they were given
  // (a digit handed with the Down before it was in ImGui's queue when the
  // panel asked the keys to wait for the cell below, and went into the old one).
  for (const ImGuiInputEvent& e : GImGui->InputEventsQueue)
    if (e.Type == ImGuiInputEventType_Key || e.Type == ImGuiInputEventType_Text ||
        e.Type == ImGuiInputEventType_MouseButton)
      return;
#endif
  std::vector<int> changed;  // keys handed this pass
  bool pressed = false;      // a press among them
  std::size_t n = 0;
  for (; n < events_.size(); ++n) {
    const Event& e = events_[n];
    if (e.button) {  // a click that waited: in a pass of its own, after what came before it
      if (n == 0) {
        ImGui_ImplGlfw_MouseButtonCallback(window_, e.key, e.action, e.mods);
        ++n;
      }
      break;
    }
    if (e.text) {
      if (!changed.empty()) break;  // typed after a key changed: ImGui 1.86 reads text before keys
      ImGui_ImplGlfw_CharCallback(window_, e.codepoint);
      continue;
    }
    if (std::find(changed.begin(), changed.end(), e.key) != changed.end()) break;  // its release, or a repeat
    // A release after a press waits: Ctrl+A often comes as Ctrl down, A down,
    // Ctrl up, A up, and ImGui must see Ctrl and A down in one frame.
    if (e.action == GLFW_RELEASE && pressed) break;
    pressed = pressed || e.action == GLFW_PRESS;
    changed.push_back(e.key);
    hand(e);
    if (e.action == GLFW_PRESS && !ImGui::GetIO().WantTextInput) windowKeys->push_back(windowKey(e.key, e.mods));
  }
  events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace liveconv::ui
