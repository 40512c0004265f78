// The viewer's keyboard, handed to ImGui one change of a key a pass.
//
// ImGui reads a key's state once a frame. A tap whose press and release come
// in one glfwPollEvents (xdotool, a quick finger, a pass that took 60 ms)
// must still be seen down for a frame, and a shortcut's key seen down while
// its modifier is: Debian 12's ImGui (1.86) keeps only io.KeysDown, so
// BackSpace, Enter and Ctrl+A were lost in the text fields; Debian 13's 1.90
// queues and trickles events itself, but one frame takes the changes of
// different keys together, so Ctrl+A whose A down and Ctrl up came in one poll
// (a loaded machine: a pass of 100 ms or more) was seen as A alone.
//
// So GLFW's key and text events wait here, and each pass hands ImGui those up
// to the first that would undo what it handed (a key's second change, any
// release after a press, text typed after a key changed). The rest wait for
// the next pass, which the viewer runs at once while anything waits
// (pending()). With ImGui 1.87 and later each key event carries the modifiers
// as they were when it happened (GLFW's backend would read them at the
// hand-over, from glfwGetKey).
//
// The pointer, the wheel and focus go to ImGui's backend as they come (a
// click pressed and released in one poll is kept); a mouse button does too,
// unless keys still wait: then it waits behind them, in a pass of its own. The viewer's own keys
// (Space, V, S ...) are the presses handed while no text field has the
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
  // `hold`: nothing this pass (the panel moves the keyboard to another field).
  void deliver(std::vector<int>* windowKeys, bool hold = false);
  // Events wait for another pass.
  bool pending() const { return !events_.empty(); }

  static constexpr int kShift = 1 << 20;  // or-ed into a key held with Shift
  static constexpr int kAlt = 1 << 21;    // or-ed into a key held with Alt

 private:
  struct Event {
    bool text = false;
    bool button = false;  // a mouse button (key: which) that came while keys waited
    int key = 0, scancode = 0, action = 0, mods = 0;
    unsigned codepoint = 0;
  };
  static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void onChar(GLFWwindow* window, unsigned codepoint);
  static int windowKey(int key, int mods);
  void hand(const Event& e);  // one key event to ImGui


  GLFWwindow* window_;
  void (*onInput_)();
  std::vector<Event> events_;  // what waits for a pass
  bool modifierDown_[8] = {};  // GLFW_KEY_LEFT_SHIFT .. GLFW_KEY_RIGHT_SUPER as handed
};

}  // namespace liveconv::ui
