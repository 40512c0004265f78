// The viewer's mask grid typed into as GIMP's matrix dialog and the Qt dock's
// grid are: a click opens a cell for typing and what is typed replaces the
// number; it applies when the cell is left (Tab, Enter, an arrow key, a click
// elsewhere), not digit by digit; Esc puts the old number back; a drag applies
// as it moves. Dear ImGui without a window: the events go in as the GLFW
// shell hands them over (one change a pass), so nothing here waits for time.
// (The same keys through a real window: ViewerGrid.* under Xvfb.)
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "imgui/panels.hpp"
#include "model/viewer_model.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

// The events as each ImGui takes them: 1.87 and later as events, 1.86
// (Debian 12) as the state of the mouse and the keys a pass sees.
void mouseAt(ImVec2 at) {
#if IMGUI_VERSION_NUM >= 18700
  ImGui::GetIO().AddMousePosEvent(at.x, at.y);
#else
  ImGui::GetIO().MousePos = at;
#endif
}
void leftButton(bool down) {
#if IMGUI_VERSION_NUM >= 18700
  ImGui::GetIO().AddMouseButtonEvent(ImGuiMouseButton_Left, down);
#else
  ImGui::GetIO().MouseDown[ImGuiMouseButton_Left] = down;
#endif
}
void keyState(ImGuiKey key, bool down) {
#if IMGUI_VERSION_NUM >= 18700
  ImGui::GetIO().AddKeyEvent(key, down);
#else
  ImGui::GetIO().KeysDown[ImGui::GetIO().KeyMap[key]] = down;
#endif
}

class GridTyping : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60;
    io.IniFilename = nullptr;
    io.ConfigDragClickToInputText = true;  // as the viewer sets it
#if IMGUI_VERSION_NUM < 18700
    for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;  // the keys' own numbers as their indices
#endif
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);  // the atlas, built (no texture: nothing is drawn)
    ASSERT_TRUE(model_.applySpec("3x3:0,0,0,0,1,0,0,0,0;divisor=1", nullptr));
    pass();
    pass();
    ASSERT_GT(state_.firstCell.width, 0) << "the grid was not laid out";
  }
  void TearDown() override {
    ImGui::DestroyContext();
  }

  // One pass of the window: the panel with the mask editor.
  void pass() {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(420, 780));
    ImGui::Begin("panel");
    drawMaskEditor(model_, state_, inputs_);
    ImGui::End();
    ImGui::Render();
  }
  // The centre of cell (x, y): the cells are one size, 3 pixels apart.
  ImVec2 centre(int x, int y) const {
    const ScreenRect& r = state_.firstCell;
    return ImVec2(r.x + x * (r.width + 3) + r.width / 2, r.y + y * (r.height + 3) + r.height / 2);
  }
  void click(int x, int y) {
    mouseAt(centre(x, y));
    pass();
    leftButton(true);
    pass();
    leftButton(false);
    pass();
    pass();  // the click without a drag opens the cell for typing
  }
  void type(const std::string& text) {
    for (char c : text) {
      ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
      pass();
    }
  }
  void key(ImGuiKey k) {
    keyState(k, true);
    pass();
    keyState(k, false);
    pass();
    pass();  // the focus a key moved has landed
  }
  float cell(int x, int y) const {
    return model_.mask().at(x, y);
  }
  bool typing() const {
    return ImGui::GetIO().WantTextInput;
  }

  ViewerModel model_;
  PanelState state_;
  PanelInputs inputs_;
};

TEST_F(GridTyping, ANumberAppliesWhenTheCellIsLeftNotDigitByDigit) {
  click(0, 0);
  ASSERT_TRUE(typing()) << "a click did not open the cell for typing";
  type("-1");
  EXPECT_EQ(cell(0, 0), 0.0f) << "the number applied while it was being typed (the '-' alone, or -1 digit by digit)";
  key(ImGuiKey_Tab);
  EXPECT_EQ(cell(0, 0), -1.0f) << "Tab did not apply the typed number";
  ASSERT_TRUE(typing()) << "Tab did not open the next cell for typing";
  type("25");
  EXPECT_EQ(cell(1, 0), 0.0f) << "25 applied as 2 first";
  key(ImGuiKey_DownArrow);
  EXPECT_EQ(cell(1, 0), 25.0f) << "Down did not apply the typed number";
  type("3");
  key(ImGuiKey_Enter);
  EXPECT_EQ(cell(1, 1), 3.0f) << "Enter did not apply the number typed in the cell Down opened";
  EXPECT_FALSE(typing()) << "Enter did not end the typing";
}

// The Qt dock's twenty tries (QtShell.ANumberTypedIsKeptWhateverRefreshesTheGridBeforeTheCellIsLeft),
// here: a number, Tab, a number, then Down or Tab, across a 7x7 mask.
TEST_F(GridTyping, TwentyTriesKeepEveryNumberTyped) {
  ASSERT_TRUE(model_.applySpec("motion45:7", nullptr));
  pass();
  for (int i = 0; i < 20; ++i) {
    const int x = i % 6, y = i / 6;
    const std::string a = std::to_string(i + 10), b = std::to_string(-i - 2);
    click(x, y);
    type(a);
    key(ImGuiKey_Tab);
    EXPECT_EQ(cell(x, y), std::stof(a)) << "try " << i;
    type(b);
    key(i % 2 ? ImGuiKey_DownArrow : ImGuiKey_Tab);
    EXPECT_EQ(cell(x + 1, y), std::stof(b)) << "try " << i;
    key(ImGuiKey_Enter);
  }
}

TEST_F(GridTyping, EscPutsTheOldNumberBack) {
  click(2, 2);
  type("7");
  key(ImGuiKey_Escape);
  EXPECT_EQ(cell(2, 2), 0.0f) << "Esc kept the typed number";
  EXPECT_FALSE(typing());
  click(2, 2);
  type("7");
  click(0, 2);  // a click elsewhere leaves the cell
  EXPECT_EQ(cell(2, 2), 7.0f) << "leaving the cell by a click did not apply the typed number";
}

TEST_F(GridTyping, EveryDigitTypedIsKept) {
  click(0, 1);
  type("123456.5");
  key(ImGuiKey_Tab);
  EXPECT_EQ(cell(0, 1), 123456.5f) << "digits were cut";
}

TEST_F(GridTyping, ADragAppliesAsItMoves) {
  const ImVec2 at = centre(0, 0);
  mouseAt(at);
  pass();
  leftButton(true);
  pass();
  for (int i = 1; i <= 20; ++i) {
    mouseAt(ImVec2(at.x + 4 * i, at.y));
    pass();
  }
  EXPECT_GT(cell(0, 0), 0.0f) << "a drag held down changed nothing yet";
  leftButton(false);
  pass();
  EXPECT_FALSE(typing()) << "a drag opened the cell for typing";
}

}  // namespace
