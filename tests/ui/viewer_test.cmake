# The viewer in a real window: Xvfb + Mesa llvmpipe + the default OpenCL device.
liveconv_add_test(ui_viewer_tests ${CMAKE_CURRENT_LIST_DIR}/test_viewer_screenshot.cpp)
target_link_libraries(ui_viewer_tests PRIVATE liveconv_ui_feed liveconv_ui_png)
target_compile_definitions(ui_viewer_tests PRIVATE LIVECONV_VIEWER_BIN="$<TARGET_FILE:liveconv-viewer>")
add_dependencies(ui_viewer_tests liveconv-viewer)
if(LIVECONV_WITH_MEDIA)
  target_compile_definitions(ui_viewer_tests PRIVATE LIVECONV_WITH_MEDIA)  # the PipelineFeed cases
endif()

# The display-path decisions with a fake clGetGLContextInfoKHR, and the
# background opening of sources and devices; neither needs a window.
liveconv_add_test(ui_display_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_interop_policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_feed_switcher.cpp)
target_link_libraries(ui_display_tests PRIVATE liveconv_ui_interop_policy liveconv_ui_feed)
