// Outputs of `liveconv run -o`: an FFmpeg encoder into a container, raw
// frames back to back, or nothing.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "liveconv/frame.hpp"

namespace liveconv::app {

// Opens the file and finds the encoder at once, so an unwritable path or an
// unknown encoder is reported before any frame is filtered (OutputError). The
// encoder itself opens on the first frame, when the size is known. A frame of
// another size later is scaled to the first size (said once on stderr).
//   codecName: "" picks from the extension (.mp4/.mov: H.264 via libx264;
//   .mkv/.nut/.avi: FFV1, lossless); "h264" means libx264; any other name is
//   an FFmpeg encoder name.
class EncoderSink : public FrameSink {
 public:
  EncoderSink(const std::string& path, const std::string& codecName, int rateNum, int rateDen);
  ~EncoderSink() override;
  void write(const Frame& frame) override;
  void finish() override;
  std::string describe() const override;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Frames back to back with no header (rgba: 4 bytes a pixel; gray: 1).
class RawSink : public FrameSink {
 public:
  explicit RawSink(const std::string& path);
  ~RawSink() override;
  void write(const Frame& frame) override;
  void finish() override;
  std::string describe() const override;

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  long long frames_ = 0;
  int width_ = 0, height_ = 0;
};

// "null" -> NullSink; "raw:PATH" or *.raw/*.rgba/*.gray -> RawSink; else EncoderSink.
std::unique_ptr<FrameSink> openSink(const std::string& output, const std::string& codecName, int rateNum, int rateDen);

}  // namespace liveconv::app
