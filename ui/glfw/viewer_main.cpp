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
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "feed/first_launch_helper.hpp"
#include "feed/frame_feed.hpp"
#include "feed/frame_loop.hpp"
#include "feed/key_commands.hpp"
#include "feed/stats_file.hpp"
#include "gl/frame_capture.hpp"
#include "gl/gl.hpp"
#include "gl/gl_interop.hpp"
#include "gl/picture_renderer.hpp"
#include "glfw/key_queue.hpp"
#include "glfw/native_context.hpp"
#include "glfw/panel_cache.hpp"
#include "glfw/viewer_options.hpp"
#include "imgui/panels.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/source_kinds.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "model/commands.hpp"
#include "model/pass_pacer.hpp"
#include "png/png_io.hpp"

namespace liveconv::ui {
namespace {

// The control panel's width (screen coordinates): 400, and less in a window
// under 1100 wide, so the picture keeps most of a small window; at least 360,
// what a 7x7 grid of three-decimal numbers needs (an 800x500 window keeps a
// 440x500 picture).
float panelWidth(int windowWidth) {
  return windowWidth >= 1100 ? 400.0f : std::max(360.0f, 0.36f * static_cast<float>(windowWidth));
}
constexpr float kClear[3] = {0.05f, 0.05f, 0.06f};

std::string glfwLastError() {
  const char* text = nullptr;
  glfwGetError(&text);
  return text ? text : "no reason given";
}

// Input since the last pass (FrameLoop::inputCame), or an expose, resize or
// focus change (FrameLoop::exposed): the window draws. Keys and text wait in
// the window's KeyQueue until a pass hands them to ImGui.
bool g_input = false, g_exposed = false;

// A filtered frame is ready (DisplayLink::frameReady, on the feed's thread):
// the window's wait between passes ends and the frame is drawn at once.
std::atomic<bool> g_frameReady{false};
void frameReady() {
  g_frameReady = true;
  glfwPostEmptyEvent();
}

void watchWindow(GLFWwindow* window) {
  glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int focused) {
    ImGui_ImplGlfw_WindowFocusCallback(w, focused);
    g_exposed = true;
  });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { g_exposed = true; });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow*, int, int) { g_exposed = true; });
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
  const float panel = view.panelsVisible ? panelWidth(winW) : 0;
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
  const PanelState* panel = nullptr;
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
  out << "display " << shot.stats->displayPathText << "\n";
  out << "pixel_buffer_uploads " << shot.pixelBufferUploads << "\n";
  out << "frame_in " << (frame.glPixelBuffer ? "shared-buffer" : "host") << "\n";
  out << "frames_while_opening " << shot.framesWhileOpening << "\n";
  // The mask grid's first cell (window pixels: where xdotool clicks).
  const PanelState& panel = *shot.panel;
  out << "grid " << panel.firstCell.x << " " << panel.firstCell.y << " " << panel.firstCell.width << " "
      << panel.firstCell.height << "\n";
  const auto rect = [&out](const char* name, const ScreenRect& r) {
    out << name << " " << r.x << " " << r.y << " " << r.width << " " << r.height << "\n";
  };
  rect("grid_last_of_first_row", panel.lastCellOfFirstRow);
  rect("grid_area", panel.gridArea);
  rect("speed_last", panel.lastSpeedButton);
  out << "panel_right " << panel.panelRight << "\n";
  out << "source_field " << panel.sourceField.x << " " << panel.sourceField.y << " " << panel.sourceField.width << " "
      << panel.sourceField.height << "\n";
  out << "record_button " << panel.recordButton.x << " " << panel.recordButton.y << " " << panel.recordButton.width
      << " " << panel.recordButton.height << "\n";
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
    keys_.reset();
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
    int width = opt.windowWidth, height = opt.windowHeight;
    if (GLFWmonitor* primary = glfwGetPrimaryMonitor(); primary && !opt.sizeGiven) {  // the default fits the screen
      int x = 0, y = 0, w = 0, h = 0;
      float sx = 1, sy = 1;
      glfwGetMonitorWorkarea(primary, &x, &y, &w, &h);
      glfwGetMonitorContentScale(primary, &sx, &sy);  // the size asked is scaled by this (SCALE_TO_MONITOR)
      if (w > 0 && h > 0) {
        width = std::min(width, static_cast<int>(w / std::max(sx, 1.0f)));
        height = std::min(height, static_cast<int>(h / std::max(sy, 1.0f)));
      }
    }
    window_ = glfwCreateWindow(width, height, "liveconv", nullptr, nullptr);
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
    ImGui_ImplGlfw_InitForOpenGL(window_, false);  // the callbacks are the KeyQueue's and watchWindow's
    keys_ = std::make_unique<KeyQueue>(window_, [] { g_input = true; });
    watchWindow(window_);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    return {};
  }

  GLFWwindow* get() const { return window_; }
  KeyQueue& keys() { return *keys_; }

 private:
  bool initialised_ = false, imgui_ = false;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<KeyQueue> keys_;
};

