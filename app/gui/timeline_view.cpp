#include "timeline_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QPainter>
#include <QPaintEngine>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>

#include "lost_events.h"
#include "qt_convert.h"
#include "ruler_ticks.h"
#include "switch_migrations.h"
#include "trace_time_units.h"

namespace schedscope::gui {
namespace {

constexpr double kGutter = 118;
constexpr double kTitleH = 22;
constexpr double kRulerH = 20;
constexpr double kLegendH = 36;
constexpr double kHeaderH = 15;

// A tick step of 1, 2 or 5 times a power of ten, about `targetNs` long.
double niceStep(double targetNs) {
    const double p = std::pow(10.0, std::floor(std::log10(std::max(targetNs, 1.0))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= targetNs) return m * p;
    return 10 * p;
}

// One scanline of a lane's bars: line[x] = colour[x] where the bar of column x reaches row y
// (y >= top[x]), else bg. Branch-free over fixed-length chunks so that the compiler
// vectorises it at -O2: a frame writes every lane pixel through here.
void writeBarRow(QRgb* __restrict line, const int* __restrict top, const QRgb* __restrict colour, int w, int y, QRgb bg) {
    constexpr int kChunk = 16;
    const int whole = w - w % kChunk;
    auto one = [&](int x) {
        const auto above = static_cast<uint32_t>((y - top[x]) >> 31);  // all ones above the bar
        line[x] = colour[x] ^ ((colour[x] ^ bg) & above);
    };
    for (int x = 0; x < whole; x += kChunk)
        for (int k = 0; k < kChunk; ++k) one(x + k);
    for (int x = whole; x < w; ++x) one(x);
}

// c over px with alpha 0..255 (both opaque), rounded; two channels per multiply.
inline QRgb blendRgb(QRgb px, QRgb c, uint32_t alpha) {
    const uint32_t na = 255 - alpha;
    uint32_t rb = (c & 0xff00ffu) * alpha + (px & 0xff00ffu) * na + 0x800080u;
    rb = ((rb + ((rb >> 8) & 0xff00ffu)) >> 8) & 0xff00ffu;
    uint32_t g = ((c >> 8) & 0xffu) * alpha + ((px >> 8) & 0xffu) * na + 0x80u;
    g = (g + (g >> 8)) >> 8;
    return 0xff000000u | rb | (g << 8);
}

// After the migration count: all of them inferred from the switches, or how many were (the
// moves whose sched_migrate_task a lossy recording lost with other events).
QString seenInSwitchesNote(const TraceAnalysis& d) {
    if (d.store && tracing::migrationSource(*d.store).starts_with("sched_switch")) return TimelineView::tr(" (seen in the switches)");
    const size_t seen = d.migrationsSeenInSwitches;
    return seen ? TimelineView::tr(" (%1 seen in the switches: their events were lost)").arg(seen) : QString();
}
}  // namespace

QColor taskColor(int32_t pid) {
    if (pid <= 0) return QColor(0xd8, 0xd8, 0xd8);
    uint32_t h = static_cast<uint32_t>(pid) * 2654435761u;
    h ^= h >> 15;
    const int hue = static_cast<int>(h % 360);
    const int sat = 140 + static_cast<int>((h >> 9) % 90);
    const int val = 170 + static_cast<int>((h >> 17) % 70);
    return QColor::fromHsv(hue, sat, val);
}

QColor levelColor(const QString& level) {
    static const std::map<QString, QColor> colours = {
        {QStringLiteral("SMT"), QColor(0x2c, 0xa0, 0x2c)},  {QStringLiteral("CLS"), QColor(0x17, 0xbe, 0xcf)},
        {QStringLiteral("MC"), QColor(0x1f, 0x77, 0xb4)},   {QStringLiteral("PKG"), QColor(0x94, 0x67, 0xbd)},
        {QStringLiteral("DIE"), QColor(0x94, 0x67, 0xbd)},  {QStringLiteral("NODE"), QColor(0xff, 0x7f, 0x0e)},
        {QStringLiteral("NUMA"), QColor(0xd6, 0x27, 0x28)},
        // powerpc's L2 level between SMT and PKG (POWER9 core pairs): in CLS's place, a cluster's colour
        {QStringLiteral("CACHE"), QColor(0x17, 0xbe, 0xcf)},
        // s390's boards and drawers between the socket (MC) and the machine (PKG)
        {QStringLiteral("BOOK"), QColor(0x8c, 0x56, 0x4b)},  {QStringLiteral("DRAWER"), QColor(0xe3, 0x77, 0xc2)},
    };
    auto it = colours.find(level);
    return it != colours.end() ? it->second : QColor(0x7f, 0x7f, 0x7f);
}

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Wheel or +/-: zoom; drag, shift+wheel or arrows: pan; Home: whole trace.\n"
                  "Click: marker A; shift+click: marker B; double-click a slice: follow its task; "
                  "click a group name: collapse or expand it. Hover a slice or a migration: what it is."));
}

QString TimelineView::timeText(double t) const {
    const bool counts = trace_ && trace_->data && trace_->data->store && !trace_->data->store->clockCountsNs();
    return counts ? formatCount(t) : formatNs(t);
}

void TimelineView::setTrace(TraceSessionPtr trace) {
    const bool sameRecording = trace_ && trace && trace_->live && trace->live;
    const bool wasWhole = axis_.viewStart == axis_.boundStart && axis_.viewEnd == axis_.boundEnd;
    trace_ = std::move(trace);
    const TimeAxis old = axis_;
    axis_ = TimeAxis::covering(trace_ && trace_->data ? axisTime(trace_->data->firstTs) : 0,
                               trace_ && trace_->data ? axisTime(trace_->data->lastTs) : 1, axis_.widthPx);
    if (sameRecording && !wasWhole) {
        // Live: keep the zoom, following the newest data if the window touched the end.
        const int64_t span = old.span();
        if (old.viewEnd >= old.boundEnd) axis_.setWindow(axis_.boundEnd - span, axis_.boundEnd);
        else axis_.setWindow(old.viewStart, old.viewEnd);
    }
    if (!sameRecording) {
        markA_.reset();
        markB_.reset();
        follow_ = -1;
        followLanes_.clear();
        followMigrations_.clear();
        buildGroups();
        autoFit_ = true;
        fitGroupsToHeight();
    } else if (follow_ >= 0) {
        followTask(follow_);
    }
    if (groups_.empty() || (trace_ && trace_->data && cpuGroup_.size() != size_t(trace_->data->cpus))) {
        buildGroups();
        if (autoFit_) fitGroupsToHeight();
    }
    update();
}

