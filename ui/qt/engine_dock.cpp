#include "qt/engine_dock.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "liveconv/variants.hpp"
#include "qt/variant_delegate.hpp"

namespace liveconv::ui {

EngineDock::EngineDock(ViewerModel& model, QWidget* parent) : QDockWidget("Engine", parent), model_(model) {
  setObjectName("engineDock");
  auto* body = new QWidget;
  auto* column = new QVBoxLayout(body);

  variants_ = new QListWidget;
  variants_->setWordWrap(true);
  variants_->setAlternatingRowColors(true);
  variants_->setSpacing(1);
  variants_->setItemDelegate(new VariantDelegate(variants_));
  variants_->setResizeMode(QListView::Adjust);  // re-measure the wrapped descriptions when the dock is resized
  variants_->setUniformItemSizes(false);
  for (const VariantInfo& v : variantRegistry()) {
    auto* item = new QListWidgetItem(QString("%1\n%2").arg(v.name, v.description));
    item->setData(Qt::UserRole, static_cast<int>(v.id));
    variants_->addItem(item);
  }
  column->addWidget(variants_, 1);

  auto* form = new QFormLayout;
  border_ = new QComboBox;
  for (BorderMode b : allBorderModes()) border_->addItem(toString(b), static_cast<int>(b));
  form->addRow("Border", border_);
  format_ = new QComboBox;
  format_->addItem("RGBA (4 × 8 bit)", static_cast<int>(PixelFormat::RGBA8));
  format_->addItem("Gray (8 bit)", static_cast<int>(PixelFormat::GRAY8));
  form->addRow("Pixels", format_);
  alpha_ = new QComboBox;
  alpha_->addItem("pass through", static_cast<int>(AlphaMode::PassThrough));
  alpha_->addItem("filtered", static_cast<int>(AlphaMode::Filter));
  form->addRow("Alpha", alpha_);
  auto* wg = new QHBoxLayout;
  workgroupDefault_ = new QCheckBox("variant default");
  workgroupX_ = new QSpinBox;
  workgroupY_ = new QSpinBox;
  for (QSpinBox* s : {workgroupX_, workgroupY_}) {
    s->setRange(1, 1024);
    s->setKeyboardTracking(false);
  }
  wg->addWidget(workgroupDefault_);
  wg->addWidget(workgroupX_);
  wg->addWidget(workgroupY_);
  form->addRow("Workgroup", wg);
  column->addLayout(form);
  setWidget(body);

  connect(variants_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (item) edited(model_.setVariant(static_cast<VariantId>(item->data(Qt::UserRole).toInt())));
  });
  connect(border_, &QComboBox::currentIndexChanged, this,
          [this](int) { edited(model_.setBorder(static_cast<BorderMode>(border_->currentData().toInt()))); });
  connect(format_, &QComboBox::currentIndexChanged, this,
          [this](int) { edited(model_.setFormat(static_cast<PixelFormat>(format_->currentData().toInt()))); });
  connect(alpha_, &QComboBox::currentIndexChanged, this,
          [this](int) { edited(model_.setAlpha(static_cast<AlphaMode>(alpha_->currentData().toInt()))); });
  auto setShape = [this] {
    edited(model_.setWorkgroup(workgroupDefault_->isChecked()
                                   ? WorkgroupShape{0, 0}
                                   : WorkgroupShape{workgroupX_->value(), workgroupY_->value()}));
  };
  connect(workgroupDefault_, &QCheckBox::toggled, this, setShape);
  connect(workgroupX_, &QSpinBox::valueChanged, this, setShape);
  connect(workgroupY_, &QSpinBox::valueChanged, this, setShape);
  refresh();
}

void EngineDock::edited(bool changed) {
  if (refreshing_) return;
  refresh();
  if (changed) emit engineEdited();
}

void EngineDock::refresh() {
  refreshing_ = true;
  const QSignalBlocker a(variants_), b(border_), c(format_), d(alpha_), e(workgroupDefault_), f(workgroupX_),
      g(workgroupY_);
  for (int i = 0; i < variants_->count(); ++i) {
    QListWidgetItem* item = variants_->item(i);
    const auto id = static_cast<VariantId>(item->data(Qt::UserRole).toInt());
    const std::string reason = model_.variantUnusableReason(id);
    // Greyed but still selectable would invite a click that does nothing; disabled says "not now".
    item->setFlags(reason.empty() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags);
    item->setToolTip(reason.empty() ? QString(variantInfo(id).description) : QString::fromStdString(reason));
    if (id == model_.variant()) variants_->setCurrentItem(item);
  }
  border_->setCurrentIndex(border_->findData(static_cast<int>(model_.border())));
  format_->setCurrentIndex(format_->findData(static_cast<int>(model_.format())));
  alpha_->setCurrentIndex(alpha_->findData(static_cast<int>(model_.alpha())));
  const WorkgroupShape wg = model_.workgroup();
  const bool isDefault = wg.x == 0 && wg.y == 0;
  workgroupDefault_->setChecked(isDefault);
  workgroupX_->setEnabled(!isDefault);
  workgroupY_->setEnabled(!isDefault);
  if (!isDefault) {
    workgroupX_->setValue(wg.x);
    workgroupY_->setValue(wg.y);
  } else if (workgroupX_->value() <= 1) {
    workgroupX_->setValue(16);  // where a user starts from when unticking the default
    workgroupY_->setValue(16);
  }
  refreshing_ = false;
}

}  // namespace liveconv::ui
