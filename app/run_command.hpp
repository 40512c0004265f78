// `liveconv run` (app/run_command.cpp).
#pragma once

#include <string>

#include "cli.hpp"

namespace liveconv::app {

// Filters the source into the output; returns the exit code (exit_codes.hpp).
int runCommand(const Args& args);

// The output file is never the input (also through a link or another spelling),
// and an existing one is replaced only when the user says so: -y, or "y" at the
// terminal; -n (or no terminal to ask) keeps it. Throws UsageError (exit 2).
void checkOutputPath(const std::string& output, const std::string& input, bool overwrite, bool keep);

}  // namespace liveconv::app
