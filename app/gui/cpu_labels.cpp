#include "cpu_labels.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <algorithm>
#include <map>
#include <utility>

#include "topology_layout.h"

namespace schedscope::gui {
namespace {

// True when no two of `rects` overlap: a sweep from left to right keeps the rectangles the
// sweep line crosses, about one per row of boxes, so 4096 labels cost a few thousand checks.
bool disjoint(std::vector<QRectF> rects) {
    std::sort(rects.begin(), rects.end(), [](const QRectF& a, const QRectF& b) { return a.left() < b.left(); });
    std::vector<QRectF> open;
    for (const QRectF& r : rects) {
        std::erase_if(open, [&](const QRectF& o) { return o.right() <= r.left(); });
        for (const QRectF& o : open)
            if (o.top() < r.bottom() && r.top() < o.bottom()) return false;
        open.push_back(r);
    }
    return true;
}

// The font of a CPU's number in a box `height` pixels tall: the view's, smaller in a small box
// (0: too small for text).
int numberPixels(qreal viewHeight, qreal height) {
    const qreal px = std::min(viewHeight, height * 0.7);
    return px < 6 ? 0 : std::max(6, int(px * 0.8));
}

struct CpuBox {
    int cpu;
    QRectF rect;
    int px;
};

}  // namespace

QString CpuLabels::note() const {
    if (step == 1 || cpus == 0) return {};
    // the numbers themselves: "every 8th" leaves the reader to work out which
    const char* context = "CpuLabels";
    switch (labels.size()) {
    case 0: return QCoreApplication::translate(context, "CPUs too small to number: hover a CPU for its number");
    case 1:
        return QCoreApplication::translate(context, "Only CPU %1 numbered: no room for each number; hover a CPU for its own")
            .arg(labels[0].cpu);
    case 2:
        return QCoreApplication::translate(context,
                                           "Only CPUs %1 and %2 numbered: no room for each number; hover a CPU for its own")
            .arg(labels[0].cpu)
            .arg(labels[1].cpu);
    default:
        return QCoreApplication::translate(context,
                                           "CPUs numbered %1, %2, %3\u2026: no room for each number; hover a CPU for its own")
            .arg(labels[0].cpu)
            .arg(labels[1].cpu)
            .arg(labels[2].cpu);
    }
}

CpuLabels fitCpuLabels(const TopologyLayout& layout, const QFont& font) {
    CpuLabels out;
    const qreal viewHeight = QFontMetricsF(font).height();
    std::vector<CpuBox> boxes;
    int last = 0;
    for (const TopoBox& b : layout.boxes()) {
        if (b.kind != TopoBox::Cpu) continue;
        // a box under a pixel is a CPU too: one the picture leaves unnumbered
        boxes.push_back({b.cpu, b.rect, b.rect.width() < 1 ? 0 : numberPixels(viewHeight, b.rect.height())});
        last = std::max(last, b.cpu);
    }
    out.cpus = int(boxes.size());
    if (boxes.empty()) return out;
    std::sort(boxes.begin(), boxes.end(), [](const CpuBox& a, const CpuBox& b) { return a.cpu < b.cpu; });
    const QRectF picture = layout.root().rect;

    // The numbers of every step-th CPU, or none when one of them has no room (step 1: each in
    // its own box; larger steps: past its box, over the unnumbered ones, never past the picture).
    // the fonts by pixel size: boxes of one size (most of them) measure with one QFontMetricsF
    std::map<int, std::pair<QFont, QFontMetricsF>> fonts;
    auto fontOf = [&](int px) -> const std::pair<QFont, QFontMetricsF>& {
        auto it = fonts.find(px);
        if (it == fonts.end()) {
            QFont f = font;
            f.setPixelSize(px);
            it = fonts.emplace(px, std::pair<QFont, QFontMetricsF>(f, QFontMetricsF(f))).first;
        }
        return it->second;
    };
    auto place = [&](int step, bool longForm) {
        std::vector<CpuLabel> labels;
        for (const CpuBox& b : boxes) {
            if (b.px == 0 && step == 1) return std::vector<CpuLabel>{};  // a box with no room for text
            if (b.cpu % step != 0 || b.px == 0) continue;
            const auto& [f, fm] = fontOf(b.px);
            const QString text = longForm ? QCoreApplication::translate("CpuLabels", "CPU %1").arg(b.cpu) : QString::number(b.cpu);
            const QSizeF size(fm.horizontalAdvance(text), fm.height());
            const bool inBox = size.width() + 2 <= b.rect.width();
            if (!inBox && step == 1) return std::vector<CpuLabel>{};
            QRectF r(QPointF(0, 0), size);
            r.moveCenter(b.rect.center());
            if (!inBox) {
                r.moveLeft(b.rect.left() + 1);
                if (r.right() > picture.right()) r.moveRight(b.rect.right() - 1);  // the last column's
                if (r.left() < picture.left()) return std::vector<CpuLabel>{};
            }
            labels.push_back({b.cpu, text, r, f, inBox});
        }
        // half a character apart at least, or two numbers read as one
        const qreal gap = QFontMetricsF(font).averageCharWidth() / 2;
        std::vector<QRectF> spaced;
        spaced.reserve(labels.size());
        for (const CpuLabel& l : labels) spaced.push_back(l.rect.adjusted(-gap / 2, 0, gap / 2, 0));
        if (!disjoint(std::move(spaced))) return std::vector<CpuLabel>{};
        return labels;
    };
    for (const bool longForm : {true, false}) {
        out.labels = place(1, longForm);
        if (!out.labels.empty()) {
            out.step = 1;
            return out;
        }
    }
    for (int step = 2; step <= last; step *= 2) {
        out.labels = place(step, false);
        if (!out.labels.empty()) {
            out.step = step;
            return out;
        }
    }
    out.step = 0;
    return out;
}

}  // namespace schedscope::gui
