// What the timeline shows under the cursor, as its tooltip: the migration arrow (task, CPUs,
// level, cause) or the run slice (task, CPU, start and length), or in the gutter a lane
// group's whole name.
#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "qt_convert.h"
#include "switch_migrations.h"
#include "timeline_view.h"

namespace schedscope::gui {

bool TimelineView::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = hoverText(help->pos());
    if (text.isEmpty()) return QWidget::event(e);  // the view's own help (toolTip())
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

QString TimelineView::hoverText(const QPointF& pos) const {
    if (!trace_ || !trace_->data) return {};
    const TraceAnalysis& d = *trace_->data;
    const Frame f = frameFor(QRectF(rect()));
    if (f.gutter.contains(pos)) {  // a group's whole name: its label may be cut to the gutter
        for (const Row& r : rowsFor(f.lanes))
            if (r.group >= 0 && pos.y() >= r.y && pos.y() < r.y + r.h) return groups_[size_t(r.group)].name;
        return {};
    }
    if (!f.lanes.contains(pos)) return {};
    const TimeAxis ax = axisFor(f.lanes);
    const auto rows = rowsFor(f.lanes);
    const int64_t t = ax.toTime(pos.x() - f.lanes.left());
    auto when = [&](uint64_t ts) { return timeText(double(ts - std::min(ts, d.firstTs))); };
    auto comm = [&](int32_t pid, uint64_t ts) { return d.store ? qs(std::string(d.store->commAt(pid, ts))) : QString(); };

    // An arrow within 3 pixels whose vertical extent holds the cursor: the nearest one.
    const std::vector<double> centre = laneCenters(rows);
    auto centreOf = [&](int cpu) { return cpu >= 0 && size_t(cpu) < centre.size() ? centre[size_t(cpu)] : -1.0; };
    const double slop = 3 * ax.nsPerPixel();
    auto first = std::lower_bound(d.migrations.begin(), d.migrations.end(), double(t) - slop,
                                  [](const tracing::Migration& m, double ts) { return double(m.ts) < ts; });
    const tracing::Migration* best = nullptr;
    double bestDx = 0;
    for (auto it = first; it != d.migrations.end() && double(it->ts) <= double(t) + slop; ++it) {
        const double ys = centreOf(it->src), yd = centreOf(it->dst);
        if (ys < 0 || yd < 0 || pos.y() < std::min(ys, yd) - 3 || pos.y() > std::max(ys, yd) + 3) continue;
        const double dx = std::abs(double(it->ts) - double(t));
        if (!best || dx < bestDx) best = &*it, bestDx = dx;
    }
    if (best) {
        QString text = tr("%1 (%2): CPU %3 \u2192 CPU %4, %5, %6, at %7")
                           .arg(comm(best->pid, best->ts))
                           .arg(best->pid)
                           .arg(best->src)
                           .arg(best->dst)
                           .arg(qs(d.levels[d.levelIndex(best->level)]),
                                qs(std::string(tracing::migrationCauseName(best->cause))), when(best->ts));
        if (best->seenInSwitches)
            text += d.store && tracing::migrationSource(*d.store).starts_with("sched_switch")
                        ? tr(" (seen in the switches: the trace has no sched_migrate_task)")
                        : tr(" (seen in the switches: its sched_migrate_task was lost with other events)");
        return text;
    }

    // The run slice under the cursor.
    const Row* r = rowAt(pos);
    if (!r || r->cpu < 0 || size_t(r->cpu) >= d.lanes.size() || t < 0) return {};
    const LaneSlices& lane = d.lanes[size_t(r->cpu)];
    const ptrdiff_t i = lane.sliceAt(uint64_t(t));
    if (i < 0) return {};
    const size_t s = size_t(i);
    return tr("%1 (%2) on CPU %3: runs %4 from %5")
        .arg(comm(lane.pid(s), lane.start(s)))
        .arg(lane.pid(s))
        .arg(r->cpu)
        .arg(timeText(double(lane.end(s) - lane.start(s))), when(lane.start(s)));
}

}  // namespace schedscope::gui
