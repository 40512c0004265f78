#include "liveconv/media/default_clip.hpp"

#include <cstdlib>
#include <filesystem>

#ifndef LIVECONV_SOURCE_ASSETS
#define LIVECONV_SOURCE_ASSETS "assets"
#endif
#ifndef LIVECONV_INSTALLED_ASSETS
#define LIVECONV_INSTALLED_ASSETS "../share/liveconv"  // relative to the executable's folder
#endif

namespace liveconv::media {

std::string defaultClipPath() {
  namespace fs = std::filesystem;
  constexpr const char* kClip = "city_320x180.mp4";
  if (const char* dir = std::getenv("LIVECONV_ASSETS"); dir && *dir) return (fs::path(dir) / kClip).string();
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path installed =
      ec ? fs::path() : (self.parent_path() / LIVECONV_INSTALLED_ASSETS / kClip).lexically_normal();
  if (!installed.empty() && fs::is_regular_file(installed, ec)) return installed.string();
  const fs::path source = fs::path(LIVECONV_SOURCE_ASSETS) / kClip;
  if (fs::is_regular_file(source, ec) || installed.empty()) return source.string();
  return installed.string();  // neither exists: the error names where an installed copy belongs
}

}  // namespace liveconv::media
