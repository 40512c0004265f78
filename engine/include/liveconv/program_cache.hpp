// Built programs keyed by (device, source, build options). Thread-safe, so a
// background thread can build what the frame path will need next.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "liveconv/cl.hpp"

namespace liveconv {

class ProgramCache {
 public:
  // Returns the built program, building it on first use. `sourceText` is the
  // full program text; `sourceKey` names it in the cache (e.g. "local.cl" or a
  // hash of generated text). Throws BuildError carrying the build log.
  cl::Program get(const cl::Context& context, const cl::Device& device, const std::string& sourceKey,
                  const std::string& sourceText, const std::string& options);

  bool contains(const cl::Device& device, const std::string& sourceKey, const std::string& options) const;
  std::size_t size() const;
  int buildCount() const;  // programs compiled so far (cache misses)

 private:
  using Key = std::tuple<cl_device_id, std::string, std::string>;
  mutable std::mutex mutex_;
  std::map<Key, cl::Program> programs_;
  int builds_ = 0;
};

}  // namespace liveconv
