// Subcommands that exist only in some builds (those that need FFmpeg, GLFW or
// Qt). Each optional part of app/ contributes its entries; the engine-only
// build has none.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace liveconv::app {

struct Subcommand {
  const char* name;
  const char* usageLine;
  std::function<int(const std::vector<std::string>&)> run;
};

const std::vector<Subcommand>& extraSubcommands();

// The media libraries this program runs with, for --version (a sentence when it has none).
std::string mediaVersionText();

}  // namespace liveconv::app
