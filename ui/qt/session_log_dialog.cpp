#include "qt/session_log_dialog.hpp"

#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include "feed/session_log.hpp"

namespace liveconv::ui {

SessionLogDialog::SessionLogDialog(const SessionLog& log, QWidget* parent) : QDialog(parent) {
  QString text;
  const auto& messages = log.messages();
  for (auto it = messages.rbegin(); it != messages.rend(); ++it)
    text += QString("%1 s  %2\n%3\n\n")
                .arg(it->ms / 1000, 6, 'f', 1)
                .arg(QString::fromStdString(it->kind), QString::fromStdString(it->text));
  setAttribute(Qt::WA_DeleteOnClose);
  setWindowTitle("Messages");
  auto* view = new QPlainTextEdit(text.isEmpty() ? QString("No messages.") : text);
  view->setReadOnly(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
  layout->addWidget(buttons);
  resize(640, 420);
}

}  // namespace liveconv::ui
