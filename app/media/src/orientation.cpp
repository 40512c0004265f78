#include "liveconv/media/orientation.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

#include "liveconv/media/ffmpeg_compat.hpp"

extern "C" {
#include <libavutil/display.h>
}

namespace liveconv::media {

std::string Orientation::describe() const {
  std::ostringstream text;
  if (turnable && quarterTurns == 2)
    text << "upside down";
  else if (turnable && quarterTurns == 3)
    text << "turned 90\u00b0 counter-clockwise";
  else
    text << "turned " << degrees << "\u00b0 clockwise";
  if (!turnable && !matrix.empty()) {
    std::int32_t m[9];
    std::memcpy(m, matrix.data(), sizeof m);
    if (static_cast<double>(m[0]) * m[4] - static_cast<double>(m[1]) * m[3] < 0) text << " and mirrored";
  }
  return text.str();
}

Orientation orientationOf(const std::vector<std::uint8_t>& displayMatrix) {
  Orientation o;
  if (displayMatrix.size() != 36) return o;
  o.matrix = displayMatrix;
  std::int32_t m[9];
  std::memcpy(m, displayMatrix.data(), sizeof m);
  // As ffmpeg reads it: av_display_rotation_get's angle is counter-clockwise.
  const double angle = av_display_rotation_get(m);
  if (std::isnan(angle)) {
    o.turnable = false;
    return o;
  }
  double clockwise = -std::round(angle);
  clockwise -= 360 * std::floor(clockwise / 360 + 0.9 / 360);  // [0, 360)
  o.degrees = clockwise;
  const bool mirrored = static_cast<double>(m[0]) * m[4] - static_cast<double>(m[1]) * m[3] < 0;
  const double quarters = clockwise / 90;
  o.turnable = !mirrored && std::fabs(quarters - std::round(quarters)) < 1e-6;
  o.quarterTurns = o.turnable ? static_cast<int>(std::lround(quarters)) % 4 : 0;
  return o;
}

OrientationPlan planOrientation(const Orientation& o, bool autorotate, const AVOutputFormat* container,
                                const std::string& target) {
  OrientationPlan plan;
  if (o.upright()) return plan;
  if (container && ffmpeg_compat::muxerWritesDisplayMatrix(container)) {
    plan.writeMatrix = true;
    return plan;
  }
  const std::string what = container ? std::string(container->name) + " keeps" : std::string("raw frames keep");
  if (autorotate && o.turnable) {
    plan.turnPixels = o.quarterTurns;
    plan.notice =
        what + " no display rotation, so the frames of " + target + " are " + o.describe() + " as a player shows them.";
  } else {
    plan.notice = what + " no display rotation: " + target + " holds the frames as stored, not " + o.describe() +
                  " as the input is shown.";
  }
  return plan;
}

}  // namespace liveconv::media
