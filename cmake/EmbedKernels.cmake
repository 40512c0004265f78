# Turns every kernels/*.cl into a C++ string at build time, so the binaries
# carry their kernels. LIVECONV_KERNEL_DIR at run time overrides them from disk.
set(LIVECONV_KERNEL_SOURCES
  ${CMAKE_SOURCE_DIR}/kernels/common.cl
  ${CMAKE_SOURCE_DIR}/kernels/naive.cl
  ${CMAKE_SOURCE_DIR}/kernels/local.cl
  ${CMAKE_SOURCE_DIR}/kernels/packet.cl
  ${CMAKE_SOURCE_DIR}/kernels/image.cl
  ${CMAKE_SOURCE_DIR}/kernels/convert.cl
)

function(liveconv_embed_kernels out_cpp)
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} "-DSOURCES=${LIVECONV_KERNEL_SOURCES}"
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_kernels_script.cmake
    DEPENDS ${LIVECONV_KERNEL_SOURCES} ${CMAKE_SOURCE_DIR}/cmake/embed_kernels_script.cmake
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
endfunction()
