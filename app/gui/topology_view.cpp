#include "topology_view.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <cmath>

#include "cpu_labels.h"
#include "qt_convert.h"

namespace schedscope::gui {
namespace {

QColor fillFor(TopoBox::Kind k) {
    switch (k) {
        case TopoBox::Package: return QColor(0xdc, 0xdc, 0xdc);
        case TopoBox::Node: return QColor(0xd2, 0xe8, 0xc4);
        case TopoBox::Cache: return QColor(0xf6, 0xf0, 0xd8);
        case TopoBox::Cluster: return QColor(0xdd, 0xe5, 0xf5);
        case TopoBox::Core: return QColor(0xc8, 0xc8, 0xc8);
        case TopoBox::Cpu: return QColor(0xff, 0xff, 0xff);
        default: return QColor(0xf4, 0xf4, 0xf4);
    }
}

const QColor kSpanFill(0xff, 0xd2, 0x99);
const QColor kSpanEdge(0xe0, 0x70, 0x10);
const QColor kIsolatedHatch(0x60, 0x60, 0x60);  // diagonal lines over an isolated CPU
const QColor kSelectedFill(0x2f, 0x6f, 0xd0);

QColor groupColour(int i) {
    static const QColor palette[] = {QColor(0x1f, 0x5f, 0xb4), QColor(0xc6, 0x28, 0x28), QColor(0x2c, 0x8c, 0x2c),
                                     QColor(0x8a, 0x4f, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xd0, 0x4f, 0xa0),
                                     QColor(0x10, 0x9c, 0xac), QColor(0x9c, 0x9c, 0x10)};
    return palette[i % int(std::size(palette))];
}

// White -> yellow -> red ramp for heat in [0, 1].
QColor heatColour(double v) {
    v = std::clamp(v, 0.0, 1.0);
    if (v < 0.5) return QColor::fromRgbF(1.0f, 1.0f, float(1.0 - 2 * v));
    return QColor::fromRgbF(1.0f, float(1.0 - (v - 0.5) * 1.6), 0.0f);
}

// A heat value as people read it: counts (migrations, capacities) whole and with the locale's
// thousands separators; 'g' turned 1135 into "1.14e+03". Fractions (utilisation) keep three
// significant digits.
QString heatNumber(double v) {
    if (std::abs(v) >= 1000 || v == std::round(v)) return QLocale().toString(qlonglong(std::llround(v)));
    return QLocale().toString(v, 'g', 3);
}

QString levelLabel(const SchedDomain& d) {
    if (d.numaLevel >= 0 && d.numaDistance > 0)
        return qs(d.level) + QStringLiteral(" (distance %1)").arg(d.numaDistance);
    return qs(d.level);
}

QString flagLines(const KernelProfile& profile, uint32_t flags) {
    QStringList lines, line;
    for (const auto& f : flagNames(profile, flags)) {
        line << qs(f);
        if (line.size() == 3) { lines << line.join(QLatin1Char(' ')); line.clear(); }
    }
    if (!line.isEmpty()) lines << line.join(QLatin1Char(' '));
    return QStringLiteral("    ") + lines.join(QStringLiteral("\n    "));
}

}  // namespace

TopologyView::TopologyView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::ClickFocus);
}

