// The mask editor: size, presets, the grid of coefficients, divisor, bias,
// normalization, symmetric editing and the separability line.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui/panels.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/variants.hpp"
#include "model/mask_edit.hpp"
#include "model/response_figure.hpp"
#include "png/png_io.hpp"

namespace liveconv::ui {
namespace {

// Positive coefficients tint blue, negative red, by magnitude, so the shape of
// the mask reads at a glance.
ImVec4 cellColour(float value, float largest) {
  const float t = largest > 0 ? std::min(1.0f, std::fabs(value) / largest) : 0.0f;
  const ImVec4 base = ImGui::GetStyleColorVec4(ImGuiCol_FrameBg);
  if (value == 0) return base;
  const ImVec4 tint = value > 0 ? ImVec4(0.20f, 0.45f, 0.85f, 1.0f) : ImVec4(0.85f, 0.30f, 0.25f, 1.0f);
  const float k = 0.25f + 0.6f * t;
  return ImVec4(base.x + (tint.x - base.x) * k, base.y + (tint.y - base.y) * k, base.z + (tint.z - base.z) * k, 1.0f);
}

// A refusal in red, wrapped at the panel's edge so no word of it is cut off.
void errorText(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.4f, 1));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void drawPresets(ViewerModel& model, PanelState& state) {
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##preset", "Apply a preset...")) {
    for (const PresetInfo& p : maskPresets()) {
      std::string spec = p.name;
      // Sized presets open at the current width so switching keeps the scale of the edit.
      if (std::string(p.parameters).rfind(":SIZE", 0) == 0)
        spec += ":" + std::to_string(std::max(3, model.mask().width));
      if (ImGui::Selectable(spec.c_str()) && model.applySpec(spec, &state.specError))
        std::snprintf(state.spec, sizeof state.spec, "%s", spec.c_str());  // the field shows what now runs
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description);
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(-60);
  const bool entered = ImGui::InputTextWithHint("##spec", "spec: 3x3:1,2,1,... (divided by its sum)", state.spec,
                                                sizeof state.spec, ImGuiInputTextFlags_EnterReturnsTrue);
  if (!ImGui::IsItemActive() && !entered && state.specError.empty()) {  // the field names what runs, unless being typed in
    const std::string spec = specForMask(model.mask(), state.spec);
    if (spec != state.spec) std::snprintf(state.spec, sizeof state.spec, "%s", spec.c_str());
  }
  ImGui::SameLine();
  if (ImGui::Button("Apply", ImVec2(-1, 0)) || entered) model.applySpec(state.spec, &state.specError);
  if (!state.specError.empty()) errorText(state.specError);
}

constexpr float kCellPaddingX = 3;  // the numbers need the width more than the frame does

// Up and Down in a cell being typed in move to the cell above or below, still
// typing (Tab and Shift+Tab, ImGui's own, move along the row and wrap to the
// next); Left and Right stay in the text, as in any text field.
void moveFocusOnArrows(const Mask& m, int x, int y, PanelState& state) {
  if (!ImGui::IsItemActive() || !ImGui::GetIO().WantTextInput) return;
  const int dy = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow), false)     ? -1
                 : ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow), false) ? 1
                                                                               : 0;
  if (dy == 0 || y + dy < 0 || y + dy >= m.height) return;
  state.focusCellX = state.focusTargetX = x;
  state.focusCellY = state.focusTargetY = y + dy;
  state.keysWaitPasses = 3;  // the focus lands in two passes; a third should it not
}

// Whole numbers read as typed ("-1", "0", "16", as in GIMP's matrix);
// fractions (a normalised Gaussian) at fixed precision, with the exact value in
// the tooltip. Cell by cell: a -1 typed into a blur stays "-1", not "-1.000"
// that would widen every column past the panel.
const char* cellFormat(float c) {
  return c == std::floor(c) ? "%g" : "%.3f";
}

// The grid's measures for the mask and the panel's width.
struct GridLayout {
  float largest = 0;     // the largest |tap|, which the cells' colours scale to
  bool integral = true;  // every tap a whole number
  float rowSpacing = 3;  // the gap between rows (and above and below them)
  float gridHeight = 0;  // a whole number of rows
  float spacing = 3;     // between columns
  float cellPaddingX = kCellPaddingX;
  float cellWidth = 0;
  bool scrollsX = false;  // the columns do not fit: a horizontal scrollbar
};

