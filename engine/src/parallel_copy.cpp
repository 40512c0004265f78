#include "liveconv/parallel_copy.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "liveconv/thread_name.hpp"

namespace liveconv {

namespace {
int helpersForThisMachine() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores >= 8 ? 3 : cores >= 4 ? 1 : 0;
}
}  // namespace

ParallelCopy::ParallelCopy(int helpers, std::string name)
    : helpers_(helpers < 0 ? helpersForThisMachine() : helpers), name_(std::move(name)) {}

ParallelCopy::~ParallelCopy() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (auto& t : threads_) t.join();
}

void ParallelCopy::start() {
  for (int i = 0; i < helpers_; ++i) threads_.emplace_back([this, i] { helperLoop(i); });
}

// Share `index` of `shares`: a run of whole rows, or of a single row's bytes
// where the copy is one row (a plain block).
void ParallelCopy::Job::share(int index, int shares) const {
  if (rows == 1) {
    constexpr std::size_t kPage = 4096;
    const std::size_t pages = (rowBytes + kPage - 1) / kPage;
    const std::size_t begin = std::min(rowBytes, pages * index / shares * kPage);
    const std::size_t end = std::min(rowBytes, pages * (index + 1) / shares * kPage);
    if (end > begin) std::memcpy(dst + begin, src + begin, end - begin);
    return;
  }
  const std::size_t begin = rows * index / shares, end = rows * (index + 1) / shares;
  if (dstStride == rowBytes && srcStride == rowBytes) {
    std::memcpy(dst + begin * rowBytes, src + begin * rowBytes, (end - begin) * rowBytes);
    return;
  }
  for (std::size_t y = begin; y < end; ++y) std::memcpy(dst + y * dstStride, src + y * srcStride, rowBytes);
}

void ParallelCopy::helperLoop(int index) {
  setThreadName((name_ + "-" + std::to_string(index + 1)).c_str());
  std::uint64_t seen = 0;
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    job.share(index + 1, helpers_ + 1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void ParallelCopy::copyRows(std::uint8_t* dst, std::size_t dstStride, const std::uint8_t* src, std::size_t srcStride,
                            std::size_t rowBytes, std::size_t rows) {
  Job job{dst, src, dstStride, srcStride, rowBytes, rows};
  if (rows == 0 || rowBytes == 0) return;
  if (helpers_ == 0 || rowBytes * rows < kSplitBytes) {
    job.share(0, 1);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (threads_.empty()) start();
    job_ = job;
    pending_ = helpers_;
    ++generation_;
  }
  work_.notify_all();
  job.share(0, helpers_ + 1);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
}

void ParallelCopy::copy(void* dst, const void* src, std::size_t bytes) {
  copyRows(static_cast<std::uint8_t*>(dst), bytes, static_cast<const std::uint8_t*>(src), bytes, bytes, 1);
}

}  // namespace liveconv
