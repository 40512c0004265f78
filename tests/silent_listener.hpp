// A stream that accepts the connection and never sends: a listening socket
// on 127.0.0.1 that nobody reads from (the kernel completes the handshake).
// For the open-timeout tests of `run` and both windows.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

class SilentListener {
 public:
  SilentListener() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd_, 8) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0)
      return;
    url_ = "tcp://127.0.0.1:" + std::to_string(ntohs(address.sin_port));
  }
  ~SilentListener() {
    if (fd_ >= 0) ::close(fd_);
  }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;

  // "tcp://127.0.0.1:PORT", or "" where no socket could listen.
  const std::string& url() const { return url_; }

 private:
  int fd_;
  std::string url_;
};
