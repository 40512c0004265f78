#include "qt/mask_dock.hpp"
#include "qt/dock_body.hpp"

#include <algorithm>

#include "liveconv/parameters.hpp"
#include "model/frame_stats.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QKeyEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "liveconv/variants.hpp"
#include "model/mask_edit.hpp"

namespace liveconv::ui {

namespace {

constexpr int kGridSpacing = 3;
constexpr int kCellWidth = 54;

// A grid cell as in GIMP's matrix: the number as it is (1, -2, 0.0145; no
// 1.000), and a click selects it all, so typing (-1 too) replaces it. Its
// range is every number a float mask holds to 7 decimals: a smaller one made
// the spin box drop digits as they were typed (123456.5 became 1234.5).
class CellBox final : public QDoubleSpinBox {
 public:
  explicit CellBox(double limit = 1e30) {
    setRange(-limit, limit);
    setDecimals(7);  // the spin box rounds its value to this; the text is numberText's
    setKeyboardTracking(false);
    setButtonSymbols(QAbstractSpinBox::NoButtons);  // a dense grid reads better without arrows
    setAlignment(Qt::AlignRight);
  }
  QString textFromValue(double value) const override {
    return QString::fromStdString(numberText(static_cast<float>(value)));
  }
  // Typed into since its number was last set (the edit applies when the cell is left).
  bool typedInto() const { return hasFocus() && lineEdit()->isModified(); }

