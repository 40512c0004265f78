#include "qt/camera_dialog.hpp"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace liveconv::ui {

namespace {
constexpr int kSpecRole = Qt::UserRole;
}

// LIVECONV_WITH_MEDIA: the shell links the media library (ui/qt/CMakeLists.txt).
media::CameraList enumerateCameras() {
#if LIVECONV_WITH_MEDIA
  return media::listCameras();
#else
  return {{}, "This build has no FFmpeg, so it opens no camera."};
#endif
}

CameraDialog::CameraDialog(const media::CameraList& cameras, QWidget* parent) : QDialog(parent) {
  setWindowTitle("Open camera");
  auto* layout = new QVBoxLayout(this);
  message_ = new QLabel;
  message_->setWordWrap(true);
  message_->setTextFormat(Qt::RichText);
  layout->addWidget(message_);
  tree_ = new QTreeWidget;
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({"Camera, format or size", "Opens as"});
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  layout->addWidget(tree_, 1);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

  if (cameras.cameras.empty()) {
    message_->setText(QString::fromStdString(cameras.message).toHtmlEscaped() +
                      "<br><br>A device or stream can still be opened by name with File › Open Stream or Device…");
    tree_->hide();
    buttons_->button(QDialogButtonBox::Open)->setEnabled(false);
    resize(460, 120);
    return;
  }
  message_->setText("Video capture devices, as <tt>liveconv cameras</tt> lists them:");
  QTreeWidgetItem* first = nullptr;
  for (const media::Camera& cam : cameras.cameras) {
    const QString device = QString::fromStdString(cam.device);
    auto* top = new QTreeWidgetItem(tree_);
    if (!cam.usable()) {
      top->setText(0, device + " — " + QString::fromStdString(cam.problem));
      top->setFlags(Qt::NoItemFlags);  // greyed: listed so the user sees why it is not offered
      top->setFirstColumnSpanned(true);
      continue;
    }
    const QString spec = QString::fromStdString(cam.sourceSpec());
    top->setText(0, QString::fromStdString(cam.name) + "  (" + device + ")");
    top->setText(1, spec);
    top->setData(0, kSpecRole, spec);
    if (!first) first = top;
    for (const media::CameraFormat& f : cam.formats) {
      auto* format = new QTreeWidgetItem(top);
      format->setText(0, QString::fromStdString(f.fourcc + "  " + f.description));
      format->setText(1, spec);
      format->setData(0, kSpecRole, spec);
      for (const std::string& size : f.sizes) {
        auto* s = new QTreeWidgetItem(format);
        const QString sizeSpec = QString::fromStdString(cam.sourceSpec(size));
        s->setText(0, QString::fromStdString(size));
        s->setText(1, sizeSpec);
        s->setData(0, kSpecRole, sizeSpec);
      }
    }
    top->setExpanded(true);
  }
  connect(tree_, &QTreeWidget::itemSelectionChanged, this, &CameraDialog::selectionChanged);
  connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this] {
    if (canOpen()) accept();
  });
  if (first) tree_->setCurrentItem(first);
  selectionChanged();
  resize(620, 380);
}

QString CameraDialog::selectedSpec() const {
  const QTreeWidgetItem* item = tree_->currentItem();
  return item && item->isSelected() ? item->data(0, kSpecRole).toString() : QString();
}

bool CameraDialog::canOpen() const {
  return !selectedSpec().isEmpty();
}

void CameraDialog::selectionChanged() {
  buttons_->button(QDialogButtonBox::Open)->setEnabled(canOpen());
}

}  // namespace liveconv::ui
