// liveconv-viewer: the GLFW window. The loop is a straight line:
// poll -> keys -> install a feed opened in the background -> hand the newest
// parameters to the feed -> take a frame -> upload -> panels -> draw ->
// (screenshot) -> swap. Shutdown mirrors setup.
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "feed/frame_feed.hpp"
#include "feed/frame_loop.hpp"
#include "gl/gl.hpp"
#include "gl/frame_capture.hpp"
#include "gl/gl_interop.hpp"
#include "gl/picture_renderer.hpp"
#include "glfw/native_context.hpp"
#include "glfw/viewer_options.hpp"
#include "imgui/panels.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "model/commands.hpp"
#include "png/png_io.hpp"

namespace liveconv::ui {
namespace {

// No window, no GL 3.3 core context: nothing can be shown. Not in app/exit_codes.hpp
// because only the viewer opens a window.
constexpr int kExitNoDisplay = 9;
constexpr float kPanelWidth = 400;  // screen coordinates
constexpr float kClear[3] = {0.05f, 0.05f, 0.06f};

std::string glfwLastError() {
  const char* text = nullptr;
  glfwGetError(&text);
  return text ? text : "no reason given";
}

// Keys arrive in the GLFW callback; they are acted on in the loop, where the model lives.
std::vector<int> g_keys;
constexpr int kShift = 1 << 20;  // or-ed into a key held with Shift
constexpr int kAlt = 1 << 21;  // or-ed into a key held with Alt
void onKey(GLFWwindow*, int key, int, int action, int mods) {
  if (action == GLFW_PRESS && !ImGui::GetIO().WantTextInput)
    g_keys.push_back(key | (mods & GLFW_MOD_SHIFT ? kShift : 0) | (mods & GLFW_MOD_ALT ? kAlt : 0));
}

struct Layout {
  PixelRect pictureFb;    // framebuffer pixels
  ScreenRect pictureWin;  // window coordinates (ImGui, mouse)
  ScreenRect areaWin;
};

Layout layoutFor(GLFWwindow* window, const ViewState& view, int frameW, int frameH, Zoom zoom) {
  int winW = 0, winH = 0, fbW = 0, fbH = 0;
  glfwGetWindowSize(window, &winW, &winH);
  glfwGetFramebufferSize(window, &fbW, &fbH);
  const float sx = winW ? static_cast<float>(fbW) / winW : 1, sy = winH ? static_cast<float>(fbH) / winH : 1;
  const float panel = view.panelsVisible ? kPanelWidth : 0;
  Layout l;
  l.areaWin = {panel, 0, winW - panel, static_cast<float>(winH)};
  const PixelRect areaFb{static_cast<int>(panel * sx), 0, fbW - static_cast<int>(panel * sx), fbH};
  l.pictureFb = fitPicture(areaFb, frameW, frameH, zoom);
  l.pictureWin = {l.pictureFb.x / sx, l.pictureFb.y / sy, l.pictureFb.width / sx, l.pictureFb.height / sy};
  return l;
}

struct ShotInfo {
  const Layout* layout = nullptr;
  ScreenRect overlay;
  const FeedFrame* frame = nullptr;
  const FrameStats* stats = nullptr;
  std::uint64_t pixelBufferUploads = 0;
  long framesWhileOpening = 0;
};

// The framebuffer as PNG; for the window tests, also a sidecar FILE.layout naming
// the picture and overlay rectangles in framebuffer pixels and the display path.
bool saveScreenshot(const std::string& path, const ShotInfo& shot, GLFWwindow* window) {
  int fbW = 0, fbH = 0, winW = 0, winH = 0;
  glfwGetFramebufferSize(window, &fbW, &fbH);
  glfwGetWindowSize(window, &winW, &winH);
  Image img(fbW, fbH, PixelFormat::RGBA8);
  std::vector<std::uint8_t> rows(img.sizeBytes());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, fbW, fbH, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
  const std::size_t stride = static_cast<std::size_t>(fbW) * 4;
  for (int y = 0; y < fbH; ++y) {  // GL rows start at the bottom
    std::copy_n(rows.data() + (fbH - 1 - y) * stride, stride, img.data() + y * stride);
    for (int x = 0; x < fbW; ++x) img.data()[y * stride + x * 4 + 3] = 255;
  }
  const std::string error = writePng(path, img.view());
  if (!error.empty()) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", error.c_str());
    return false;
  }
  // The sidecar files are for the window tests alone ($LIVECONV_SCREENSHOT_LAYOUT=1).
  if (const char* layoutWanted = std::getenv("LIVECONV_SCREENSHOT_LAYOUT"); !layoutWanted || std::string(layoutWanted) != "1")
    return true;
  const float sx = winW ? static_cast<float>(fbW) / winW : 1, sy = winH ? static_cast<float>(fbH) / winH : 1;
  std::ofstream out(path + ".layout");
  const PixelRect& p = shot.layout->pictureFb;
  const ScreenRect& overlay = shot.overlay;
  const FeedFrame& frame = *shot.frame;
  out << "picture " << p.x << " " << p.y << " " << p.width << " " << p.height << "\n";
  out << "overlay " << static_cast<int>(overlay.x * sx) << " " << static_cast<int>(overlay.y * sy) << " "
      << static_cast<int>(overlay.width * sx + 0.5f) << " " << static_cast<int>(overlay.height * sy + 0.5f) << "\n";
  out << "frame " << frame.index << "\n";
  out << "version " << frame.paramsVersion << "\n";
  // The source frame the picture was filtered from, so a test can run the
  // reference filter on exactly that frame (decoded sources are not reproducible).
  if (frame.source.data && writePng(path + ".source.png", frame.source).empty())
    out << "source " << path << ".source.png\n";
  out << "clear " << static_cast<int>(kClear[0] * 255 + 0.5f) << " " << static_cast<int>(kClear[1] * 255 + 0.5f) << " "
      << static_cast<int>(kClear[2] * 255 + 0.5f) << "\n";
  // How the frames reached the screen: the overlay's line, and how many host
  // frames went through the renderer's pixel buffers (the readback path) and
  // how the shown frame arrived.
  out << "display " << shot.stats->displayPath << "\n";
  out << "pixel_buffer_uploads " << shot.pixelBufferUploads << "\n";
  out << "frame_in " << (frame.glPixelBuffer ? "shared-buffer" : "host") << "\n";
  out << "frames_while_opening " << shot.framesWhileOpening << "\n";
  std::printf("screenshot %s\n", path.c_str());
  return true;
}

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// A confirmation shown for a few seconds at the bottom of the picture.
class Notice {
 public:
  void show(std::string text) {
    text_ = std::move(text);
    until_ = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  }
  void draw(const ScreenRect& area) const {
    if (!text_.empty() && std::chrono::steady_clock::now() < until_) drawNotice(text_, area);
  }