 protected:
  void focusInEvent(QFocusEvent* event) override {
    QDoubleSpinBox::focusInEvent(event);
    QTimer::singleShot(0, this, [this] { selectAll(); });  // after the click has placed the caret
  }
};

QPushButton* button(const QString& text, const QString& tip) {
  auto* b = new QPushButton(text);
  b->setToolTip(tip);
  return b;
}

}  // namespace

MaskDock::MaskDock(ViewerModel& model, QWidget* parent) : QDockWidget("Mask", parent), model_(model) {
  setObjectName("maskDock");  // QMainWindow::saveState() keys docks by object name
  auto* body = new QWidget;
  auto* column = new QVBoxLayout(body);
  column->addLayout(buildForm());

  gridHost_ = new QWidget;
  grid_ = new QGridLayout(gridHost_);
  grid_->setSpacing(kGridSpacing);
  grid_->setContentsMargins(kGridSpacing, kGridSpacing, kGridSpacing, kGridSpacing);
  grid_->setAlignment(Qt::AlignTop | Qt::AlignLeft);  // a small mask sits in the corner, not spread over the area
  // As tall as the grid (fitGridArea()), up to kRowsShown rows; the controls
  // follow right under it and the dock's spare height stays below them all.
  scroll_ = new QScrollArea;
  scroll_->setWidget(gridHost_);
  scroll_->setWidgetResizable(true);
  column->addWidget(scroll_);
  column->addLayout(buildTools());

  normalization_ = new QLabel;
  normalization_->setStyleSheet("color: palette(placeholder-text);");
  nearZero_ = new QLabel;
  nearZero_->setWordWrap(true);
  nearZero_->setStyleSheet("color: #e0605a;");
  normalizeOff_ = button("Normalize Off", "Divide by the divisor instead of the coefficient sum");
  connect(normalizeOff_, &QPushButton::clicked, this, [this] { edited(model_.setNormalize(Normalize::None)); });
  column->addWidget(normalization_);
  column->addWidget(nearZero_);
  column->addWidget(normalizeOff_, 0, Qt::AlignLeft);
  separability_ = new QLabel;
  separability_->setWordWrap(true);
  separability_->setStyleSheet("color: palette(placeholder-text);");
  error_ = new QLabel;
  error_->setWordWrap(true);
  error_->setStyleSheet("color: #e0605a;");
  column->addWidget(separability_);
  column->addWidget(error_);
  auto* responseTitle = new QLabel("<b>Frequency response</b>");
  response_ = new ResponseView;
  response_->setObjectName("maskResponse");
  column->addWidget(responseTitle);
  column->addWidget(response_);
  column->addStretch(1);
  setWidget(scrolledDockBody(body));
  refresh();
}

// The preset or spec field, size, divisor, bias, normalization and symmetry, each wired to the model.
QFormLayout* MaskDock::buildForm() {
  auto* form = new QFormLayout;
  // A preset or any spec the CLI takes ("gaussian:9:sigma=2", "3x3:0,-1,0,..."), applied on Enter.
  spec_ = new QComboBox;
  spec_->setEditable(true);
  spec_->setInsertPolicy(QComboBox::NoInsert);
  for (const PresetInfo& p : maskPresets()) {
    const std::string params = p.parameters;
    const QString spec = QString(p.name) + (params.rfind(":SIZE", 0) == 0 ? ":5" : "");
    spec_->addItem(spec);
    spec_->setItemData(spec_->count() - 1, p.description, Qt::ToolTipRole);
  }
  spec_->setCurrentText(paramDescription(ParamId::Mask).defaultText);
  spec_->setToolTip("A preset, or a spec as on the command line, e.g. gaussian:9:sigma=2 or 3x3:1,2,1,2,4,2,1,2,1.\n"
                    "Inline coefficients are divided by their sum (normalize auto) unless ;divisor=D or\n"
                    ";normalize=none follows.");
  form->addRow("Preset", spec_);
  auto* size = new QHBoxLayout;
  width_ = new QSpinBox;
  height_ = new QSpinBox;
  // Each side as --mask takes it; masks are odd-sized, and the row's steps of two stay odd.
  const ParamDescription& sides = paramDescription(ParamId::Mask);
  for (QSpinBox* s : {width_, height_}) {
    s->setRange(static_cast<int>(sides.minimum), static_cast<int>(sides.maximum));
    s->setSingleStep(static_cast<int>(sides.step));
    s->setKeyboardTracking(false);
  }
  size->addWidget(width_);
  size->addWidget(new QLabel("×"));
  size->addWidget(height_);
  size->addStretch();
  form->addRow("Size", size);
  divisor_ = new CellBox(1e6);
  bias_ = new CellBox(255);
  form->addRow("Divisor", divisor_);
  form->addRow("Bias", bias_);
  normalize_ = new QComboBox;
  normalize_->addItem("none: sum / divisor + bias", static_cast<int>(Normalize::None));
  normalize_->addItem("auto: by the coefficient sum", static_cast<int>(Normalize::Auto));
  form->addRow("Normalize", normalize_);
  symmetry_ = new QComboBox;
  for (Symmetry s : {Symmetry::None, Symmetry::Mirror4, Symmetry::Mirror8})
    symmetry_->addItem(toString(s), static_cast<int>(s));
  symmetry_->setToolTip("Mirror each cell edit to its 4 or 8 symmetric cells");
  form->addRow("Symmetric", symmetry_);

  // A pick from the list arrives as textActivated; Enter on typed text only as the line edit's returnPressed.
  connect(spec_, &QComboBox::textActivated, this, &MaskDock::applySpec);
  connect(spec_->lineEdit(), &QLineEdit::returnPressed, this, [this] { applySpec(spec_->currentText()); });
  connect(width_, &QSpinBox::valueChanged, this,
          [this](int w) { edited(model_.resize(clampOddSide(w), model_.mask().height)); });
  connect(height_, &QSpinBox::valueChanged, this,
          [this](int h) { edited(model_.resize(model_.mask().width, clampOddSide(h))); });
  connect(divisor_, &QDoubleSpinBox::valueChanged, this,
          [this](double d) { edited(model_.setDivisor(static_cast<float>(d))); });
  connect(bias_, &QDoubleSpinBox::valueChanged, this,
          [this](double b) { edited(model_.setBias(static_cast<float>(b))); });
  connect(normalize_, &QComboBox::currentIndexChanged, this,
          [this](int) { edited(model_.setNormalize(static_cast<Normalize>(normalize_->currentData().toInt()))); });
  connect(symmetry_, &QComboBox::currentIndexChanged, this,
          [this](int) { model_.setSymmetry(static_cast<Symmetry>(symmetry_->currentData().toInt())); });
  return form;
}

// Transpose, flip and reset, each wired to the model.
QHBoxLayout* MaskDock::buildTools() {
  auto* tools = new QHBoxLayout;
  QPushButton* transpose = button("Transpose", "Swap rows and columns");
  QPushButton* flipH = button("Flip ↔", "Mirror left to right");
  QPushButton* flipV = button("Flip ↕", "Mirror top to bottom");
  QPushButton* reset = button("Reset", "The identity of the current size");
  transpose->setObjectName("maskTranspose");
  flipH->setObjectName("maskFlipH");
  flipV->setObjectName("maskFlipV");
  reset->setObjectName("maskReset");
  for (QPushButton* b : {transpose, flipH, flipV, reset}) tools->addWidget(b);
  connect(transpose, &QPushButton::clicked, this, [this] { edited(model_.transposeMask()); });
  connect(flipH, &QPushButton::clicked, this, [this] { edited(model_.flipMaskHorizontal()); });
  connect(flipV, &QPushButton::clicked, this, [this] { edited(model_.flipMaskVertical()); });
  connect(reset, &QPushButton::clicked, this, [this] { edited(model_.resetMask()); });
  return tools;
}

void MaskDock::applySpec(const QString& spec) {
  std::string error;
  const bool changed = model_.applySpec(spec.trimmed().toStdString(), &error);
  edited(changed);
  specError_ = QString::fromStdString(error);  // after edited(), which clears it
  refresh();
}

void MaskDock::edited(bool changed) {
  if (refreshing_) return;  // a widget set by refresh() is not an edit
  specError_.clear();
  refresh();  // symmetric cells, a clamped size, a new separability line
  if (changed) emit maskEdited();
}

void MaskDock::rebuildGrid() {
  for (QDoubleSpinBox* c : cells_) delete c;
  cells_.clear();
  const Mask& m = model_.mask();
  gridWidth_ = m.width;
  gridHeight_ = m.height;
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x) {
      QDoubleSpinBox* c = new CellBox;
      c->setFixedWidth(kCellWidth);
      c->setToolTip(QString("(%1, %2)").arg(x - m.radiusX()).arg(y - m.radiusY()));
      if (x == m.radiusX() && y == m.radiusY()) {  // the centre tap, in bold: a font, not a style sheet,
        QFont bold = c->font();                       // which gives the cell the style sheet's own (taller)
        bold.setBold(true);                           // frame in Qt 6.8
        c->setFont(bold);
      }
      connect(c, &QDoubleSpinBox::valueChanged, this,
              [this, x, y](double v) { edited(model_.setCell(x, y, static_cast<float>(v))); });
      c->installEventFilter(this);
      grid_->addWidget(c, y, x);
      cells_.push_back(c);
    }
  // One height for every cell, the tallest one's, so every row is alike and
  // fitGridArea() shows whole rows whatever a style does to a single cell.
  cellHeight_ = 0;
  for (const QDoubleSpinBox* c : cells_) cellHeight_ = std::max(cellHeight_, c->sizeHint().height());
  for (QDoubleSpinBox* c : cells_) c->setFixedHeight(cellHeight_);
  fitGridArea();
}

