#include "qt/variant_delegate.hpp"

#include <QAbstractItemView>
#include <QApplication>
#include <QPainter>
#include <algorithm>

namespace liveconv::ui {

namespace {
constexpr int kPad = 4;

QFont withWeight(QFont font, bool bold) {
  font.setBold(bold);
  return font;
}

// The width rows wrap to: the list's viewport, which excludes the frame and a scroll bar.
int rowWidth(const QWidget* widget) {
  const auto* view = qobject_cast<const QAbstractItemView*>(widget);
  return view ? view->viewport()->width() : 300;
}
}  // namespace

void VariantDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QString text = index.data(Qt::DisplayRole).toString();  // opt.text has the newline turned into U+2028
  opt.text.clear();  // the style draws the background and selection; the text is ours
  const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

  const QString name = text.section('\n', 0, 0), description = text.section('\n', 1);
  const bool enabled = opt.state & QStyle::State_Enabled;
  const bool selected = opt.state & QStyle::State_Selected;
  const QPalette::ColorGroup group = enabled ? QPalette::Normal : QPalette::Disabled;
  QColor main = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
  QColor muted = selected ? main : opt.palette.color(group, QPalette::PlaceholderText);
  QRect r = opt.rect.adjusted(kPad + 2, kPad, -kPad, -kPad);
  r.setWidth(std::min(r.width(), rowWidth(opt.widget) - 2 * kPad - 2));
  painter->save();
  painter->setFont(withWeight(opt.font, true));
  painter->setPen(main);
  const QRect nameRect = painter->fontMetrics().boundingRect(r, Qt::AlignLeft | Qt::AlignTop, name);
  painter->drawText(r, Qt::AlignLeft | Qt::AlignTop, name);
  painter->setFont(withWeight(opt.font, false));
  painter->setPen(muted);
  painter->drawText(r.adjusted(0, nameRect.height() + 1, 0, 0), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                    description);
  painter->restore();
}

QSize VariantDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  const QString text = index.data(Qt::DisplayRole).toString();
  const int width = rowWidth(option.widget) - 2 * kPad - 2;
  const QFontMetrics bold(withWeight(option.font, true)), plain(withWeight(option.font, false));
  const int descriptionHeight =
      plain.boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, text.section('\n', 1)).height();
  return {rowWidth(option.widget) - 2, bold.height() + 1 + descriptionHeight + 2 * kPad};
}

}  // namespace liveconv::ui