void TimelineView::buildGroups() {
    groups_.clear();
    roots_.clear();
    cpuGroup_.clear();
    if (!trace_ || !trace_->data || !trace_->topology || !trace_->topology->tree) return;
    const DomainTree& tree = *trace_->topology->tree;
    const int n = trace_->data->cpus;
    cpuGroup_.assign(size_t(n), -1);
    // Levels of CPU 0, bottom-up, kept when their spans partition the CPUs (NUMA levels overlap).
    std::vector<std::vector<CpuSet>> spansByLevel;  // kept levels, bottom-up: [level][cpu]
    std::vector<QString> names;
    for (const SchedDomain& d0 : tree.domainsOf(0)) {
        std::vector<CpuSet> spans(static_cast<size_t>(n));
        bool ok = n <= tree.cpuCount();
        for (int c = 0; c < n && ok; ++c) {
            const auto& ds = tree.domainsOf(c);
            // the same topology level, not the same name: a machine's NUMA levels all say "NUMA"
            auto it = std::find_if(ds.begin(), ds.end(), [&](const SchedDomain& d) {
                return d.topologyLevel == d0.topologyLevel && d.level == d0.level;
            });
            if (it == ds.end()) ok = false;
            else spans[size_t(c)] = it->span;
        }
        for (int a = 0; a < n && ok; ++a)
            for (int b = spans[size_t(a)].first(); b >= 0 && ok; b = spans[size_t(a)].next(b))
                if (b >= n || !(spans[size_t(b)] == spans[size_t(a)])) ok = false;
        if (ok) {
            spansByLevel.push_back(std::move(spans));
            names.push_back(qs(d0.level));
        }
    }
    if (spansByLevel.empty()) return;
    // Top-down: a group per distinct span; children are the spans one kept level down.
    std::function<int(size_t, const CpuSet&)> make = [&](size_t level, const CpuSet& span) -> int {
        LaneGroup g;
        g.name = names[level] + QLatin1Char(' ') + qs(span.toList());
        g.cpus = span.toVector();
        g.level = static_cast<int>(level);
        const int id = int(groups_.size());
        groups_.push_back(g);
        if (level > 0) {
            std::vector<int> kids;
            CpuSet done;
            for (int c : groups_[size_t(id)].cpus) {
                if (done.test(c)) continue;
                const CpuSet& child = spansByLevel[level - 1][size_t(c)];
                done |= child;
                kids.push_back(make(level - 1, child));
            }
            groups_[size_t(id)].children = std::move(kids);
        } else {
            for (int c : groups_[size_t(id)].cpus) cpuGroup_[size_t(c)] = id;
        }
        return id;
    };
    CpuSet done;
    const size_t top = spansByLevel.size() - 1;
    for (int c = 0; c < n; ++c) {
        if (done.test(c)) continue;
        done |= spansByLevel[top][size_t(c)];
        roots_.push_back(make(top, spansByLevel[top][size_t(c)]));
    }
}

void TimelineView::setGroupCollapsed(int g, bool collapsed) {
    if (g < 0 || g >= groupCount()) return;
    autoFit_ = false;  // the user chose what to see
    groups_[size_t(g)].collapsed = collapsed;
    update();
}

void TimelineView::fitGroupsToHeight() {
    if (groups_.empty()) return;
    int tallest = 0;
    for (LaneGroup& g : groups_) {
        g.collapsed = false;
        tallest = std::max(tallest, g.level);
    }
    for (int level = 0; level <= tallest && laneHeight() < kFitLaneH; ++level)
        for (LaneGroup& g : groups_)
            if (g.level == level) g.collapsed = true;
    update();
}

void TimelineView::followTask(int pid) {
    follow_ = pid;
    followLanes_.clear();
    followMigrations_.clear();
    if (pid > 0 && trace_ && trace_->data) {
        followLanes_ = trace_->data->lanesOfTask(pid);
        followMigrations_ = trace_->data->migrationsOfTask(pid);
    } else {
        follow_ = -1;
    }
    update();
}

void TimelineView::setSelectedCpu(int cpu) {
    cpu_ = cpu;
    update();
}

void TimelineView::resetZoom() {
    axis_.resetZoom();
    update();
}

void TimelineView::setMarkers(std::optional<int64_t> a, std::optional<int64_t> b) {
    markA_ = a;
    markB_ = b;
    update();
    emit markersChanged();
}

std::optional<IntervalStats> TimelineView::markerStats() const {
    if (!markA_ || !markB_ || !trace_ || !trace_->data) return std::nullopt;
    return trace_->data->statsIn(uint64_t(std::max<int64_t>(0, *markA_)), uint64_t(std::max<int64_t>(0, *markB_)));
}