// The grid area shows whole rows: a gap of kGridSpacing above the first and
// below the last one shown, and the next row (if any) begins exactly at the
// bottom edge, so scrolled to either end no row is cut off. The horizontal
// scroll bar, where the columns do not fit, gets room of its own.
void MaskDock::fitGridArea() {
  if (cells_.empty()) return;
  const int rows = std::min(gridHeight_, kRowsShown);
  int height = kGridSpacing + rows * (cellHeight_ + kGridSpacing) + 2 * scroll_->frameWidth();
  int viewportWidth = scroll_->width() - 2 * scroll_->frameWidth();
  if (gridHeight_ > kRowsShown) viewportWidth -= scroll_->verticalScrollBar()->sizeHint().width();
  // From the cells, not gridHost_->sizeHint(): the layout's hint lags behind a rebuild.
  const int gridWidth = gridWidth_ * kCellWidth + (gridWidth_ + 1) * kGridSpacing;
  if (gridWidth > viewportWidth) height += scroll_->horizontalScrollBar()->sizeHint().height();
  scroll_->setFixedHeight(height);
  // Wide enough for up to 7 columns (the default 7x7 without scrolling); a wider mask scrolls.
  const int shown = std::min(gridWidth_, 7);
  scroll_->setMinimumWidth(shown * kCellWidth + (shown + 1) * kGridSpacing + 2 * scroll_->frameWidth() +
                           (gridHeight_ > kRowsShown ? scroll_->verticalScrollBar()->sizeHint().width() : 0));
}

void MaskDock::resizeEvent(QResizeEvent* event) {
  QDockWidget::resizeEvent(event);
  fitGridArea();  // a narrower dock may need the horizontal scroll bar
}

void MaskDock::setRunningVariant(VariantId asked, VariantId ran) {
  if (asked == runningAsked_ && ran == runningRan_) return;
  runningAsked_ = asked;
  runningRan_ = ran;
  refresh();
}

