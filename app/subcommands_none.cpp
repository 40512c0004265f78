// The engine-only build (LIVECONV_WITH_MEDIA=OFF): no media subcommands.
#include "subcommands.hpp"

namespace liveconv::app {

const std::vector<Subcommand>& extraSubcommands() {
  static const std::vector<Subcommand> none;
  return none;
}

std::string mediaVersionText() { return "none (a build without media: LIVECONV_WITH_MEDIA=OFF)"; }

}  // namespace liveconv::app
