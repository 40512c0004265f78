// The viewer's keyboard, handed to ImGui one change of a key a pass.
//
// ImGui reads a key's state once a frame. Debian 12's ImGui (1.86) keeps that
// state in io.KeysDown, which GLFW's callbacks set at once: a tap whose press
// and release arrive in one glfwPollEvents (xdotool, a quick finger, a pass
// that took 60 ms) is never seen down, so BackSpace, Enter and Ctrl+A were
// lost in the text fields. ImGui 1.87 and later queue events themselves
// ("trickle", and Debian 13's 1.90 gets every event at once, as it comes);
// for 1.86 this does the same: GLFW's key and text events wait here, and each
// pass hands ImGui those up to the first that would undo what it handed (a
// key's second change, any release after a press, text typed after a key
// changed). The rest wait for the next pass, which the viewer runs at once
// while anything waits (pending()).
//
// The pointer, the wheel and focus go to ImGui's backend as they come (1.86
// keeps a click that was pressed and released in one poll). The viewer's own
// keys (Space, V, S ...) are the presses handed while no text field has the
// keyboard.
#pragma once

#include <vector>

struct GLFWwindow;

namespace liveconv::ui {

class KeyQueue {
 public:
  // Installs every input callback on `window` (ImGui's backend is initialised
  // with install_callbacks = false). `onInput` is called for every event
  // (the window draws after input).
  KeyQueue(GLFWwindow* window, void (*onInput)());
  ~KeyQueue();
  KeyQueue(const KeyQueue&) = delete;
  KeyQueue& operator=(const KeyQueue&) = delete;

  // Before ImGui_ImplGlfw_NewFrame: hands ImGui what this pass may take.
  // Appends the presses no text field took, as GLFW key | kShift | kAlt.
  void deliver(std::vector<int>* windowKeys);
  // Events wait for another pass.
  bool pending() const { return !events_.empty(); }

  static constexpr int kShift = 1 << 20;  // or-ed into a key held with Shift
  static constexpr int kAlt = 1 << 21;    // or-ed into a key held with Alt

 private:
  struct Event {
    bool text = false;
    int key = 0, scancode = 0, action = 0, mods = 0;
    unsigned codepoint = 0;
  };
  static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void onChar(GLFWwindow* window, unsigned codepoint);
  static int windowKey(int key, int mods);

  GLFWwindow* window_;
  void (*onInput_)();
  std::vector<Event> events_;  // ImGui 1.86: what waits for a pass
  std::vector<int> pressed_;   // ImGui 1.87 on: the window's keys taken as they came
};

}  // namespace liveconv::ui
