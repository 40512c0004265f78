# The Qt shell in a real window: Xvfb + Mesa llvmpipe + the default OpenCL
# device. QApplication lives in the test's own main(). Each GoogleTest case is
# its own ctest entry ("qt.Suite.Case"), listed and run through xvfb_run.sh, so
# a SKIP (no device, no FFmpeg) shows on that case alone and never hides
# another case's result.
find_package(Qt6 REQUIRED COMPONENTS Test)
add_executable(qt_shell_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_qt_shell.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_qt_record.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_qt_open.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_qt_dialogs.cpp)
target_link_libraries(qt_shell_tests PRIVATE liveconv_qt_shell Qt6::Test GTest::gtest)
if(LIVECONV_WITH_MEDIA)
  # The recording test decodes what the shell wrote with the media library's source.
  target_compile_definitions(qt_shell_tests PRIVATE LIVECONV_WITH_MEDIA)
endif()
set_target_properties(qt_shell_tests PROPERTIES CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/../xvfb_run.sh)
gtest_discover_tests(qt_shell_tests DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60 TEST_PREFIX "qt."
  PROPERTIES
    ENVIRONMENT "LIVECONV_QT_WINDOW_PNG=${CMAKE_BINARY_DIR}/liveconv-qt-window.png"
    SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
    TIMEOUT 600)  # a hang limit: each test has its own X server (xvfb_run.sh), beside the others

# `liveconv --ui qt|viewer`: no window, no display needed.
liveconv_add_test(qt_launch_tests ${CMAKE_CURRENT_LIST_DIR}/test_qt_launch.cpp)
target_compile_definitions(qt_launch_tests PRIVATE LIVECONV_BIN="$<TARGET_FILE:liveconv>"
  LIVECONV_PROGRAM_BIN="$<TARGET_FILE:liveconv-program>" LIVECONV_INSTALLED_LAUNCHER="$<TARGET_FILE:liveconv-installed>")
if(TARGET liveconv-viewer)
  target_compile_definitions(qt_launch_tests PRIVATE LIVECONV_VIEWER_BUILT)
  add_dependencies(qt_launch_tests liveconv-viewer)
endif()
add_dependencies(qt_launch_tests liveconv liveconv-qt)