constexpr int kRowsShown = 9;

GridLayout gridLayout(const Mask& m) {
  GridLayout g;
  for (float c : m.coefficients) g.largest = std::max(g.largest, std::fabs(c));
  for (float c : m.coefficients) g.integral = g.integral && c == std::floor(c);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float rowHeight = ImGui::GetFrameHeight() + g.rowSpacing;
  // A whole number of rows, with a gap of `rowSpacing` above and below them, scrolled
  // to the top or to the bottom: the child's vertical padding is that gap, and its
  // height ends where the next row would begin, so no row shows cut off at
  // either end (a full WindowPadding would let the next row show through it).
  const float rowsShown = static_cast<float>(std::min(kRowsShown, m.height));
  g.gridHeight = g.rowSpacing + rowsShown * rowHeight + style.ChildBorderSize;
  // The cells share the width the panel has: as wide as that allows, up to a
  // comfortable size, and never narrower than the widest number they print;
  // below that the grid scrolls sideways (a large mask, up to 63 columns).
  float inner = ImGui::GetContentRegionAvail().x - 2 * style.WindowPadding.x - 2;  // 2: the child's border
  if (m.height > kRowsShown) inner -= style.ScrollbarSize;                         // the vertical scrollbar
  // The widest number the cells print (at least three digits), in a frame with a slim padding.
  float widestText = ImGui::CalcTextSize(g.integral ? "000" : "0.000").x;
  for (float c : m.coefficients) {
    char text[32];
    std::snprintf(text, sizeof text, cellFormat(c), c);
    widestText = std::max(widestText, ImGui::CalcTextSize(text).x);
  }
  // A slimmer frame and gap where the numbers would not fit otherwise (a 7x7
  // of three-decimal numbers in the panel of an 800-wide window).
  if (m.width * (widestText + 2 * g.cellPaddingX + 2) + (m.width - 1) * g.spacing > inner) {
    g.cellPaddingX = 1;
    g.spacing = 2;
  }
  const float narrowest = widestText + 2 * g.cellPaddingX + 2;
  const float widest = g.integral ? 44.0f : 56.0f;
  const float fits = (inner - (m.width - 1) * g.spacing) / m.width;
  g.cellWidth = std::floor(std::clamp(fits, narrowest, std::max(narrowest, widest)));
  // Room for the horizontal scrollbar when the columns do not fit, so it never hides the last row.
  g.scrollsX = m.width * g.cellWidth + (m.width - 1) * g.spacing > inner + 0.5f;
  return g;
}

// A number typed into cell (x, y), kept until the cell is left (drawGrid
// applies it then); a drag applies at once. Esc ends the typing and keeps the
// cell's own number.
void takeCellEdit(ViewerModel& model, PanelState& state, int x, int y, float value, bool changed, bool typing,
                  bool* typedCellActive) {
  if (typing && x == state.focusTargetX && y == state.focusTargetY) {
    state.keysWaitPasses = 0;  // open for typing: the keys that waited go on into it
    state.focusTargetX = state.focusTargetY = -1;
  }
  if (changed && typing) {
    PanelState::TypedCell& typed = state.typedCell;
    if (typed.pending && (typed.x != x || typed.y != y)) model.setCell(typed.x, typed.y, typed.value);
    typed = {x, y, value, true};
  } else if (changed) {
    model.setCell(x, y, value);
  }
  if (state.typedCell.pending && state.typedCell.x == x && state.typedCell.y == y) {
    if (typing) *typedCellActive = true;
    if (ImGui::IsItemDeactivated() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))
      state.typedCell.pending = false;
  }
}

