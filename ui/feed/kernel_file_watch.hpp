// The user's kernel file (--kernel-file, Open Kernel..., a script's `kernel`)
// followed while a window plays: once a second the file's modification time
// and size are looked at; where they changed, the file is read again and the
// model gets the new version, a set of its own. The version before runs on
// while the new one builds, and stays where the new one fails (the card says
// why, with the build log): an editor's save is a rebuild, a typo costs
// nothing that plays.
#pragma once

#include <chrono>
#include <string>

namespace liveconv::ui {

class ViewerModel;

class KernelFileWatch {
 public:
  using Clock = std::chrono::steady_clock;

  // Once a pass: at most one look a second at the file of the kernel loaded.
  void poll(ViewerModel& model, Clock::time_point now = Clock::now());
  // Loads `path` as the user's kernel now and gives the model its version:
  // "" or the sentence of a file that cannot be read (nothing changes then).
  std::string load(ViewerModel& model, const std::string& path);
  // Open Kernel… in either window: load(), and where it could, `user` runs it.
  std::string open(ViewerModel& model, const std::string& path);
  // The sentence of the last reload that could not read the file; "" after one that could.
  const std::string& error() const { return error_; }

 private:
  struct Seen {
    std::string path;
    long long modifiedNs = -1;
    long long size = -1;
    bool operator==(const Seen& o) const { return path == o.path && modifiedNs == o.modifiedNs && size == o.size; }
  };
  static Seen look(const std::string& path);

  Seen seen_;
  Clock::time_point nextLook_{};
  std::string error_;
};

}  // namespace liveconv::ui
