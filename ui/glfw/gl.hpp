// The shared GL declarations live in ui/gl; this name is kept for the shells
// that include it from here.
#pragma once

#include "gl/gl.hpp"
