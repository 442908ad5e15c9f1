#include "value_ticks.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace schedscope::gui {
namespace {
constexpr int kUsualTicks = 5;  // QCPAxisTicker's own default
}

int ticksThatFit(double pixels, double labelPixels) {
    if (labelPixels <= 0) return kUsualTicks;
    // n ticks take n labels and n - 1 gaps of half a label each: (3n - 1) / 2 labels
    const int n = static_cast<int>(std::floor((2 * pixels / labelPixels + 1) / 3));
    return std::clamp(n, 1, kUsualTicks);
}

void keepValueTicksApart(QCustomPlot* plot, QCPAxis* axis) {
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot, axis] {
        const bool vertical = axis->orientation() == Qt::Vertical;
        const QFontMetricsF fm(axis->tickLabelFont());
        // a vertical axis's labels stand one above another; a horizontal one's side by side,
        // as wide as its widest label ("1000" for a count axis)
        const double label = vertical ? fm.height() : fm.horizontalAdvance(QStringLiteral("00000"));
        const double length = vertical ? axis->axisRect()->height() : axis->axisRect()->width();
        const int ticks = ticksThatFit(length, label);
        if (axis->ticker()->tickCount() == ticks) return;
        axis->ticker()->setTickCount(ticks);
        // lay out again with the new ticks: this layout's labels (and margins) were the old count's
        for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            plot->plotLayout()->update(phase);
    });
}

}  // namespace schedscope::gui
