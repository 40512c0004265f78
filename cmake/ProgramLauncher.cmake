# Each program the user runs is two files (app/launcher.cpp says why): the
# program itself, built into libexec/liveconv/ of the build tree and installed
# into ${CMAKE_INSTALL_LIBEXECDIR}/liveconv/, and a small launcher (the C library only) under
# the program's name that blocks the stop signals and executes it: in the build
# tree where the program is run from (app/liveconv, ui/glfw/liveconv-viewer,
# ui/qt/liveconv-qt), installed into bin/.
#
# liveconv_program(NAME PROGRAM_TARGET): the executable target PROGRAM_TARGET
# becomes the program NAME; the target NAME is its launcher in the build tree
# (what the tests and the man pages run), NAME-installed the one installed.
set(LIVECONV_PROGRAM_DIR "${CMAKE_BINARY_DIR}/libexec/liveconv")

function(liveconv_program name program)
  set_target_properties(${program} PROPERTIES OUTPUT_NAME ${name} RUNTIME_OUTPUT_DIRECTORY "${LIVECONV_PROGRAM_DIR}")
  file(RELATIVE_PATH from_build "${CMAKE_CURRENT_BINARY_DIR}" "${LIVECONV_PROGRAM_DIR}/${name}")
  file(RELATIVE_PATH from_bin "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${CMAKE_INSTALL_LIBEXECDIR}/liveconv/${name}")
  foreach(variant IN ITEMS build installed)
    if(variant STREQUAL "build")
      set(target ${name})
      set(relative "${from_build}")
      set(folder "${CMAKE_CURRENT_BINARY_DIR}")
    else()
      set(target ${name}-installed)
      set(relative "${from_bin}")
      set(folder "${CMAKE_BINARY_DIR}/launchers-installed")
    endif()
    add_executable(${target} "${PROJECT_SOURCE_DIR}/app/launcher.cpp")
    target_compile_definitions(${target} PRIVATE LIVECONV_PROGRAM="${relative}")
    target_link_options(${target} PRIVATE -Wl,--as-needed)  # no C++ runtime: libc.so alone
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name} RUNTIME_OUTPUT_DIRECTORY "${folder}"
                                               UNITY_BUILD OFF)
    add_dependencies(${target} ${program})
  endforeach()
  install(TARGETS ${program} RUNTIME DESTINATION "${CMAKE_INSTALL_LIBEXECDIR}/liveconv")
  install(TARGETS ${name}-installed RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endfunction()
