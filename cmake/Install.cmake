# `cmake --install` and `cpack -G DEB`: the three programs in bin/ (each a
# launcher of the program in libexec/liveconv/: cmake/ProgramLauncher.cmake), the bundled
# clip in share/liveconv (where they find it from any directory), desktop
# entries and the icon for both windows, man pages made from each program's
# --help. The .deb's Depends come from dpkg-shlibdeps, plus an OpenCL driver.
include(ManPages)

set(see_also "liveconv|liveconv-viewer|liveconv-qt|clinfo|ffmpeg")
set(liveconv_commands "devices|variants|presets|bench|bench --pipeline")
if(LIVECONV_WITH_MEDIA)
  string(APPEND liveconv_commands "|run|cameras")
  install(FILES "${PROJECT_SOURCE_DIR}/assets/city_320x180.mp4" DESTINATION "${CMAKE_INSTALL_DATADIR}/liveconv")
endif()
liveconv_man_page(liveconv NAME "live 2D convolution of video on OpenCL: filter, benchmark, list"
                  COMMANDS "${liveconv_commands}" SEE_ALSO "${see_also}")

set(window_targets "")
if(TARGET liveconv-viewer)
  list(APPEND window_targets liveconv-viewer)
  liveconv_man_page(liveconv-viewer NAME "watch a 2D convolution filter video live (GLFW and Dear ImGui)"
                    SEE_ALSO "${see_also}")
endif()
if(TARGET liveconv-qt)
  list(APPEND window_targets liveconv-qt)
  liveconv_man_page(liveconv-qt NAME "the liveconv desktop shell: live 2D convolution of video (Qt 6)"
                    SEE_ALSO "${see_also}")
endif()
foreach(window IN LISTS window_targets)
  install(FILES "${PROJECT_SOURCE_DIR}/assets/desktop/${window}.desktop"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
endforeach()
if(window_targets)
  install(FILES "${PROJECT_SOURCE_DIR}/assets/desktop/liveconv.svg"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
endif()
# README and the guides it links to, in the same layout, so its links work where installed.
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs"
        FILES_MATCHING PATTERN "*.md" PATTERN "screenshots/*.jpg" PATTERN "bench" EXCLUDE)

# ---- the Debian package
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME liveconv)
set(CPACK_PACKAGE_VENDOR "liveconv")
set(CPACK_PACKAGE_CONTACT "liveconv developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "live 2D convolution of video on OpenCL")
set(CPACK_PACKAGE_DESCRIPTION
    "liveconv filters video (files, cameras, network streams, test sources) with a 2D\n\
convolution on any OpenCL device, the CPU through PoCL included. It offers a\n\
ladder of kernel variants and an 'auto' choice that races them, a batch filter\n\
and a benchmark on the command line (liveconv), and two windows for tuning a\n\
mask while the video plays (liveconv-viewer, liveconv-qt).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # liveconv_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION video)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps adds the shared libraries; the OpenCL driver is loaded by the
# ICD loader at run time, so it is named here. Qt needs a font to draw text.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "pocl-opencl-icd | opencl-icd")
# libavdevice is loaded when a lavfi or camera source first needs it
# (liveconv/media/device_inputs.hpp), so dpkg-shlibdeps does not see it: its
# package, named by its soname as Debian names libraries.
if(LIVECONV_AVDEVICE_MAJOR)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libavdevice${LIVECONV_AVDEVICE_MAJOR}")
endif()
if(TARGET liveconv-qt)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", fonts-dejavu-core | fonts-freefont-ttf | fonts-liberation2")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clinfo")
set(CPACK_STRIP_FILES ON)
include(CPack)