// One cell: its colour, the centre's frame, the focus it was asked to take,
// the edit, and where it lies (for the tests' clicks).
void drawCell(ViewerModel& model, PanelState& state, const GridLayout& g, int x, int y, bool focusWanted,
              bool* typedCellActive) {
  const Mask& m = model.mask();
  float value = m.at(x, y);
  ImGui::PushID(y * kMaxMaskSide + x);
  ImGui::PushStyleColor(ImGuiCol_FrameBg, cellColour(value, g.largest));
  ImGui::SetNextItemWidth(g.cellWidth);
  const bool centre = x == m.width / 2 && y == m.height / 2;
  if (centre) ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(1, 0.85f, 0.3f, 1));
  if (centre) ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.0f);
  if (focusWanted && x == state.focusCellX && y == state.focusCellY) {
    ImGui::SetKeyboardFocusHere();  // a drag cell that takes the focus opens for typing
    ImGui::SetScrollHereY();
    state.focusCellX = state.focusCellY = -1;
  }
  // Click to type (ConfigDragClickToInputText), drag to scrub.
  const bool changed = ImGui::DragFloat("##c", &value, 0.05f, 0, 0, cellFormat(value));
  const bool typing = ImGui::IsItemActive() && ImGui::GetIO().WantTextInput;
  takeCellEdit(model, state, x, y, value, changed, typing, typedCellActive);
  moveFocusOnArrows(m, x, y, state);
  const ScreenRect rect{ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x,
                        ImGui::GetItemRectSize().y};
  if (x == 0 && y == 0) state.firstCell = rect;
  if (x == m.width - 1 && y == 0) state.lastCellOfFirstRow = rect;
  if (!g.integral && ImGui::IsItemHovered()) ImGui::SetTooltip("(%d, %d) = %s", x, y, numberText(value).c_str());
  if (centre) ImGui::PopStyleVar();
  if (centre) ImGui::PopStyleColor();
  ImGui::PopStyleColor();
  ImGui::PopID();
}

void drawGrid(ViewerModel& model, PanelState& state) {
  const Mask& m = model.mask();
  const GridLayout g = gridLayout(m);
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(style.WindowPadding.x, g.rowSpacing));
  ImGui::BeginChild("grid", ImVec2(0, g.gridHeight + (g.scrollsX ? style.ScrollbarSize : 0)), true,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PopStyleVar();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(g.spacing, g.rowSpacing));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(g.cellPaddingX, style.FramePadding.y));
  bool typedCellActive = false;  // the cell typed into is still open for typing
  ImGuiListClipper clipper;      // only visible rows cost widgets, even at 63x63
  clipper.Begin(m.height);
  const bool focusWanted = state.focusCellY >= 0 && state.focusCellY < m.height && state.focusCellX < m.width;
  if (focusWanted) clipper.ForceDisplayRangeByIndices(state.focusCellY, state.focusCellY + 1);  // scrolled out or not
  while (clipper.Step()) {
    for (int y = clipper.DisplayStart; y < clipper.DisplayEnd; ++y) {
      for (int x = 0; x < m.width; ++x) {
        if (x > 0) ImGui::SameLine();
        drawCell(model, state, g, x, y, focusWanted, &typedCellActive);
      }
    }
  }
  ImGui::PopStyleVar(2);
  state.gridArea = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y};
  ImGui::EndChild();
  // The typed cell was left (or scrolled out, which ends its typing too): its number applies.
  if (state.typedCell.pending && !typedCellActive) {
    state.typedCell.pending = false;
    if (state.typedCell.x < m.width && state.typedCell.y < m.height)
      model.setCell(state.typedCell.x, state.typedCell.y, state.typedCell.value);
  }
}

