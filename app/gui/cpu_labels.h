#pragma once
// CpuLabels: which CPUs of a laid-out topology picture show their number, and where. Every CPU
// when each box holds its number ("CPU 7" when each holds that); else every 2nd, 4th, 8th...
// CPU: the least step whose numbers, each drawn from its box's left edge over the unnumbered
// boxes after it, overlap no other number. What fits is decided by pixels, as the migration
// matrix picks its tick step; box by box, a 4096-CPU machine had only CPUs 0-99 numbered (the
// only numbers short enough for their boxes) and the rest blank, with nothing saying why.
#include <QFont>
#include <QRectF>
#include <QString>
#include <vector>

namespace schedscope::gui {

class TopologyLayout;

struct CpuLabel {
    int cpu = -1;
    QString text;  // "CPU 7" or "7"
    QRectF rect;   // the text's own rectangle: centred in its box, or from its box's left edge
    QFont font;    // the view's font, smaller in a small box
    bool inBox = true;  // the text lies inside its box (there is room beside it for more)
};

struct CpuLabels {
    std::vector<CpuLabel> labels;
    int step = 1;  // every step-th CPU (by number) has its number; 0: no box has room for text
    int cpus = 0;  // CPU boxes in the picture
    // What the picture leaves unnumbered, a line for the view to show ("" when nothing is):
    // the first numbers shown ("CPUs numbered 0, 8, 16..."), or that none could be.
    QString note() const;
};

// The labels of `layout`'s CPU boxes as placed, with `font` the view's font.
CpuLabels fitCpuLabels(const TopologyLayout& layout, const QFont& font);

}  // namespace schedscope::gui