QString TimelineView::markerSummary() const {
    const auto st = markerStats();
    if (!st) return {};
    const TraceAnalysis& d = *trace_->data;
    QStringList levels;
    for (size_t l = 0; l < st->migrationsByLevel.size(); ++l)
        if (st->migrationsByLevel[l] || l + 1 < st->migrationsByLevel.size())
            levels << qs(d.levels[l]) + QLatin1Char(' ') + QString::number(st->migrationsByLevel[l]);
    QStringList causes;
    for (size_t c = 0; c < st->migrationsByCause.size(); ++c)
        if (st->migrationsByCause[c])
            causes << qs(std::string(tracing::kMigrationCauseNames[c])) + QLatin1Char(' ') + QString::number(st->migrationsByCause[c]);
    double busy = 0;
    for (double b : st->busy) busy += b;
    return tr("A\u2192B %1: %2 events; migrations %3%4; busy %5% on average")
        .arg(timeText(double(st->b - st->a)))
        .arg(st->events)
        .arg(levels.join(QStringLiteral(", ")),
             causes.isEmpty() ? QString() : QStringLiteral(" (") + causes.join(QStringLiteral(", ")) + QLatin1Char(')'))
        .arg(st->busy.empty() ? 0.0 : 100.0 * busy / double(st->busy.size()), 0, 'f', 1);
}

TimelineView::Frame TimelineView::frameFor(const QRectF& t) const {
    Frame f;
    f.title = QRectF(t.left(), t.top(), t.width(), kTitleH);
    f.ruler = QRectF(t.left() + kGutter, f.title.bottom(), t.width() - kGutter - 6, kRulerH);
    f.legend = QRectF(t.left(), t.bottom() - kLegendH, t.width(), kLegendH);
    f.gutter = QRectF(t.left(), f.ruler.bottom(), kGutter, f.legend.top() - f.ruler.bottom());
    f.lanes = QRectF(f.ruler.left(), f.ruler.bottom(), f.ruler.width(), f.gutter.height());
    return f;
}

TimeAxis TimelineView::axisFor(const QRectF& lanes) const {
    TimeAxis a = axis_;
    a.setWidth(std::floor(lanes.width()));
    return a;
}

// the height each of `rows`' lanes gets in `lanes`, after the group headers' fixed height
double TimelineView::laneHeightOf(const std::vector<Row>& rows, const QRectF& lanes) const {
    int laneRows = 0, headers = 0;
    for (const Row& r : rows) {
        if (r.cpu >= 0 || groups_[size_t(r.group)].collapsed) ++laneRows;
        else ++headers;
    }
    return (lanes.height() - headers * kHeaderH) / std::max(laneRows, 1);
}

double TimelineView::laneHeightFor(const QRectF& lanes) const { return laneHeightOf(rowsFor(lanes), lanes); }

double TimelineView::laneHeight() const { return laneHeightFor(frameFor(QRectF(rect())).lanes); }

std::vector<TimelineView::Row> TimelineView::rowsFor(const QRectF& lanes) const {
    std::vector<Row> rows;
    if (!trace_ || !trace_->data) return rows;
    const int n = trace_->data->cpus;
    if (groups_.empty()) {
        for (int c = 0; c < n; ++c) rows.push_back({c, -1, 0, 0, 0});
    } else {
        std::function<void(int, int)> walk = [&](int g, int depth) {
            const LaneGroup& grp = groups_[size_t(g)];
            rows.push_back({-1, g, depth, 0, 0});
            if (grp.collapsed) return;
            if (!grp.children.empty())
                for (int k : grp.children) walk(k, depth + 1);
            else
                for (int c : grp.cpus) rows.push_back({c, -1, depth + 1, 0, 0});
        };
        for (int r : roots_) walk(r, 0);
    }
    const double laneH = std::clamp(laneHeightOf(rows, lanes), 2.0, 110.0);
    double y = lanes.top();
    for (Row& r : rows) {
        const bool lane = r.cpu >= 0 || groups_[size_t(r.group)].collapsed;
        r.y = y;
        r.h = lane ? laneH : kHeaderH;
        y += r.h;
    }
    return rows;
}

std::vector<double> TimelineView::laneCenters(const std::vector<Row>& rows) const {
    std::vector<double> centre(trace_ && trace_->data ? size_t(trace_->data->cpus) : 0, -1.0);
    for (const Row& r : rows) {
        if (r.cpu >= 0 && size_t(r.cpu) < centre.size()) centre[size_t(r.cpu)] = r.y + r.h / 2;
        // Inside a collapsed group: its aggregate lane.
        if (r.group >= 0 && groups_[size_t(r.group)].collapsed)
            for (int c : groups_[size_t(r.group)].cpus)
                if (size_t(c) < centre.size()) centre[size_t(c)] = r.y + r.h / 2;
    }
    return centre;
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTo(p, QRectF(rect()));
}

void TimelineView::resizeEvent(QResizeEvent*) {
    axis_.setWidth(std::floor(frameFor(QRectF(rect())).lanes.width()));
    if (autoFit_) fitGroupsToHeight();
}

