// On its own because glfw3native.h brings the window-system headers (X11's
// macros among them) that the rest of the viewer must not see.
#include "glfw/native_context.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#if defined(_WIN32)
#define GLFW_EXPOSE_NATIVE_WIN32
#define GLFW_EXPOSE_NATIVE_WGL
#elif defined(__APPLE__)
#define GLFW_EXPOSE_NATIVE_COCOA
#define GLFW_EXPOSE_NATIVE_NSGL
#include <OpenGL/OpenGL.h>  // CGLGetCurrentContext, CGLGetShareGroup
#else
#define GLFW_EXPOSE_NATIVE_X11
#define GLFW_EXPOSE_NATIVE_GLX
#define GLFW_EXPOSE_NATIVE_EGL
#endif
#include <GLFW/glfw3native.h>

namespace liveconv::ui {

GlContextHandles glfwContextHandles(GLFWwindow* window) {
  GlContextHandles h;  // system None (not named here: X11 defines None as a macro)
  if (!window) return h;
  const int api = glfwGetWindowAttrib(window, GLFW_CONTEXT_CREATION_API);
#if defined(_WIN32)
  if (api == GLFW_NATIVE_CONTEXT_API) {
    h.system = GlWindowSystem::Wgl;
    h.context = glfwGetWGLContext(window);
    h.display = GetDC(glfwGetWin32Window(window));
  }
#elif defined(__APPLE__)
  if (api == GLFW_NATIVE_CONTEXT_API) {
    // The context is current on this thread (the viewer made it so before asking).
    h.system = GlWindowSystem::Cgl;
    h.context = CGLGetShareGroup(CGLGetCurrentContext());
  }
#else
  if (api == GLFW_NATIVE_CONTEXT_API) {
    h.system = GlWindowSystem::Glx;
    h.context = glfwGetGLXContext(window);
    h.display = glfwGetX11Display();
  } else if (api == GLFW_EGL_CONTEXT_API) {
    h.system = GlWindowSystem::Egl;
    h.context = glfwGetEGLContext(window);
    h.display = glfwGetEGLDisplay();
  }
#endif
  if (!h.context) h = GlContextHandles{};  // GLFW could not say (it reported why through its error callback)
  return h;
}

}  // namespace liveconv::ui
