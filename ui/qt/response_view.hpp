// The mask's frequency response in the Qt shell's mask dock, painted from the
// model's ResponseFigure as the viewer's panel draws it: the 2-D gain as
// colours (DC in the middle, fx across, fy down), the cuts along x (white) and
// y (orange) beside it, the colour scale under it, and the line that says what
// the mask does.
#pragma once

#include <QWidget>

#include "model/response_figure.hpp"

class QLabel;

namespace liveconv::ui {

class ResponsePlot : public QWidget {
 public:
  explicit ResponsePlot(QWidget* parent = nullptr);
  void setFigure(const ResponseFigure* figure);
  QSize sizeHint() const override { return {280, 140}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  const ResponseFigure* figure_ = nullptr;
  int side() const;
};

class ResponseView : public QWidget {
 public:
  explicit ResponseView(QWidget* parent = nullptr);
  // Shows `figure` (owned by the model, alive until the next edit).
  void setFigure(const ResponseFigure& figure);
  QLabel* captionLabel() const { return caption_; }
  QLabel* scaleLabel() const { return scale_; }

 private:
  ResponsePlot* plot_;
  QLabel *scale_, *caption_;
};

}  // namespace liveconv::ui