void MaskDock::refresh() {
  refreshing_ = true;
  const Mask& m = model_.mask();
  if (m.width != gridWidth_ || m.height != gridHeight_) rebuildGrid();
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x) {
      auto* c = static_cast<CellBox*>(cells_[static_cast<size_t>(y) * m.width + x]);
      // Never the number being typed: a refresh between a key and Tab (the frame
      // side saying which variant now runs) put the old one back, and the typed one was lost.
      if (c->typedInto()) continue;
      const QSignalBlocker block(c);
      c->setValue(m.at(x, y));
    }
  {
    const QSignalBlocker a(width_), b(height_), c(divisor_), d(bias_), e(normalize_), f(symmetry_);
    width_->setValue(m.width);
    height_->setValue(m.height);
    divisor_->setValue(m.divisor);
    bias_->setValue(m.bias);
    normalize_->setCurrentIndex(normalize_->findData(static_cast<int>(m.normalize)));
    symmetry_->setCurrentIndex(symmetry_->findData(static_cast<int>(model_.symmetry())));
  }
  if (!spec_->lineEdit()->hasFocus()) {  // the field names what runs (never while being typed in)
    const std::string spec = specForMask(m, spec_->currentText().toStdString());
    const QString shown = spec.empty() ? QString("custom %1x%2").arg(m.width).arg(m.height) : QString::fromStdString(spec);
    if (spec_->currentText() != shown) spec_->setCurrentText(shown);
  }
  normalization_->setText(QString::fromStdString(normalizationText(m)));
  const QString nearZero = QString::fromStdString(nearZeroSumWarning(m));
  nearZero_->setText(nearZero);
  nearZero_->setVisible(!nearZero.isEmpty());
  normalizeOff_->setVisible(!nearZero.isEmpty());
  FrameStats running;
  running.variantAsked = runningAsked_;
  running.variantRan = runningRan_;
  separability_->setText(QString("%1; runs on variant %2")
                             .arg(model_.separable() ? "separable (rank 1)" : "not separable (rank > 1)")
                             .arg(QString::fromStdString(running.runsOnText(model_.variant()))));
  error_->setText(specError_.isEmpty() ? QString::fromStdString(model_.maskError()) : specError_);
  error_->setVisible(!error_->text().isEmpty());
  response_->setFigure(model_.responseFigure());
  refreshing_ = false;
}

// Typing into the grid as in a matrix dialog: Tab and Shift+Tab go along the
// rows (the grid's tab order), Up and Down to the cell above or below, with
// its text selected to be typed over; Left and Right stay in the text; Esc
// puts the cell's number back.
bool MaskDock::eventFilter(QObject* watched, QEvent* event) {
  const bool override = event->type() == QEvent::ShortcutOverride;
  if (event->type() != QEvent::KeyPress && !override) return QDockWidget::eventFilter(watched, event);
  const int key = static_cast<QKeyEvent*>(event)->key();
  const auto it = std::find(cells_.begin(), cells_.end(), watched);
  if (it == cells_.end()) return QDockWidget::eventFilter(watched, event);
  const int index = static_cast<int>(it - cells_.begin());
  if (key == Qt::Key_Escape) {  // the number typed goes, the cell's own comes back, selected to type over
    auto* c = static_cast<CellBox*>(*it);
    if (!c->typedInto()) return QDockWidget::eventFilter(watched, event);
    if (override) {  // the cell takes this Esc, not the window's shortcut (which cancels or quits)
      event->accept();
      return true;
    }
    const QSignalBlocker block(c);
    c->setValue(model_.mask().at(index % gridWidth_, index / gridWidth_));
    c->selectAll();
    return true;
  }
  if (override || (key != Qt::Key_Up && key != Qt::Key_Down)) return QDockWidget::eventFilter(watched, event);
  QDoubleSpinBox* next = cell(index % gridWidth_, index / gridWidth_ + (key == Qt::Key_Up ? -1 : 1));
  if (next) {
    next->setFocus(Qt::TabFocusReason);
    next->selectAll();
    scroll_->ensureWidgetVisible(next);
  }
  return true;  // at the top or bottom row: nothing, rather than a stepped value
}

QDoubleSpinBox* MaskDock::cell(int x, int y) const {
  if (x < 0 || y < 0 || x >= gridWidth_ || y >= gridHeight_) return nullptr;
  return cells_[static_cast<size_t>(y) * gridWidth_ + x];
}

}  // namespace liveconv::ui
