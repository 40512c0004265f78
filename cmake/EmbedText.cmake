# liveconv_embed_text(OUT_CPP NAMESPACE FUNCTION SOURCES...): generates OUT_CPP
# at build time, defining `const char* NAMESPACE::FUNCTION(const char* name)`
# over the text of SOURCES (see embed_text_script.cmake), rebuilt when one changes.
function(liveconv_embed_text out_cpp namespace function)
  set(sources ${ARGN})
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} "-DSOURCES=${sources}" -DNAMESPACE=${namespace}
            -DFUNCTION=${function} -P ${PROJECT_SOURCE_DIR}/cmake/embed_text_script.cmake
    DEPENDS ${sources} ${PROJECT_SOURCE_DIR}/cmake/embed_text_script.cmake
    COMMENT "Embedding ${function} texts"
    VERBATIM)
endfunction()
