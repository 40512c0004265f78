// The mask editor dock: a grid of spin boxes over the model's mask, with size,
// divisor, bias, normalize, symmetric editing, transpose, flips, reset and the
// separability line. Every edit goes through a ViewerModel command; refresh()
// pulls the model back into the widgets, so both directions stay in step.
#pragma once

#include <QDockWidget>
#include <QFormLayout>
#include <QHBoxLayout>
#include <vector>

#include "model/viewer_model.hpp"
#include "response_view.hpp"

class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QWidget;

namespace liveconv::ui {

// Size: a dozen controls, each a widget wired to one ViewerModel command and
// pulled back by refresh(), plus the accessors the dock's tests drive them by.
class MaskDock : public QDockWidget {
  Q_OBJECT
 public:
  MaskDock(ViewerModel& model, QWidget* parent = nullptr);
  // Shows the model's mask; rebuilds the grid only when the size changed.
  void refresh();
  // The spin box of cell (x, y), for the tests; nullptr out of range.
  QDoubleSpinBox* cell(int x, int y) const;
  QSpinBox* widthBox() const { return width_; }
  QSpinBox* heightBox() const { return height_; }
  QDoubleSpinBox* divisorBox() const { return divisor_; }
  QDoubleSpinBox* biasBox() const { return bias_; }
  QComboBox* normalizeBox() const { return normalize_; }
  QComboBox* symmetryBox() const { return symmetry_; }
  QComboBox* specBox() const { return spec_; }
  QLabel* separabilityLabel() const { return separability_; }
  // What the frame side runs (the variant asked and the one that ran, e.g. auto and separable),
  // shown in the separability line once it runs the model's variant.
  void setRunningVariant(VariantId asked, VariantId ran);
  QLabel* errorLabel() const { return error_; }
  QLabel* normalizationLabel() const { return normalization_; }
  QLabel* nearZeroLabel() const { return nearZero_; }
  QPushButton* normalizeOffButton() const { return normalizeOff_; }
  QScrollArea* gridArea() const { return scroll_; }
  ResponseView* responseView() const { return response_; }
  // The tool buttons carry object names: maskTranspose, maskFlipH, maskFlipV, maskReset.

  // Rows of the grid shown at once; a taller mask scrolls.
  static constexpr int kRowsShown = 11;

 protected:
  void resizeEvent(QResizeEvent* event) override;
  // Up and Down in a cell move to the cell above or below (a spin box would step its value).
  bool eventFilter(QObject* watched, QEvent* event) override;

 signals:
  void maskEdited();  // the model's mask changed from this dock

 private:
  QFormLayout* buildForm();
  QHBoxLayout* buildTools();
  void rebuildGrid();
  void fitGridArea();
  void edited(bool changed);
  void applySpec(const QString& spec);

  ViewerModel& model_;
  QWidget* gridHost_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  std::vector<QDoubleSpinBox*> cells_;
  int gridWidth_ = 0, gridHeight_ = 0;
  int cellHeight_ = 0;  // every cell's, so the rows are alike (fitGridArea())
  QSpinBox *width_ = nullptr, *height_ = nullptr;
  QDoubleSpinBox *divisor_ = nullptr, *bias_ = nullptr;
  QComboBox *normalize_ = nullptr, *symmetry_ = nullptr, *spec_ = nullptr;
  QLabel *separability_ = nullptr, *error_ = nullptr;
  QLabel *normalization_ = nullptr, *nearZero_ = nullptr;  // normalizationText, nearZeroSumWarning
  QPushButton* normalizeOff_ = nullptr;                    // beside the warning
  ResponseView* response_ = nullptr;
  VariantId runningAsked_ = VariantId::Invalid, runningRan_ = VariantId::Invalid;  // the frame side's
  QString specError_;  // the parser's sentence for the last spec typed; cleared by the next edit
  bool refreshing_ = false;
};

}  // namespace liveconv::ui
