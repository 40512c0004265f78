# The Qt shell in a real window: Xvfb + Mesa llvmpipe (QOpenGLWidget needs a GL
# 3.3 context, which the offscreen platform does not give) + the default OpenCL
# device. One ctest entry; QApplication lives in the test's own main().
find_package(Qt6 REQUIRED COMPONENTS Test)
add_executable(qt_shell_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_qt_shell.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_qt_record.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_qt_dialogs.cpp)
target_link_libraries(qt_shell_tests PRIVATE liveconv_qt_shell Qt6::Test GTest::gtest)
if(LIVECONV_WITH_MEDIA)
  # The recording test decodes what the shell wrote with the media library's source.
  target_compile_definitions(qt_shell_tests PRIVATE LIVECONV_WITH_MEDIA)
endif()
find_program(XVFB_RUN xvfb-run)
if(XVFB_RUN)
  add_test(NAME qt_shell_tests COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" $<TARGET_FILE:qt_shell_tests>)
else()
  add_test(NAME qt_shell_tests COMMAND $<TARGET_FILE:qt_shell_tests>)  # needs $DISPLAY
endif()
set_tests_properties(qt_shell_tests PROPERTIES
  ENVIRONMENT "LIBGL_ALWAYS_SOFTWARE=1;QT_QPA_PLATFORM=xcb;LIVECONV_QT_WINDOW_PNG=${CMAKE_BINARY_DIR}/liveconv-qt-window.png"
  SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]" TIMEOUT 300)

# `liveconv --ui qt|viewer`: no window, no display needed.
liveconv_add_test(qt_launch_tests ${CMAKE_CURRENT_LIST_DIR}/test_qt_launch.cpp)
target_compile_definitions(qt_launch_tests PRIVATE LIVECONV_BIN="$<TARGET_FILE:liveconv>")
if(TARGET liveconv-viewer)
  target_compile_definitions(qt_launch_tests PRIVATE LIVECONV_VIEWER_BUILT)
  add_dependencies(qt_launch_tests liveconv-viewer)
endif()
add_dependencies(qt_launch_tests liveconv liveconv-qt)
