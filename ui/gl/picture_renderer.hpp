// Shows frames: fills two textures (filtered, source) from pixel buffer
// objects, its own ones filled from host memory (readback path) or the one
// the kernel wrote through CL/GL sharing (zero-copy path), and draws them with the picture shaders,
// fitted to a rectangle of the framebuffer (or at one frame pixel per screen pixel).
#pragma once

#include <string>

#include "feed/frame_feed.hpp"
#include "gl/gl.hpp"
#include "model/check_figure.hpp"
#include "model/view_state.hpp"

namespace liveconv::ui {

struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;  // top-left origin, framebuffer pixels
  bool contains(double px, double py) const { return px >= x && py >= y && px < x + width && py < y + height; }
};

enum class Zoom {
  Invalid = 0,
  Fit,     // as large as the area allows, aspect kept
  Native,  // one frame pixel per framebuffer pixel, centred (tests, pixel peeping)
};

// Where a width x height frame lands inside `area`.
PixelRect fitPicture(const PixelRect& area, int frameWidth, int frameHeight, Zoom zoom);

class PictureRenderer {
 public:
  PictureRenderer();  // needs a current GL 3.3 context; throws std::runtime_error with the shader log
  ~PictureRenderer();
  PictureRenderer(const PictureRenderer&) = delete;
  PictureRenderer& operator=(const PictureRenderer&) = delete;

  // Copies the frame into the textures (through the PBOs). Only fresh frames cost anything.
  void upload(const FeedFrame& frame, bool withSource);
  // Host frames that went through this renderer's pixel buffers (tests check the readback path uses them).
  std::uint64_t pixelBufferUploads() const { return pixelBufferUploads_; }
  // Check mode: the heat map of `check` (null: none) laid over the region it
  // checked, on the filtered side, from the next draw() on; with an outline
  // around a region that is not the whole frame. Uploaded once per check.
  void setCheck(const CheckReport* check);
  // Draws into `picture` of a framebuffer `framebufferHeight` pixels high.
  void draw(const PixelRect& picture, int framebufferHeight, const ViewState& view);
  bool hasFrame() const { return width_ > 0; }

 private:
  struct TextureShape {
    int width = 0, height = 0;
    PixelFormat format = PixelFormat::Invalid;
  };
  void prepareTexture(int slot, const ImageView& image);  // slot 0: filtered, 1: source
  void fillFromBoundBuffer(const ImageView& image);
  void uploadOne(int slot, const ImageView& image);
  void uploadShared(std::uint32_t pixelBuffer, const ImageView& shape);
  void warmUp();                   // each program drawn once (the constructor)
  void drawQuad(GLuint filtered);  // with the program in use; leaves none in use

  GLuint program_ = 0, vao_ = 0;
  GLuint plainProgram_ = 0;  // picture_plain.frag: no split, no heat map (software GL's fast path)
  GLuint textures_[2] = {0, 0};  // filtered, source
  GLuint heatTexture_ = 0;
  int heatNumber_ = 0;  // the check whose heat map is in heatTexture_ (0: none)
  bool heatShown_ = false;
  float heatRect_[4] = {0, 0, 0, 0};  // the region in texture coordinates: left, top, right, bottom
  bool heatOutline_ = false;
  int heatFrameWidth_ = 0, heatFrameHeight_ = 0;  // the size of the frame it checked
  GLuint pbos_[2] = {0, 0};
  TextureShape shapes_[2];
  int width_ = 0, height_ = 0;
  PixelFormat format_ = PixelFormat::Invalid;
  std::uint64_t pixelBufferUploads_ = 0;
  GLint uScale_ = -1, uCompare_ = -1, uHorizontal_ = -1, uSplit_ = -1, uPictureSize_ = -1, uHeatOn_ = -1,
        uHeatRect_ = -1, uHeatOutline_ = -1, plainScale_ = -1;
};

}  // namespace liveconv::ui
