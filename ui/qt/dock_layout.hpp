// The docks around the picture: the mask dock on the left, the engine dock
// on the right with the race tabbed beside it, how they follow each other's
// edits, where they go in a narrow window, and when the race comes to the front.
#pragma once

#include <QObject>
#include <cstdint>

class QMainWindow;

namespace liveconv::ui {

class EngineDock;
class MaskDock;
class RaceDock;
class ViewerModel;
struct FrameStats;

class DockLayout : public QObject {
  Q_OBJECT
 public:
  DockLayout(QMainWindow& window, ViewerModel& model);

  MaskDock* mask() const { return mask_; }
  EngineDock* engine() const { return engine_; }
  RaceDock* race() const { return race_; }
  void setDefaultWidths();  // room for a 7x7 grid without scrolling
  // Under 1100 pixels wide the two docks share one column as tabs, so the
  // picture keeps most of a small window; wider, they go back to both sides.
  void fitTo(int windowWidth);
  void applyPanelsVisible();
  void refresh();  // after the model changed from outside the docks
  // The race's chart, raised when a comparison the user asked for is done or check mode turns on.
  void show(const FrameStats& stats);

 private:
  QMainWindow& window_;
  ViewerModel& model_;
  MaskDock* mask_ = nullptr;
  EngineDock* engine_ = nullptr;
  RaceDock* race_ = nullptr;
  std::uint64_t shownRace_ = 0;  // the race the dock was raised for
  bool checkingShown_ = false;   // check mode was on at the last update (the dock is raised as it turns on)
};

}  // namespace liveconv::ui
