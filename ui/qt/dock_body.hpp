// A dock's contents in a scroll area of their own: in a small window (down to
// 800x500) a dock scrolls instead of making the window larger than the screen.
#pragma once

#include <QFrame>
#include <QScrollArea>
#include <QWidget>

namespace liveconv::ui {

inline QWidget* scrolledDockBody(QWidget* body) {
  auto* area = new QScrollArea;
  area->setWidget(body);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  return area;
}

}  // namespace liveconv::ui
