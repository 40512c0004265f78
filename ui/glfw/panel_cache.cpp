#include "glfw/panel_cache.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "gl/gl.hpp"

namespace liveconv::ui {
namespace {

// FNV-1a over bytes.
void mix(std::uint64_t* hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) *hash = (*hash ^ p[i]) * 1099511628211ull;
}

// Everything a list draws: its vertices, indices and commands (clip rectangles, textures, counts).
void mixList(std::uint64_t* hash, const ImDrawList* list) {
  mix(hash, list->VtxBuffer.Data, static_cast<std::size_t>(list->VtxBuffer.Size) * sizeof(ImDrawVert));
  mix(hash, list->IdxBuffer.Data, static_cast<std::size_t>(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
  for (const ImDrawCmd& c : list->CmdBuffer) {
    mix(hash, &c.ClipRect, sizeof c.ClipRect);
    mix(hash, &c.TextureId, sizeof c.TextureId);
    mix(hash, &c.ElemCount, sizeof c.ElemCount);
    mix(hash, &c.IdxOffset, sizeof c.IdxOffset);
    mix(hash, &c.VtxOffset, sizeof c.VtxOffset);
  }
}

// The window `panel` ("liveconv") and its children ("liveconv/grid_...").
bool ownedBy(const ImDrawList* list, const char* panel) {
  const char* owner = list->_OwnerName;
  const std::size_t n = std::strlen(panel);
  return owner && std::strncmp(owner, panel, n) == 0 && (owner[n] == '\0' || owner[n] == '/');
}

// `data` with only `lists` in it.
void renderLists(const ImDrawData* data, const std::vector<ImDrawList*>& lists) {
  if (lists.empty()) return;
  ImDrawData part = *data;
#if IMGUI_VERSION_NUM >= 18980  // CmdLists became an ImVector
  part.CmdLists.resize(0);
  for (ImDrawList* l : lists) part.CmdLists.push_back(l);
#else
  part.CmdLists = const_cast<ImDrawList**>(lists.data());
#endif
  part.CmdListsCount = static_cast<int>(lists.size());
  part.TotalVtxCount = part.TotalIdxCount = 0;
  for (const ImDrawList* l : lists) {
    part.TotalVtxCount += l->VtxBuffer.Size;
    part.TotalIdxCount += l->IdxBuffer.Size;
  }
  ImGui_ImplOpenGL3_RenderDrawData(&part);
}

}  // namespace

PanelCache::~PanelCache() {
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (texture_) glDeleteTextures(1, &texture_);
}

void PanelCache::ensureTarget(int width, int height) {
  if (texture_ && width == width_ && height == height_) return;
  if (!framebuffer_) glGenFramebuffers(1, &framebuffer_);
  if (!texture_) glGenTextures(1, &texture_);
  GLint boundTexture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &boundTexture);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(boundTexture));
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  width_ = width;
  height_ = height;
  valid_ = false;
}

void PanelCache::render(ImDrawData* data, const char* panel, float x0, float y0, float x1, float y1, int fbWidth,
                        int fbHeight) {
  std::vector<ImDrawList*> panelLists, others;
  for (int i = 0; i < data->CmdListsCount; ++i) {
    ImDrawList* l = data->CmdLists[i];
    (ownedBy(l, panel) ? panelLists : others).push_back(l);
  }
  if (panelLists.empty() || fbWidth <= 0 || fbHeight <= 0) {
    ImGui_ImplOpenGL3_RenderDrawData(data);
    return;
  }
  std::uint64_t hash = 14695981039346656037ull;
  mix(&hash, &fbWidth, sizeof fbWidth);
  mix(&hash, &fbHeight, sizeof fbHeight);
  for (const ImDrawList* l : panelLists) mixList(&hash, l);
  ensureTarget(fbWidth, fbHeight);
  if (!valid_ || hash != lastHash_) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glViewport(0, 0, fbWidth, fbHeight);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    renderLists(data, panelLists);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    lastHash_ = hash;
    valid_ = true;
    ++renders_;
  }
  // The panel's pixels into the window (GL rows run bottom up), then everything else over it.
  const ImVec2 scale = data->FramebufferScale, origin = data->DisplayPos;
  const int left = std::max(0, static_cast<int>((x0 - origin.x) * scale.x));
  const int right = std::min(fbWidth, static_cast<int>((x1 - origin.x) * scale.x + 0.5f));
  const int top = std::max(0, static_cast<int>((y0 - origin.y) * scale.y));
  const int bottom = std::min(fbHeight, static_cast<int>((y1 - origin.y) * scale.y + 0.5f));
  if (right > left && bottom > top) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(left, fbHeight - bottom, right, fbHeight - top, left, fbHeight - bottom, right, fbHeight - top,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
  }
  renderLists(data, others);
}

}  // namespace liveconv::ui
