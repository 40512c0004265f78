// The performance overlay: what the frame costs, stage by stage, and whether
// frames are lost. Numbers first, then a bar and the frame-time plot.
#include <imgui.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "imgui/panels.hpp"

namespace liveconv::ui {
namespace {

// Over a bright picture the default disabled grey and a see-through
// background leave the lower lines hard to read: a nearly solid background
// and a secondary text colour well above it.
const ImVec4 kSecondary(0.74f, 0.76f, 0.80f, 1.0f);
const ImVec2 kPadding(12, 10);  // window padding, so no line touches an edge

void secondaryText(const char* format, ...) IM_FMTARGS(1);
void secondaryText(const char* format, ...) {
  va_list args;
  va_start(args, format);
  ImGui::PushStyleColor(ImGuiCol_Text, kSecondary);
  ImGui::TextV(format, args);
  ImGui::PopStyleColor();
  va_end(args);
}

struct Stage {
  const char* name;
  double ms;
  ImU32 colour;
};

void drawStageBar(const Stage* stages, int count, double totalMs) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, height = 10;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(at, ImVec2(at.x + width, at.y + height), IM_COL32(40, 44, 52, 255));
  float x = at.x;
  for (int i = 0; i < count && totalMs > 0; ++i) {
    const float w = static_cast<float>(stages[i].ms / totalMs) * width;
    draw->AddRectFilled(ImVec2(x, at.y), ImVec2(x + w, at.y + height), stages[i].colour);
    x += w;
  }
  ImGui::Dummy(ImVec2(width, height));
}

// The full overlay's stage table (decode .. display, in ms), its bar, and the latency line.
void drawStages(const FrameStats& stats) {
  const Stage stages[] = {
      {"decode", stats.stages.decodeMs, IM_COL32(150, 150, 160, 255)},
      {"upload", stats.stages.uploadMs, IM_COL32(90, 160, 230, 255)},
      {"kernel", stats.stages.kernelMs, IM_COL32(120, 220, 120, 255)},
      {stats.zeroCopy() ? "interop" : "readback", stats.stages.readbackMs, IM_COL32(240, 180, 70, 255)},
      {"display", stats.stages.displayMs, IM_COL32(210, 110, 200, 255)},
  };
  if (ImGui::BeginTable("stages", 5, ImGuiTableFlags_SizingStretchSame)) {
    for (const Stage& s : stages) {
      ImGui::TableNextColumn();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "%s", s.name);
    }
    for (const Stage& s : stages) {
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", s.ms);
    }
    ImGui::EndTable();
  }
  drawStageBar(stages, 5, stats.stages.totalMs());
  // A frame's whole trip: from the source's hand-over through the queues, the filter and the readback to the screen.
  if (stats.latencyMedianMs > 0)
    ImGui::Text("latency %.1f ms median, %.1f ms p99", stats.latencyMedianMs, stats.latencyP99Ms);
  else
    ImGui::TextDisabled("latency: no new frame yet");
}

// Drops by cause, what runs where, and whatever is wrong.
void drawDetails(const FrameStats& stats) {
  ImGui::Text("dropped %llu/%llu (%.1f%%)", static_cast<unsigned long long>(stats.framesDropped()),
              static_cast<unsigned long long>(stats.framesTotal), stats.droppedPercent());
  for (const DropCause& d : stats.drops)
    if (d.count)
      secondaryText("  %s: %llu/%llu (%.1f%%)", d.cause.c_str(), static_cast<unsigned long long>(d.count),
                    static_cast<unsigned long long>(stats.framesTotal),
                    stats.framesTotal ? 100.0 * d.count / stats.framesTotal : 0.0);
  ImGui::PushTextWrapPos(0);
  if (!stats.source.empty()) secondaryText("source  %s", stats.source.c_str());
  secondaryText("device  %s", stats.device.c_str());
  if (!stats.planes.empty()) {  // planes mode: the planes as the engine filters them
    secondaryText("frames  planes %s, %s each, filtered as they are (shown at 8 bits)", stats.planes.c_str(),
                  toString(stats.engineFormat));
  } else if (stats.engineFormat != PixelFormat::Invalid) {
    // The depth the engine filters at: 16 bits a sample for a source of more than 8.
    if (bytesPerSample(stats.engineFormat) == 2)
      secondaryText("frames  %s, 16 bits a sample (a %d-bit source; shown at 8)", toString(stats.engineFormat),
                    stats.sourceBits);
    else
      secondaryText("frames  %s, 8 bits a sample", toString(stats.engineFormat));
  }
  secondaryText("variant %s", stats.variantText().c_str());
  // "interop: zero-copy (...)" or "interop: readback + PBO (why)"
  secondaryText("%s", stats.displayPathText.c_str());
  if (!stats.recordingPath.empty())
    ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "REC %s (%lld frames)", stats.recordingPath.c_str(),
                       stats.recordedFrames);
  if (!stats.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", stats.error.c_str());
  if (!stats.buildLog.empty()) secondaryText("%s", stats.buildLog.c_str());
  ImGui::PopTextWrapPos();
}

