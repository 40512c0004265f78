// The left-hand control panel: source, mask, variant, device and format, view.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "imgui/panels.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/variants.hpp"
#include "model/race_figure.hpp"
#include "model/start_params.hpp"

namespace liveconv::ui {
namespace {

// The last item's help, from the parameter table, while hovered.
void paramTooltip(ParamId id) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", paramDescription(id).help);
}

// A kernel of one's own: a file name and Open kernel, which loads it and runs it as `user`.
void drawOpenKernel(PanelState& state, ShellRequests* requests) {
  ImGui::SetNextItemWidth(-110);
  const bool entered = ImGui::InputTextWithHint("##kernel", "kernel.cl", state.kernelPath, sizeof state.kernelPath,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  paramTooltip(ParamId::KernelFile);
  ImGui::SameLine();
  if ((ImGui::Button("Open kernel", ImVec2(-1, 0)) || entered) && state.kernelPath[0]) requests->openKernel = true;
  if (state.kernelMessage.empty()) return;
  ImGui::PushTextWrapPos(0);
  if (state.kernelFailed)
    ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", state.kernelMessage.c_str());
  else
    ImGui::TextDisabled("%s", state.kernelMessage.c_str());
  ImGui::PopTextWrapPos();
}

void drawVariants(ViewerModel& model, PanelState& state, ShellRequests* requests) {
  drawOpenKernel(state, requests);
  for (const VariantInfo& v : variantRegistry()) {
    const std::string why = model.variantUnusableReason(v.id);
    ImGui::PushID(v.name);
    if (!why.empty()) ImGui::BeginDisabled();
    if (ImGui::RadioButton(v.name, model.variant() == v.id)) model.setVariant(v.id);
    if (!why.empty()) ImGui::EndDisabled();
    ImGui::Indent();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", v.description);
    if (!why.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "unusable: %s", why.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Unindent();
    ImGui::PopID();
  }
}

// The last race as a bar chart: every candidate's kernel time on the race's
// frame, fastest first, the winner in green, those that could not run greyed
// with their reason; a hover shows the variant's description.
void drawRace(const PanelInputs& inputs, ShellRequests* requests) {
  const FrameStats& stats = inputs.stats;
  if (stats.comparing) ImGui::BeginDisabled();
  if (ImGui::Button(stats.comparing ? "Comparing the variants ..." : "Compare variants on this frame (B)", ImVec2(-1, 0)))
    requests->compareVariants = true;
  if (stats.comparing) ImGui::EndDisabled();
  if (!stats.race) {
    ImGui::TextDisabled("No race yet: auto races when it meets a new mask size or frame; B races on demand.");
    return;
  }
  const RaceFigure f = raceFigure(*stats.race);
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(ImVec4(0.55f, 0.9f, 0.55f, 1), "%s", f.title.c_str());
  ImGui::TextDisabled("%s", f.context.c_str());
  ImGui::PopTextWrapPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float line = ImGui::GetTextLineHeight();
  ImDrawList* list = ImGui::GetWindowDrawList();
  for (const RaceBar& bar : f.bars) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float height = 2 * line + 4;
    if (bar.ms > 0) {
      const ImU32 colour = bar.chosen ? IM_COL32(70, 160, 90, 255) : IM_COL32(55, 85, 130, 255);
      list->AddRectFilled(at, {at.x + std::max(2.0f, bar.length * width), at.y + height}, colour, 2);
    } else {
      list->AddRect(at, {at.x + width, at.y + height}, IM_COL32(80, 80, 80, 255), 2);
    }
    ImGui::Dummy({width, height});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", bar.description.c_str());
    const ImU32 text = bar.ms > 0 ? IM_COL32(235, 235, 235, 255) : IM_COL32(130, 130, 130, 255);
    const std::string first = (bar.chosen ? "* " : "") + bar.label;
    list->AddText({at.x + 4, at.y + 2}, text, first.c_str());
    const std::string second = bar.ms > 0 ? bar.numbers : bar.reason;
    list->PushClipRect(at, {at.x + width, at.y + height}, true);
    list->AddText({at.x + 4, at.y + 2 + line}, bar.ms > 0 ? text : IM_COL32(170, 130, 90, 255), second.c_str());
    list->PopClipRect();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", f.limits.c_str());
  ImGui::PopTextWrapPos();
}

void drawEngine(ViewerModel& model, PanelState& state, const PanelInputs& inputs) {
  const float labelled = -110;
  const std::string current =
      model.deviceIndex() < 0 || model.deviceIndex() >= static_cast<int>(inputs.deviceNames.size())
          ? "default: " + inputs.stats.device
          : inputs.deviceNames[model.deviceIndex()];
  // Device names are long: the label goes above so the box has the panel's width, and the whole name is a hover away.
  ImGui::TextUnformatted("device");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##device", current.c_str())) {
    if (ImGui::Selectable("default (first GPU, else CPU)", model.deviceIndex() < 0)) model.setDevice(-1);
    for (int i = 0; i < static_cast<int>(inputs.deviceNames.size()); ++i)
      if (ImGui::Selectable(inputs.deviceNames[i].c_str(), model.deviceIndex() == i)) model.setDevice(i);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", current.c_str());
  ImGui::SetNextItemWidth(labelled);
  // The choices, their words and their help are the parameter table's (as --border, --format, --alpha take them).
  const std::string border = modelParamText(model, ParamId::Border);
  if (ImGui::BeginCombo("border", border.c_str())) {
    for (const std::string& word : paramDescription(ParamId::Border).choices)
      if (ImGui::Selectable(word.c_str(), word == border)) setModelParam(model, ParamId::Border, word);
    ImGui::EndCombo();
  }
  paramTooltip(ParamId::Border);
  const std::string format = modelParamText(model, ParamId::Format);
  for (const std::string& word : paramDescription(ParamId::Format).choices) {
    if (ImGui::RadioButton(word.c_str(), word == format)) setModelParam(model, ParamId::Format, word);
    paramTooltip(ParamId::Format);
    ImGui::SameLine();
  }
  ImGui::SameLine(0, 16);
  bool filterAlpha = model.alpha() == AlphaMode::Filter;
  if (model.format() == PixelFormat::GRAY8) ImGui::BeginDisabled();
  if (ImGui::Checkbox("filter alpha", &filterAlpha)) setModelParam(model, ParamId::Alpha, filterAlpha ? "filter" : "copy");
  paramTooltip(ParamId::Alpha);
  if (model.format() == PixelFormat::GRAY8) ImGui::EndDisabled();

  if (ImGui::Checkbox("default workgroup", &state.workgroupDefault) && state.workgroupDefault)
    model.setWorkgroup({0, 0});
  if (!state.workgroupDefault) {
    WorkgroupShape wg = model.workgroup();
    int shape[2] = {wg.x > 0 ? wg.x : 16, wg.y > 0 ? wg.y : 16};
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    const ParamDescription& d = paramDescription(ParamId::Workgroup);  // each side as --workgroup takes it
    auto side = [&d](int v) { return std::clamp(v, static_cast<int>(d.minimum), static_cast<int>(d.maximum)); };
    if (ImGui::InputInt2("##wg", shape) || wg.x == 0) model.setWorkgroup({side(shape[0]), side(shape[1])});
  }
}

void drawView(ViewerModel& model, ShellRequests* requests) {
  ViewState& v = model.view();
  if (ImGui::Button("Screenshot")) requests->screenshot = true;
  ImGui::SameLine();
  if (ImGui::Button("Fullscreen")) requests->toggleFullscreen = true;

  bool compare = v.compare == CompareMode::Split;
  if (ImGui::Checkbox("compare", &compare)) v.compare = compare ? CompareMode::Split : CompareMode::Off;
  ImGui::SameLine();
  int horizontal = v.orientation == SplitOrientation::Horizontal ? 1 : 0;
  if (ImGui::RadioButton("left|right", &horizontal, 0)) v.orientation = SplitOrientation::Vertical;
  ImGui::SameLine();
  if (ImGui::RadioButton("top/bottom", &horizontal, 1)) v.orientation = SplitOrientation::Horizontal;
  ImGui::Checkbox("overlay", &v.overlayVisible);
  ImGui::SameLine();
  ImGui::Checkbox("compact", &v.overlayCompact);
  ImGui::SameLine();
  ImGui::Checkbox("vsync", &v.vsync);
  // How much of the picture shows through the overlay.
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderFloat("##opacity", &v.overlayOpacity, kMinOverlayOpacity, 1.0f, "overlay opacity %.2f",
                     ImGuiSliderFlags_AlwaysClamp);
}

// Every message the window showed, newest first: the cards on the picture go after a few seconds.
void drawMessages(const std::vector<SessionLogLine>& messages) {
  if (messages.empty()) ImGui::TextDisabled("No messages.");
  ImGui::PushTextWrapPos(0);
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    ImGui::TextDisabled("%6.1f s  %s", it->seconds, it->kind.c_str());
    ImGui::TextUnformatted(it->text.c_str());
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

// Check mode: on / off, the last check's result and what the heat map's colours say.
void drawCheck(const PanelInputs& inputs, ShellRequests* requests) {
  const FrameStats& stats = inputs.stats;
  bool on = stats.checking;
  if (ImGui::Checkbox("Check the frame against the CPU reference (E)", &on)) requests->toggleCheck = true;
  ImGui::PushTextWrapPos(0);
  if (!stats.check) {
    ImGui::TextDisabled(on ? "Checking ..."
                           : "Filters the frame on screen with the CPU reference too and shows where they differ.");
  } else {
    const std::vector<std::string> lines = checkLines(*stats.check);
    const ImVec4 colour = stats.check->check.passed() ? ImVec4(0.55f, 0.9f, 0.55f, 1) : ImVec4(1, 0.45f, 0.4f, 1);
    ImGui::TextColored(colour, "%s", lines[0].c_str());
    for (std::size_t i = 1; i < lines.size(); ++i) ImGui::TextDisabled("%s", lines[i].c_str());
    ImGui::TextDisabled("%s", heatLegend(stats.check->check).c_str());
  }
  ImGui::PopTextWrapPos();
}

void kernelOpened(PanelState& state, const std::string& error) {
  state.kernelFailed = !error.empty();
  state.kernelMessage =
      error.empty() ? "running " + std::string(state.kernelPath) + " as user; rebuilt when it is saved" : error;
}

void drawControlPanel(ViewerModel& model, PanelState& state, const PanelInputs& inputs, float width, float height,
                      ShellRequests* requests) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("liveconv", nullptr, flags);
  state.panelRight = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;  // inside its scroll bar
  ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1), "liveconv");
  ImGui::SameLine();
  // What plays, whatever was asked last (a failed or cancelled open leaves it playing).
  ImGui::TextDisabled("source: %s", inputs.playingSource.empty() ? "bundled clip" : inputs.playingSource.c_str());

  if (ImGui::CollapsingHeader("Source", ImGuiTreeNodeFlags_DefaultOpen))
    drawSourceControls(model, state, inputs, requests);
  if (ImGui::CollapsingHeader("Mask", ImGuiTreeNodeFlags_DefaultOpen)) drawMaskEditor(model, state, inputs);
  if (ImGui::CollapsingHeader("Variant", ImGuiTreeNodeFlags_DefaultOpen)) drawVariants(model, state, requests);
  if (ImGui::CollapsingHeader("Variant race", ImGuiTreeNodeFlags_DefaultOpen)) drawRace(inputs, requests);
  if (ImGui::CollapsingHeader("Check", ImGuiTreeNodeFlags_DefaultOpen)) drawCheck(inputs, requests);
  if (ImGui::CollapsingHeader("Device and format", ImGuiTreeNodeFlags_DefaultOpen)) drawEngine(model, state, inputs);
  if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) drawView(model, requests);
  if (inputs.messages && ImGui::CollapsingHeader("Messages")) drawMessages(*inputs.messages);

  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("Space pause   V next variant   C compare   F fullscreen   H hide panels   S save frame   Shift+S window");
  ImGui::PopTextWrapPos();
  ImGui::End();
}

void applyViewerStyle() {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 0;
  s.FrameRounding = 3;
  s.GrabRounding = 3;
  s.WindowPadding = ImVec2(10, 10);
  s.FramePadding = ImVec2(6, 3);
  s.ItemSpacing = ImVec2(8, 4);
  s.WindowBorderSize = 0;
  s.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
  s.Colors[ImGuiCol_Header] = ImVec4(0.18f, 0.24f, 0.33f, 1.0f);
  s.Colors[ImGuiCol_HeaderHovered] = ImVec4(0.22f, 0.32f, 0.45f, 1.0f);
}

}  // namespace liveconv::ui
