#include "gl/picture_renderer.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace liveconv::ui {

const char* embeddedShader(const char* name);  // generated from shaders/ at build time

namespace {

GLuint compile(GLenum type, const char* name) {
  const char* text = embeddedShader(name);
  if (!text) throw std::runtime_error(std::string("Shader ") + name + " is not embedded in this build.");
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw std::runtime_error(std::string("Shader ") + name + " failed to compile:\n" + log);
  }
  return shader;
}

// Links picture.vert with the fragment shader `fragment`.
GLuint linkPicture(const char* fragment) {
  GLuint vs = compile(GL_VERTEX_SHADER, "picture.vert");
  GLuint fs = compile(GL_FRAGMENT_SHADER, fragment);
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    glDeleteProgram(program);
    throw std::runtime_error(std::string("The picture shaders (") + fragment + ") failed to link:\n" + log);
  }
  return program;
}

}  // namespace

PixelRect fitPicture(const PixelRect& area, int frameWidth, int frameHeight, Zoom zoom) {
  if (frameWidth <= 0 || frameHeight <= 0 || area.width <= 0 || area.height <= 0) return {area.x, area.y, 0, 0};
  double scale = std::min(static_cast<double>(area.width) / frameWidth, static_cast<double>(area.height) / frameHeight);
  if (zoom == Zoom::Native) scale = 1.0;
  const int w = static_cast<int>(frameWidth * scale + 0.5), h = static_cast<int>(frameHeight * scale + 0.5);
  return {area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h};
}

PictureRenderer::PictureRenderer() {
  program_ = linkPicture("picture.frag");
  plainProgram_ = linkPicture("picture_plain.frag");
  uScale_ = glGetUniformLocation(program_, "uScale");
  plainScale_ = glGetUniformLocation(plainProgram_, "uScale");
  uCompare_ = glGetUniformLocation(program_, "uCompare");
  uHorizontal_ = glGetUniformLocation(program_, "uHorizontal");
  uSplit_ = glGetUniformLocation(program_, "uSplit");
  uPictureSize_ = glGetUniformLocation(program_, "uPictureSize");
  uHeatOn_ = glGetUniformLocation(program_, "uHeatOn");
  uHeatRect_ = glGetUniformLocation(program_, "uHeatRect");
  uHeatOutline_ = glGetUniformLocation(program_, "uHeatOutline");
  glUseProgram(plainProgram_);
  glUniform1i(glGetUniformLocation(plainProgram_, "uFiltered"), 0);
  glUseProgram(program_);
  glUniform1i(glGetUniformLocation(program_, "uFiltered"), 0);
  glUniform1i(glGetUniformLocation(program_, "uSource"), 1);
  glUniform1i(glGetUniformLocation(program_, "uHeat"), 2);
  glUseProgram(0);
  glGenVertexArrays(1, &vao_);  // core profile draws need a bound VAO even without attributes
  glGenTextures(2, textures_);
  glGenTextures(1, &heatTexture_);
  glGenBuffers(2, pbos_);
  warmUp();
}

// A software GL (Mesa's llvmpipe) compiles a program's code for the state it
// is drawn with at its first draw: 30-50 ms of the first picture's pass on the
// 2-core machine, long enough for the next frames of a 30 fps stream to come
// and be dropped as display late. So each program draws once here, with the
// state a picture has (RGBA8 textures, linear, clamped, filled from the pixel
// buffers) into one pixel, from a 3x3 texture (llvmpipe's code differs for
// sizes that are powers of two, which frames seldom are); then the renderer
// forgets it (no frame, no shapes, no uploads counted) and the window's first
// pass draws over that pixel.
void PictureRenderer::warmUp() {
  std::uint8_t pixels[3 * 3 * 4] = {};
  const ImageView small{pixels, 3, 3, 3 * 4, PixelFormat::RGBA8};
  uploadOne(0, small);
  uploadOne(1, small);
  width_ = height_ = 3;
  format_ = PixelFormat::RGBA8;
  GLint viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, viewport);
  ViewState view;
  view.compare = CompareMode::Off;
  draw(PixelRect{0, 0, 1, 1}, 1, view);  // the plain program
  view.compare = CompareMode::Split;
  draw(PixelRect{0, 0, 1, 1}, 1, view);  // the comparing one
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  glFinish();
  width_ = height_ = 0;
  format_ = PixelFormat::Invalid;
  shapes_[0] = shapes_[1] = TextureShape();
  pixelBufferUploads_ = 0;
}