// Check mode: the last check's result (green when within the tolerance, red
// when not) and, in the full overlay, what it checked; "checking ..." before the first.
void drawCheck(const FrameStats& stats, bool compact) {
  if (!stats.checking) return;
  ImGui::PushTextWrapPos(0);
  if (!stats.check) {
    secondaryText("check: filtering the frame with the CPU reference ...");
  } else {
    const std::vector<std::string> lines = checkLines(*stats.check);
    const ImVec4 colour = stats.check->check.passed() ? ImVec4(0.5f, 1.0f, 0.6f, 1) : ImVec4(1, 0.45f, 0.4f, 1);
    ImGui::TextColored(colour, "%s", lines[0].c_str());
    if (!compact)
      for (std::size_t i = 1; i < lines.size(); ++i) secondaryText("%s", lines[i].c_str());
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

ScreenRect drawOverlay(const FrameStats& stats, const FrameTimeHistory& history, const OverlayRates& rates,
                       const ViewState& view, const ScreenRect& area) {
  const float pad = 10;
  const bool right = view.overlayCorner == OverlayCorner::TopRight || view.overlayCorner == OverlayCorner::BottomRight;
  const bool bottom =
      view.overlayCorner == OverlayCorner::BottomRight || view.overlayCorner == OverlayCorner::BottomLeft;
  ImGui::SetNextWindowPos(
      ImVec2(right ? area.x + area.width - pad : area.x + pad, bottom ? area.y + area.height - pad : area.y + pad),
      ImGuiCond_Always, ImVec2(right ? 1.0f : 0.0f, bottom ? 1.0f : 0.0f));
  // A small picture (a small window, Qt's docks around it) gets the two lines
  // only, and where even they do not fit, a smaller font: the overlay never
  // covers most of the picture and is never cut at the window's edge.
  const float ui = ImGui::GetFontSize() / 15.0f;  // the font's scale (HiDPI), as the widths below were measured at 15 px
  const float fullWidth = 370 * ui, compactWidth = 330 * ui;
  const bool compact = view.overlayCompact || area.width < fullWidth + 200 * ui || area.height < 440 * ui;
  float width = compact ? compactWidth : fullWidth, scale = 1;
  if (width + 2 * pad > area.width) {
    scale = std::max(0.6f, (area.width - 2 * pad) / width);
    width *= scale;
  }
  ImGui::SetNextWindowSize(ImVec2(width, 0));
  ImGui::SetNextWindowBgAlpha(std::clamp(view.overlayOpacity, kMinOverlayOpacity, 1.0f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoSavedSettings;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 6);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(kPadding.x * scale, kPadding.y * scale));
  ImGui::Begin("##overlay", nullptr, flags);
  ImGui::SetWindowFontScale(scale);

  // The video's rate (new source frames shown per second) leads; the UI loop's rate (FrameLoop::uiFps) is secondary.
  if (rates.paused)
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1), "PAUSED");
  else
    ImGui::TextColored(ImVec4(0.5f, 1.0f, 0.6f, 1), "%5.1f fps", rates.videoFps);
  ImGui::SameLine();
  secondaryText("%dx%d   UI %.0f fps, %.1f ms", stats.frameWidth, stats.frameHeight, rates.uiFps,
                rates.uiFps > 0 ? 1000.0 / rates.uiFps : 0.0);
  // Where the picture is in the clip (a file: of its length).
  if (const std::string at = positionText(stats.positionSeconds, stats.durationSeconds); !at.empty())
    secondaryText("at %s", at.c_str());
  ImGui::Text("kernel %.3f ms    %.0f Mpix/s    %.2f GB/s", stats.stages.kernelMs, stats.megapixelsPerSecond,
              stats.gigabytesPerSecond);
  drawCheck(stats, compact);
  if (compact) {  // the two lines that matter, out of the picture's way
    if (!stats.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "refused (full overlay: Alt+O)");
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    ImGui::End();
    ImGui::PopStyleVar(2);
    return {pos.x, pos.y, size.x, size.y};
  }

  drawStages(stats);

  const std::vector<float> times = history.values();
  // The caption above the plot, not over it: an overlay text would cover the line.
  ImGui::TextDisabled("frame time, last %zu frames (max %.1f ms)", times.size(), history.maxMs());
  ImGui::PlotLines("##frametimes", times.data(), static_cast<int>(times.size()), 0, nullptr, 0.0f,
                   std::max(20.0f, history.maxMs() * 1.2f), ImVec2(ImGui::GetContentRegionAvail().x, 48));

  drawDetails(stats);
  // Wrapped lines are measured a frame late by the auto-fitting height; a
  // little room below the last one keeps it off the bottom edge meanwhile.
  ImGui::Dummy(ImVec2(0, 2));
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  ImGui::End();
  ImGui::PopStyleVar(2);
  return {pos.x, pos.y, size.x, size.y};
}

}  // namespace liveconv::ui
