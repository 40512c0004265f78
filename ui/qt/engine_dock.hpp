// The engine dock: the variant picker (every registered variant with its
// one-line description; unusable ones greyed, the reason in the tooltip),
// border mode, pixel format and workgroup shape. Edits go through the model's
// commands; refresh() shows the model, so a V key press shows up here too.
#pragma once

#include <QDockWidget>

#include "model/viewer_model.hpp"

class QCheckBox;
class QComboBox;
class QListWidget;
class QSpinBox;

namespace liveconv::ui {

class EngineDock : public QDockWidget {
  Q_OBJECT
 public:
  EngineDock(ViewerModel& model, QWidget* parent = nullptr);
  void refresh();
  QListWidget* variantList() const { return variants_; }
  QComboBox* borderBox() const { return border_; }
  QComboBox* formatBox() const { return format_; }
  QComboBox* alphaBox() const { return alpha_; }
  QCheckBox* workgroupDefaultBox() const { return workgroupDefault_; }
  QSpinBox* workgroupXBox() const { return workgroupX_; }
  QSpinBox* workgroupYBox() const { return workgroupY_; }

 signals:
  void engineEdited();

 private:
  void edited(bool changed);

  ViewerModel& model_;
  QListWidget* variants_ = nullptr;
  QComboBox *border_ = nullptr, *format_ = nullptr, *alpha_ = nullptr;
  QCheckBox* workgroupDefault_ = nullptr;
  QSpinBox *workgroupX_ = nullptr, *workgroupY_ = nullptr;
  bool refreshing_ = false;
};

}  // namespace liveconv::ui
