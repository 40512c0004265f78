// The source section of the control panel: what plays (a file with a recent
// list, a test source, a camera), how it plays (pause, step, loop, speed) and
// recording the filtered output. Opening is a model command; the shell sees
// the new source spec and makes the feed.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "imgui/panels.hpp"
#include "liveconv/parameters.hpp"
#include "model/frame_stats.hpp"

namespace liveconv::ui {
namespace {

const ImVec4 kError(1, 0.45f, 0.4f, 1);

// A small button after the one before it: on the same line where it fits, else
// on the next (a narrow panel wraps its rows of buttons rather than cut them).
bool flowedSmallButton(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::CalcTextSize(label).x + 2 * style.FramePadding.x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) ImGui::SameLine();
  return ImGui::SmallButton(label);
}

void openSource(ViewerModel& model, const std::string& spec) {
  model.setSource(spec);
}

void drawOpen(ViewerModel& model, PanelState& state, const PanelInputs& inputs) {
  ImGui::SetNextItemWidth(-60);
  const bool entered = ImGui::InputTextWithHint("##path", "file, URL or lavfi:GRAPH", state.sourcePath,
                                                sizeof state.sourcePath, ImGuiInputTextFlags_EnterReturnsTrue);
  state.sourceField = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x,
                       ImGui::GetItemRectSize().y};
  ImGui::SameLine();
  if ((ImGui::Button("Open", ImVec2(-1, 0)) || entered) && state.sourcePath[0]) openSource(model, state.sourcePath);
  // A stream that accepts and never sends gives up after this (Esc, or Cancel on the banner, sooner).
  int& timeout = model.view().openTimeoutSeconds;
  const ParamDescription& d = paramDescription(ParamId::OpenTimeout);  // the range --open-timeout takes
  ImGui::SetNextItemWidth(110);
  if (ImGui::InputInt("s open timeout (0: wait)", &timeout, static_cast<int>(d.step), 30))
    timeout = std::clamp(timeout, static_cast<int>(d.minimum), static_cast<int>(d.maximum));
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##recent", "Recent...")) {
    for (const std::string& spec : model.recentSources())
      if (ImGui::Selectable(spec.empty() ? "bundled clip" : spec.c_str())) openSource(model, spec);
    ImGui::EndCombo();
  }
  // Test sources: generated ones need no file; the synthetic one skips decoding to show the engine's own cost.
  if (ImGui::SmallButton("pattern")) openSource(model, "testpattern");
  if (inputs.decodedSources) {
    if (flowedSmallButton("clip")) openSource(model, "");
    if (flowedSmallButton("testsrc2")) openSource(model, "lavfi:testsrc2=size=1280x720:rate=30");
    if (flowedSmallButton("mandelbrot")) openSource(model, "lavfi:mandelbrot=size=640x480:rate=30");
    if (flowedSmallButton("synthetic")) openSource(model, "synthetic:1280x720");
    if (inputs.cameras.empty()) {
      ImGui::TextDisabled("no camera found");
    } else {
      for (std::size_t k = 0; k < inputs.cameras.size(); ++k) {
        const char* camera = inputs.cameras[k].c_str();
        if (k == 0 ? ImGui::SmallButton(camera) : flowedSmallButton(camera)) openSource(model, inputs.cameras[k]);
      }
    }
  }
}

void drawPlayback(ViewerModel& model, PanelState& state, ShellRequests* requests) {
  ViewState& v = model.view();
  if (ImGui::Button(v.paused ? "Play" : "Pause", ImVec2(70, 0))) v.paused = !v.paused;
  ImGui::SameLine();
  if (!v.paused) ImGui::BeginDisabled();
  if (ImGui::Button("Step")) requests->stepFrame = true;
  if (!v.paused) ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Checkbox("loop", &v.loop);
  ImGui::SameLine();
  // Planes mode: the source opens again, its own planes filtered as they are.
  ImGui::Checkbox("planes", &v.planes);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Filter the source's own planes (Y, U, V or G, B, R, A) as they are, each with the mask,\n"
        "as liveconv run --planes all: no colour conversion, so the identity mask is lossless.\n"
        "Chroma planes are smaller: there the mask reaches twice as far.");
  // Speed on a row of its own: a drag field (no grab drawn over its number)
  // and the usual rates one click away.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("speed");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(80);
  ImGui::DragFloat("##speed", &v.playbackSpeed, 0.01f, 0.25f, 4.0f, "%.2fx",
                   ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  for (const float rate : {0.25f, 0.5f, 1.0f, 2.0f, 4.0f}) {
    char label[16];
    std::snprintf(label, sizeof label, "%gx", rate);
    const bool current = v.playbackSpeed == rate;
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (flowedSmallButton(label)) v.playbackSpeed = rate;
    state.lastSpeedButton = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x,
                             ImGui::GetItemRectSize().y};
    if (current) ImGui::PopStyleColor();
  }
}

