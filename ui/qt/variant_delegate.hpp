// Draws a variant row as its name in bold over its one-line description in
// the muted text colour, so the list reads like a table of choices rather than
// a wall of text. Disabled (unusable) rows come out greyed by the style.
#pragma once

#include <QStyledItemDelegate>

namespace liveconv::ui {

class VariantDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  // Item text is "name\ndescription".
  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace liveconv::ui