 private:
  std::string text_;
  std::chrono::steady_clock::time_point until_;
};

class Fullscreen {
 public:
  void toggle(GLFWwindow* window) {
    if (GLFWmonitor* monitor = glfwGetWindowMonitor(window)) {
      (void)monitor;
      glfwSetWindowMonitor(window, nullptr, x_, y_, w_, h_, 0);
      return;
    }
    GLFWmonitor* primary = glfwGetPrimaryMonitor();
    if (!primary) return;
    glfwGetWindowPos(window, &x_, &y_);
    glfwGetWindowSize(window, &w_, &h_);
    const GLFWvidmode* mode = glfwGetVideoMode(primary);
    glfwSetWindowMonitor(window, primary, 0, 0, mode->width, mode->height, mode->refreshRate);
  }

 private:
  int x_ = 0, y_ = 0, w_ = 1600, h_ = 900;
};

void loadFont(float contentScale) {
  ImGuiIO& io = ImGui::GetIO();
  const char* path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";  // fonts-dejavu-core
  if (std::FILE* f = std::fopen(path, "rb")) {
    std::fclose(f);
    io.Fonts->AddFontFromFileTTF(path, 15.0f * contentScale);
  } else {
    io.Fonts->AddFontDefault();
  }
  if (contentScale > 1) ImGui::GetStyle().ScaleAllSizes(contentScale);
}

// The window, its GL 3.3 core context and ImGui; torn down in reverse by the destructor.
class Window {
 public:
  ~Window() {
    if (imgui_) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      ImGui::DestroyContext();
    }
    if (window_) glfwDestroyWindow(window_);
    if (initialised_) glfwTerminate();
  }

