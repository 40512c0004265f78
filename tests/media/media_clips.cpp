// The fixture ctest runs before the media entries (MediaClips.Make): every
// clip the suites declared, made anew into the shared folder, one per core
// (two to eight at a time: these clips are small). A clip the ffmpeg command
// cannot make here (an encoder this FFmpeg lacks) is said and left out: the
// tests that read it try again and SKIP, as they would on their own.
#include "media/media_clips.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace liveconv::media::test_media {
namespace {

TEST(MediaClips, MakeEveryClip) {
  std::vector<Clip> clips;
  std::set<std::string> paths;
  for (const Clip& c : declaredClips())
    if (paths.insert(clipPath(c)).second) clips.push_back(c);
  // Clips no suite declares any more (a recipe changed: its hash did) go.
  for (const auto& e : std::filesystem::directory_iterator(sharedClipFolder())) {
    const std::string name = e.path().filename().string();
    std::error_code ignored;
    if (name.front() != '.' && !paths.count(e.path().string())) std::filesystem::remove(e.path(), ignored);
  }
  std::atomic<std::size_t> next{0};
  std::mutex said;
  auto worker = [&] {
    for (std::size_t k; (k = next++) < clips.size();) {
      const std::string why = writeClip(clips[k]);
      if (why.empty()) continue;
      std::lock_guard<std::mutex> lock(said);
      std::printf("the ffmpeg command could not make %s (its tests will SKIP): %s\n", clips[k].name.c_str(),
                  why.c_str());
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::clamp(std::thread::hardware_concurrency(), 2u, 8u); ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  std::printf("%zu clips in %s\n", clips.size(), sharedClipFolder().c_str());
}

}  // namespace
}  // namespace liveconv::media::test_media
