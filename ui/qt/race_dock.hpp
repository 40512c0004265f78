// The Qt shell's "Variant Race" dock: the last race of the variants as a bar
// chart (the model's RaceFigure, as the viewer's panel draws it) and the
// button that races them on the frame on screen (B, Filter > Compare Variants
// on This Frame); under it, check mode (E, Filter > Check Against the CPU
// Reference) and the last check's lines (the model's checkLines, as the
// viewer's panel and the overlay show them).
#pragma once

#include <QDockWidget>
#include <cstdint>

#include "model/frame_stats.hpp"
#include "model/race_figure.hpp"

class QLabel;
class QPushButton;
class QCheckBox;

namespace liveconv::ui {

class RaceBars : public QWidget {
 public:
  explicit RaceBars(QWidget* parent = nullptr);
  void setFigure(const RaceFigure& figure);
  QSize sizeHint() const override;
  const RaceFigure& figure() const { return figure_; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;  // the variant's description as the bar's tool tip

 private:
  int barHeight() const;
  RaceFigure figure_;
};

class RaceDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit RaceDock(QWidget* parent = nullptr);
  // Shows the stats' race when it is a new one (or a comparison started or ended); true when it changed.
  bool show(const FrameStats& stats);
  QPushButton* compareButton() const { return compare_; }
  QLabel* titleLabel() const { return title_; }
  QCheckBox* checkBox() const { return check_; }
  QLabel* checkLabel() const { return checkResult_; }
  const RaceBars* bars() const { return bars_; }

 signals:
  void compareAsked();
  void checkToggled(bool on);

 private:
  QPushButton* compare_;
  QLabel *title_, *context_, *limits_;
  RaceBars* bars_;
  QCheckBox* check_;
  QLabel *checkResult_, *checkDetail_;
  std::string shownRace_;  // the race the figure shows (update()'s key); "" for none
  bool shownComparing_ = false;
  int shownCheck_ = -1;
  bool shownChecking_ = false;
};

}  // namespace liveconv::ui
