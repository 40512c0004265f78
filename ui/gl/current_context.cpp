// currentGlContextHandles(), on its own: the GLX and EGL headers bring X11's
// macros and their own GL declarations, which must not meet glcorearb.h.
#include "gl/gl_interop.hpp"

#if defined(__linux__) || defined(__FreeBSD__)
#include <EGL/egl.h>
#include <GL/glx.h>
#endif

namespace liveconv::ui {

GlContextHandles currentGlContextHandles() {
  GlContextHandles h;
#if defined(__linux__) || defined(__FreeBSD__)
  if (GLXContext context = glXGetCurrentContext()) {
    h.system = GlWindowSystem::Glx;
    h.context = context;
    h.display = glXGetCurrentDisplay();
  } else if (EGLContext context = eglGetCurrentContext(); context != EGL_NO_CONTEXT) {
    h.system = GlWindowSystem::Egl;
    h.context = context;
    h.display = eglGetCurrentDisplay();
  }
#endif
  return h;
}

}  // namespace liveconv::ui
