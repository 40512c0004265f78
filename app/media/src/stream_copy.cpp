#include "liveconv/media/stream_copy.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/dict.h>
}

namespace liveconv::media {

StreamCopy::~StreamCopy() {
  for (Stream& s : streams) {
    avcodec_parameters_free(&s.parameters);
    av_dict_free(&s.metadata);
  }
  for (Chapter& c : chapters) av_dict_free(&c.metadata);
  av_dict_free(&containerMetadata);
  av_dict_free(&videoMetadata);
  for (AVPacket* p : queued_) av_packet_free(&p);
}

bool StreamCopy::copies(int inputIndex) const {
  for (const Stream& s : streams)
    if (s.inputIndex == inputIndex) return true;
  return false;
}

void StreamCopy::push(const AVPacket* packet) {
  AVPacket* copy = av_packet_clone(packet);
  if (!copy) return;
  std::lock_guard<std::mutex> lock(mutex_);
  queued_.push_back(copy);
  if (queued_.size() > kMaxQueued) {
    av_packet_free(&queued_.front());
    queued_.pop_front();
    ++dropped_;
  }
}

void StreamCopy::markInputEnded() {
  std::lock_guard<std::mutex> lock(mutex_);
  ended_ = true;
}

std::vector<AVPacket*> StreamCopy::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<AVPacket*> out(queued_.begin(), queued_.end());
  queued_.clear();
  return out;
}

bool StreamCopy::inputEnded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ended_;
}

long long StreamCopy::droppedPackets() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

}  // namespace liveconv::media
