// Errors of the media layer, each mapped to its own exit code by `liveconv run`.
// Plain C++ (FFmpeg's error text: av_error.hpp).
#pragma once

#include <string>

#include "liveconv/errors.hpp"

namespace liveconv::media {

// The input cannot be opened or decoded at all (exit 7).
class InputError : public Error {
 public:
  using Error::Error;
};

// A live source that is there but cannot deliver now: a camera busy at open,
// a camera or stream that stopped mid-stream. Worth waiting for (exit 7 once
// the wait gives up).
class SourceUnavailable : public InputError {
 public:
  using InputError::InputError;
};

// Ctrl-C while waiting for a source (exit 130).
class Interrupted : public Error {
 public:
  using Error::Error;
};

// The output cannot be written or encoded (exit 8).
class OutputError : public Error {
 public:
  using Error::Error;
};

// An encoder, or an encoder option, this FFmpeg does not have: a mistake on
// the command line (exit 2), found before any frame is filtered.
class EncoderChoiceError : public OutputError {
 public:
  using OutputError::OutputError;
};

}  // namespace liveconv::media