  // Returns "" or the sentence why there is no window.
  std::string open(const ViewerOptions& opt, bool vsync) {
    if (!(initialised_ = glfwInit())) return "cannot open a window: " + glfwLastError() + ".";
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: window size in logical pixels
    window_ = glfwCreateWindow(opt.windowWidth, opt.windowHeight, "liveconv", nullptr, nullptr);
    if (!window_)
      return "the viewer needs an OpenGL 3.3 core context and the driver did not give one (" + glfwLastError() + ").";
    glfwMakeContextCurrent(window_);
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major * 10 + minor < 33)
      return "the viewer needs OpenGL 3.3 core; this driver offers " + std::to_string(major) + "." +
             std::to_string(minor) + " (" + reinterpret_cast<const char*>(glGetString(GL_VERSION)) + ").";
    glfwSwapInterval(vsync ? 1 : 0);
    glfwSetKeyCallback(window_, onKey);  // set before ImGui so its backend chains to it

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    imgui_ = true;
    ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; no imgui.ini next to the user's files
    // Click a number (a mask cell, the divisor) and type, as in GIMP's matrix; drag still scrubs.
    ImGui::GetIO().ConfigDragClickToInputText = true;
    applyViewerStyle();
    float scaleX = 1, scaleY = 1;
    glfwGetWindowContentScale(window_, &scaleX, &scaleY);
    loadFont(scaleX);
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    return {};
  }

  GLFWwindow* get() const { return window_; }

 private:
  bool initialised_ = false, imgui_ = false;
  GLFWwindow* window_ = nullptr;
};

// The command line into the model; kExitOk, or the exit code of a bad option.
int setUpModel(const ViewerOptions& opt, ViewerModel& model) {
  std::string error;
  if (!opt.mask.empty() && !model.applySpec(opt.mask, &error) && !error.empty()) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", error.c_str());
    return app::kExitUsage;
  }
  if (!opt.variant.empty()) {
    const VariantInfo* v = findVariant(opt.variant);
    if (!v) {
      std::fprintf(stderr, "liveconv-viewer: unknown variant %s; known: %s.\n", opt.variant.c_str(),
                   variantNames().c_str());
      return app::kExitUsage;
    }
    model.setVariant(v->id);
  }
  const PixelFormat format = parsePixelFormat(opt.format);
  const BorderMode border = opt.border.empty() ? BorderMode::Clamp : parseBorderMode(opt.border);
  if (format == PixelFormat::Invalid || border == BorderMode::Invalid) {
    std::fprintf(stderr, "liveconv-viewer: --format takes rgba or gray, --border clamp, mirror, wrap or zero.\n");
    return app::kExitUsage;
  }
  model.setFormat(format);
  model.setBorder(border);
  model.setSource(opt.source.empty() ? defaultSourceSpec() : opt.source);
  model.view().compare = opt.compare ? CompareMode::Split : CompareMode::Off;
  model.view().overlayVisible = opt.overlay;
  model.view().panelsVisible = opt.panels;
  return app::kExitOk;
}

// The first feed, opened before the window draws: the asked source, else the
// test pattern (the loop then tries the asked source again in the background
// and says why it fails on the picture). kExitOk, or the exit code.
int openFirstFeed(const ViewerOptions& opt, const DisplayLink& link, FrameLoop& loop) {
  ViewerModel& model = loop.model();
  const std::string asked = model.source();
  try {
    try {
      loop.adopt(makeFrameFeed(asked, opt.device, model.snapshot(), &link), asked);
    } catch (const NoDeviceError&) {
      throw;
    } catch (const BuildError&) {
      throw;
    } catch (const std::exception& e) {
      if (asked.rfind("testpattern", 0) == 0) throw;
      std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
      loop.adopt(makeFrameFeed("testpattern", opt.device, model.snapshot(), &link), "testpattern");
      model.setSource(asked);
    }
  } catch (const NoDeviceError& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
    return app::kExitNoDevice;
  } catch (const BuildError& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n%s\n", e.what(), e.buildLog().c_str());
    return app::kExitBuildFailed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
    return app::kExitInputFailed;
  }
  return app::kExitOk;
}

