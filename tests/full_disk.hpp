// A full disk for a test: a small tmpfs mounted on a folder for as long as
// the object lives, filled by fill() once the files the test keeps are in it.
// Mounting needs root: elsewhere mounted() is false and why() says so (the
// test says SKIP for that case, visibly).
#pragma once

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

namespace liveconv::test {

class FullDisk {
 public:
  FullDisk(std::string folder, const char* size) : folder_(std::move(folder)) {
    mounted_ = ::mount("tmpfs", folder_.c_str(), "tmpfs", 0, (std::string("size=") + size).c_str()) == 0;
    if (!mounted_) why_ = std::string("a small tmpfs needs root (") + std::strerror(errno) + ")";
  }
  ~FullDisk() {
    if (mounted_) ::umount2(folder_.c_str(), MNT_DETACH);
  }
  FullDisk(const FullDisk&) = delete;
  FullDisk& operator=(const FullDisk&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& why() const { return why_; }
  // Takes the rest of the space: from now on a file's bytes find no room.
  void fill() const {
    std::ofstream filler(folder_ + "/filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), block.size()) && filler.flush()) {
    }
  }

 private:
  std::string folder_, why_;
  bool mounted_ = false;
};

}  // namespace liveconv::test
