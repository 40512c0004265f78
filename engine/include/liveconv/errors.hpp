// Error types the engine throws. Each owns a sentence fit to show a user;
// callers catch them at thread boundaries (see app/ and ui/).
#pragma once

#include <stdexcept>
#include <string>

namespace liveconv {

// Base class: anything the engine reports to a user.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No OpenCL platform or device matched (or none exists at all).
class NoDeviceError : public Error {
 public:
  using Error::Error;
};

// A mask, variant name, border mode or other parameter is not acceptable.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// Work stopped because its owner asked (for example `auto`'s race, on Ctrl-C).
class Cancelled : public Error {
 public:
  using Error::Error;
};

// A variant cannot run this mask/image/device combination (too much local
// memory, radius over its limit, mask not separable, ...).
class UnsupportedError : public Error {
 public:
  using Error::Error;
};

// A kernel failed to compile. what() is one line; buildLog() is the compiler's.
class BuildError : public Error {
 public:
  BuildError(const std::string& message, std::string log)
      : Error(message), log_(std::move(log)) {}
  const std::string& buildLog() const { return log_; }

 private:
  std::string log_;
};

}  // namespace liveconv
