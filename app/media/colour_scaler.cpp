#include "media/colour_scaler.hpp"

namespace liveconv::app {

SwsContext* ColourScaler::get(const ScalerShape& shape, const ScalerColour* colour) {
  if (!context_ || !(shape == shape_)) {
    sws_freeContext(context_);
    // At the same size, chroma is taken from its sample (point), as the
    // device conversion does: 4:2:0 -> RGBA -> 4:2:0 then gives the chroma
    // back (an interpolated chroma, averaged again, lost 3-4 dB of PSNR at
    // sharp colour edges); a resize interpolates (bicubic).
    const bool sameSize = shape.srcWidth == shape.dstWidth && shape.srcHeight == shape.dstHeight;
    context_ = sws_getContext(shape.srcWidth, shape.srcHeight, shape.srcFormat, shape.dstWidth, shape.dstHeight,
                              shape.dstFormat, (sameSize ? SWS_POINT : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT,
                              nullptr, nullptr, nullptr);
    shape_ = shape;
    colourSet_ = false;
    if (!context_) return nullptr;
  }
  if (!colour || (colourSet_ && *colour == colour_)) return context_;
  const int* table = sws_getCoefficients(colour->matrix);
  sws_setColorspaceDetails(context_, table, colour->srcFullRange ? 1 : 0, table, colour->dstFullRange ? 1 : 0, 0,
                           1 << 16, 1 << 16);
  colour_ = *colour;
  colourSet_ = true;
  return context_;
}

}  // namespace liveconv::app
