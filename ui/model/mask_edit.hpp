// Edits on a mask that both UIs offer: set a cell (optionally mirrored to its
// symmetric cells), resize keeping the centre, transpose, flip. Plain data in,
// plain data out, so the ImGui panels, the Qt docks and the tests share them.
#pragma once

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

}  // namespace liveconv::ui