void TopologyView::setSession(SessionPtr session) {
    // a rebuild (other choices or cpusets) keeps the input, and the boxes with it
    const bool sameTopology = session_ && session && session_->input == session->input;
    session_ = std::move(session);
    if (!sameTopology) {
        // The boxes were grouped on the worker (Session::layout); only their placement is ours.
        layout_ = session_ && session_->layout ? *session_->layout
                  : session_ && session_->topology ? TopologyLayout::build(*session_->topology)
                                                   : TopologyLayout{};
        laidOutFor_ = {};
        hoverBox_ = -1;
        if (!session_ || !session_->topology || session_->topology->cpus.empty() ||
            cpu_ >= int(session_->topology->cpus.size()) || cpu_ < 0 || !session_->topology->cpus[size_t(cpu_)].online)
            cpu_ = session_ && session_->topology ? session_->topology->onlineCpus().first() : -1;
        heat_.clear();
    }
    // Keep the level if this tree still has it, else fall back to the CPU's lowest domain.
    if (session_ && session_->tree && cpu_ >= 0) {
        const auto& doms = session_->tree->domainsOf(cpu_);
        const bool has = std::any_of(doms.begin(), doms.end(), [&](const SchedDomain& d) { return d.topologyLevel == level_; });
        if (!has) level_ = doms.empty() ? -1 : doms.front().topologyLevel;
    }
    update();
    emit selectionChanged(cpu_, level_);
}

const SchedDomain* TopologyView::selectedDomain() const {
    if (!session_ || !session_->tree || cpu_ < 0) return nullptr;
    for (const auto& d : session_->tree->domainsOf(cpu_))
        if (d.topologyLevel == level_) return &d;
    return nullptr;
}

void TopologyView::setSelection(int cpu, int topologyLevel) {
    if (cpu == cpu_ && topologyLevel == level_) return;
    cpu_ = cpu;
    level_ = topologyLevel;
    update();
    emit selectionChanged(cpu_, level_);
}

void TopologyView::setHeat(std::vector<double> perCpu, const QString& what) {
    heat_ = std::move(perCpu);
    heatWhat_ = what;
    heatMin_ = INFINITY;
    heatMax_ = -INFINITY;
    for (double v : heat_)
        if (std::isfinite(v)) { heatMin_ = std::min(heatMin_, v); heatMax_ = std::max(heatMax_, v); }
    if (!std::isfinite(heatMin_)) { heatMin_ = 0; heatMax_ = 1; }
    update();
}

void TopologyView::setHeat(std::vector<double> perCpu, const QString& what, double scaleMin, double scaleMax) {
    setHeat(std::move(perCpu), what);
    heatMin_ = scaleMin;
    heatMax_ = scaleMax;
}

TopologyView::Frame TopologyView::frameFor(const QRectF& target) const {
    const qreal line = QFontMetricsF(font()).height() + 6;
    Frame f;
    f.title = QRectF(target.left() + 6, target.top() + 2, target.width() - 12, 2 * line - 6);
    f.legend = QRectF(target.left() + 6, target.bottom() - line, target.width() - 12, line - 2);
    f.boxes = QRectF(target.left() + 4, f.title.bottom() + 2, target.width() - 8,
                     std::max<qreal>(10, f.legend.top() - f.title.bottom() - 6));
    return f;
}

void TopologyView::ensureLayout() const {
    const QRectF r = frameFor(QRectF(rect())).boxes;
    if (r == laidOutFor_) return;
    QFontMetricsF fm(font());
    layout_.layout(r, fm.height(), fm.averageCharWidth());
    laidOutFor_ = r;
    labels_ = fitCpuLabels(layout_, font());  // about 5 ms for 4096 CPUs: once, not per paint
}

void TopologyView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    ensureLayout();
    paintTo(p, QRectF(rect()));
}

QString TopologyView::selectionText() const {
    if (!session_ || !session_->topology) return {};
    const SchedDomain* d = selectedDomain();
    if (cpu_ < 0) return tr("No CPU selected");
    if (!d && session_->tree && session_->tree->isolated.test(cpu_))
        return tr("CPU %1: isolated, no sched domains (isolcpus=domain or an isolated cpuset partition)").arg(cpu_);
    if (!d && session_->tree && session_->tree->domainsOf(cpu_).empty())
        return tr("CPU %1: no sched domains (no other CPU to balance with)").arg(cpu_);
    if (!d) return tr("CPU %1: no domain at this level (pruned as degenerate)").arg(cpu_);
    return tr("CPU %1 \u00b7 %2 domain: span %3 (%4 CPUs), %5 groups, imbalance_pct %6")
        .arg(cpu_)
        .arg(levelLabel(*d), qs(d->span.toList()))
        .arg(d->span.count())
        .arg(d->groups.size())
        .arg(d->imbalancePct);
}