PictureRenderer::~PictureRenderer() {
  glDeleteBuffers(2, pbos_);
  glDeleteTextures(2, textures_);
  glDeleteTextures(1, &heatTexture_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteProgram(plainProgram_);
  glDeleteProgram(program_);
}

namespace {

// How GL reads a frame's pixels: one channel (gray, in red) or four, bytes or
// 16-bit values (normalised to 0..1 either way: the 8-bit display shows a
// 16-bit frame rounded, and the frame itself keeps its bits).
GLenum glLayoutOf(PixelFormat f) {
  return channelCount(f) == 1 ? GL_RED : GL_RGBA;
}
GLenum glTypeOf(PixelFormat f) {
  return bytesPerSample(f) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE;
}
GLint glInternalFormatOf(PixelFormat f) {
  const bool gray = channelCount(f) == 1, wide = bytesPerSample(f) == 2;
  return gray ? (wide ? GL_R16 : GL_R8) : (wide ? GL_RGBA16 : GL_RGBA8);
}

}  // namespace

void PictureRenderer::prepareTexture(int slot, const ImageView& image) {
  TextureShape& shape = shapes_[slot];
  const bool gray = channelCount(image.format) == 1;
  glBindTexture(GL_TEXTURE_2D, textures_[slot]);
  // Each texture keeps its own shape: the source texture may be filled for the
  // first time long after the filtered one (compare switched on later).
  if (image.width == shape.width && image.height == shape.height && image.format == shape.format) return;
  shape = TextureShape{image.width, image.height, image.format};
  glTexImage2D(GL_TEXTURE_2D, 0, glInternalFormatOf(image.format), image.width, image.height, 0,
               glLayoutOf(image.format), glTypeOf(image.format), nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  // Gray frames live in the red channel; the swizzle shows them as gray.
  const GLint swizzle[4] = {GL_RED, gray ? GL_RED : GL_GREEN, gray ? GL_RED : GL_BLUE, gray ? GL_ONE : GL_ALPHA};
  glTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
}

// The texture is filled from the bound pixel buffer: a copy on the GPU, and
// glTexSubImage2D returns without waiting for it.
void PictureRenderer::fillFromBoundBuffer(const ImageView& image) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, glLayoutOf(image.format), glTypeOf(image.format),
                  nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

void PictureRenderer::uploadOne(int slot, const ImageView& image) {
  prepareTexture(slot, image);
  // Readback path: orphan this slot's PBO, copy the rows in, and let the
  // driver move them to the texture asynchronously; the copy out of the
  // mapped CL buffer is the only CPU work.
  const std::size_t bytes = image.rowBytes() * image.height;
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbos_[slot]);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
  if (void* dst = glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes),
                                   GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT)) {
    for (int y = 0; y < image.height; ++y)
      std::memcpy(static_cast<std::uint8_t*>(dst) + y * image.rowBytes(), image.row(y), image.rowBytes());
    glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
  }
  ++pixelBufferUploads_;
  fillFromBoundBuffer(image);
}

void PictureRenderer::uploadShared(std::uint32_t pixelBuffer, const ImageView& shape) {
  prepareTexture(0, shape);
  // Zero-copy path: the kernel wrote this buffer; its rows are tightly packed.
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer);
  fillFromBoundBuffer(shape);
}

void PictureRenderer::upload(const FeedFrame& frame, bool withSource) {
  if (!frame.hasPicture()) return;
  if (frame.glPixelBuffer)
    uploadShared(frame.glPixelBuffer, frame.filtered);
  else
    uploadOne(0, frame.filtered);
  if (withSource && frame.source.data) uploadOne(1, frame.source);
  width_ = frame.filtered.width;
  height_ = frame.filtered.height;
  format_ = frame.filtered.format;
}

void PictureRenderer::setCheck(const CheckReport* check) {
  heatShown_ = check != nullptr && check->check.frameWidth > 0;
  if (!heatShown_ || check->number == heatNumber_) return;
  heatNumber_ = check->number;
  const FrameCheck& c = check->check;
  const HeatMap map = checkHeatMap(c);
  glBindTexture(GL_TEXTURE_2D, heatTexture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, static_cast<GLint>(map.rgba.view().strideBytes / 4));
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, map.rgba.width(), map.rgba.height(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
               map.rgba.data());
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  // One cell stays one sharp block at any zoom.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  // The map's cells may overhang the region by part of a cell at the right and bottom.
  const float w = static_cast<float>(c.frameWidth), h = static_cast<float>(c.frameHeight);
  heatRect_[0] = static_cast<float>(c.region.x) / w;
  heatRect_[1] = static_cast<float>(c.region.y) / h;
  heatRect_[2] = static_cast<float>(c.region.x + map.rgba.width() * map.cell) / w;
  heatRect_[3] = static_cast<float>(c.region.y + map.rgba.height() * map.cell) / h;
  heatOutline_ = !c.wholeFrame;
  heatFrameWidth_ = c.frameWidth;
  heatFrameHeight_ = c.frameHeight;
}

void PictureRenderer::draw(const PixelRect& picture, int framebufferHeight, const ViewState& view) {
  if (!hasFrame() || picture.width <= 0 || picture.height <= 0) return;
  // GL's viewport origin is the bottom left.
  glViewport(picture.x, framebufferHeight - picture.y - picture.height, picture.width, picture.height);
  // A heat map of another frame size (a switch since the check) is not laid over this one.
  const bool heat = heatShown_ && heatNumber_ > 0 && heatFrameWidth_ == width_ && heatFrameHeight_ == height_;
  const bool split = view.compare == CompareMode::Split;
  if (!heat && !split) {
    glUseProgram(plainProgram_);
    glUniform2f(plainScale_, 1.0f, 1.0f);
    drawQuad(textures_[0]);
    return;
  }
  glUseProgram(program_);
  glUniform2f(uScale_, 1.0f, 1.0f);  // the viewport already has the frame's aspect
  glUniform1i(uCompare_, split ? 1 : 0);
  glUniform1i(uHorizontal_, view.orientation == SplitOrientation::Horizontal ? 1 : 0);
  glUniform1f(uSplit_, view.splitPosition);
  glUniform2f(uPictureSize_, static_cast<float>(picture.width), static_cast<float>(picture.height));
  glUniform1i(uHeatOn_, heat ? 1 : 0);
  glUniform4fv(uHeatRect_, 1, heatRect_);
  glUniform1i(uHeatOutline_, heat && heatOutline_ ? 1 : 0);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, heatTexture_);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, textures_[1]);
  drawQuad(textures_[0]);
}

void PictureRenderer::drawQuad(GLuint filtered) {
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, filtered);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace liveconv::ui