// The command line into the model (its values were checked as it was read).
void setUpModel(const ViewerOptions& opt, ViewerModel& model) {
  applyStartParams(opt.params, model);
  model.setSource(opt.source.empty() ? defaultSourceSpec() : opt.source);
  model.view().compare = opt.compare ? CompareMode::Split : CompareMode::Off;
  model.view().overlayVisible = opt.overlay;
  model.view().panelsVisible = opt.panels;
}

// The first feed, opened before the window draws: the asked source, else the
// test pattern (the loop then tries the asked source again in the background
// and says why it fails on the picture). kExitOk, or the exit code;
// *askedFailed says whether the asked source did not open.
int openFirstFeed(const ViewerOptions& opt, const DisplayLink& link, FrameLoop& loop, bool* askedFailed) {
  ViewerModel& model = loop.model();
  const std::string asked = model.source();
  OpenControl control;  // as the loop's later opens: the model's open timeout and decoder
  control.timeoutSeconds = model.view().openTimeoutSeconds;
  control.hwaccel = model.view().hwaccel;
  control.planes = model.view().planes;
  // A signal ends the wait of a source that sends nothing, as closing the window would.
  control.abandoned = [] { return media::interruptRequested(); };
  try {
    try {
      loop.adopt(makeFrameFeed(asked, opt.params.values.device, model.snapshot(), &link, control), asked);
    } catch (const std::exception& e) {
      if (media::interruptRequested()) {
        return media::reportInterruption("liveconv-viewer", " while " + asked + " opened");
      }
      // No device, or a set that cannot run: the test pattern would fail alike.
      if (media::sourceKindOf(asked).id == media::SourceKindId::TestPattern ||
          media::exitCodeFor(e) != media::kExitInputFailed)
        throw;
      if (!loop.log().echoing()) std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());  // else the log's line says it
      *askedFailed = true;
      loop.adopt(makeFrameFeed("testpattern", opt.params.values.device, model.snapshot(), &link), "testpattern");
      model.setSource(asked);
    }
  } catch (const BuildError& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n%s\n", e.what(), e.buildLog().c_str());
    return media::kExitBuildFailed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
    return media::exitCodeFor(e);
  }
  return media::kExitOk;
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
void takeKeys(const std::vector<int>& pressed, FrameLoop& loop, std::vector<ShellRequest>* requests) {
  constexpr int kShift = KeyQueue::kShift, kAlt = KeyQueue::kAlt;
  for (int key : pressed) {
    const int mods = (key & kShift ? kModShift : 0) | (key & kAlt ? kModAlt : 0);
    const Command c = commandForKey(keyFromGlfw(key & ~(kShift | kAlt)), mods);
    if (c != Command::Invalid && !runCommand(loop, c)) requests->push_back({c, {}});
  }
}

// The panel's buttons, as the keys' requests.
void addPanelRequests(const ShellRequests& panel, std::vector<ShellRequest>* requests) {
  if (panel.screenshot) requests->push_back({Command::SaveWindow, {}});
  if (panel.toggleFullscreen) requests->push_back({Command::ToggleFullscreen, {}});
}

