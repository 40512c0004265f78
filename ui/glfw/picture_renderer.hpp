// The picture renderer lives in ui/gl (liveconv_ui_gl), shared by both shells;
// this name is kept for the shells that include it from here.
#pragma once

#include "gl/picture_renderer.hpp"