// Load and save the JSON mask files; a parse error names the line and column.
void drawMaskFile(ViewerModel& model, PanelState& state) {
  ImGui::SetNextItemWidth(-110);
  ImGui::InputTextWithHint("##maskfile", "mask.json", state.maskPath, sizeof state.maskPath);
  ImGui::SameLine();
  if (ImGui::Button("Load")) {
    state.maskFileFailed = !model.loadMask(state.maskPath, &state.maskFileMessage);
    if (!state.maskFileFailed) state.maskFileMessage = std::string("loaded ") + state.maskPath;
  }
  ImGui::SameLine();
  if (ImGui::Button("Save", ImVec2(-1, 0))) {
    state.maskFileFailed = !model.saveMask(state.maskPath, &state.maskFileMessage);
    if (!state.maskFileFailed) state.maskFileMessage = std::string("saved ") + state.maskPath;
    if (!state.maskFileFailed && state.saveResponse) {
      const std::string png = responsePathFor(state.maskPath);
      const std::string error = writeResponsePng(png, model.responseFigure());
      state.maskFileFailed = !error.empty();
      state.maskFileMessage = error.empty() ? state.maskFileMessage + " and " + png : error;
    }
  }
  // The label wraps in a narrow panel rather than run past its edge.
  ImGui::Checkbox("##saveResponse", &state.saveResponse);
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextWrapped("save its frequency response beside it (.response.png)");
  if (ImGui::IsItemClicked()) state.saveResponse = !state.saveResponse;  // the label toggles it, as a checkbox's does
  if (state.maskFileMessage.empty()) return;
  ImGui::PushTextWrapPos(0);
  if (state.maskFileFailed)
    errorText(state.maskFileMessage);
  else
    ImGui::TextDisabled("%s", state.maskFileMessage.c_str());
  ImGui::PopTextWrapPos();
}

ImU32 packed(const Rgb& c) { return IM_COL32(c[0], c[1], c[2], 255); }

// The gain along a cut, 0 .. 0.5 cycles/px left to right, 0 .. top bottom to top.
void drawCut(ImDrawList* list, const std::vector<float>& cut, float top, ImVec2 origin, ImVec2 size, ImU32 colour) {
  if (cut.size() < 2) return;
  std::vector<ImVec2> points;
  for (size_t k = 0; k < cut.size(); ++k)
    points.push_back({origin.x + size.x * static_cast<float>(k) / static_cast<float>(cut.size() - 1),
                      origin.y + size.y - size.y * std::min(1.0f, cut[k] / top)});
  list->AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, 1.5f);
}

// The mask's frequency response beside the grid: the 2-D gain as colours (DC
// in the middle, fx across, fy down, -0.5 .. 0.5 cycles/px), the cuts along
// x (white) and y (orange), the colour scale and what the mask does.
void drawResponse(const ViewerModel& model) {
  const ResponseFigure& f = model.responseFigure();
  if (f.response.size == 0) return;
  if (!ImGui::TreeNodeEx("Frequency response", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const int n = f.response.size;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float side = std::floor(std::min(160.0f, (avail - 8) / 2) / n) * n;
  const float cell = side / n;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      list->AddRectFilled({at.x + x * cell, at.y + y * cell}, {at.x + (x + 1) * cell, at.y + (y + 1) * cell},
                          packed(f.colours[static_cast<size_t>(y) * n + x]));
  // The cuts, in a box as tall as the image, with the gain 1 line where it fits.
  const ImVec2 plot{at.x + side + 8, at.y}, plotSize{avail - side - 8, side};
  list->AddRectFilled(plot, {plot.x + plotSize.x, plot.y + plotSize.y}, IM_COL32(24, 24, 28, 255));
  if (f.scaleTop > 1.0f) {
    const float y1 = plot.y + plotSize.y - plotSize.y / f.scaleTop;
    list->AddLine({plot.x, y1}, {plot.x + plotSize.x, y1}, IM_COL32(110, 110, 110, 255));
  }
  drawCut(list, f.cutY, f.scaleTop, plot, plotSize, IM_COL32(255, 150, 40, 255));
  drawCut(list, f.cutX, f.scaleTop, plot, plotSize, IM_COL32(240, 240, 240, 255));
  ImGui::Dummy({avail, side});
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetMousePos();
    if (mouse.x < at.x + side) {
      const int x = std::clamp(static_cast<int>((mouse.x - at.x) / cell), 0, n - 1);
      const int y = std::clamp(static_cast<int>((mouse.y - at.y) / cell), 0, n - 1);
      ImGui::SetTooltip("fx %.3f, fy %.3f cycles/px: gain %.3g", static_cast<double>(x - n / 2) / n,
                        static_cast<double>(y - n / 2) / n, static_cast<double>(f.response.at(x, y)));
    }
  }
  // The colour scale under the image, and what the cuts are.
  const ImVec2 bar = ImGui::GetCursorScreenPos();
  for (int i = 0; i < 32; ++i)
    list->AddRectFilled({bar.x + side * i / 32, bar.y}, {bar.x + side * (i + 1) / 32, bar.y + 8},
                        packed(responseColour(i / 31.0f)));
  ImGui::Dummy({side, 8});
  ImGui::TextDisabled("%s; cuts 0 .. 0.5 cycles/px:", f.scaleText.c_str());
  ImGui::SameLine(0, 4);
  ImGui::TextColored(ImVec4(0.94f, 0.94f, 0.94f, 1), "x");
  ImGui::SameLine(0, 4);
  ImGui::TextColored(ImVec4(1.0f, 0.59f, 0.16f, 1), "y");
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", f.caption.c_str());
  ImGui::PopTextWrapPos();
  ImGui::TreePop();
}

}  // namespace

