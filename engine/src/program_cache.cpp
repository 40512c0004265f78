#include "liveconv/program_cache.hpp"

#include "liveconv/errors.hpp"

namespace liveconv {

cl::Program ProgramCache::get(const cl::Context& context, const cl::Device& device, const std::string& sourceKey,
                              const std::string& sourceText, const std::string& options) {
  const Key key{device(), sourceKey, options};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = programs_.find(key); it != programs_.end()) return it->second;
  }
  // Build outside the lock: a long compile must not block lookups of other programs.
  cl::Program program(context, sourceText);
  try {
    program.build(std::vector<cl::Device>{device}, options.c_str());
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
      log = "(the driver returned no build log)";
    }
    throw BuildError("OpenCL program " + sourceKey + " failed to build with options '" + options + "'.", log);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++builds_;
  return programs_.emplace(key, program).first->second;
}

bool ProgramCache::contains(const cl::Device& device, const std::string& sourceKey,
                            const std::string& options) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return programs_.count(Key{device(), sourceKey, options}) != 0;
}

std::size_t ProgramCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return programs_.size();
}

int ProgramCache::buildCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return builds_;
}

}  // namespace liveconv
