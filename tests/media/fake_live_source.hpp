// Fake decoders with a chosen frame interval and decode cost, for the live
// behaviour of `liveconv run` (media/test_stream.cpp) and of the viewer's
// decoded feed (ui/test_pipeline_feed.cpp) without a camera or a clip.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "liveconv/frame.hpp"
#include "liveconv/media/media_errors.hpp"

namespace liveconv {

// Frames with timestamps `intervalS` apart that each take `costS` to make;
// after `failAfter` frames (when >= 0) it stops as an unplugged camera does.
class FakeLiveSource : public FrameSource {
 public:
  FakeLiveSource(int frames, double intervalS, double costS, int failAfter = -1)
      : frames_(frames), intervalS_(intervalS), costS_(costS), failAfter_(failAfter) {}
  bool next(Frame& f) override {
    if (produced_ == failAfter_) throw media::SourceUnavailable("Camera fake stopped: No such device.");
    if (produced_ >= frames_) return false;
    std::this_thread::sleep_for(std::chrono::duration<double>(costS_));
    f = Frame();
    f.image = Image(32, 24, PixelFormat::RGBA8);
    for (std::size_t k = 0; k < f.image.sizeBytes(); ++k) f.image.data()[k] = std::uint8_t(produced_ * 7 + k);
    f.index = produced_;
    f.ptsSeconds = produced_ * intervalS_;
    ++produced_;
    return true;
  }
  std::string describe() const override { return "fake camera"; }
  bool isLive() const override { return true; }

 private:
  int frames_;
  double intervalS_, costS_;
  int failAfter_;
  int produced_ = 0;
};

// The same frames from a file: the player, not the source, keeps the time.
class FakeFileSource : public FakeLiveSource {
 public:
  using FakeLiveSource::FakeLiveSource;
  std::string describe() const override { return "fake file"; }
  bool isLive() const override { return false; }
};

}  // namespace liveconv
