#include "feed/kernel_file_watch.hpp"

#include <sys/stat.h>

#include <exception>

#include "liveconv/kernel_sources.hpp"
#include "liveconv/variants.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

KernelFileWatch::Seen KernelFileWatch::look(const std::string& path) {
  Seen s;
  s.path = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    s.modifiedNs = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    s.size = static_cast<long long>(st.st_size);
  }
  return s;
}

void KernelFileWatch::poll(ViewerModel& model, Clock::time_point now) {
  if (!userKernelLoaded() || now < nextLook_) return;
  nextLook_ = now + std::chrono::seconds(1);
  const std::string path = userKernel().path;
  if (seen_.path != path) {  // loaded elsewhere (the command line): follow it from here
    seen_ = look(path);
    model.setUserKernel(userKernel().digest);
    return;
  }
  const Seen current = look(path);
  if (current == seen_) return;
  seen_ = current;
  if (current.size < 0) return;  // an editor that saves by renaming: the new file comes next look
  load(model, path);
}

std::string KernelFileWatch::load(ViewerModel& model, const std::string& path) {
  try {
    loadUserKernel(path);
  } catch (const std::exception& e) {
    error_ = e.what();
    return error_;
  }
  error_.clear();
  seen_ = look(path);
  model.setUserKernel(userKernel().digest);
  return "";
}

std::string KernelFileWatch::open(ViewerModel& model, const std::string& path) {
  const std::string error = load(model, path);
  if (error.empty()) model.setVariant(VariantId::User);  // the kernel opened is the one to see
  return error;
}

}  // namespace liveconv::ui