// One window's passes: poll -> keys and script -> the frame loop's tick ->
// (where something the window shows changed: FrameLoop::redrawDue) upload ->
// panels and overlay -> draw -> what the pass asked of the shell
// (screenshots, full screen, quit) -> swap; else a wait for input or the next refresh.
class Viewer {
 public:
  Viewer(const ViewerOptions& opt, ViewerModel& model, FrameLoop& loop, GLFWwindow* window, KeyQueue& keys)
      : opt_(opt),
        model_(model),
        loop_(loop),
        win_(window),
        keys_(keys),
        vsync_(model.view().vsync),
        switched_(opt.switchTo.empty()),
        started_(std::chrono::steady_clock::now()) {
    for (const DeviceInfo& d : enumerateDevices())
      inputs_.deviceNames.push_back(std::to_string(d.index) + ": " + d.name + " (" + d.platformName + ")");
    inputs_.cameras = listCameraSources();
    inputs_.decodedSources = decodedSourcesAvailable();
  }

  // The drawing's one-off costs, before the first feed plays: ImGui's font
  // atlas, the panels' first drawing, and on a software GL the compiling of
  // their shaders (a 105 ms first pass on the 2-core machine, in which the
  // stream's first frames came and were dropped as display late). kExitOk, or
  // the exit code.
  int prepare() {
    try {
      renderer_ = std::make_unique<PictureRenderer>();
      panel_ = std::make_unique<PanelCache>();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
      return media::kExitNoDisplay;
    }
    const Layout layout = layoutFor(win_, model_.view(), 0, 0, zoom());
    ShellRequests ignored;  // nothing was clicked yet
    drawUi(layout, &ignored);
    draw(FeedFrame(), layout);
    glFinish();  // not shown: the first pass draws over it
    return media::kExitOk;
  }

  // Returns the exit code; the renderer goes before the caller lets go of the context.
  int run() {
    if (!renderer_)
      if (const int code = prepare(); code != media::kExitOk) return code;
    // A signal (SIGINT, SIGTERM, SIGHUP) ends the loop as closing the window does.
    while (!glfwWindowShouldClose(win_) && !quit_ && !media::interruptRequested() && !pass()) {
    }
    panel_.reset();
    renderer_.reset();
    return exitCode_;
  }