void TopologyView::paintTo(QPainter& p, const QRectF& target) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(target, palette().color(QPalette::Base));
    p.setFont(font());
    const Frame f = frameFor(target);

    // Lay out for this target; the widget's own layout is reused when the rectangle matches.
    TopologyLayout local;
    const TopologyLayout* layout = &layout_;
    if (f.boxes != laidOutFor_) {
        local = layout_;
        QFontMetricsF fm(font());
        local.layout(f.boxes, fm.height(), fm.averageCharWidth());
        layout = &local;
    }

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    const QRectF line1(f.title.topLeft(), QSizeF(f.title.width(), f.title.height() / 2));
    const QRectF line2 = line1.translated(0, line1.height());
    const QString title = titleText();
    p.drawText(line1, Qt::AlignLeft | Qt::AlignVCenter, QFontMetricsF(bold).elidedText(title, Qt::ElideRight, line1.width()));
    p.setFont(font());
    p.drawText(line2, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(font()).elidedText(selectionText(), Qt::ElideRight, line2.width()));

    CpuLabels localLabels;
    const CpuLabels* labels = &labels_;
    if (layout == &local) {
        localLabels = fitCpuLabels(local, font());
        labels = &localLabels;
    }
    if (session_ && session_->topology && !layout->boxes().empty()) {
        paintBoxes(p, *layout, *labels);
        paintSelection(p, *layout);
    }
    paintLegend(p, f.legend, session_ && session_->topology ? labels->note() : QString());
    p.restore();
}

