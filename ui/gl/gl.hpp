// OpenGL 3.3 core declarations for the display code both shells share. On
// Linux libGL (GLVND) exports every core entry point, so the prototypes are
// linked directly and no loader is needed; a Windows or macOS port would put
// a loader here and nowhere else. No window-system header comes in here.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