// GLFW's key codes are ASCII for letters, digits, space and punctuation.
int keyFromGlfw(int key) {
  switch (key) {
    case GLFW_KEY_ESCAPE: return kKeyEscape;
    case GLFW_KEY_LEFT: return kKeyLeft;
    case GLFW_KEY_RIGHT: return kKeyRight;
    case GLFW_KEY_HOME: return kKeyHome;
    case GLFW_KEY_END: return kKeyEnd;
    default: return key < 256 ? key : 0;
  }
}

// The keys pressed since the last pass, as commands; those the frame loop
// does not take itself are left for the shell.
void takeKeys(FrameLoop& loop, std::vector<FrameLoop::ShellRequest>* requests) {
  for (int pressed : g_keys) {
    const int mods = (pressed & kShift ? kModShift : 0) | (pressed & kAlt ? kModAlt : 0);
    const Command c = commandForKey(keyFromGlfw(pressed & ~(kShift | kAlt)), mods);
    if (c != Command::Invalid && !loop.command(c)) requests->push_back({c, {}});
  }
  g_keys.clear();
}

// The panel's buttons, as the keys' requests.
void addPanelRequests(const ShellRequests& panel, std::vector<FrameLoop::ShellRequest>* requests) {
  if (panel.screenshot) requests->push_back({Command::SaveWindow, {}});
  if (panel.toggleFullscreen) requests->push_back({Command::ToggleFullscreen, {}});
}