void drawMaskEditor(ViewerModel& model, PanelState& state, const PanelInputs& inputs) {
  const Mask& m = model.mask();
  int size[2] = {m.width, m.height};
  ImGui::SetNextItemWidth(140);
  if (ImGui::InputInt2("size (w, h)", size)) {
    // Typing an even number steps in the direction the user moved.
    // Each side inside the range --mask takes.
    const ParamDescription& d = paramDescription(ParamId::Mask);
    auto odd = [&d](int wanted, int old) {
      wanted = std::clamp(wanted, static_cast<int>(d.minimum), static_cast<int>(d.maximum));
      return wanted % 2 ? wanted : (wanted > old ? wanted + 1 : wanted - 1);
    };
    model.resize(odd(size[0], m.width), odd(size[1], m.height));
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("-")) model.resize(m.width - 2, m.height - 2);
  ImGui::SameLine();
  if (ImGui::SmallButton("+")) model.resize(m.width + 2, m.height + 2);

  drawPresets(model, state);
  drawGrid(model, state);

  int symmetry = static_cast<int>(model.symmetry()) - 1;
  ImGui::TextUnformatted("mirror edits");
  ImGui::SameLine();
  for (int i = 0; i < 3; ++i) {
    if (i) ImGui::SameLine();
    const Symmetry mode = static_cast<Symmetry>(i + 1);
    if (ImGui::RadioButton(toString(mode), &symmetry, i)) model.setSymmetry(mode);
  }
  if (ImGui::Button("Transpose")) model.transposeMask();
  ImGui::SameLine();
  if (ImGui::Button("Flip H")) model.flipMaskHorizontal();
  ImGui::SameLine();
  if (ImGui::Button("Flip V")) model.flipMaskVertical();
  ImGui::SameLine();
  if (ImGui::Button("Reset")) model.resetMask();

  float divisor = m.divisor, bias = m.bias;
  ImGui::PushItemWidth(90);
  const bool autoNorm = m.normalize == Normalize::Auto;
  if (autoNorm) ImGui::BeginDisabled();
  if (ImGui::DragFloat("divisor", &divisor, 0.1f, 0, 0, "%g")) model.setDivisor(divisor);
  if (autoNorm) ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::DragFloat("bias", &bias, 1.0f, -255, 255, "%g")) model.setBias(bias);
  ImGui::PopItemWidth();
  bool normalize = autoNorm;
  if (ImGui::Checkbox("normalize by the coefficient sum (auto)", &normalize))
    model.setNormalize(normalize ? Normalize::Auto : Normalize::None);

  drawMaskFile(model, state);

  const std::string error = model.maskError();
  if (!error.empty()) {
    errorText(error + " The last valid mask keeps running.");
    return;
  }
  ImGui::TextDisabled("%s", normalizationText(m).c_str());
  if (const std::string warning = nearZeroSumWarning(m); !warning.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    errorText(warning);
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Normalize off")) model.setNormalize(Normalize::None);
  }
  ImGui::PushTextWrapPos(0.0f);  // "runs on variant rows, until baked is built" is wider than the panel
  ImGui::TextDisabled("%s; runs on variant %s", model.separable() ? "separable (rank 1)" : "not separable (rank > 1)",
                      inputs.stats.runsOnText(model.variant()).c_str());
  ImGui::PopTextWrapPos();
  drawResponse(model);
}

}  // namespace liveconv::ui