// The seek bar of a file: drag to a place, let go to go there (ffplay's
// arrows do the same in steps: Left/Right 5 s, Home, End).
void drawSeekBar(PanelState& state, const PanelInputs& inputs, ShellRequests* requests) {
  if (inputs.stats.durationSeconds <= 0) return;
  float at = state.seeking ? state.seekSeconds : static_cast<float>(std::max(0.0, inputs.stats.positionSeconds));
  ImGui::SetNextItemWidth(-1);
  const std::string label = positionText(at, inputs.stats.durationSeconds);
  ImGui::SliderFloat("##seek", &at, 0, static_cast<float>(inputs.stats.durationSeconds), label.c_str(),
                     ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput);
  if (ImGui::IsItemActive()) {
    state.seeking = true;
    state.seekSeconds = at;
  } else if (state.seeking) {
    state.seeking = false;
    requests->seekTo = state.seekSeconds;
  }
}

void drawRecording(PanelState& state, const PanelInputs& inputs, ShellRequests* requests) {
  const bool recording = !inputs.stats.recordingPath.empty();
  ImGui::SetNextItemWidth(-90);
  if (recording) ImGui::BeginDisabled();
  ImGui::InputText("##record", state.recordPath, sizeof state.recordPath);
  if (recording) ImGui::EndDisabled();
  ImGui::SameLine();
  if (recording) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.65f, 0.15f, 0.15f, 1));
    if (ImGui::Button("Stop", ImVec2(-1, 0))) requests->stopRecording = true;
    ImGui::PopStyleColor();
    ImGui::TextColored(kError, "recording %lld frames", inputs.stats.recordedFrames);
  } else if (ImGui::Button("Record", ImVec2(-1, 0))) {
    requests->startRecording = true;
  }
  if (!recording)
    state.recordButton = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x,
                          ImGui::GetItemRectSize().y};
  if (!inputs.finishingRecording.empty()) ImGui::TextDisabled("finishing %s ...", inputs.finishingRecording.c_str());
  if (!state.recordError.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(kError, "%s", state.recordError.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace

void drawSourceControls(ViewerModel& model, PanelState& state, const PanelInputs& inputs, ShellRequests* requests) {
  drawOpen(model, state, inputs);
  drawPlayback(model, state, requests);
  drawSeekBar(state, inputs, requests);
  if (inputs.decodedSources) drawRecording(state, inputs, requests);
}

void drawSourceMessage(const std::string& message, const ScreenRect& area, const char* hint) {
  ImGui::SetNextWindowPos(ImVec2(area.x + area.width / 2, area.y + area.height / 2), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(560.0f, area.width - 40), 0));
  ImGui::SetNextWindowBgAlpha(0.9f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
  ImGui::Begin("##sourceMessage", nullptr, flags);
  ImGui::TextColored(kError, "Source");
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(message.c_str());
  ImGui::TextDisabled("%s", hint);
  ImGui::PopTextWrapPos();
  ImGui::End();
}

bool drawPendingBanner(const std::string& text, const ScreenRect& area, bool button) {
  ImGui::SetNextWindowPos(ImVec2(area.x + 12, area.y + 12), ImGuiCond_Always);
  // Sized up front: an auto-resized window stays hidden on its first frame,
  // and an open may take no longer than that.
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* cancel = button ? "Cancel (Esc)" : "(Esc cancels)";
  const ImVec2 textSize = ImGui::CalcTextSize((text + "...").c_str());
  const float buttonWidth = ImGui::CalcTextSize(cancel).x + (button ? 2 * style.FramePadding.x : 0);
  ImGui::SetNextWindowSize(ImVec2(textSize.x + style.ItemSpacing.x + buttonWidth + 2 * style.WindowPadding.x,
                                  textSize.y + 2 * style.WindowPadding.y),
                           ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
  ImGui::Begin("##pending", nullptr, flags);
  // A spinner of dots, so a slow open is seen to be alive.
  const int dots = static_cast<int>(ImGui::GetTime() * 3) % 4;
  ImGui::Text("%s%.*s%.*s", text.c_str(), dots, "...", 3 - dots, "   ");
  ImGui::SameLine();
  bool cancelled = false;
  if (button)
    cancelled = ImGui::SmallButton(cancel);
  else
    ImGui::TextDisabled("%s", cancel);
  ImGui::End();
  return cancelled;
}

void drawNotice(const std::string& text, const ScreenRect& area) {
  const ImVec2 padding = ImGui::GetStyle().WindowPadding;
  const ImVec2 textSize = ImGui::CalcTextSize(text.c_str());
  const ImVec2 size(textSize.x + 2 * padding.x, textSize.y + 2 * padding.y);
  ImGui::SetNextWindowPos(ImVec2(area.x + 12, area.y + area.height - size.y - 12), ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
  ImGui::Begin("##notice", nullptr, flags);
  ImGui::TextUnformatted(text.c_str());
  ImGui::End();
}

}  // namespace liveconv::ui