int run(const ViewerOptions& opt) {
  ViewerModel model;
  if (const int code = setUpModel(opt, model); code != app::kExitOk) return code;
  const Zoom zoom = opt.zoomNative ? Zoom::Native : Zoom::Fit;
  // Without a device there is nothing to show, and saying so needs no window.
  try {
    (void)selectDevice(opt.device);
  } catch (const NoDeviceError& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
    return app::kExitNoDevice;
  }
  FrameLoop loop(model, {}, opt.device);
  if (!opt.script.empty())
    if (const std::string why = loop.loadScript(opt.script); !why.empty()) {
      std::fprintf(stderr, "liveconv-viewer: %s\n", why.c_str());
      return app::kExitUsage;
    }

  Window window;
  if (const std::string why = window.open(opt, model.view().vsync); !why.empty()) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", why.c_str());
    return kExitNoDisplay;
  }
  // The engine opens its device through the display link, which shares the
  // window's GL context with OpenCL where the device can (zero-copy), and
  // falls back to readback + PBO where it cannot.
  const GlInteropLink link(glfwContextHandles(window.get()), opt.displayPath, [](const std::string& sentence) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", sentence.c_str());
  });
  loop.setDisplayLink(&link);
  if (const int code = openFirstFeed(opt, link, loop); code != app::kExitOk) return code;

  PanelInputs inputs;
  for (const DeviceInfo& d : enumerateDevices())
    inputs.deviceNames.push_back(std::to_string(d.index) + ": " + d.name + " (" + d.platformName + ")");
  inputs.cameras = listCameraSources();
  inputs.decodedSources = decodedSourcesAvailable();

  int exitCode = app::kExitOk;
  std::unique_ptr<PictureRenderer> renderer;
  try {
    renderer = std::make_unique<PictureRenderer>();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
    exitCode = kExitNoDisplay;
  }
  GLFWwindow* const win = window.get();
  PanelState panelState;
  FrameTimeHistory history(240);
  Fullscreen fullscreen;
  Notice notice;
  double fps = 0;
  bool vsync = model.view().vsync, sourceShown = false, dragging = false, quit = false;
  long framesDrawn = 0;         // with a picture: --frames counts these
  long framesWhileOpening = 0;  // drawn while a source or device opened in the background
  bool switchAsked = false, switched = opt.switchTo.empty();
  double displayMs = 0;  // upload + draw, host clock, smoothed
  std::uint64_t shownNotices = 0, shownSeekRefusals = 0, shownRefusals = 0;
  const auto started = std::chrono::steady_clock::now();
  auto last = started;
  while (renderer && !glfwWindowShouldClose(win) && !quit) {
    glfwPollEvents();
    std::vector<FrameLoop::ShellRequest> requests = loop.runScript();
    takeKeys(loop, &requests);
    ViewState& view = model.view();
    if (view.vsync != vsync) glfwSwapInterval((vsync = view.vsync) ? 1 : 0);
    if (!switchAsked && !switched && framesDrawn >= 1) {  // --switch-to: as if picked in the panel
      model.setSource(opt.switchTo);
      switchAsked = true;
    }

    // The frame boundary: a feed opened in the background replaces the old one in tick().
    const std::uint64_t installs = loop.feedsInstalled();
    const FeedFrame& frame = loop.tick();
    if (loop.feedsInstalled() != installs) {
      sourceShown = false;
      if (switchAsked && !switched) {
        switched = true;
        framesDrawn = 0;  // --frames counts from here
      }
    }
    if (!loop.openingMessage().empty()) ++framesWhileOpening;
    if (model.notices() != shownNotices) notice.show(model.notice());
    shownNotices = model.notices();
    // A refused set: the overlay's red line lasts until the previous set is running again; this stays a while.
    if (loop.refusals() != shownRefusals) notice.show("Refused: " + loop.lastRefusal() + " The previous settings run on.");
    shownRefusals = loop.refusals();
    FrameStats stats = loop.stats();
    const bool comparing = view.compare == CompareMode::Split;
    const auto uploadStart = std::chrono::steady_clock::now();
    if (frame.fresh || (comparing && !sourceShown)) {
      renderer->upload(frame, comparing);
      sourceShown = comparing;
    }
    const double uploadMs = msSince(uploadStart);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const Layout layout = layoutFor(win, view, frame.filtered.width, frame.filtered.height, zoom);
    // Drag the compare divider with the mouse anywhere on the picture.
    const ImGuiIO& io = ImGui::GetIO();
    const ScreenRect& pw = layout.pictureWin;
    const bool onPicture = io.MousePos.x >= pw.x && io.MousePos.y >= pw.y && io.MousePos.x < pw.x + pw.width &&
                           io.MousePos.y < pw.y + pw.height;
    if (comparing && ImGui::IsMouseClicked(0) && onPicture && !io.WantCaptureMouse) dragging = true;
    if (!ImGui::IsMouseDown(0)) dragging = false;
    if (dragging && pw.width > 0 && pw.height > 0) {
      const float t = view.orientation == SplitOrientation::Horizontal ? (io.MousePos.y - pw.y) / pw.height
                                                                       : (io.MousePos.x - pw.x) / pw.width;
      view.splitPosition = std::clamp(t, 0.0f, 1.0f);
    }
    ShellRequests panel;
    if (view.panelsVisible) drawControlPanel(model, panelState, inputs, kPanelWidth, layout.areaWin.height, &panel);
    addPanelRequests(panel, &requests);
    if (panel.stepFrame) loop.command(Command::StepFrame);
    if (panel.seekTo >= 0) loop.seekTo(panel.seekTo);
    inputs.activeDevice = stats.device;
    inputs.activeVariant = stats.variant;
    ScreenRect overlay;
    if (view.overlayVisible)
      overlay = drawOverlay(stats, history, OverlayRates{loop.videoFps(), fps, view.paused}, view, layout.areaWin);
    const std::string& message = !loop.openError().empty() ? loop.openError()
                                 : !loop.failure().empty() ? loop.failure()
                                                           : stats.sourceMessage;
    if (!message.empty()) drawSourceMessage(message, layout.areaWin);
    if (!loop.openingMessage().empty()) drawPendingBanner(loop.openingMessage(), layout.areaWin);
    notice.draw(layout.areaWin);
    inputs.recordingPath = stats.recordingPath;
    inputs.recordedFrames = stats.recordedFrames;
    inputs.positionSeconds = stats.positionSeconds;
    inputs.durationSeconds = stats.durationSeconds;
    if (loop.seekRefusals() != shownSeekRefusals) notice.show("This source cannot seek (a live or generated source).");
    shownSeekRefusals = loop.seekRefusals();
    ImGui::Render();

    const auto drawStart = std::chrono::steady_clock::now();
    int fbW = 0, fbH = 0;
    glfwGetFramebufferSize(win, &fbW, &fbH);
    glViewport(0, 0, fbW, fbH);
    glClearColor(kClear[0], kClear[1], kClear[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (frame.hasPicture()) renderer->draw(layout.pictureFb, fbH, view);
    glViewport(0, 0, fbW, fbH);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    const double sample = uploadMs + msSince(drawStart);
    displayMs = displayMs == 0 ? sample : displayMs + (sample - displayMs) / 30.0;
    loop.setDisplayMs(displayMs);  // shown with the next frame's stats
    if (frame.hasPicture() || !message.empty()) ++framesDrawn;
    // A source that never delivers still ends a test run, with whatever the window shows.
    const bool lastFrame = opt.frames > 0 && ((switched && framesDrawn >= opt.frames) || msSince(started) > 30000);
    const ShotInfo shot{&layout, overlay, &frame, &stats, renderer->pixelBufferUploads(), framesWhileOpening};
    if (lastFrame && !opt.screenshot.empty() && !saveScreenshot(opt.screenshot, shot, win))
      exitCode = app::kExitOutputFailed;
    if (lastFrame && !opt.saveFrame.empty()) {
      if (const std::string error = saveFilteredFrame(frame, opt.saveFrame); !error.empty()) {
        std::fprintf(stderr, "liveconv-viewer: %s\n", error.c_str());
        exitCode = app::kExitOutputFailed;
      }
    }
    for (const FrameLoop::ShellRequest& r : requests) {
      std::string said;
      if (r.command == Command::SaveWindow) {
        const std::string name = r.path.empty() ? timestampedPngName("liveconv-window") : r.path;
        said = saveScreenshot(name, shot, win) ? "Saved the window as " + name : "Could not write " + name;
        if (said[0] == 'S') loop.log().wrote(name);
      } else if (r.command == Command::SaveFrame) {
        const std::string name = r.path.empty() ? timestampedPngName("liveconv-frame") : r.path;
        const std::string error = saveFilteredFrame(frame, name);
        said = error.empty() ? "Saved the frame (" + std::to_string(frame.filtered.width) + "x" +
                                   std::to_string(frame.filtered.height) + ") as " + name
                             : error;
        if (error.empty()) loop.log().wrote(name);
      } else if (r.command == Command::ToggleFullscreen) {
        fullscreen.toggle(win);
      } else if (r.command == Command::Quit) {
        quit = true;
      }
      if (!said.empty()) {
        notice.show(said);
        loop.log().message("notice", said, loop.framesShown());
      }
    }
    if (panel.startRecording) panelState.recordError = loop.startRecording(panelState.recordPath);
    if (panel.stopRecording) loop.stopRecording();
    glfwSwapBuffers(win);

    const auto now = std::chrono::steady_clock::now();
    const double frameMs = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
    if (framesDrawn > 2) history.push(static_cast<float>(frameMs));  // the first frames carry start-up
    fps = fps == 0 ? 1000.0 / frameMs : fps + (1000.0 / frameMs - fps) / 20.0;
    if (lastFrame && opt.quit) break;
  }
  if (!opt.statsJson.empty())
    if (const std::string why = loop.writeStatsJson(opt.statsJson); !why.empty()) {
      std::fprintf(stderr, "liveconv-viewer: %s\n", why.c_str());
      exitCode = app::kExitOutputFailed;
    }
  // The feed's GL objects and the renderer go while the context is still there.
  loop.shutdown();
  renderer.reset();
  return exitCode;
}

}  // namespace
}  // namespace liveconv::ui

int main(int argc, char** argv) {
  liveconv::ui::ViewerOptions options;
  const std::string error = liveconv::ui::parseViewerOptions(argc, argv, &options);
  if (!error.empty()) {
    std::fprintf(stderr, "liveconv-viewer: %s\n%s", error.c_str(), liveconv::ui::viewerUsage());
    return liveconv::app::kExitUsage;
  }
  if (options.help) {
    std::fputs(liveconv::ui::viewerUsage(), stdout);
    return 0;
  }
  if (options.version) {  // the second line is what `liveconv --version` reports for GLFW
    std::printf("liveconv-viewer " LIVECONV_VERSION " (commit " LIVECONV_GIT_COMMIT ")\nGLFW %s\n",
                glfwGetVersionString());
    return 0;
  }
  try {
    return liveconv::ui::run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
    return liveconv::app::kExitFailure;
  }
}
