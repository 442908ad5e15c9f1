#include "plot_title.h"

#include <qcustomplot.h>

#include <algorithm>

namespace schedscope::gui {
namespace {
constexpr int kSmallestPoints = 8;  // two points under the usual 10: still a title, not a caption
}

PlotTitle::PlotTitle(QCustomPlot* plot, int pointSize) : plot_(plot), pointSize_(pointSize) {
    plot->plotLayout()->insertRow(0);
    element_ = new QCPTextElement(plot, QString(), QFont(plot->font().family(), pointSize, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, element_);
    refit_ = QObject::connect(plot, &QCustomPlot::afterLayout, element_, [this] { fit(); });
}

PlotTitle::~PlotTitle() { QObject::disconnect(refit_); }

void PlotTitle::setText(const QString& text) {
    text_ = text;
    element_->setText(text);
    fit();
}

QString PlotTitle::shown() const { return element_->text(); }

void PlotTitle::fit() {
    QCPLayoutGrid* grid = plot_->plotLayout();
    // the width the title's column can have: the plot's, less the other columns (the matrix's
    // colour scale); the title's own text must not set it, or it never shrinks
    double others = 0;
    for (int c = 1; c < grid->columnCount(); ++c) {
        double w = 0;
        for (int r = 0; r < grid->rowCount(); ++r)
            if (grid->hasElement(r, c)) w = std::max<double>(w, grid->element(r, c)->outerRect().width());
        others += w + grid->columnSpacing();
    }
    const double room = plot_->viewport().width() - others - 8;
    // a point or two smaller first, then an ellipsis
    const QString family = element_->font().family();
    int size = pointSize_;
    while (size > std::min(kSmallestPoints, pointSize_) &&
           QFontMetricsF(QFont(family, size, QFont::Bold)).horizontalAdvance(text_) > room)
        --size;
    const QFont font(family, size, QFont::Bold);
    const QString shown = QFontMetricsF(font).elidedText(text_, Qt::ElideRight, std::max(room, 0.0));
    if (shown == element_->text() && font == element_->font()) return;
    element_->setFont(font);
    element_->setText(shown);
    // lay out again with the new title: this layout's sizes were the old one's
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        grid->update(phase);
}

}  // namespace schedscope::gui
