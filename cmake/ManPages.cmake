# liveconv_man_page(TARGET NAME "one line" [COMMANDS "cmd|cmd --flag|..."] [SEE_ALSO "..."]
#                   [REFERENCE docs/FILE.md])
# Section 1 man page of an executable target, made at build time by help2man
# from the program's own --help (and each listed subcommand's --help), so the
# page cannot drift from what the program says, followed by the sections of
# its reference page in docs/ (cmake/MarkdownToMan.cmake), so the man page and
# the docs are one text. The reference: REFERENCE, else docs/cli.md for
# liveconv and docs/windows.md for the windows. Installed gzipped to man1.
find_program(LIVECONV_HELP2MAN help2man)
find_program(LIVECONV_GZIP gzip)

function(liveconv_man_page target)
  cmake_parse_arguments(M "" "NAME;COMMANDS;SEE_ALSO;REFERENCE" "" ${ARGN})
  if(NOT M_REFERENCE)
    if(target STREQUAL "liveconv")
      set(M_REFERENCE docs/cli.md)
    else()
      set(M_REFERENCE docs/windows.md)
    endif()
  endif()
  set(reference "${PROJECT_SOURCE_DIR}/${M_REFERENCE}")
  if(NOT LIVECONV_HELP2MAN OR NOT LIVECONV_GZIP)
    message(WARNING "help2man or gzip not found: no man page for ${target} (scripts/install-deps.sh installs them)")
    return()
  endif()
  set(page "${CMAKE_BINARY_DIR}/man/${target}.1")
  add_custom_command(OUTPUT "${page}.gz"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${target}>" "-DHELP2MAN=${LIVECONV_HELP2MAN}"
            "-DPAGE=${page}" "-DNAME=${M_NAME}" "-DCOMMANDS=${M_COMMANDS}" "-DSEE_ALSO=${M_SEE_ALSO}"
            "-DVERSION=${PROJECT_VERSION}" "-DREFERENCE=${reference}" -P "${PROJECT_SOURCE_DIR}/cmake/make_man_page.cmake"
    COMMAND "${LIVECONV_GZIP}" -9nf "${page}"
    DEPENDS ${target} "${PROJECT_SOURCE_DIR}/cmake/make_man_page.cmake"
            "${PROJECT_SOURCE_DIR}/cmake/MarkdownToMan.cmake" "${reference}"
    COMMENT "Man page ${target}(1) from its --help and ${M_REFERENCE}"
    VERBATIM)
  add_custom_target(${target}-man ALL DEPENDS "${page}.gz")
  install(FILES "${page}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
endfunction()
