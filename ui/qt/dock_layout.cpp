#include "qt/dock_layout.hpp"

#include <QMainWindow>
#include <algorithm>

#include "model/viewer_model.hpp"
#include "qt/engine_dock.hpp"
#include "qt/mask_dock.hpp"
#include "qt/race_dock.hpp"

namespace liveconv::ui {

DockLayout::DockLayout(QMainWindow& window, ViewerModel& model) : QObject(&window), window_(window), model_(model) {
  mask_ = new MaskDock(model_, &window_);
  engine_ = new EngineDock(model_, &window_);
  window_.addDockWidget(Qt::LeftDockWidgetArea, mask_);
  window_.addDockWidget(Qt::RightDockWidgetArea, engine_);
  race_ = new RaceDock(&window_);
  window_.tabifyDockWidget(engine_, race_);
  engine_->raise();
  // A mask edit can change which variants are usable, and a variant change the separability line.
  connect(mask_, &MaskDock::maskEdited, engine_, &EngineDock::refresh);
  connect(engine_, &EngineDock::engineEdited, mask_, &MaskDock::refresh);
}

void DockLayout::setDefaultWidths() {
  window_.resizeDocks({mask_, engine_}, {440, 340}, Qt::Horizontal);
}

void DockLayout::fitTo(int width) {
  const bool narrow = width < 1100;
  const bool tabbed = window_.tabifiedDockWidgets(mask_).contains(engine_);  // the layout restored may be either
  if (narrow && !tabbed) {
    window_.tabifyDockWidget(mask_, engine_);
    window_.tabifyDockWidget(mask_, race_);
    mask_->raise();
    // The grid's 7 columns without scrolling where the picture keeps its 320 (an 800-wide window: 440).
    window_.resizeDocks({mask_}, {std::clamp(width - 360, 300, 440)}, Qt::Horizontal);
  } else if (!narrow && tabbed) {
    window_.addDockWidget(Qt::RightDockWidgetArea, engine_);
    window_.tabifyDockWidget(engine_, race_);
    engine_->raise();
    setDefaultWidths();
  }
}

void DockLayout::applyPanelsVisible() {
  const bool show = model_.view().panelsVisible;
  mask_->setVisible(show);
  engine_->setVisible(show);
  race_->setVisible(show);
}

void DockLayout::refresh() {
  mask_->refresh();
  engine_->refresh();
}

void DockLayout::show(const FrameStats& s) {
  // A comparison the user asked for comes to the front when it is done; auto's own races only update the chart.
  // (also while paused: a comparison ends without a new frame)
  const std::uint64_t race = s.race ? s.race->number : 0;
  // Check mode's result is in the race's dock: it comes to the front when the mode is turned on.
  if (model_.view().checking && !checkingShown_) race_->raise();
  checkingShown_ = model_.view().checking;
  if (race_->show(s) && s.race && s.race->trigger == "compare" && race != shownRace_) race_->raise();
  shownRace_ = race;
}

}  // namespace liveconv::ui
