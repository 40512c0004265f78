// A bounded queue between two threads, with the two policies the pipeline
// runs under. Never unbounded: a late consumer either slows the producer
// (lossless) or loses the oldest waiting frame (live), never memory.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace liveconv {

enum class QueuePolicy {
  Invalid = 0,
  Live,      // full queue: the oldest waiting item is dropped, the producer never waits
  Lossless,  // full queue: the producer waits; every item reaches the consumer in order
};

enum class PushResult {
  Invalid = 0,
  Queued,
  QueuedDroppedOldest,  // live policy: an older item was discarded to make room
  Closed,               // the queue was closed or cancelled; the item was not taken
};

template <class T>
class BoundedQueue {
 public:
  BoundedQueue(std::size_t capacity, QueuePolicy policy) : capacity_(capacity < 1 ? 1 : capacity), policy_(policy) {}
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  PushResult push(T item) {
    std::unique_lock<std::mutex> lock(mutex_);
    bool dropped = false;
    if (policy_ == QueuePolicy::Lossless) {
      notFull_.wait(lock, [&] { return closed_ || items_.size() < capacity_; });
    } else if (!closed_ && items_.size() >= capacity_) {
      items_.pop_front();
      dropped = true;
    }
    if (closed_) return PushResult::Closed;
    items_.push_back(std::move(item));
    notEmpty_.notify_one();
    return dropped ? PushResult::QueuedDroppedOldest : PushResult::Queued;
  }

  // Waits for an item; nullopt once the queue is closed and drained.
  std::optional<T> pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    notEmpty_.wait(lock, [&] { return !items_.empty() || closed_; });
    return takeLocked();
  }

  std::optional<T> tryPop() {
    std::lock_guard<std::mutex> lock(mutex_);
    return takeLocked();
  }

  // No more pushes; what is queued still drains through pop().
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    notEmpty_.notify_all();
    notFull_.notify_all();
  }

  // Closes and discards what is queued: for shutdown on error or interrupt.
  void cancel() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    items_.clear();
    notEmpty_.notify_all();
    notFull_.notify_all();
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.size();
  }
  std::size_t capacity() const { return capacity_; }
  QueuePolicy policy() const { return policy_; }

 private:
  std::optional<T> takeLocked() {
    if (items_.empty()) return std::nullopt;
    std::optional<T> item(std::move(items_.front()));
    items_.pop_front();
    notFull_.notify_one();
    return item;
  }

  const std::size_t capacity_;
  const QueuePolicy policy_;
  mutable std::mutex mutex_;
  std::condition_variable notEmpty_, notFull_;
  std::deque<T> items_;
  bool closed_ = false;
};

}  // namespace liveconv