void TopologyView::paintBoxes(QPainter& p, const TopologyLayout& layout, const CpuLabels& labels) const {
    const SchedDomain* d = selectedDomain();
    const QFontMetricsF fm(font());
    for (size_t i = 1; i < layout.boxes().size(); ++i) {
        const TopoBox& b = layout.boxes()[i];
        const QRectF r = b.rect;
        if (r.width() < 1 || r.height() < 1) continue;
        if (p.hasClipping() && !p.clipBoundingRect().intersects(r.adjusted(-3, -3, 3, 3))) continue;
        QColor fill = fillFor(b.kind);
        QColor text = QColor(0x20, 0x20, 0x20);
        if (b.kind == TopoBox::Cpu) {
            if (!heat_.empty()) {
                const double v = size_t(b.cpu) < heat_.size() ? heat_[size_t(b.cpu)] : NAN;
                fill = std::isfinite(v) ? heatColour(heatMax_ > heatMin_ ? (v - heatMin_) / (heatMax_ - heatMin_) : 0.0)
                                        : QColor(0xee, 0xee, 0xee);
            } else if (d && d->span.test(b.cpu)) {
                fill = kSpanFill;
            }
            if (b.cpu == cpu_) fill = kSelectedFill;
        }
        const qreal radius = b.kind == TopoBox::Cpu ? 2.0 : 3.0;
        p.setPen(QPen(fill.darker(b.kind == TopoBox::Cpu ? 160 : 135), int(i) == hoverBox_ ? 2.0 : 1.0));
        p.setBrush(fill);
        p.drawRoundedRect(r, radius, radius);
        // an isolated CPU (no sched domains: the balancer never moves a task onto or off it) hatched
        if (b.kind == TopoBox::Cpu && isolated(b.cpu)) {
            p.setBrush(QBrush(kIsolatedHatch, Qt::BDiagPattern));
            p.drawRoundedRect(r, radius, radius);
        }
        if (b.kind != TopoBox::Cpu && !b.header.isEmpty()) {
            p.setPen(text);
            const qreal room = b.header.width() - 4;
            const QString& label = fm.horizontalAdvance(b.label) > room && !b.shortLabel.isEmpty() ? b.shortLabel : b.label;
            p.drawText(b.header.adjusted(2, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(label, Qt::ElideRight, room));
        }
    }
    // The CPUs' numbers after all boxes: a number wider than its box lies over the unnumbered
    // boxes after it (CpuLabels), which must not paint over it.
    for (const CpuLabel& l : labels.labels) {
        if (p.hasClipping() && !p.clipBoundingRect().intersects(l.rect)) continue;
        const QColor text = l.inBox && l.cpu == cpu_ ? QColor(Qt::white) : QColor(0x20, 0x20, 0x20);
        p.setFont(l.font);
        p.setPen(text);
        p.drawText(l.rect, Qt::AlignCenter, l.text);
        // a hybrid CPU's kind under its number, where the box has room for a second line
        const QString kind = l.inBox ? kindLabel(l.cpu) : QString();
        const int box = layout.boxOfCpu(l.cpu);
        if (kind.isEmpty() || box < 0) continue;
        const QRectF r = layout.boxes()[size_t(box)].rect;
        const QFontMetricsF cfm(l.font);
        const QRectF below(r.left(), r.center().y() + cfm.height() * 0.6, r.width(), cfm.height());
        if (below.bottom() <= r.bottom() && cfm.horizontalAdvance(kind) + 2 <= r.width()) {
            p.setPen(l.cpu == cpu_ ? text : text.lighter(250));
            p.drawText(below, Qt::AlignHCenter | Qt::AlignTop, kind);
        }
    }
    p.setFont(font());
}

QString TopologyView::cpuLabelNote() const {
    if (!session_ || !session_->topology) return {};
    ensureLayout();
    return labels_.note();
}

void TopologyView::paintSelection(QPainter& p, const TopologyLayout& layout) const {
    const SchedDomain* d = selectedDomain();
    if (!d) return;
    // The span: one dashed outline around the box that is exactly the span, if there is one.
    if (int sb = layout.boxWithCpus(d->span); sb > 0) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(kSpanEdge, 2.5, Qt::DashLine));
        p.drawRoundedRect(layout.boxes()[size_t(sb)].rect.adjusted(-2, -2, 2, 2), 4, 4);
    }
    // Groups: each outlined in its own colour, around the box that is the group when there is
    // one, else around each of its CPUs; tagged G0 (the local group), G1, ... The groups of an
    // SD_OVERLAP (NUMA) domain share CPUs (build_overlap_sched_groups() in
    // kernel/sched/topology.c gives each group its child domain's span), so a CPU's later
    // outlines nest inside its earlier ones rather than hiding them.
    QFont tagFont = font();
    tagFont.setPixelSize(std::max(8, QFontMetrics(font()).height() * 3 / 4));
    tagFont.setBold(true);
    const QFontMetricsF tfm(tagFont);
    constexpr qreal kNest = 3.0;  // px between nested outlines: two 2 px pens apart
    std::vector<int> outlined(session_->topology->cpus.size(), 0);  // outlines drawn on each CPU
    std::vector<QRectF> tags;
    for (size_t gi = 0; gi < d->groups.size(); ++gi) {
        const SchedGroup& g = d->groups[gi];
        const QColor c = groupColour(int(gi));
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(c, 2.0));
        QRectF tagAnchor;
        if (int gb = layout.boxWithCpus(g.span); gb > 0) {
            tagAnchor = layout.boxes()[size_t(gb)].rect.adjusted(1, 1, -1, -1);
            p.drawRoundedRect(tagAnchor, 3, 3);
        } else {
            g.span.forEach([&](int cpu) {
                const int cb = layout.boxOfCpu(cpu);
                if (cb < 0 || size_t(cpu) >= outlined.size()) return;
                const QRectF box = layout.boxes()[size_t(cb)].rect;
                int& depth = outlined[size_t(cpu)];
                // nested no deeper than leaves a third of the box: past that the outlines share it
                const qreal inset = std::min(1 + depth * kNest, std::min(box.width(), box.height()) / 3);
                ++depth;
                const QRectF r = box.adjusted(inset, inset, -inset, -inset);
                p.drawRoundedRect(r, 2, 2);
                if (tagAnchor.isNull()) tagAnchor = r;
            });
        }
        if (tagAnchor.isNull()) continue;
        const QString tag = QStringLiteral("G%1").arg(gi);
        const QSizeF ts(tfm.horizontalAdvance(tag) + 6, tfm.height());
        // Only where the tag leaves room for the box's own centred label.
        if (ts.width() > tagAnchor.width() || 2 * ts.height() + QFontMetricsF(font()).height() > tagAnchor.height()) continue;
        QRectF tr(tagAnchor.right() - ts.width(), tagAnchor.top(), ts.width(), ts.height());
        // groups anchored in one CPU put their tags side by side, not on top of each other
        while (std::any_of(tags.begin(), tags.end(), [&](const QRectF& t) { return t.intersects(tr); }) &&
               tr.left() - ts.width() >= tagAnchor.left())
            tr.translate(-ts.width(), 0);
        tags.push_back(tr);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRect(tr);
        p.setPen(Qt::white);
        p.setFont(tagFont);
        p.drawText(tr, Qt::AlignCenter, tag);
        p.setFont(font());
    }
}