void TimelineView::paintTo(QPainter& p, const QRectF& target) const {
    p.save();
    p.setClipRect(target);
    const Frame f = frameFor(target);
    // The lanes image covers its rectangle opaquely (paintLanes): when it lands on whole
    // pixels, only the rest needs the background (a frame is mostly lanes).
    const QRect lanesPx(f.lanes.topLeft().toPoint(), QSize(int(std::floor(f.lanes.width())), int(std::ceil(f.lanes.height()))));
    if (trace_ && trace_->data && !lanesPx.isEmpty() && QPointF(lanesPx.topLeft()) == f.lanes.topLeft()) {
        for (const QRect& r : QRegion(target.toAlignedRect()).subtracted(lanesPx)) p.fillRect(r, QColor(0xfb, 0xfb, 0xfc));
    } else {
        p.fillRect(target, QColor(0xfb, 0xfb, 0xfc));
    }
    QFont font = p.font();
    font.setPixelSize(11);
    p.setFont(font);
    if (!trace_ || !trace_->data) {
        p.setPen(QColor(0x55, 0x55, 0x55));
        p.drawText(target, Qt::AlignCenter,
                   tr("No trace open: File \u25b8 Open trace\u2026, drop a trace.dat here, or start schedscope as root "
                      "for live capture"));
        p.restore();
        return;
    }
    const TimeAxis ax = axisFor(f.lanes);
    const std::vector<Row> rows = rowsFor(f.lanes);

    // Title.
    QFont bold = font;
    bold.setBold(true);
    bold.setPixelSize(12);
    p.setFont(bold);
    p.setPen(QColor(0x20, 0x20, 0x28));
    const TraceAnalysis& d = *trace_->data;
    QString title = trace_->name + QStringLiteral(" \u2014 ") +
                    tr("%1 events, %2 CPUs, %3 migrations%4; showing %5 of %6")
                        .arg(d.store ? d.store->size() : 0)
                        .arg(d.cpus)
                        .arg(d.migrations.size())
                        .arg(seenInSwitchesNote(d))
                        .arg(timeText(double(ax.span())), timeText(double(ax.boundSpan())));
    if (d.store && !d.store->clockCountsNs())
        title += QStringLiteral("  \u2014  ") +
                 tr("%1 counts, not ns").arg(d.store->traceClock().empty() ? tr("clock") : qs(d.store->traceClock()));
    if (!trace_->topologyNote.isEmpty()) title += QStringLiteral("  \u2014  ") + trace_->topologyNote;
    if (follow_ > 0) {
        const TaskSummary* t = d.task(follow_);
        title += QStringLiteral("  \u2014  ") + tr("following %1 (%2)").arg(t ? qs(t->comm) : QString()).arg(follow_);
    }
    const QRectF titleRect = f.title.adjusted(6, 0, -6, 0);
    p.drawText(titleRect, Qt::AlignVCenter | Qt::AlignLeft, QFontMetricsF(bold).elidedText(title, Qt::ElideRight, titleRect.width()));
    p.setFont(font);

    paintRuler(p, f.ruler, ax);
    paintLanes(p, f, rows, ax);  // raster targets get the arrows inside the lanes image
    if (!(p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster)) paintMigrations(p, f, rows, ax);
    paintLabels(p, f, rows, ax);

    // Markers: the A..B interval shaded, then the lines.
    p.setClipRect(f.lanes.adjusted(0, -kRulerH, 0, 0));
    auto markX = [&](int64_t t) { return f.lanes.left() + ax.toPixel(t); };
    if (markA_ && markB_) {
        const double x0 = markX(std::min(*markA_, *markB_)), x1 = markX(std::max(*markA_, *markB_));
        p.fillRect(QRectF(x0, f.lanes.top(), std::max(1.0, x1 - x0), f.lanes.height()), QColor(255, 200, 0, 40));
    }
    for (const auto& [m, name] : {std::pair{markA_, QStringLiteral("A")}, std::pair{markB_, QStringLiteral("B")}}) {
        if (!m) continue;
        const double x = markX(*m);
        p.setPen(QPen(QColor(0xc0, 0x6a, 0x00), 1.5));
        p.drawLine(QPointF(x, f.ruler.top()), QPointF(x, f.lanes.bottom()));
        p.drawText(QRectF(x + 2, f.ruler.top(), 20, f.ruler.height()), Qt::AlignVCenter | Qt::AlignLeft, name);
    }
    p.setClipRect(target);
    paintLegend(p, f.legend);
    p.restore();
}

void TimelineView::paintRuler(QPainter& p, const QRectF& r, const TimeAxis& ax) const {
    p.fillRect(r, QColor(0xee, 0xef, 0xf2));
    const double step = niceStep(ax.nsPerPixel() * 110);
    const double base = double(ax.boundStart);
    const double first = std::ceil((double(ax.viewStart) - base) / step) * step;
    p.setPen(QColor(0x44, 0x44, 0x4c));
    const bool countsNs = !(trace_ && trace_->data && trace_->data->store && !trace_->data->store->clockCountsNs());
    const RulerUnit unit = RulerUnit::forTicks(double(ax.viewEnd) - base, step, countsNs);
    const QFontMetricsF fm(p.font());
    double lastRight = -1e9;  // where the previous label ends: labels never overlap
    for (double t = first; base + t <= double(ax.viewEnd); t += step) {
        const double x = r.left() + ax.toPixel(int64_t(base + t));
        p.drawLine(QPointF(x, r.bottom() - 5), QPointF(x, r.bottom()));
        const QString text = unit.text(t);
        const double w = fm.horizontalAdvance(text);
        // right of its tick, or left of it when that would cross the ruler's end (the last
        // label was cut at the view's edge); dropped when neither side has room
        double left = x + 3;
        if (left + w > r.right()) left = x - 3 - w;
        if (left < lastRight + 6 || left < r.left()) continue;
        p.drawText(QRectF(left, r.top(), w + 1, r.height() - 2), Qt::AlignVCenter | Qt::AlignLeft, text);
        lastRight = left + w;
    }
}

QRgb TimelineView::laneColour(int32_t pid) const {
    // Direct-mapped by pid: every column of every lane asks, and taskColor() (an HSV
    // conversion) or a tree lookup there cost more than the pixels themselves.
    if (colourCache_.empty() || colourCacheFollow_ != follow_) {
        colourCache_.assign(4096, {INT32_MIN, 0});
        colourCacheFollow_ = follow_;
    }
    auto& slot = colourCache_[static_cast<uint32_t>(pid) * 2654435761u >> 20];
    if (slot.first == pid) return slot.second;
    QColor c = taskColor(pid);
    if (follow_ > 0 && pid != follow_) {  // following: every other task fades
        const int g = qGray(c.rgb());
        c = QColor((g + 3 * 235) / 4, (g + 3 * 235) / 4, (g + 3 * 238) / 4);
    }
    slot = {pid, c.rgb()};
    return slot.second;
}

