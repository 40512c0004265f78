// Outputs of `liveconv run -o`: an FFmpeg encoder into a container, raw
// frames back to back, or nothing.
//
// A file output is written under a hidden temporary name and renamed when it
// is finished with at least one frame (staged_output.hpp): a failed write or
// a failed run leaves no new file (an existing one stays as it was), and a
// sink that received no frame leaves none either (the caller says so).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "liveconv/frame.hpp"
#include "liveconv/media/orientation.hpp"
#include "liveconv/media/staged_output.hpp"
#include "liveconv/media/stream_copy.hpp"

namespace liveconv::media {

// How output frames are timed. With sourceTimestamps (liveconv run), a frame
// keeps its source timestamp (less the input's start: the first frame's, or
// the copied sound's where it begins earlier, as ffmpeg starts outputs at the
// input's start), in the source's time base where the container and encoder take it,
// so variable frame rates, gaps and dropped frames keep their true times; a
// frame without one follows the last at 1/rate. Without (the windows'
// recorder, whose playback loops), frames are numbered at 1/rate.
// Every packet carries its duration, so MP4/MOV play their last frame.
//
// Encoder options (--crf, --preset, -b:v, --codec-opt KEY=VALUE) go to the
// encoder as FFmpeg's own options; one it does not know is refused
// (EncoderChoiceError, exit 2) before any frame. H.264 defaults: preset veryfast, crf 18.
struct SinkOptions {
  int rateNum = 25, rateDen = 1;         // nominal frames per second
  int timeBaseNum = 0, timeBaseDen = 0;  // the source's time base; 0 = 1/rate
  bool sourceTimestamps = false;
  std::vector<std::pair<std::string, std::string>> encoderOptions;  // in the order given; later wins
  std::string pixelFormat;   // the encoder's input format (--pix-fmt), e.g. yuv444p; empty: its default
  std::string container;     // FFmpeg's muxer name (--container); empty: from the file name
  bool quiet = false;        // no notices on stderr (which streams are copied, re-encoded, left out)
  long long maxFrames = -1;  // the most frames the run writes (--frames); 1 allows a single picture (.png, .jpg)
  // The input's display orientation (liveconv/media/orientation.hpp): kept as metadata
  // where the container holds it, else with `autorotate` the pixels are turned.
  Orientation orientation;
  bool autorotate = true;  // false: --no-autorotate
};

// Opens the file and finds the encoder at once, so an unwritable path or an
// unknown encoder is reported before any frame is filtered (OutputError). The
// encoder itself opens on the first frame, when the size is known. A frame of
// another size later is scaled to the first size (said once on stderr).
//   codecName: "" picks from the extension (.mp4/.mov: H.264 via libx264;
//   .mkv/.nut/.avi: FFV1, lossless); "h264" means libx264; any other name is
//   an FFmpeg encoder name.
class EncoderSink : public FrameSink {
 public:
  EncoderSink(const std::string& path, const std::string& codecName, const SinkOptions& timing);
  ~EncoderSink() override;
  // Carry the input's other streams and metadata (before the first frame). A
  // stream the container cannot hold is left out, said in one line on stderr.
  // Copied packets keep their times less the video's start; when the run
  // stops before the input's end (--frames, a signal), they end with the video.
  void carry(std::shared_ptr<StreamCopy> copy);
  void write(const Frame& frame) override;
  void finish() override;
  std::string describe() const override;
  // True where the output keeps no display rotation and the input's is turned
  // into the pixels (SinkOptions::orientation, autorotate).
  bool turnsPixels() const;
  std::string containerName() const;  // FFmpeg's muxer name, e.g. "matroska"

 private:
  void writeFrame(const Frame& frame);
  void writePlanes(const Frame& frame);  // planes mode (Frame::planes)
  struct State;
  std::unique_ptr<State> s_;
};

class ColourScaler;

// Frames back to back with no header (rgba: 4 bytes a pixel; gray: 1); "-"
// is standard output. Every frame has the first one's size (a stream that
// changes size is scaled to it, and the run says so): a reader steps through
// the file by one frame size.
class RawSink : public FrameSink {
 public:
  explicit RawSink(const std::string& path, const SinkOptions& options = {});
  // How to read it back, e.g. "rgba 1280x720, 100 frames (ffplay -f rawvideo -pixel_format rgba -video_size 1280x720
  // FILE)".
  std::string layout() const;
  ~RawSink() override;
  void write(const Frame& frame) override;
  void finish() override;
  std::string describe() const override;

 private:
  StagedOutput path_;
  std::FILE* file_ = nullptr;
  long long frames_ = 0;
  int width_ = 0, height_ = 0;
  PixelFormat format_ = PixelFormat::Invalid;
  bool stdout_ = false;
  bool quiet_ = false;
  std::unique_ptr<ColourScaler> scaler_;  // frames of another size, to the first one's
  Image scaled_;
  int turn_ = 0;  // quarter turns clockwise: raw frames keep no display rotation
  Image turned_;
};

// Refuses, before anything is opened or written (EncoderChoiceError), an
// output that cannot be written as video: an empty name, a name FFmpeg knows
// no container for, a container without video (.wav), a single picture
// (.png, .jpg) unless options.maxFrames is 1, "-" without --container. A
// picture name with a frame number (out%03d.png) is a sequence: one picture a frame.
void checkOutput(const std::string& output, const std::string& codecName, const SinkOptions& options);

// Whether `output` (with --codec) names raw frames (RawSink).
bool isRawOutput(const std::string& output, const std::string& codecName);
// Whether `output` names one picture (.png, .jpg ...; not a %d sequence).
bool isSinglePicture(const std::string& output, const SinkOptions& options);
// The first picture's name of a sequence (out%03d.png: out001.png), or "" for
// another name (a picture without a frame number, a video).
std::string firstPictureOf(const std::string& output);

// "null" -> NullSink; "raw:PATH" or *.raw/*.rgba/*.gray -> RawSink; "-" -> the
// container named by options.container on standard output; else EncoderSink
// (.png/.jpg with maxFrames 1: the picture's own encoder). Checked first by checkOutput().
std::unique_ptr<FrameSink> openSink(const std::string& output, const std::string& codecName, const SinkOptions& timing);

}  // namespace liveconv::media
