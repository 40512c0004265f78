// The viewer's control panel, rasterised only when it changes.
//
// On a software GL (Mesa's llvmpipe: the two-core machine, Xvfb, many VMs)
// the viewer's passes went mostly to rasterising the whole window; with a
// stream playing, a pass comes with every frame, and the panel (its text, the
// grid, the variant list) was drawn again each time although it had not
// changed. Qt repaints a widget only when it changes. Here the panel's ImGui
// draw lists (its window and its children) are rendered into a texture when
// their contents differ from the last ones rendered, and the texture is copied
// into the window on every other pass; the overlay, popups, tooltips and
// cards are drawn over it each pass as before.
#pragma once

#include <cstdint>

struct ImDrawData;

namespace liveconv::ui {

class PanelCache {
 public:
  PanelCache() = default;
  ~PanelCache();
  PanelCache(const PanelCache&) = delete;
  PanelCache& operator=(const PanelCache&) = delete;

  // Draws `data` into the bound (default) framebuffer of fbWidth x fbHeight:
  // the lists of the window named `panel` and its child windows from the
  // texture (rendered again first when they changed), the rest directly.
  // The panel covers [x0, x1) x [y0, y1) in ImGui's display coordinates.
  void render(ImDrawData* data, const char* panel, float x0, float y0, float x1, float y1, int fbWidth, int fbHeight);
  // Passes whose panel was rendered again (the rest copied it), for the window tests.
  std::uint64_t panelRenders() const { return renders_; }

 private:
  void ensureTarget(int width, int height);

  unsigned framebuffer_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
  std::uint64_t lastHash_ = 0;
  bool valid_ = false;
  std::uint64_t renders_ = 0;
};

}  // namespace liveconv::ui