void TimelineView::paintLanes(QPainter& p, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const {
    const TraceAnalysis& d = *trace_->data;
    const int w = int(std::floor(f.lanes.width()));
    const int h = int(std::ceil(f.lanes.height()));
    if (w <= 0 || h <= 0) return;
    // Lanes are rendered into one raster image (reused between frames) from the per-column
    // level-of-detail bins: for each lane, the first painted row and the colour of every
    // column, then the lane's scanlines are written left to right (cache friendly). RGB32:
    // opaque, so drawing it onto the target is a plain copy, not a blend.
    QImage& img = lanesImage_;
    if (img.size() != QSize(w, h)) img = QImage(w, h, QImage::Format_RGB32);
    auto* bits = reinterpret_cast<QRgb*>(img.bits());
    const qsizetype stride = img.bytesPerLine() / 4;
    const QRgb paper = qRgb(0xfb, 0xfb, 0xfc);  // lane separators and below the last lane
    auto fillRows = [&](int ya, int yb, QRgb c) {
        for (int y = std::max(ya, 0); y < std::min(yb, h); ++y) std::fill_n(bits + y * stride, w, c);
    };
    const uint64_t t0 = uint64_t(std::max<int64_t>(0, ax.viewStart)), t1 = uint64_t(std::max<int64_t>(0, ax.viewEnd));
    // Zoomed out, lanes are binned from their pyramids; where the columns fall on the pyramid
    // grid is worked out once for all lanes.
    std::optional<PyramidColumns> gridCols;
    if (pyramidFits(d.laneGrid, t0, t1, w)) gridCols = pyramidColumns(d.laneGrid, t0, t1, w);
    auto bin = [&](int cpu, std::vector<LodColumn>& out) {
        const auto c = size_t(cpu);
        binLaneLod(d.lanes[c], c < d.laneSummaries.size() ? &d.laneSummaries[c] : nullptr, gridCols ? &*gridCols : nullptr,
                   t0, t1, w, out);
    };
    std::vector<LodColumn> cols;
    std::vector<uint8_t> followHit;
    std::vector<float> sum;
    std::vector<int> top(static_cast<size_t>(w));
    std::vector<QRgb> colour(static_cast<size_t>(w));
    // Writes rows [ya, yb) of a lane: column x shows colour[x] from row top[x] down, bg above.
    auto writeLane = [&](int ya, int yb, QRgb bg) {
        for (int y = std::max(ya, 0); y < std::min(yb, h); ++y) writeBarRow(bits + y * stride, top.data(), colour.data(), w, y, bg);
    };
    const QRgb followColour = taskColor(follow_).darker(120).rgb();
    const QRgb laneBg = qRgb(0xf1, 0xf2, 0xf5), laneBgAlt = qRgb(0xe9, 0xeb, 0xef), selBg = qRgb(0xdd, 0xe8, 0xfa);
    int laneIndex = 0;
    int filled = 0;  // rows above are written: every row is written once, no clearing pass
    for (const Row& r : rows) {
        const int y0 = int(std::lround(r.y - f.lanes.top()));
        const int y1 = int(std::lround(r.y + r.h - f.lanes.top()));
        const int inner0 = y0 + (r.h >= 6 ? 1 : 0);
        fillRows(filled, inner0, paper);
        filled = std::max(filled, y1);
        const int laneH = y1 - inner0;
        std::fill(top.begin(), top.end(), y1);  // nothing painted
        if (r.cpu >= 0) {
            const QRgb bg = r.cpu == cpu_ ? selBg : (laneIndex++ % 2 ? laneBgAlt : laneBg);
            if (size_t(r.cpu) < d.lanes.size()) {
                bin(r.cpu, cols);
                const bool followHere = follow_ > 0 && size_t(r.cpu) < followLanes_.size() && !followLanes_[size_t(r.cpu)].empty();
                if (followHere) markBusyColumns(followLanes_[size_t(r.cpu)], t0, t1, w, followHit);
                int32_t lastPid = INT32_MIN;
                QRgb lastColour = 0;
                for (int x = 0; x < w; ++x) {
                    const LodColumn& c = cols[size_t(x)];
                    if (followHere && followHit[size_t(x)]) {
                        // The followed task is marked over the whole lane height wherever it
                        // ran, however short: finding it is the point of following it.
                        top[size_t(x)] = inner0;
                        colour[size_t(x)] = followColour;
                    } else if (c.busy > 0) {
                        top[size_t(x)] = y1 - std::max(1, int(c.busy * float(laneH) + 0.5f));
                        if (c.pid != lastPid) {  // neighbouring columns mostly show the same task
                            lastPid = c.pid;
                            lastColour = laneColour(c.pid);
                        }
                        colour[size_t(x)] = lastColour;
                    }
                }
            }
            writeLane(inner0, y1, bg);
        } else {
            const LaneGroup& g = groups_[size_t(r.group)];
            if (!g.collapsed) {
                fillRows(y0, y1, qRgb(0xe2, 0xe5, 0xec));
                continue;
            }
            // A collapsed group: the mean busy fraction of its CPUs as a heat strip.
            sum.assign(size_t(w), 0.0f);
            for (int c : g.cpus) {
                if (size_t(c) >= d.lanes.size()) continue;
                bin(c, cols);
                for (int x = 0; x < w; ++x) sum[size_t(x)] += cols[size_t(x)].busy;
            }
            // 32 heat shades, looked up rather than converted per column.
            static const std::vector<QRgb> shades = [] {
                std::vector<QRgb> v;
                for (int i = 0; i <= 32; ++i) v.push_back(QColor::fromHsvF(0.6 - 0.6 * i / 32.0, 0.75, 0.85).rgb());
                return v;
            }();
            for (int x = 0; x < w; ++x) {
                const double b = sum[size_t(x)] / double(std::max<size_t>(g.cpus.size(), 1));
                if (b <= 0) continue;
                top[size_t(x)] = y1 - std::max(1, int(std::lround(b * laneH)));
                colour[size_t(x)] = shades[size_t(std::lround(std::min(b, 1.0) * 32))];
            }
            writeLane(inner0, y1, laneBg);
        }
    }
    fillRows(filled, h, paper);
    if (p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster) rasterMigrations(img, f, rows, ax);
    p.drawImage(f.lanes.topLeft(), img);
}

std::pair<std::vector<size_t>, std::vector<size_t>> TimelineView::visibleMigrations(const TimeAxis& ax, int w) const {
    const TraceAnalysis& d = *trace_->data;
    const uint64_t t0 = uint64_t(std::max<int64_t>(0, ax.viewStart)), t1 = uint64_t(std::max<int64_t>(0, ax.viewEnd));
    std::pair<std::vector<size_t>, std::vector<size_t>> out;
    out.first = sampleForPixels(d.migrations.size(), [&](size_t i) { return d.migrations[i].ts; }, t0, t1, w, 3);
    if (follow_ > 0) {
        const auto mine = sampleForPixels(followMigrations_.size(), [&](size_t i) { return d.migrations[followMigrations_[i]].ts; },
                                          t0, t1, w, 1);
        for (size_t i : mine) out.second.push_back(followMigrations_[i]);
    }
    return out;
}

void TimelineView::rasterMigrations(QImage& img, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const {
    const TraceAnalysis& d = *trace_->data;
    if (d.migrations.empty()) return;
    const int w = img.width(), h = img.height();
    auto* bits = reinterpret_cast<QRgb*>(img.bits());
    const qsizetype stride = img.bytesPerLine() / 4;
    std::vector<QRgb> colours;
    for (const auto& l : d.levels) colours.push_back(levelColor(qs(l)).rgb());
    const QRgb white = qRgb(255, 255, 255);
    const std::vector<double> centre = laneCenters(rows);
    auto centreOf = [&](int cpu) { return cpu >= 0 && size_t(cpu) < centre.size() ? centre[size_t(cpu)] : -1.0; };
    // Fills [xa, xb] of one row with c at `alpha`, clipped to the image.
    auto span = [&](int y, int xa, int xb, QRgb c, uint32_t alpha) {
        if (y < 0 || y >= h) return;
        xa = std::max(xa, 0);
        xb = std::min(xb, w - 1);
        QRgb* line = bits + y * stride;
        if (alpha >= 255) std::fill(line + xa, line + xb + 1, c);
        else
            for (int x = xa; x <= xb; ++x) line[x] = blendRgb(line[x], c, alpha);
    };
    auto draw = [&](const tracing::Migration& m, int width, uint32_t alpha) {
        const double ys = centreOf(m.src), yd = centreOf(m.dst);
        if (ys < 0 || yd < 0 || ys == yd) return;
        const int x = int(std::lround(ax.toPixel(axisTime(m.ts))));
        const int y0 = int(std::lround(std::min(ys, yd) - f.lanes.top()));
        const int y1 = int(std::lround(std::max(ys, yd) - f.lanes.top()));
        const QRgb c = colours[d.levelIndex(m.level)];
        // The shaft with a light halo on both sides (it stays readable over any task colour),
        // clipped once rather than per pixel: the shafts are most of an arrow's pixels.
        const int left = x - width / 2, right = left + width - 1;
        const int xa = std::max(left, 0), xb = std::min(right, w - 1);
        const bool haloL = left - 1 >= 0 && left - 1 < w, haloR = right + 1 >= 0 && right + 1 < w;
        const uint32_t haloAlpha = alpha * 2 / 3;
        for (int y = std::max(y0, 0); y <= std::min(y1, h - 1); ++y) {
            QRgb* line = bits + y * stride;
            if (haloL) line[left - 1] = blendRgb(line[left - 1], white, haloAlpha);
            if (haloR) line[right + 1] = blendRgb(line[right + 1], white, haloAlpha);
            for (int xx = xa; xx <= xb; ++xx) line[xx] = alpha >= 255 ? c : blendRgb(line[xx], c, alpha);
        }
        // The head: a triangle pointing at the destination lane.
        const int dir = yd > ys ? 1 : -1;
        const int tip = int(std::lround(yd - f.lanes.top()));
        const int head = std::min(6 + width, (y1 - y0) / 2);
        for (int k = 0; k < head; ++k) {
            const int half = (k * 4) / 5 + width / 2;
            span(tip - dir * k, x - half, x + half, c, alpha);
        }
    };
    const auto [all, mine] = visibleMigrations(ax, w);
    for (size_t i : all) draw(d.migrations[i], 2, follow_ > 0 ? 80 : 255);
    for (size_t i : mine) draw(d.migrations[i], 3, 255);
}

void TimelineView::paintMigrations(QPainter& p, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const {
    const TraceAnalysis& d = *trace_->data;
    if (d.migrations.empty()) return;
    p.save();
    p.setClipRect(f.lanes);
    p.setRenderHint(QPainter::Antialiasing, true);
    const int w = int(f.lanes.width());
    std::vector<QPen> pens;
    for (const auto& l : d.levels) {
        QColor c = levelColor(qs(l));
        if (follow_ > 0) c.setAlpha(70);
        pens.emplace_back(c, 1.2);
    }
    const std::vector<double> centre = laneCenters(rows);
    auto centreOf = [&](int cpu) { return cpu >= 0 && size_t(cpu) < centre.size() ? centre[size_t(cpu)] : -1.0; };
    auto draw = [&](const tracing::Migration& m, double width) {
        const double ys = centreOf(m.src), yd = centreOf(m.dst);
        if (ys < 0 || yd < 0 || ys == yd) return;
        const double x = f.lanes.left() + ax.toPixel(axisTime(m.ts));
        QPen pen = pens[d.levelIndex(m.level)];
        pen.setWidthF(width);
        // A light halo keeps the arrow readable over any task colour.
        p.setPen(QPen(QColor(255, 255, 255, follow_ > 0 && width < 2 ? 60 : 170), width + 1.4));
        p.drawLine(QPointF(x, ys), QPointF(x, yd));
        p.setPen(pen);
        p.drawLine(QPointF(x, ys), QPointF(x, yd));
        const double dir = yd > ys ? 1 : -1;
        const double head = std::min(6.0 + width, std::fabs(yd - ys) / 2);
        QPainterPath arrow;
        arrow.moveTo(x, yd);
        arrow.lineTo(x - head * 0.8, yd - dir * head);
        arrow.lineTo(x + head * 0.8, yd - dir * head);
        arrow.closeSubpath();
        p.fillPath(arrow, pen.color());
    };
    // At most one arrow per 3 pixels: a frame's cost stays bounded by its width.
    const auto [all, mine] = visibleMigrations(ax, w);
    for (size_t i : all) draw(d.migrations[i], 2.0);
    for (size_t i : mine) {
        const tracing::Migration& m = d.migrations[i];
        QPen saved = pens[d.levelIndex(m.level)];
        QColor c = saved.color();
        c.setAlpha(255);
        pens[d.levelIndex(m.level)].setColor(c);
        draw(m, 3.0);
        pens[d.levelIndex(m.level)] = saved;
    }
    p.restore();
}

void TimelineView::paintLabels(QPainter& p, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const {
    const TraceAnalysis& d = *trace_->data;
    const auto stats = markerStats();
    p.save();
    p.fillRect(f.gutter, QColor(0xf4, 0xf5, 0xf7));
    QFont font = p.font();
    for (const Row& r : rows) {
        const QRectF label(f.gutter.left() + 4 + r.depth * 9, r.y, f.gutter.width() - 8 - r.depth * 9, r.h);
        if (r.h < 7) continue;
        font.setPixelSize(int(std::clamp(r.h - 3, 7.0, 11.0)));
        p.setFont(font);
        // Cut with an ellipsis: "NUMA 0-31,64-9" cut at the gutter's edge reads as another valid
        // cpulist, "NUMA 0-31,64-…" cannot.
        const QFontMetricsF fm(font);
        auto drawLabel = [&](const QString& text) {
            p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideRight, label.width()));
        };
        if (r.cpu >= 0) {
            p.setPen(r.cpu == cpu_ ? QColor(0x10, 0x40, 0xa0) : QColor(0x30, 0x30, 0x38));
            QString text = tr("CPU %1").arg(r.cpu);
            if (stats && size_t(r.cpu) < stats->busy.size())
                text += QStringLiteral("  ") + QString::number(100.0 * stats->busy[size_t(r.cpu)], 'f', 0) + QLatin1Char('%');
            drawLabel(text);
        } else {
            const LaneGroup& g = groups_[size_t(r.group)];
            p.setPen(QColor(0x2a, 0x3a, 0x5a));
            drawLabel((g.collapsed ? QStringLiteral("\u25b8 ") : QStringLiteral("\u25be ")) + g.name);
        }
    }
    // Task names inside slices wide enough to hold them (only when few are visible).
    font.setPixelSize(10);
    p.setFont(font);
    p.setClipRect(f.lanes);
    const uint64_t t0 = uint64_t(std::max<int64_t>(0, ax.viewStart)), t1 = uint64_t(std::max<int64_t>(0, ax.viewEnd));
    for (const Row& r : rows) {
        if (r.cpu < 0 || r.h < 12 || size_t(r.cpu) >= d.lanes.size()) continue;
        const LaneSlices& lane = d.lanes[size_t(r.cpu)];
        const auto [a, b] = lane.overlapping(t0, t1);
        if (b - a > size_t(f.lanes.width() / 30)) continue;
        for (size_t i = a; i < b; ++i) {
            const double x0 = f.lanes.left() + std::max(0.0, ax.toPixel(axisTime(lane.start(i))));
            const double x1 = f.lanes.left() + std::min(f.lanes.width(), ax.toPixel(axisTime(lane.end(i))));
            if (x1 - x0 < 40) continue;
            const TaskSummary* t = d.task(lane.pid(i));
            const QString text = (t ? qs(t->comm) : QString()) + QLatin1Char(' ') + QString::number(lane.pid(i));
            p.setPen(QColor(0x10, 0x10, 0x10));
            p.drawText(QRectF(x0 + 3, r.y, x1 - x0 - 6, r.h), Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(text, Qt::ElideRight, int(x1 - x0 - 6)));
        }
    }
    p.restore();
}

void TimelineView::paintLegend(QPainter& p, const QRectF& r) const {
    const TraceAnalysis& d = *trace_->data;
    p.fillRect(r, QColor(0xf4, 0xf5, 0xf7));
    p.setPen(QColor(0x30, 0x30, 0x38));
    double x = r.left() + 6;
    const double y = r.top() + 10;
    // the levels with migrations; of the rest, which they are, or why there are none at all (the
    // words of the empty plots): a bare "MC (0)" left the reader to guess
    const QString why = qs(whyNoMigrations(d));
    if (!why.isEmpty()) {
        p.drawText(QRectF(x, r.top(), r.right() - x - 6, 20), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(why, Qt::ElideRight, int(r.right() - x - 6)));
    } else {
        p.drawText(QRectF(x, r.top(), 160, 20), Qt::AlignVCenter | Qt::AlignLeft, tr("Migrations by level:"));
        x += p.fontMetrics().horizontalAdvance(tr("Migrations by level:")) + 10;
    }
    for (size_t l : levelsWithMigrations(d)) {
        const QColor c = levelColor(qs(d.levels[l]));
        p.fillRect(QRectF(x, y - 4, 14, 8), c);
        const QString text = qs(d.levels[l]) + QStringLiteral(" (") + QString::number(d.migrationTsByLevel[l].size()) + QLatin1Char(')');
        p.drawText(QRectF(x + 18, r.top(), 200, 20), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += 18 + p.fontMetrics().horizontalAdvance(text) + 14;
    }
    if (const QString none = qs(describeLevelsWithoutMigrations(d)); !none.isEmpty() && x < r.right() - 6) {
        p.save();
        p.setPen(QColor(0x70, 0x70, 0x78));
        p.drawText(QRectF(x, r.top(), r.right() - x - 6, 20), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(none, Qt::ElideRight, int(r.right() - x - 6)));
        p.restore();
    }
    QString second = markerSummary();
    if (second.isEmpty())
        second = tr("Click: marker A, shift+click: marker B (interval statistics); double-click a slice: follow its task");
    if (trace_->live) second = tr("live, %1 lost events; ").arg(trace_->lostEvents) + second;
    else if (const std::string lost = tracing::describeLostEvents(*d.store); !lost.empty()) second = qs(lost) + QStringLiteral("; ") + second;
    p.drawText(QRectF(r.left() + 6, r.top() + 18, r.width() - 12, 18), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(second, Qt::ElideRight, int(r.width() - 12)));
}

const TimelineView::Row* TimelineView::rowAt(const QPointF& pos) const {
    static thread_local std::vector<Row> rows;
    rows = rowsFor(frameFor(QRectF(rect())).lanes);
    for (const Row& r : rows)
        if (pos.y() >= r.y && pos.y() < r.y + r.h) return &r;
    return nullptr;
}

int32_t TimelineView::taskAt(const QPointF& pos) const {
    const Row* r = rowAt(pos);
    if (!r || r->cpu < 0 || !trace_ || !trace_->data || size_t(r->cpu) >= trace_->data->lanes.size()) return -1;
    const Frame f = frameFor(QRectF(rect()));
    const TimeAxis ax = axisFor(f.lanes);
    const LaneSlices& lane = trace_->data->lanes[size_t(r->cpu)];
    // The slice under the cursor, or the nearest within 3 pixels.
    const int64_t t = ax.toTime(pos.x() - f.lanes.left());
    const ptrdiff_t i = lane.sliceAt(uint64_t(std::max<int64_t>(0, t)));
    if (i >= 0) return lane.pid(size_t(i));
    const int64_t slop = int64_t(3 * ax.nsPerPixel());
    const auto [a, b] = lane.overlapping(uint64_t(std::max<int64_t>(0, t - slop)), uint64_t(std::max<int64_t>(0, t + slop)));
    return a < b ? lane.pid(a) : -1;
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    const Frame f = frameFor(QRectF(rect()));
    const double steps = e->angleDelta().y() / 120.0 + e->angleDelta().x() / 120.0;
    if (e->modifiers() & Qt::ShiftModifier) axis_.panBy(-steps * f.lanes.width() / 10);
    else axis_.zoomAt(e->position().x() - f.lanes.left(), std::pow(1.25, steps));
    update();
    e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    pressPos_ = e->pos();
    pressViewStart_ = axis_.viewStart;
    dragging_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    if (!(e->buttons() & Qt::LeftButton)) return;
    if (!dragging_ && (e->pos() - pressPos_).manhattanLength() > 4) dragging_ = true;
    if (dragging_) {
        const int64_t span = axis_.span();
        const int64_t start = pressViewStart_ - int64_t(std::llround((e->pos().x() - pressPos_.x()) * axis_.nsPerPixel()));
        axis_.setWindow(start, start + span);
        update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || dragging_) {
        dragging_ = false;
        return;
    }
    const Frame f = frameFor(QRectF(rect()));
    const QPointF pos = e->position();
    if (f.gutter.contains(pos)) {
        if (const Row* r = rowAt(pos)) {
            if (r->group >= 0) setGroupCollapsed(r->group, !groups_[size_t(r->group)].collapsed);
            else if (r->cpu >= 0) {
                setSelectedCpu(r->cpu);
                emit cpuPicked(r->cpu);
            }
        }
        return;
    }
    if (!f.lanes.contains(pos) && !f.ruler.contains(pos)) return;
    const int64_t t = axis_.toTime(pos.x() - f.lanes.left());
    if (e->modifiers() & Qt::ShiftModifier) setMarkers(markA_, t);
    else setMarkers(t, markB_);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
    const int32_t pid = taskAt(e->position());
    followTask(pid);
    emit taskPicked(follow_);
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    const double w = axis_.widthPx;
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: axis_.zoomAt(w / 2, 1.5); break;
        case Qt::Key_Minus: axis_.zoomAt(w / 2, 1 / 1.5); break;
        case Qt::Key_Left: axis_.panBy(-w / 8); break;
        case Qt::Key_Right: axis_.panBy(w / 8); break;
        case Qt::Key_Home: axis_.resetZoom(); break;
        case Qt::Key_Escape:
            setMarkers(std::nullopt, std::nullopt);
            followTask(-1);
            emit taskPicked(-1);
            break;
        default: QWidget::keyPressEvent(e); return;
    }
    update();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    menu.addAction(tr("Whole trace"), this, &TimelineView::resetZoom);
    if (markA_ && markB_)
        menu.addAction(tr("Zoom to A\u2013B"), this, [this] {
            axis_.setWindow(std::min(*markA_, *markB_), std::max(*markA_, *markB_));
            update();
        });
    menu.addAction(tr("Clear markers"), this, [this] { setMarkers(std::nullopt, std::nullopt); });
    if (follow_ > 0)
        menu.addAction(tr("Stop following the task"), this, [this] {
            followTask(-1);
            emit taskPicked(-1);
        });
    menu.addAction(tr("Collapse all groups"), this, [this] {
        autoFit_ = false;
        for (auto& g : groups_) g.collapsed = true;
        update();
    });
    menu.addAction(tr("Expand all groups"), this, [this] {
        autoFit_ = false;
        for (auto& g : groups_) g.collapsed = false;
        update();
    });
    menu.addAction(tr("Fit the groups to the height"), this, [this] {
        autoFit_ = true;
        fitGroupsToHeight();
    });
    menu.addSeparator();
    menu.addAction(tr("Export\u2026"), this, &TimelineView::exportRequested);
    menu.exec(e->globalPos());
}

}  // namespace schedscope::gui
