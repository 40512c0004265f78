// The window's GL context as its window system names it, for the CL/GL
// sharing properties (ui/gl/interop_policy.hpp).
#pragma once

#include "gl/interop_policy.hpp"

struct GLFWwindow;

namespace liveconv::ui {

// GLX on X11 (glfwGetGLXContext + glfwGetX11Display), EGL where GLFW made
// the context through EGL; WGL and CGL on the platforms that have them.
// GlWindowSystem::None when GLFW cannot say.
GlContextHandles glfwContextHandles(GLFWwindow* window);

}  // namespace liveconv::ui
