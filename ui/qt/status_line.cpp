#include "qt/status_line.hpp"

#include <QLabel>
#include <QSlider>
#include <QStatusBar>
#include <algorithm>

#include "feed/frame_loop.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

StatusLine::StatusLine(QStatusBar* bar, FrameLoop& loop, const ViewerModel& model)
    : QObject(bar), bar_(bar), loop_(loop), model_(model) {
  // The seek bar is hidden for live and generated sources.
  seekSlider_ = new QSlider(Qt::Horizontal);
  seekSlider_->setMinimumWidth(160);
  seekSlider_->setToolTip("Drag to a place in the file (Left/Right: 5 s, Home, End)");
  positionLabel_ = new QLabel;
  connect(seekSlider_, &QSlider::sliderReleased, this, [this] { loop_.seekTo(seekSlider_->value() / 10.0); });
  // Permanent: a message in the status bar (a refusal, "Saved the frame ...") leaves them in view.
  bar_->addPermanentWidget(seekSlider_);
  bar_->addPermanentWidget(positionLabel_);
  seekSlider_->hide();
  positionLabel_->hide();
  fpsLabel_ = new QLabel;
  throughputLabel_ = new QLabel;
  droppedLabel_ = new QLabel;
  deviceLabel_ = new QLabel;
  for (QLabel* l : {fpsLabel_, throughputLabel_, droppedLabel_}) {
    l->setMinimumWidth(120);
    bar_->addPermanentWidget(l);
  }
  // The longest, and in the overlay too: it gives way in a narrow window rather than widening it.
  deviceLabel_->setMinimumWidth(40);  // below its text's width, where the window has no more room
  bar_->addPermanentWidget(deviceLabel_);
}

void StatusLine::addBeforeRates(QWidget* widget) {
  bar_->insertPermanentWidget(2 + before_++, widget);  // after the seek bar and the position
}

void StatusLine::fitTo(int windowWidth) {
  deviceLabel_->setMaximumWidth(std::max(40, windowWidth - 650));
}

void StatusLine::update() {
  const FrameStats& s = loop_.stats();
  const bool seekable = s.durationSeconds > 0;
  seekSlider_->setVisible(seekable);
  positionLabel_->setVisible(s.positionSeconds >= 0);
  positionLabel_->setText(QString::fromStdString(positionText(s.positionSeconds, s.durationSeconds)));
  if (seekable && !seekSlider_->isSliderDown()) {
    seekSlider_->setRange(0, static_cast<int>(s.durationSeconds * 10));
    seekSlider_->setValue(static_cast<int>(std::max(0.0, s.positionSeconds) * 10));
  }
  // The video's rate, as the overlay leads with it (the loop's own rate is in the overlay).
  fpsLabel_->setText(model_.view().paused ? QString("paused") : QString("%1 fps").arg(loop_.videoFps(), 0, 'f', 1));
  throughputLabel_->setText(QString("%1 Mpixel/s").arg(s.megapixelsPerSecond, 0, 'f', 0));
  droppedLabel_->setText(
      QString("dropped %1/%2 (%3%)").arg(s.framesDropped()).arg(s.framesTotal).arg(s.droppedPercent(), 0, 'f', 1));
  // Shortened in the middle where the window is narrow (fitTo sets its room); whole in the tooltip.
  const QString device = QString::fromStdString(s.device + "  ·  " + s.variantText());
  deviceLabel_->setToolTip(device);
  deviceLabel_->setText(deviceLabel_->fontMetrics().elidedText(device, Qt::ElideMiddle, deviceLabel_->maximumWidth()));
}

}  // namespace liveconv::ui
