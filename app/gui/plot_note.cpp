#include "plot_note.h"

#include <qcustomplot.h>

namespace schedscope::gui {
namespace {
constexpr int kPadX = 8, kPadY = 6;

// Greedy word wrap of each of `text`'s lines to `width` pixels; a word wider than that stays
// whole on a line of its own.
QString wrapped(const QString& text, const QFontMetricsF& fm, double width) {
    QStringList out;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
                out << line;
                line = word;
            } else {
                line = longer;
            }
        }
        out << line;
    }
    return out.join(QLatin1Char('\n'));
}
}  // namespace

PlotNote::PlotNote(QCustomPlot* plot) : plot_(plot), item_(new QCPItemText(plot)) {
    item_->position->setType(QCPItemPosition::ptAxisRectRatio);
    item_->position->setCoords(0.5, 0.5);
    item_->setPositionAlignment(Qt::AlignCenter);
    item_->setTextAlignment(Qt::AlignCenter);
    item_->setPadding(QMargins(kPadX, kPadY, kPadX, kPadY));
    item_->setBrush(QColor(0xff, 0xff, 0xff, 0xe0));
    item_->setPen(QPen(QColor(0xa0, 0xa0, 0xa0)));
    item_->setColor(QColor(0x30, 0x30, 0x30));
    item_->setClipToAxisRect(false);  // a word wider than the axes overhangs rather than vanish
    item_->setVisible(false);
    item_->setLayer(QStringLiteral("legend"));  // over the plottables: a colour map's white cells hid it
    refit_ = QObject::connect(plot, &QCustomPlot::afterLayout, item_, [this] { fit(); });
}

PlotNote::~PlotNote() { QObject::disconnect(refit_); }

void PlotNote::setText(const QString& text) {
    text_ = text;
    item_->setVisible(!text.isEmpty());
    fit();
}

void PlotNote::fit() {
    if (text_.isEmpty()) return;
    const double width = plot_->axisRect()->width() - 2 * kPadX - 8;
    item_->setText(width > 0 ? wrapped(text_, QFontMetricsF(item_->font()), width) : text_);
}

}  // namespace schedscope::gui
