// The display orientation a video carries: its display matrix, with which a
// phone's portrait clip is stored on its side and turned by the player.
//
// `liveconv run` keeps what the viewer sees (as ffmpeg's autorotate does):
// the mask is turned with the picture, so a horizontal edge filter finds the
// edges that look horizontal; the output keeps the matrix where its container
// holds one (MP4, MOV; Matroska from FFmpeg 7), and elsewhere (AVI, NUT, raw
// frames) its pixels are turned as a player would turn them, and the run says
// so. --no-autorotate filters and writes the picture as stored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct AVOutputFormat;

namespace liveconv::media {

struct Orientation {
  std::vector<std::uint8_t> matrix;  // the input's display matrix (9 int32, 36 bytes); empty: none
  int quarterTurns = 0;              // clockwise quarter turns a player makes, when `turnable`
  bool turnable = true;              // a quarter turn without a mirror: liveconv can turn the pixels itself
  double degrees = 0;                // the turn clockwise, in degrees

  bool present() const { return matrix.size() == 36; }
  // Shown as stored: no matrix, or one that turns by 0 degrees.
  bool upright() const { return !present() || (turnable && quarterTurns == 0); }
  // "turned 90° clockwise", "upside down", "turned 90° counter-clockwise", or
  // "turned 37° clockwise and mirrored".
  std::string describe() const;
};

// From a display matrix's 36 bytes (FFmpeg's AV_PKT_DATA_DISPLAYMATRIX).
Orientation orientationOf(const std::vector<std::uint8_t>& displayMatrix);

// What an output does with the input's orientation, and the line that says so
// (empty when there is nothing to say).
struct OrientationPlan {
  bool writeMatrix = false;  // the container keeps it as metadata
  int turnPixels = 0;        // quarter turns clockwise applied to every frame
  std::string notice;
};
// `container`: FFmpeg's muxer, or null for raw frames; `target`: the output's name in the notice.
OrientationPlan planOrientation(const Orientation& o, bool autorotate, const AVOutputFormat* container,
                                const std::string& target);

}  // namespace liveconv::media