 private:
  // One pass; true when --frames N --quit is done.
  bool pass() {
    pacer_.setInterval(vsync_ ? vsyncFrameInterval(refreshHz()) : std::chrono::microseconds(0));
    pacer_.passBegan(std::chrono::steady_clock::now());
    g_frameReady = false;  // this pass's tick takes the frame that is ready
    glfwPollEvents();
    // Input, keys still waiting for a pass, or a text cursor that blinks: this pass draws.
    if (std::exchange(g_input, false) || keys_.pending() || ImGui::GetIO().WantTextInput) loop_.redraw().inputCame();
    if (std::exchange(g_exposed, false)) loop_.redraw().exposed();
    std::vector<ShellRequest> requests = loop_.script().run();
    std::vector<int> pressed;
    // An arrow moved the grid's keyboard to another cell: what was typed after it
    // waits until that cell is open for typing (a few passes at most).
    const bool focusLanding = panelState_.keysWaitPasses > 0;
    if (focusLanding) --panelState_.keysWaitPasses;
    keys_.deliver(&pressed, focusLanding);  // ImGui's NewFrame comes in this pass (it draws after input)
    takeKeys(pressed, loop_, &requests);
    if (model_.view().vsync != vsync_) glfwSwapInterval((vsync_ = model_.view().vsync) ? 1 : 0);
    if (!switchAsked_ && !switched_ && picturePasses_ >= 1) {  // --switch-to: as if picked in the panel
      model_.setSource(opt_.switchTo);
      switchAsked_ = true;
    }
    const FeedFrame& frame = advance();
    if (frame.hasPicture() || !message().empty()) ++picturePasses_;
    // A source that never delivers still ends a test run, with whatever the window shows.
    const bool lastFrame =
        opt_.frames > 0 && ((switched_ && picturePasses_ >= opt_.frames) || msSince(started_) > 30000);
    if (!loop_.redraw().due() && requests.empty() && !lastFrame) {  // nothing the window shows changed
      waitForNextPass();
      return false;
    }
    const auto drawStart = std::chrono::steady_clock::now();  // upload, panels, draw, swap
    const bool comparing = model_.view().compare == CompareMode::Split;
    if (frame.fresh || (comparing && !sourceShown_)) {
      renderer_->upload(frame, comparing);
      sourceShown_ = comparing;
    }
    const Layout layout = layoutFor(win_, model_.view(), frame.filtered.width, frame.filtered.height, zoom());
    ShellRequests panel;
    const ScreenRect overlay = drawUi(layout, &panel);
    addPanelRequests(panel, &requests);
    draw(frame, layout);
    const double drawnMs = msSince(drawStart);
    const FrameStats stats = loop_.stats();
    const ShotInfo shot{&layout, overlay, &frame, &stats, renderer_->pixelBufferUploads(), framesWhileOpening_,
                        &panelState_};
    if (lastFrame) finishTestRun(frame, shot);
    for (const ShellRequest& r : requests) runRequest(r, frame, shot);
    if (panel.stepFrame) runCommand(loop_, Command::StepFrame);
    if (panel.compareVariants) compareVariants(loop_);
    if (panel.toggleCheck) runCommand(loop_, Command::ToggleCheck);
    if (panel.seekTo >= 0) loop_.seekTo(panel.seekTo);
    if (panel.startRecording) startRecording();
    if (panel.openKernel) kernelOpened(panelState_, loop_.kernelFile().open(model_, panelState_.kernelPath));
    if (panel.stopRecording) loop_.recordings().stop();
    std::this_thread::sleep_until(pacer_.swapAllowed());  // vsync asked for but not given: see PassPacer
    const auto swapStart = std::chrono::steady_clock::now();
    pacer_.swapped(swapStart);
    glfwSwapBuffers(win_);  // a software GL rasterises here
    display_.push(drawnMs + msSince(swapStart));
    loop_.setDisplayMs(display_.ms());  // shown with the next frame's stats
    loop_.redraw().drew();
    return lastFrame && opt_.quit;
  }

  Zoom zoom() const { return opt_.zoomNative ? Zoom::Native : Zoom::Fit; }

  // The frame boundary: a feed opened in the background replaces the old one in tick().
  const FeedFrame& advance() {
    const std::uint64_t installs = loop_.feedsInstalled();
    const FeedFrame& frame = loop_.tick();
    if (loop_.feedsInstalled() != installs) {
      sourceShown_ = false;
      if (switchAsked_ && !switched_) {
        switched_ = true;
        picturePasses_ = 0;  // --frames counts from here
      }
    }
    if (!loop_.openingMessage().empty()) ++framesWhileOpening_;
    if (model_.notices() != shownNotices_) notice_.show(model_.notice());
    shownNotices_ = model_.notices();
    // A refused set: the overlay's red line lasts until the previous set runs again; this stays a while.
    if (loop_.refusals() != shownRefusals_)
      notice_.show("Refused: " + loop_.lastRefusal() + " The previous settings run on.");
    shownRefusals_ = loop_.refusals();
    if (loop_.seekRefusals() != shownSeekRefusals_) notice_.show("This source cannot seek (a live or generated source).");
    shownSeekRefusals_ = loop_.seekRefusals();
    return frame;
  }

  // What is wrong with the source, on the picture: an open that failed, a feed that stopped, the source's own.
  const std::string& message() const { return loop_.pictureMessage(); }

