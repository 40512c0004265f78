// Copies of whole frames on several threads. One thread's memcpy moves about
// 8-10 GB/s, so a 4K frame (25-33 MB) into the pipeline's pinned staging took
// 3 ms of lc-engine on the GPU machine, the largest piece of a frame's time
// on that thread. Large copies are split by rows over a few helper threads
// (named `name`-N, started on the first large copy) and the caller, which takes a
// share and returns when every share is done. Small copies, and machines of
// fewer than four cores, copy on the caller alone.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace liveconv {

class ParallelCopy {
 public:
  // `helpers` threads besides the caller; -1: as many as the machine's cores
  // allow (none under 4 cores, 1 under 8, 3 from 8 up). `name`: the helper
  // threads' name, numbered (at most 12 characters).
  explicit ParallelCopy(int helpers = -1, std::string name = "lc-copy");
  ParallelCopy(const ParallelCopy&) = delete;
  ParallelCopy& operator=(const ParallelCopy&) = delete;
  ~ParallelCopy();

  // `rows` rows of `rowBytes` from `src` (rows `srcStride` apart) to `dst`
  // (`dstStride` apart). One thread at a time may call it.
  void copyRows(std::uint8_t* dst, std::size_t dstStride, const std::uint8_t* src, std::size_t srcStride,
                std::size_t rowBytes, std::size_t rows);
  void copy(void* dst, const void* src, std::size_t bytes);

  int helpers() const { return helpers_; }
  // Copies of this size and larger are split (smaller ones: the caller alone).
  static constexpr std::size_t kSplitBytes = std::size_t(4) << 20;

 private:
  struct Job {
    std::uint8_t* dst = nullptr;
    const std::uint8_t* src = nullptr;
    std::size_t dstStride = 0, srcStride = 0, rowBytes = 0, rows = 0;
    void share(int index, int shares) const;
  };
  void start();
  void helperLoop(int index);

  int helpers_ = 0;
  std::string name_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable work_, done_;
  Job job_;
  std::uint64_t generation_ = 0;
  int pending_ = 0;
  bool stopping_ = false;
};

}  // namespace liveconv
