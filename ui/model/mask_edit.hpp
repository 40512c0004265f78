// Edits on a mask that both UIs offer: set a cell (optionally mirrored to its
// symmetric cells), resize keeping the centre, transpose, flip. Plain data in,
// plain data out, so the ImGui panels, the Qt docks and the tests share them.
#pragma once

#include <string>

#include "liveconv/mask.hpp"

namespace liveconv::ui {

enum class Symmetry {
  Invalid = 0,
  None,     // the edit touches one cell
  Mirror4,  // mirrored left/right and top/bottom: up to 4 cells
  Mirror8,  // also across the diagonals: up to 8 cells (square masks; else as Mirror4)
};
const char* toString(Symmetry mode);

// Sets m(x, y) = value and, by `symmetry`, the cells that mirror it.
// Out-of-range coordinates are ignored (a stale click after a resize).
void setCell(Mask& mask, int x, int y, float value, Symmetry symmetry);

// New odd size (clamped to 1..kMaxMaskSide); the old coefficients stay centred,
// cells that fall outside are dropped, new cells are zero.
void resizeKeepingCentre(Mask& mask, int width, int height);

void transpose(Mask& mask);
void flipHorizontal(Mask& mask);
void flipVertical(Mask& mask);

// Nearest odd value in [1, kMaxMaskSide]; rounds even values up.
int clampOddSide(int side);

// What the mask's coefficients are divided by and offset with, as both
// windows say it under the grid, the way GIMP's matrix shows its divisor:
// "÷ 25 (the sum, normalize auto)", "÷ 16 + 128", "+ 128 (the sum is 0, normalize auto)".
std::string normalizationText(const Mask& mask);
// Under normalize auto, a sum that is positive but nearly 0 against the
// coefficients (one cell of a blur typed negative) divides by almost nothing:
// the picture goes white. Then this says so, with the scale it became, and
// both windows offer normalize off beside it; else "".
std::string nearZeroSumWarning(const Mask& mask);

// The spec a mask field should show for `mask`: `current` when it still
// describes the mask (what the user typed), else the preset that gives exactly
// this mask ("sharpen", "box:5"), else the inline spec when it is short
// ("3x3:1,2,1,...;normalize=none"), else "" (an edited mask too large to spell out).
std::string specForMask(const Mask& mask, const std::string& current);

}  // namespace liveconv::ui
