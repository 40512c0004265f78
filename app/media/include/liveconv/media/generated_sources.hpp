// The generated rows of the source table (source_kinds.hpp): the test pattern
// and synthetic frames, and their openers. No FFmpeg: every build has them,
// and every program (`run`, both windows) plays them through the one decode
// loop like any other source.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "liveconv/device.hpp"
#include "liveconv/frame.hpp"
#include "liveconv/image.hpp"
#include "liveconv/media/source_kinds.hpp"

namespace liveconv::media {

// Colour ramps, a checkerboard, thin lines and a bar that moves with frameIndex:
// edges in every direction so any mask shows its effect. Deterministic: the
// screenshot tests make the frame again to compute what the window must show.
Image makeTestPattern(int width, int height, PixelFormat format, std::uint64_t frameIndex);

// "testpattern" (1280x720) or "testpattern:WxH"; false when the spec is not a
// test pattern or its size is malformed.
bool parseTestPatternSpec(const std::string& spec, int* width, int* height);

// The test pattern as a source: frame N is makeTestPattern(N), endless, its
// timestamps 1/60 s apart (a window pulls it one frame per frame shown, so its
// clock is not kept); either pixel format, switched in place.
class TestPatternSource : public FrameSource {
 public:
  static constexpr int kFps = 60;
  TestPatternSource(int width, int height, PixelFormat format);
  bool next(Frame& frame) override;
  std::string describe() const override;
  bool frameSize(int* width, int* height) const override {
    *width = width_, *height = height_;
    return true;
  }
  bool setFormat(PixelFormat format) override;

 private:
  int width_, height_;
  PixelFormat format_;
  Image background_;  // the frame without its bar, in format_
  std::int64_t produced_ = 0;
};

struct GeneratedSource {
  std::unique_ptr<FrameSource> source;  // null: the kind is not a generated one
  int rateNum = 0, rateDen = 1;         // frames per second
};

// The row's parse of `text`; a malformed text throws the row's sentence
// (InputError where ParsedSource::inputError, else InvalidArgument). Every
// opener, generated or FFmpeg's, parses through it.
ParsedSource parseOrThrow(const SourceKind& kind, const std::string& text);

// Opens `text` by its generated row's opener (synthetic frames live in the
// device's pinned memory when a device is given); null for a row that is not
// a generated one. Throws InvalidArgument with the sentence for a malformed size.
GeneratedSource openGeneratedSource(const SourceKind& kind, const std::string& text, PixelFormat format,
                                    const std::shared_ptr<DeviceContext>& device);

}  // namespace liveconv::media
