#include "feed/display_link.hpp"

namespace liveconv::ui {

OpenedDevice openWithoutDisplay(const std::string& selector) {
  OpenedDevice opened;
  opened.device = DeviceContext::create(selectDevice(selector));
  opened.displayPath = "interop: readback + PBO (no GL context given to the engine)";
  return opened;
}

OpenedDevice openDevice(const DisplayLink* link, const std::string& selector) {
  return link ? link->open(selector) : openWithoutDisplay(selector);
}

}  // namespace liveconv::ui