  // Panels, overlay and messages; returns the overlay's rectangle.
  ScreenRect drawUi(const Layout& layout, ShellRequests* panel) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    dragDivider(layout.pictureWin);
    ViewState& view = model_.view();
    const FrameStats& stats = loop_.stats();
    inputs_.stats = stats;
    inputs_.playingSource = loop_.playingSource();
    inputs_.finishingRecording = loop_.recordings().finishingPath();
    messageLines();
    inputs_.messages = &messages_;
    if (view.panelsVisible) drawControlPanel(model_, panelState_, inputs_, layout.areaWin.x, layout.areaWin.height, panel);
    ScreenRect overlay;
    if (view.overlayVisible)
      overlay = drawOverlay(stats, loop_.redraw().uiFrameTimes(),
                            OverlayRates{loop_.videoFps(), loop_.redraw().uiFps(), view.paused}, view, layout.areaWin);
    if (!message().empty()) drawSourceMessage(message(), layout.areaWin);
    if (!loop_.openingMessage().empty() && drawPendingBanner(loop_.openingMessage(), layout.areaWin)) loop_.cancelOpen();
    notice_.draw(layout.areaWin);
    ImGui::Render();
    return overlay;
  }

  // The session log's messages as the panel lists them (new ones added as they come).
  void messageLines() {
    const auto& log = loop_.log().messages();
    for (std::size_t i = messages_.size(); i < log.size(); ++i)
      messages_.push_back({log[i].ms / 1000, log[i].kind, log[i].text});
  }

  // Drag the compare divider with the mouse anywhere on the picture.
  void dragDivider(const ScreenRect& pw) {
    ViewState& view = model_.view();
    const ImGuiIO& io = ImGui::GetIO();
    const bool onPicture = io.MousePos.x >= pw.x && io.MousePos.y >= pw.y && io.MousePos.x < pw.x + pw.width &&
                           io.MousePos.y < pw.y + pw.height;
    if (view.compare == CompareMode::Split && ImGui::IsMouseClicked(0) && onPicture && !io.WantCaptureMouse)
      dragging_ = true;
    if (!ImGui::IsMouseDown(0)) dragging_ = false;
    if (dragging_ && pw.width > 0 && pw.height > 0) {
      const float t = view.orientation == SplitOrientation::Horizontal ? (io.MousePos.y - pw.y) / pw.height
                                                                       : (io.MousePos.x - pw.x) / pw.width;
      view.splitPosition = std::clamp(t, 0.0f, 1.0f);
    }
  }

  void draw(const FeedFrame& frame, const Layout& layout) {
    int fbW = 0, fbH = 0;
    glfwGetFramebufferSize(win_, &fbW, &fbH);
    glViewport(0, 0, fbW, fbH);
    glClearColor(kClear[0], kClear[1], kClear[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    renderer_->setCheck(model_.view().checking ? loop_.stats().check.get() : nullptr);
    if (frame.hasPicture()) renderer_->draw(layout.pictureFb, fbH, model_.view());
    glViewport(0, 0, fbW, fbH);
    // The control panel's window (drawControlPanel), left of the picture's area.
    panel_->render(ImGui::GetDrawData(), "liveconv", 0, 0, layout.areaWin.x, layout.areaWin.height, fbW, fbH);
  }

  // --screenshot / --save-frame after --frames N.
  void finishTestRun(const FeedFrame& frame, const ShotInfo& shot) {
    if (!opt_.screenshot.empty() && !saveScreenshot(opt_.screenshot, shot, win_)) exitCode_ = media::kExitOutputFailed;
    if (opt_.saveFrame.empty()) return;
    if (const std::string error = saveFilteredFrame(frame, opt_.saveFrame); !error.empty()) {
      std::fprintf(stderr, "liveconv-viewer: %s\n", error.c_str());
      exitCode_ = media::kExitOutputFailed;
    }
  }

  // A key's or script line's command that belongs to the window.
  // The panel's Record: a file already there is named and kept; Record
  // again with the same name replaces it.
  void startRecording() {
    const std::string path = panelState_.recordPath;
    const bool confirmed = std::exchange(panelState_.replaceAsked, std::string()) == path;  // a second click
    if (!confirmed && RecordingControls::wouldReplace(path)) {
      panelState_.replaceAsked = path;
      panelState_.recordError = path + " exists: Record again to replace it, or give another name.";
      return;
    }
    panelState_.recordError = loop_.recordings().start(path, confirmed);
  }

  void runRequest(const ShellRequest& r, const FeedFrame& frame, const ShotInfo& shot) {
    std::string said;
    if (r.command == Command::SaveWindow) {
      const std::string name = r.path.empty() ? timestampedPngName("liveconv-window") : r.path;
      const bool saved = saveScreenshot(name, shot, win_);
      said = saved ? "Saved the window as " + name : "Could not write " + name;
      if (saved) loop_.log().wrote(name);
    } else if (r.command == Command::SaveFrame) {
      const std::string name = r.path.empty() ? timestampedPngName("liveconv-frame") : r.path;
      const std::string error = saveFilteredFrame(frame, name);
      said = error.empty() ? "Saved the frame (" + std::to_string(frame.filtered.width) + "x" +
                                 std::to_string(frame.filtered.height) + ") as " + name
                           : error;
      if (error.empty()) loop_.log().wrote(name);
    } else if (r.command == Command::ToggleFullscreen) {
      fullscreen_.toggle(win_);
    } else if (r.command == Command::Quit) {
      if (glfwGetWindowMonitor(win_)) fullscreen_.toggle(win_);  // Esc leaves full screen first
      else quit_ = true;
    }
    if (!said.empty()) {
      notice_.show(said);
      loop_.log().message("notice", said, loop_.framesShown());
    }
  }

  // A pass that drew nothing: the next one comes with input, with a frame
  // the feed has ready (drawn at once; its swap keeps to the refresh rate),
  // or at PassPacer::nextLook(); X events the window does not act on wait on.
  void waitForNextPass() {
    const auto next = pacer_.nextLook();
    for (auto now = std::chrono::steady_clock::now(); now < next && !g_input && !g_exposed && !g_frameReady;
         now = std::chrono::steady_clock::now())
      glfwWaitEventsTimeout(std::chrono::duration<double>(next - now).count());
  }

  // The fastest monitor's rate, so no monitor is drawn to below its own; -1
  // where none says (Xvfb): vsyncFrameInterval's default.
  int refreshHz() {
    if (refreshHz_ != 0) return refreshHz_;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    for (int i = 0; i < count; ++i)
      if (const GLFWvidmode* mode = glfwGetVideoMode(monitors[i])) refreshHz_ = std::max(refreshHz_, mode->refreshRate);
    if (refreshHz_ <= 0) refreshHz_ = -1;
    return refreshHz_;
  }

  const ViewerOptions& opt_;
  ViewerModel& model_;
  FrameLoop& loop_;
  GLFWwindow* const win_;
  KeyQueue& keys_;
  std::unique_ptr<PictureRenderer> renderer_;
  std::unique_ptr<PanelCache> panel_;
  PanelInputs inputs_;
  std::vector<SessionLogLine> messages_;
  PanelState panelState_;
  Fullscreen fullscreen_;
  Notice notice_;
  int exitCode_ = media::kExitOk;
  DisplayTime display_;  // upload to swap, the latency's last part
  int refreshHz_ = 0;  // refreshHz()'s, found at its first call
  bool vsync_, sourceShown_ = false, dragging_ = false, quit_ = false;
  long picturePasses_ = 0;       // passes with a picture (drawn or not): --frames counts these
  long framesWhileOpening_ = 0;  // passes while a source or device opened in the background
  bool switchAsked_ = false, switched_;
  std::uint64_t shownNotices_ = 0, shownSeekRefusals_ = 0, shownRefusals_ = 0;
  const std::chrono::steady_clock::time_point started_;
  PassPacer pacer_{std::chrono::microseconds(0)};  // when passes and swaps may come (vsync asked, not given)
};

int run(const ViewerOptions& opt) {
  media::InterruptScope interrupts;  // a signal closes the window: the recording is finished, 128 + N
  ViewerModel model;
  setUpModel(opt, model);
  // Without a device there is nothing to show, and saying so needs no window.
  try {
    (void)selectDevice(opt.params.values.device);
  } catch (const NoDeviceError& e) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", e.what());
    return media::kExitNoDevice;
  }
  FrameLoop loop(model, {}, opt.params.values.device);
  // Nobody watches (--quit, --screenshot, --save-frame, --script): every
  // message the window shows is said on stderr too, as `liveconv run` says its own.
  const bool unattended = opt.quit || !opt.screenshot.empty() || !opt.saveFrame.empty() || !opt.script.empty();
  if (unattended)
    loop.log().echoMessages([](const std::string& text) { std::fprintf(stderr, "liveconv-viewer: %s\n", text.c_str()); });
  if (!opt.script.empty())
    if (const std::string why = loop.script().load(opt.script); !why.empty()) {
      std::fprintf(stderr, "liveconv-viewer: %s\n", why.c_str());
      return media::kExitUsage;
    }
  Window window;
  if (const std::string why = window.open(opt, model.view().vsync); !why.empty()) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", why.c_str());
    return media::kExitNoDisplay;
  }
  // The engine opens its device through the display link, which shares the
  // window's GL context with OpenCL where the device can (zero-copy), and
  // falls back to readback + PBO where it cannot.
  const GlInteropLink link(
      glfwContextHandles(window.get()), opt.displayPath,
      [](const std::string& sentence) { std::fprintf(stderr, "liveconv-viewer: %s\n", sentence.c_str()); }, frameReady);
  loop.setDisplayLink(&link);
  // The feeds (their threads call the link) go before the link and the window, on every way out.
  struct FeedsFirst {
    FrameLoop& loop;
    ~FeedsFirst() { loop.shutdown(); }
  } feedsFirst{loop};
  Viewer viewer(opt, model, loop, window.get(), window.keys());
  if (const int code = viewer.prepare(); code != media::kExitOk) return code;
  bool askedFailed = false;
  if (const int code = openFirstFeed(opt, link, loop, &askedFailed); code != media::kExitOk) return code;
  const std::string asked = model.source();
  int exitCode = viewer.run();
  // Nobody watched: a source that never played ends the run with the input's
  // exit code, as `liveconv run` does; the window showed why, and the screenshot has it.
  if (exitCode == media::kExitOk && unattended && askedFailed && loop.playingSource() != asked)
    exitCode = media::kExitInputFailed;
  // ... and so does one that opened but failed before its first picture (an MP4
  // whose index comes last, read from a pipe), as `liveconv run` ends on it.
  if (exitCode == media::kExitOk && unattended && loop.framesShown() == 0 && !loop.stats().sourceMessage.empty())
    exitCode = media::kExitInputFailed;
  if (media::interruptRequested()) {
    const std::string recording = loop.recordings().path();
    loop.recordings().stop();
    loop.recordings().waitForAll();  // the file gets its trailer under its name
    exitCode = media::reportInterruption("liveconv-viewer",
                                         recording.empty() ? "" : "; the recording " + recording + " was finished");
  }
  loop.recordings().stop();        // closing the window finishes a recording under way (Esc, the close button)
  loop.recordings().waitForAll();  // every recording ended is in the stats, complete
  if (!opt.statsJson.empty())
    if (const std::string why = writeStatsJson(loop, opt.statsJson); !why.empty()) {
      std::fprintf(stderr, "liveconv-viewer: %s\n", why.c_str());
      exitCode = media::kExitOutputFailed;
    }
  loop.shutdown();  // the feed's GL objects go while the context is still there
  return exitCode;
}

}  // namespace
}  // namespace liveconv::ui

LIVECONV_CATCH_STOP_SIGNALS_FROM_THE_START

namespace {

int viewerMain(int argc, char** argv) {
  if (liveconv::ui::isFirstLaunchHelper(argc, argv)) return liveconv::ui::firstLaunchHelperMain(argc, argv);
  liveconv::ui::offerFirstLaunchHelper();
  liveconv::ui::ViewerOptions options;
  const std::string error = liveconv::ui::parseViewerOptions(argc, argv, &options);
  if (!error.empty()) {
    std::fprintf(stderr, "liveconv-viewer: %s\n", error.c_str());  // one sentence; --help has the rest
    return liveconv::media::kExitUsage;
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
    return liveconv::media::kExitFailure;
  }
}

}  // namespace

int main(int argc, char** argv) {
  liveconv::media::writeFailuresAreErrors();  // a recording past `ulimit -f` is a write error, said, not a kill
  return liveconv::media::finishInterrupted("liveconv-viewer", viewerMain(argc, argv));
}
