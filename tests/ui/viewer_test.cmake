# The viewer in a real window: Xvfb + Mesa llvmpipe + the default OpenCL device.
liveconv_add_test(ui_viewer_tests ${CMAKE_CURRENT_LIST_DIR}/test_viewer_screenshot.cpp)
target_link_libraries(ui_viewer_tests PRIVATE liveconv_ui_feed liveconv_ui_png)
target_compile_definitions(ui_viewer_tests PRIVATE LIVECONV_VIEWER_BIN="$<TARGET_FILE:liveconv-viewer>"
  LIVECONV_XVFB_RUN="${CMAKE_CURRENT_LIST_DIR}/../xvfb_run.sh")
add_dependencies(ui_viewer_tests liveconv-viewer)
if(LIVECONV_WITH_MEDIA)
  target_compile_definitions(ui_viewer_tests PRIVATE LIVECONV_WITH_MEDIA)  # the PipelineFeed cases
endif()

# The display-path decisions with a fake clGetGLContextInfoKHR, the
# background opening of sources and devices, and when the frame loop has a
# window draw; none needs a window.
liveconv_add_test(ui_display_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_interop_policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_feed_switcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_frame_loop_redraw.cpp)
target_link_libraries(ui_display_tests PRIVATE liveconv_ui_interop_policy liveconv_ui_feed)

# Both windows driven by one --script, read back through --stats-json.
add_executable(ui_window_script_tests ${CMAKE_CURRENT_LIST_DIR}/test_window_scripts.cpp)
target_include_directories(ui_window_script_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/..)  # silent_listener.hpp
target_link_libraries(ui_window_script_tests PRIVATE GTest::gtest GTest::gtest_main liveconv_engine liveconv_ui_feed liveconv_ui_png)
gtest_discover_tests(ui_window_script_tests DISCOVERY_MODE PRE_TEST
  PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]" TIMEOUT 1800  # a hang limit (each window has its own X server)
  ENVIRONMENT "LIVECONV_TUNING_CACHE=${CMAKE_CURRENT_BINARY_DIR}/autotune-tests.tsv")
target_compile_definitions(ui_window_script_tests PRIVATE LIVECONV_VIEWER_BIN="$<TARGET_FILE:liveconv-viewer>"
  LIVECONV_XVFB_RUN="${CMAKE_CURRENT_LIST_DIR}/../xvfb_run.sh"
  LIVECONV_EXAMPLE_KERNEL="${PROJECT_SOURCE_DIR}/docs/examples/skip_zero_taps.cl")
add_dependencies(ui_window_script_tests liveconv-viewer)
if(LIVECONV_WITH_MEDIA)
  target_compile_definitions(ui_window_script_tests PRIVATE LIVECONV_WITH_MEDIA
    LIVECONV_CLIP="${PROJECT_SOURCE_DIR}/assets/city_320x180.mp4")
endif()
if(TARGET liveconv-qt)
  target_compile_definitions(ui_window_script_tests PRIVATE LIVECONV_QT_BIN="$<TARGET_FILE:liveconv-qt>")
  add_dependencies(ui_window_script_tests liveconv-qt)
endif()
