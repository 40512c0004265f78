// The media suites' input clips, made with the ffmpeg command.
//
// A clip is declared once, at namespace scope, with sharedClip(): before any
// test runs, the program knows every clip its suites read. ctest makes them
// all once per run: its entry MediaClips.Make (a fixture that every media
// entry requires, so it runs first, also before one entry run alone) runs
// MediaClips.MakeEveryClip (media_clips.cpp), which makes each into the build
// tree's folder (LIVECONV_MEDIA_CLIPS_DIR). The entries only read them. Run
// directly, the program makes a clip that is not there itself. A clip is
// written under a temporary name and renamed, so no process ever reads a
// half-written one, and its file name carries a hash of its arguments, so a
// clip whose recipe changed is never taken for the old one.
//
// A clip that a test may change, or makes from files it writes first, is its
// own (ownClip()): made by that test, in its program's folder.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "media/media_test_support.hpp"

namespace liveconv::media::test_media {

struct Clip {
  std::string name;    // what the tests call it ("in.avi"); its extension names the container
  std::string args;    // the ffmpeg command's arguments, all but the output file
  std::string folder;  // empty: the shared folder; else the folder of a test's own clip
};

// Where the shared clips are: the build tree's folder, made once per ctest run.
inline std::string sharedClipFolder() {
#ifdef LIVECONV_MEDIA_CLIPS_DIR
  static const std::string dir = [] {
    std::error_code ignored;
    std::filesystem::create_directories(LIVECONV_MEDIA_CLIPS_DIR, ignored);
    return std::string(LIVECONV_MEDIA_CLIPS_DIR);
  }();
  return dir;
#else
  return tempDir();
#endif
}

// The clip's file: a shared one's name carries the hash (FNV-1a) of its arguments.
inline std::string clipPath(const Clip& clip) {
  if (!clip.folder.empty()) return clip.folder + "/" + clip.name;
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : clip.args) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  const std::filesystem::path name(clip.name);
  return sharedClipFolder() + "/" + name.stem().string() + "-" + hex + name.extension().string();
}

// Every shared clip the program's suites declared.
inline std::vector<Clip>& declaredClips() {
  static std::vector<Clip> clips;
  return clips;
}

inline Clip sharedClip(std::string name, std::string args) {
  Clip clip{std::move(name), std::move(args), ""};
  declaredClips().push_back(clip);
  return clip;
}

inline Clip ownClip(std::string name, std::string args) {
  return Clip{std::move(name), std::move(args), tempDir()};
}

// Makes the clip's file anew: written under a temporary name (its extension
// kept: it tells ffmpeg the container), then renamed over the old one. The
// ffmpeg command's output when it fails, else "".
inline std::string writeClip(const Clip& clip) {
  static std::atomic<int> made{0};
  const std::filesystem::path path(clipPath(clip));
  const std::filesystem::path part =
      path.parent_path() / ("." + path.stem().string() + ".part-" + std::to_string(::getpid()) + "-" +
                            std::to_string(made++) + path.extension().string());
  const Result r = shell("ffmpeg -hide_banner -loglevel error -y " + clip.args + " " + quoted(part.string()));
  std::error_code failed;
  if (r.exitCode == 0) std::filesystem::rename(part, path, failed);
  if (r.exitCode == 0 && !failed) return "";
  std::error_code ignored;
  std::filesystem::remove(part, ignored);
  return r.exitCode != 0 ? r.output : "renaming " + part.string() + ": " + failed.message();
}

// The clip's file, made now if it is not there; empty if the ffmpeg command could not make it.
inline std::string makeClip(const Clip& clip) {
  const std::string path = clipPath(clip);
  if (std::filesystem::exists(path)) return path;
  return writeClip(clip).empty() ? path : "";
}

#define REQUIRE_CLIP(var, clip)                                          \
  const std::string var = ::liveconv::media::test_media::makeClip(clip); \
  if (var.empty()) GTEST_SKIP() << "SKIP: the ffmpeg command could not make " << (clip).name;

}  // namespace liveconv::media::test_media
