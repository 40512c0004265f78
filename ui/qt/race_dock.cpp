#include "qt/race_dock.hpp"

#include <QCheckBox>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

#include "qt/dock_body.hpp"

namespace liveconv::ui {

RaceBars::RaceBars(QWidget* parent) : QWidget(parent) { setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed); }

int RaceBars::barHeight() const { return 2 * fontMetrics().height() + 6; }

QSize RaceBars::sizeHint() const {
  return {280, static_cast<int>(figure_.bars.size()) * (barHeight() + 3)};
}

void RaceBars::setFigure(const RaceFigure& figure) {
  figure_ = figure;
  setFixedHeight(sizeHint().height());
  update();
}

void RaceBars::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const int h = barHeight(), line = fontMetrics().height(), w = width();
  int y = 0;
  for (const RaceBar& bar : figure_.bars) {
    const QRect box(0, y, w, h);
    if (bar.ms > 0) {
      p.fillRect(QRect(0, y, std::max(2, static_cast<int>(bar.length * static_cast<float>(w))), h),
                 bar.chosen ? QColor(150, 215, 160) : QColor(165, 195, 235));  // light: the text reads on and off the bar
      p.setPen(QColor(120, 120, 120));
      p.drawRect(box.adjusted(0, 0, -1, -1));
      p.setPen(QColor(20, 20, 20));
    } else {
      p.setPen(QColor(150, 150, 150));
      p.drawRect(box.adjusted(0, 0, -1, -1));
    }
    p.drawText(QRect(4, y + 2, w - 8, line), Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromStdString((bar.chosen ? "* " : "") + bar.label));
    if (bar.ms <= 0) p.setPen(QColor(170, 110, 60));
    p.drawText(QRect(4, y + 2 + line, w - 8, line), Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromStdString(bar.ms > 0 ? bar.numbers : bar.reason));
    y += h + 3;
  }
}

bool RaceBars::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const int index = help->pos().y() / (barHeight() + 3);
    if (index >= 0 && index < static_cast<int>(figure_.bars.size())) {
      const RaceBar& bar = figure_.bars[static_cast<size_t>(index)];
      QToolTip::showText(help->globalPos(),
                         QString::fromStdString(bar.label + ": " + bar.description +
                                                (bar.reason.empty() ? "" : "\n" + bar.reason)),
                         this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(e);
}

RaceDock::RaceDock(QWidget* parent) : QDockWidget("Variant Race", parent) {
  setObjectName("raceDock");  // QMainWindow::saveState() keys docks by object name
  auto* body = new QWidget;
  auto* column = new QVBoxLayout(body);
  compare_ = new QPushButton("Compare Variants on This Frame (B)");
  compare_->setToolTip("Race every variant that takes the mask on this frame's format and size; changes nothing that runs");
  connect(compare_, &QPushButton::clicked, this, &RaceDock::compareAsked);
  title_ = new QLabel("No race yet: auto races when it meets a new mask size or frame; B races on demand.");
  title_->setWordWrap(true);
  context_ = new QLabel;
  context_->setWordWrap(true);
  context_->setStyleSheet("color: palette(placeholder-text);");
  limits_ = new QLabel;
  limits_->setWordWrap(true);
  limits_->setStyleSheet("color: palette(placeholder-text);");
  bars_ = new RaceBars;
  column->addWidget(compare_);
  column->addWidget(title_);
  column->addWidget(context_);
  column->addWidget(bars_);
  column->addWidget(limits_);
  check_ = new QCheckBox("Check the Frame Against the CPU Reference (E)");
  check_->setToolTip("Filters the frame on screen with the CPU reference too, one check after another, and lays the "
                     "differences over the picture");
  connect(check_, &QCheckBox::toggled, this, &RaceDock::checkToggled);
  checkResult_ = new QLabel("Filters the frame on screen with the CPU reference too and shows where they differ.");
  checkResult_->setWordWrap(true);
  checkDetail_ = new QLabel;
  checkDetail_->setWordWrap(true);
  checkDetail_->setStyleSheet("color: palette(placeholder-text);");
  column->addSpacing(8);
  column->addWidget(check_);
  column->addWidget(checkResult_);
  column->addWidget(checkDetail_);
  column->addStretch(1);
  setWidget(scrolledDockBody(body));
}

bool RaceDock::show(const FrameStats& stats) {
  const int check = stats.check ? stats.check->number : 0;
  if (check != shownCheck_ || stats.checking != shownChecking_) {
    shownCheck_ = check;
    shownChecking_ = stats.checking;
    const QSignalBlocker quiet(check_);  // the model's state, not a click
    check_->setChecked(stats.checking);
    if (stats.check) {
      const std::vector<std::string> lines = checkLines(*stats.check);
      checkResult_->setText(QString::fromStdString(lines[0]));
      checkResult_->setStyleSheet(stats.check->check.passed() ? "color: #3c9a50;" : "color: #d04035;");
      std::string detail;
      for (std::size_t i = 1; i < lines.size(); ++i) detail += lines[i] + "\n";
      checkDetail_->setText(QString::fromStdString(detail + heatLegend(stats.check->check)));
    } else if (stats.checking) {
      checkResult_->setText("Checking …");
    } else {
      checkResult_->setText("Filters the frame on screen with the CPU reference too and shows where they differ.");
      checkDetail_->clear();
    }
  }
  // Which race: its number in this run, and for one read back with auto's cached
  // choice (number 0) when it ran and what for; "" while there is none.
  const std::string race = !stats.race ? std::string()
                                       : std::to_string(stats.race->number) + " " + stats.race->racedAt + " " +
                                             stats.race->mask + " " + std::to_string(stats.race->width) + "x" +
                                             std::to_string(stats.race->height) + " " + stats.race->device;
  if (race == shownRace_ && stats.comparing == shownComparing_) return false;
  shownComparing_ = stats.comparing;
  compare_->setEnabled(!stats.comparing);
  compare_->setText(stats.comparing ? "Comparing the Variants …" : "Compare Variants on This Frame (B)");
  if (race != shownRace_ && stats.race) {
    const RaceFigure figure = raceFigure(*stats.race);
    title_->setText(QString::fromStdString(figure.title));
    context_->setText(QString::fromStdString(figure.context));
    limits_->setText(QString::fromStdString(figure.limits));
    bars_->setFigure(figure);
  }
  shownRace_ = race;
  return true;
}

}  // namespace liveconv::ui
