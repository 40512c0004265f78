#include "qt/gl_view.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>

#include "gl/gl.hpp"
#include "gl/gl_interop.hpp"
#include "gl/picture_renderer.hpp"
#include "imgui/panels.hpp"

namespace liveconv::ui {

namespace {
constexpr float kClear[3] = {0.09f, 0.09f, 0.10f};  // a shade off the dock background, so the picture edge reads
}

struct GlView::Impl {
  std::unique_ptr<PictureRenderer> renderer = std::make_unique<PictureRenderer>();
  ImGuiContext* imgui = nullptr;
  // PictureRenderer allocates both textures only when the frame's size or
  // format changes, so a source texture first needed later (compare switched
  // on after start, or after a size change) would stay unallocated and draw
  // black. Until the renderer allocates per texture, a fresh renderer is made
  // whenever the source shape differs from the one it last took.
  int sourceWidth = 0, sourceHeight = 0;
  PixelFormat sourceFormat = PixelFormat::Invalid;
  std::uint64_t uploadsBefore = 0;  // pixel buffer uploads of the renderers replaced so far
};

std::unique_ptr<DisplayLink> makeCurrentContextLink(DisplayPathRequest request,
                                                    std::function<void(const std::string&)> onNotice) {
  return std::make_unique<GlInteropLink>(currentGlContextHandles(), request, std::move(onNotice));
}

GlView::GlView() : impl_(std::make_unique<Impl>()) {
  // The overlay takes no input (NoInputs), so ImGui needs no platform backend:
  // only a context, a font and the OpenGL3 renderer.
  impl_->imgui = ImGui::CreateContext();
  ImGui::SetCurrentContext(impl_->imgui);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  applyViewerStyle();
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";  // fonts-dejavu-core
  if (std::FILE* f = std::fopen(font, "rb")) {
    std::fclose(f);
    io.Fonts->AddFontFromFileTTF(font, 14.0f);
  } else {
    io.Fonts->AddFontDefault();
  }
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

GlView::~GlView() {
  ImGui::SetCurrentContext(impl_->imgui);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(impl_->imgui);
}

bool GlView::hasFrame() const {
  return impl_->renderer->hasFrame();
}

std::uint64_t GlView::pixelBufferUploads() const {
  return impl_->uploadsBefore + impl_->renderer->pixelBufferUploads();
}

void GlView::upload(const FeedFrame& frame, bool withSource) {
  Impl& d = *impl_;
  const ImageView& src = frame.source;
  if (withSource && src.data &&
      (src.width != d.sourceWidth || src.height != d.sourceHeight || src.format != d.sourceFormat)) {
    d.uploadsBefore += d.renderer->pixelBufferUploads();
    d.renderer = std::make_unique<PictureRenderer>();
    d.sourceWidth = src.width;
    d.sourceHeight = src.height;
    d.sourceFormat = src.format;
  }
  d.renderer->upload(frame, withSource);
}

GlPainted GlView::paint(const GlPaint& p, const ViewState& view, const FrameStats& stats,
                        const FrameTimeHistory& history) {
  ImGui::SetCurrentContext(impl_->imgui);
  GlPainted out;
  const PixelRect area{0, 0, p.framebufferWidth, p.framebufferHeight};
  const PixelRect pic = fitPicture(area, stats.frameWidth, stats.frameHeight, p.nativeZoom ? Zoom::Native : Zoom::Fit);
  out.picture = {pic.x, pic.y, pic.width, pic.height};

  glViewport(0, 0, p.framebufferWidth, p.framebufferHeight);
  glClearColor(kClear[0], kClear[1], kClear[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  impl_->renderer->setCheck(view.checking ? stats.check.get() : nullptr);
  impl_->renderer->draw(pic, p.framebufferHeight, view);
  if (!view.overlayVisible && p.pending.empty() && p.message.empty()) return out;

  ImGuiIO& io = ImGui::GetIO();
  const float dpr = p.devicePixelRatio > 0 ? p.devicePixelRatio : 1;
  io.DisplaySize = ImVec2(p.framebufferWidth / dpr, p.framebufferHeight / dpr);
  io.DisplayFramebufferScale = ImVec2(dpr, dpr);
  io.DeltaTime = p.deltaSeconds > 0 ? static_cast<float>(p.deltaSeconds) : 1.0f / 60;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  ScreenRect o;
  if (view.overlayVisible)
    o = drawOverlay(stats, history, OverlayRates{p.videoFps, p.fps, view.paused}, view,
                    {0, 0, io.DisplaySize.x, io.DisplaySize.y});
  if (!p.message.empty())
    drawSourceMessage(p.message, {0, 0, io.DisplaySize.x, io.DisplaySize.y}, p.messageHint.c_str());
  // The Qt shell's Cancel button is in its status bar; this picture takes no clicks.
  if (!p.pending.empty()) drawPendingBanner(p.pending, {0, 0, io.DisplaySize.x, io.DisplaySize.y}, false);
  ImGui::Render();
  glViewport(0, 0, p.framebufferWidth, p.framebufferHeight);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (view.overlayVisible)
    out.overlay = {static_cast<int>(o.x * dpr), static_cast<int>(o.y * dpr), static_cast<int>(o.width * dpr + 0.5f),
                   static_cast<int>(o.height * dpr + 0.5f)};
  return out;
}

}  // namespace liveconv::ui
