#include "response_view.hpp"

#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

namespace liveconv::ui {

ResponsePlot::ResponsePlot(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(96);
  setMouseTracking(true);  // the gain under the pointer as a tool tip
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ResponsePlot::setFigure(const ResponseFigure* figure) {
  figure_ = figure;
  update();
}

int ResponsePlot::side() const { return std::min(height() - 10, (width() - 8) / 2); }

void ResponsePlot::paintEvent(QPaintEvent*) {
  if (!figure_ || figure_->response.size == 0) return;
  QPainter p(this);
  const int n = figure_->response.size, s = side();
  QImage image(n, n, QImage::Format_RGB32);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const Rgb& c = figure_->colours[static_cast<size_t>(y) * n + x];
      image.setPixel(x, y, qRgb(c[0], c[1], c[2]));
    }
  p.drawImage(QRect(0, 0, s, s), image);  // nearest: each frequency a square
  for (int x = 0; x < s; ++x) {
    const Rgb c = responseColour(static_cast<float>(x) / static_cast<float>(std::max(1, s - 1)));
    p.fillRect(x, s + 2, 1, 8, QColor(c[0], c[1], c[2]));
  }
  const QRectF plot(s + 8, 0, width() - s - 8, s);
  p.fillRect(plot, QColor(24, 24, 28));
  if (figure_->scaleTop > 1.0f) {
    const double y1 = plot.bottom() - plot.height() / figure_->scaleTop;
    p.setPen(QColor(110, 110, 110));
    p.drawLine(QPointF(plot.left(), y1), QPointF(plot.right(), y1));
  }
  p.setRenderHint(QPainter::Antialiasing);
  auto cut = [&](const std::vector<float>& values, QColor colour) {
    if (values.size() < 2) return;
    QPainterPath path;
    for (size_t k = 0; k < values.size(); ++k) {
      const QPointF at(plot.left() + plot.width() * static_cast<double>(k) / static_cast<double>(values.size() - 1),
                       plot.bottom() - plot.height() * std::min(1.0f, values[k] / figure_->scaleTop));
      if (k == 0)
        path.moveTo(at);
      else
        path.lineTo(at);
    }
    p.setPen(QPen(colour, 1.5));
    p.drawPath(path);
  };
  cut(figure_->cutY, QColor(255, 150, 40));
  cut(figure_->cutX, QColor(240, 240, 240));
  // The legend in the plot's top-right corner, on its dark ground.
  const QFontMetrics metrics(font());
  const int wide = metrics.horizontalAdvance("x y") + 6;
  p.setPen(QColor(240, 240, 240));
  p.drawText(QPointF(plot.right() - wide, plot.top() + metrics.ascent() + 2), "x");
  p.setPen(QColor(255, 150, 40));
  p.drawText(QPointF(plot.right() - wide + metrics.horizontalAdvance("x "), plot.top() + metrics.ascent() + 2), "y");
}

void ResponsePlot::mouseMoveEvent(QMouseEvent* event) {
  const int s = side();
  if (!figure_ || figure_->response.size == 0 || s <= 0) return;
  const QPoint at = event->position().toPoint();
  if (at.x() >= s || at.y() >= s) return QToolTip::hideText();
  const int n = figure_->response.size;
  const int x = std::clamp(at.x() * n / s, 0, n - 1), y = std::clamp(at.y() * n / s, 0, n - 1);
  QToolTip::showText(event->globalPosition().toPoint(),
                     QString("fx %1, fy %2 cycles/px: gain %3")
                         .arg(static_cast<double>(x - n / 2) / n, 0, 'f', 3)
                         .arg(static_cast<double>(y - n / 2) / n, 0, 'f', 3)
                         .arg(static_cast<double>(figure_->response.at(x, y)), 0, 'g', 3),
                     this);
}

ResponseView::ResponseView(QWidget* parent) : QWidget(parent) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  plot_ = new ResponsePlot;
  plot_->setFixedHeight(150);
  scale_ = new QLabel;
  scale_->setStyleSheet("color: palette(placeholder-text);");
  caption_ = new QLabel;
  caption_->setWordWrap(true);
  caption_->setStyleSheet("color: palette(placeholder-text);");
  column->addWidget(plot_);
  column->addWidget(scale_);
  column->addWidget(caption_);
}

void ResponseView::setFigure(const ResponseFigure& figure) {
  plot_->setFigure(&figure);
  scale_->setText(QString::fromStdString(figure.scaleText) + "; the cuts along x and y: 0 .. 0.5 cycles/px");
  caption_->setText(QString::fromStdString(figure.caption));
  setVisible(figure.response.size > 0);
}

}  // namespace liveconv::ui
