#include "glfw/key_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
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
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
    ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods);
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

// ImGui 1.87 and later queue and trickle events themselves, and read the
// modifiers from GLFW's key state as the event comes (glfwGetKey): there each
// event goes to ImGui at once, as it happens. 1.86 keeps only a key's state:
// there the events wait here for the passes (deliver()).
constexpr bool kImGuiQueues = IMGUI_VERSION_NUM >= 18700;

void KeyQueue::onKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (g_queue && kImGuiQueues) {
    ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
    if (action == GLFW_PRESS && !ImGui::GetIO().WantTextInput) g_queue->pressed_.push_back(windowKey(key, mods));
  } else if (g_queue) {
    g_queue->events_.push_back({false, key, scancode, action, mods, 0});
  }
  input();
}

void KeyQueue::onChar(GLFWwindow* window, unsigned codepoint) {
  if (g_queue && kImGuiQueues)
    ImGui_ImplGlfw_CharCallback(window, codepoint);
  else if (g_queue)
    g_queue->events_.push_back({true, 0, 0, 0, 0, codepoint});
  input();
}

int KeyQueue::windowKey(int key, int mods) {
  return key | (mods & GLFW_MOD_SHIFT ? kShift : 0) | (mods & GLFW_MOD_ALT ? kAlt : 0);
}

void KeyQueue::deliver(std::vector<int>* windowKeys) {
  windowKeys->insert(windowKeys->end(), pressed_.begin(), pressed_.end());
  pressed_.clear();
  std::vector<int> changed;  // keys handed this pass
  bool pressed = false;      // a press among them
  std::size_t n = 0;
  for (; n < events_.size(); ++n) {
    const Event& e = events_[n];
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
    ImGui_ImplGlfw_KeyCallback(window_, e.key, e.scancode, e.action, e.mods);
    if (e.action == GLFW_PRESS && !ImGui::GetIO().WantTextInput) windowKeys->push_back(windowKey(e.key, e.mods));
  }
  events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace liveconv::ui
