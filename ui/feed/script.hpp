// `--script FILE` of both windows: timed commands that drive the window as a
// user would, for tests and demonstrations. One command a line:
//
//   FRAME VERB [ARGUMENT]      # comment
//
// FRAME is the number of frames shown before the line runs (0: before the
// first). Lines run in file order; several may share a frame. Verbs:
//
//   key KEY            a key of the table in model/commands.hpp ("V", "Shift+O", "Space")
//   mask SPEC          as --mask (a preset, WxH:c,c,..., or a mask file)
//   cell X Y VALUE     one coefficient of the grid (column X, row Y, from 0)
//   variant NAME       border MODE       format rgba|gray       device N
//   source SPEC        open another source (in the background, as the menus do)
//   save-frame FILE    screenshot FILE   (the filtered frame / the window, as PNG)
//   record FILE        stop-record       quit       seek SECONDS (files)
//   pause              play              step       (as Space and .)
//   wait               the lines after it wait until every edit and seek so far has
//                      reached the picture (or was refused), at most 30 s
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace liveconv::ui {

struct ScriptLine {
  std::uint64_t frame = 0;
  std::string verb;
  std::string argument;  // the rest of the line, trimmed
  int lineNumber = 0;
  std::string text;  // the line as written, for the log
};

// The --script and --stats-json lines of both windows' --help.
const char* scriptOptionHelp();

class Script {
 public:
  // Reads and checks the whole file; "" or the sentence naming the first bad line.
  std::string load(const std::string& path);
  // Checks one line's verb and argument; "" or why not. (load() uses it.)
  static std::string check(const ScriptLine& line);
  // The lines due once `framesShown` frames have been shown, each once; a
  // `wait` line is the last one handed out by a call.
  std::vector<ScriptLine> takeDue(std::uint64_t framesShown);
  bool loaded() const { return !lines_.empty(); }
  bool finished() const { return next_ >= lines_.size(); }

 private:
  std::vector<ScriptLine> lines_;
  std::size_t next_ = 0;
};

}  // namespace liveconv::ui