void TopologyView::paintLegend(QPainter& p, const QRectF& r, const QString& unnumbered) const {
    const QFontMetricsF fm(font());
    const qreal sw = fm.height() * 0.8;
    qreal x = r.left();
    auto item = [&](const QBrush& fill, const QColor& edge, const QString& text, Qt::PenStyle style = Qt::SolidLine) {
        const qreal need = sw + 4 + fm.horizontalAdvance(text) + 14;
        if (x + need > r.right()) return;
        const QRectF sq(x, r.center().y() - sw / 2, sw, sw);
        p.setBrush(fill);
        p.setPen(QPen(edge, style == Qt::SolidLine ? 1.0 : 2.0, style));
        p.drawRect(sq);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(x + sw + 4, r.top(), need, r.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += need;
    };
    // With heat on, its scale comes first: it is what the colours of the CPUs mean now.
    if (!heat_.empty()) {
        const QString lo = heatNumber(heatMin_), hi = heatNumber(heatMax_);
        const qreal rampW = 80;
        // "migrations to or from CPU 0: 0 ▭ 21": the colon keeps the scale's minimum off a
        // caption that ends in a number
        const QString pre = heatWhat_ + QStringLiteral(": ") + lo;
        const qreal need = fm.horizontalAdvance(pre + hi) + rampW + 24;
        if (x + need <= r.right()) {
            p.setPen(palette().color(QPalette::Text));
            qreal tx = x;
            p.drawText(QRectF(tx, r.top(), fm.horizontalAdvance(pre) + 2, r.height()), Qt::AlignVCenter, pre);
            tx += fm.horizontalAdvance(pre) + 6;
            QLinearGradient grad(tx, 0, tx + rampW, 0);
            for (double s : {0.0, 0.5, 1.0}) grad.setColorAt(s, heatColour(s));
            p.setPen(QPen(Qt::darkGray, 1));
            p.setBrush(grad);
            p.drawRect(QRectF(tx, r.center().y() - sw / 2, rampW, sw));
            p.setPen(palette().color(QPalette::Text));
            p.drawText(QRectF(tx + rampW + 4, r.top(), fm.horizontalAdvance(hi) + 4, r.height()), Qt::AlignVCenter, hi);
            x = tx + rampW + 4 + fm.horizontalAdvance(hi) + 20;
        }
        item(kSelectedFill, kSelectedFill.darker(150), tr("selected CPU"));
        item(Qt::NoBrush, kSpanEdge, tr("domain span"), Qt::DashLine);
        item(QBrush(Qt::NoBrush), groupColour(0), tr("groups G0 (local), G1\u2026"));
    }
    // which CPUs go without their number, before the keys to the boxes: blank boxes after
    // numbered ones read as a fault (elided rather than left out when the line is short)
    if (!unnumbered.isEmpty() && x < r.right()) {
        const QString text = fm.elidedText(unnumbered, Qt::ElideRight, r.right() - x);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(x, r.top(), r.right() - x, r.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += fm.horizontalAdvance(text) + 14;
    }
    item(fillFor(TopoBox::Package), fillFor(TopoBox::Package).darker(135), tr("package"));
    item(fillFor(TopoBox::Node), fillFor(TopoBox::Node).darker(135), tr("NUMA node"));
    item(fillFor(TopoBox::Cache), fillFor(TopoBox::Cache).darker(135), tr("LLC"));
    item(fillFor(TopoBox::Cluster), fillFor(TopoBox::Cluster).darker(135), tr("cluster"));
    item(fillFor(TopoBox::Core), fillFor(TopoBox::Core).darker(135), tr("core"));
    if (session_ && session_->tree && !session_->tree->isolated.empty())
        item(QBrush(kIsolatedHatch, Qt::BDiagPattern), kIsolatedHatch, tr("isolated (no domains)"));
    if (heat_.empty()) {
        item(kSelectedFill, kSelectedFill.darker(150), tr("selected CPU"));
        item(kSpanFill, kSpanEdge, tr("domain span"), Qt::DashLine);
        item(QBrush(Qt::NoBrush), groupColour(0), tr("groups G0 (local), G1\u2026"));
    }
}

void TopologyView::setEmptyText(const QString& text) {
    emptyText_ = text;
    update();
}

QString TopologyView::titleText() const {
    if (session_ && session_->topology) return session_->title();
    return emptyText_.isEmpty() ? tr("Nothing open") : emptyText_;
}

bool TopologyView::isolated(int cpu) const { return session_ && session_->tree && session_->tree->isolated.test(cpu); }

// Hybrid CPUs: Intel's core types as people say them, other kinds (arm64 core models) by name.
QString TopologyView::kindLabel(int cpu) const {
    if (!session_ || !session_->topology) return {};
    const Topology& t = *session_->topology;
    if (t.kindNames.empty() || cpu < 0 || size_t(cpu) >= t.cpus.size()) return {};
    const std::string& k = t.kindNames[size_t(t.cpus[size_t(cpu)].kind)];
    if (k == "IntelCore") return tr("P-core");
    if (k == "IntelAtom") return tr("E-core");
    if (k == "IntelLowPower") return tr("LP E-core");
    return qs(k);
}

QString TopologyView::tooltipFor(int box) const {
    if (box < 0 || !session_ || !session_->topology) return {};
    const TopoBox& b = layout_.boxes()[size_t(box)];
    if (b.kind != TopoBox::Cpu)
        return tr("%1\nCPUs %2 (%3)").arg(b.label, qs(b.cpus.toList())).arg(b.cpus.count());
    const Topology& t = *session_->topology;
    const CpuTopology& c = t.cpus[size_t(b.cpu)];
    QString s = tr("CPU %1: package %2, NUMA node %3, core %4").arg(b.cpu).arg(c.packageId).arg(c.node).arg(c.coreId);
    s += tr("\nSMT siblings %1, cluster %2, LLC %3, package %4")
             .arg(qs(c.threadSiblings.toList()), qs(c.clusterCpus.toList()), qs(t.llcCpus(b.cpu).toList()),
                  qs(c.packageCpus.toList()));
    if (c.capacity != 1024) s += tr("\ncapacity %1").arg(c.capacity);
    if (!t.kindNames.empty()) s += tr("\nkind %1").arg(qs(t.kindNames[size_t(c.kind)]));
    if (size_t(b.cpu) < heat_.size() && std::isfinite(heat_[size_t(b.cpu)]))
        s += QStringLiteral("\n%1: %2").arg(heatWhat_, heatNumber(heat_[size_t(b.cpu)]));
    if (session_->tree) {
        const KernelProfile& profile = session_->tree->profile ? *session_->tree->profile : defaultProfile();
        const auto& doms = session_->tree->domainsOf(b.cpu);
        if (doms.empty() && session_->tree->isolated.test(b.cpu))
            s += tr("\n\nisolated (isolcpus or an isolated cpuset partition): no sched domains");
        else if (doms.empty()) s += tr("\n\nno sched domains (alone or offline)");
        for (const CpuSet& rd : session_->tree->rootDomains)
            if (rd.test(b.cpu))
                s += tr("\n\nroot domain %1 (a cpuset partition's): no domain reaches beyond it").arg(qs(rd.toList()));
        for (const auto& d : doms) {
            s += tr("\n\n%1: span %2, %3 groups\n    imbalance_pct %4, interval %5\u2013%6 ms, busy_factor %7, cache_nice_tries %8")
                     .arg(levelLabel(d), qs(d.span.toList()))
                     .arg(d.groups.size())
                     .arg(d.imbalancePct)
                     .arg(d.minInterval)
                     .arg(d.maxInterval)
                     .arg(d.busyFactor)
                     .arg(d.cacheNiceTries);
            if (d.imbNumaNr) s += tr(", imb_numa_nr %1").arg(d.imbNumaNr);
            s += QLatin1Char('\n') + flagLines(profile, d.flags);
        }
    }
    return s;
}

bool TopologyView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        ensureLayout();
        const int box = layout_.boxes().empty() ? -1 : layout_.boxAt(he->pos());
        const QString text = box > 0 ? tooltipFor(box) : QString();
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(he->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void TopologyView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !session_ || layout_.boxes().empty()) return QWidget::mousePressEvent(e);
    ensureLayout();
    const int box = layout_.boxAt(e->position());
    if (box <= 0) return;
    const TopoBox& b = layout_.boxes()[size_t(box)];
    if (b.kind == TopoBox::Cpu) {
        // Keep the level; if this CPU lacks it, setSelection shows "no domain at this level".
        setSelection(b.cpu, level_);
        return;
    }
    // A box around the selected CPU selects the domain that spans exactly that box.
    if (session_->tree && b.cpus.test(cpu_)) {
        for (const auto& d : session_->tree->domainsOf(cpu_))
            if (d.span == b.cpus) { setSelection(cpu_, d.topologyLevel); return; }
    }
    if (!b.cpus.test(cpu_)) setSelection(b.cpus.first(), level_);
}

void TopologyView::mouseMoveEvent(QMouseEvent* e) {
    if (layout_.boxes().empty()) return;
    ensureLayout();
    const int box = layout_.boxAt(e->position());
    if (box != hoverBox_) {
        // Repaint just the two boxes: a full frame of a thousand CPUs is too slow per mouse move.
        auto dirty = [this](int b) {
            if (b > 0) update(layout_.boxes()[size_t(b)].rect.toAlignedRect().adjusted(-3, -3, 3, 3));
        };
        dirty(hoverBox_);
        hoverBox_ = box;
        dirty(hoverBox_);
    }
}

void TopologyView::leaveEvent(QEvent*) {
    if (hoverBox_ > 0) update(layout_.boxes()[size_t(hoverBox_)].rect.toAlignedRect().adjusted(-3, -3, 3, 3));
    hoverBox_ = -1;
}

void TopologyView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    menu.addAction(tr("Export topology view\u2026"), this, &TopologyView::exportRequested);
    menu.exec(e->globalPos());
}

}  // namespace schedscope::gui
