# Turns every kernels/*.cl into a C++ string at build time, so the binaries
# carry their kernels. LIVECONV_KERNEL_DIR at run time overrides them from disk.
set(LIVECONV_KERNEL_SOURCES
  ${CMAKE_SOURCE_DIR}/kernels/common.cl
  ${CMAKE_SOURCE_DIR}/kernels/naive.cl
  ${CMAKE_SOURCE_DIR}/kernels/local.cl
  ${CMAKE_SOURCE_DIR}/kernels/packet.cl
  ${CMAKE_SOURCE_DIR}/kernels/image.cl
  ${CMAKE_SOURCE_DIR}/kernels/rows.cl
  ${CMAKE_SOURCE_DIR}/kernels/convert.cl
)

include(${CMAKE_CURRENT_LIST_DIR}/EmbedText.cmake)

function(liveconv_embed_kernels out_cpp)
  liveconv_embed_text(${out_cpp} liveconv embeddedKernelText ${LIVECONV_KERNEL_SOURCES})
endfunction()
