#include "qt/engine_dock.hpp"
#include "qt/dock_body.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "liveconv/parameters.hpp"
#include "liveconv/variants.hpp"
#include "model/start_params.hpp"
#include "qt/variant_delegate.hpp"

namespace liveconv::ui {
namespace {

// A parameter's choices in the table's words, its help as the tooltip.
QComboBox* paramBox(ParamId id) {
  const ParamDescription& d = paramDescription(id);
  auto* box = new QComboBox;
  for (const std::string& word : d.choices) box->addItem(QString::fromStdString(word), QString::fromStdString(word));
  box->setToolTip(d.help);
  return box;
}

}  // namespace

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
  // The choices, their words and their help are the parameter table's (as --border, --format, --alpha take them).
  border_ = paramBox(ParamId::Border);
  form->addRow("Border", border_);
  format_ = paramBox(ParamId::Format);
  form->addRow("Pixels", format_);
  alpha_ = paramBox(ParamId::Alpha);
  form->addRow("Alpha", alpha_);
  auto* wg = new QHBoxLayout;
  workgroupDefault_ = new QCheckBox("variant default");
  workgroupX_ = new QSpinBox;
  workgroupY_ = new QSpinBox;
  const ParamDescription& shape = paramDescription(ParamId::Workgroup);  // each side as --workgroup takes it
  for (QSpinBox* s : {workgroupX_, workgroupY_}) {
    s->setRange(static_cast<int>(shape.minimum), static_cast<int>(shape.maximum));
    s->setSingleStep(static_cast<int>(shape.step));
    s->setKeyboardTracking(false);
  }
  wg->addWidget(workgroupDefault_);
  wg->addWidget(workgroupX_);
  wg->addWidget(workgroupY_);
  form->addRow("Workgroup", wg);
  column->addLayout(form);
  setWidget(scrolledDockBody(body));

  connect(variants_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (item) edited(model_.setVariant(static_cast<VariantId>(item->data(Qt::UserRole).toInt())));
  });
  for (auto [box, id] : {std::pair{border_, ParamId::Border}, {format_, ParamId::Format}, {alpha_, ParamId::Alpha}})
    connect(box, &QComboBox::currentIndexChanged, this, [this, box = box, id = id](int) {
      edited(setModelParam(model_, id, box->currentData().toString().toStdString()));
    });
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
  for (auto [box, id] : {std::pair{border_, ParamId::Border}, {format_, ParamId::Format}, {alpha_, ParamId::Alpha}})
    box->setCurrentIndex(box->findData(QString::fromStdString(modelParamText(model_, id))));
  // Gray frames have no alpha: the choice waits, disabled, as the viewer's checkbox does.
  alpha_->setEnabled(model_.format() != PixelFormat::GRAY8);
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
