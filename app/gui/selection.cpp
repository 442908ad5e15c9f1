#include "selection.h"

#include <QObject>
#include <QStringList>

#include "qt_convert.h"

namespace schedscope::gui {
namespace {
// The level names the kernel's topology tables use, on every arch and version
// (core/domains/topology_levels.cpp): a name outside them is a typo, not a level this CPU lacks.
const QStringList& kernelLevelNames() {
    static const QStringList names = {QStringLiteral("SMT"),  QStringLiteral("CLS"),  QStringLiteral("MC"),
                                      QStringLiteral("PKG"),  QStringLiteral("DIE"),  QStringLiteral("NODE"),
                                      QStringLiteral("NUMA"), QStringLiteral("CACHE"), QStringLiteral("BOOK"),
                                      QStringLiteral("DRAWER")};
    return names;
}
}  // namespace

ResolvedSelection resolveSelection(const Session& session, const SelectionRequest& request, int currentCpu) {
    ResolvedSelection out;
    if (!session.topology || !session.tree) {
        out.error = QObject::tr("nothing is open to select in");
        return out;
    }
    const Topology& t = *session.topology;
    out.cpu = request.cpu >= 0 ? request.cpu : currentCpu;
    if (out.cpu < 0 || out.cpu >= int(t.cpus.size()) || !t.cpus[size_t(out.cpu)].online) {
        out.error = QObject::tr("--select-cpu: %1 has no online CPU %2 (CPUs 0-%3)")
                        .arg(qs(t.name)).arg(out.cpu).arg(int(t.cpus.size()) - 1);
        out.cpu = -1;
        return out;
    }
    const auto& doms = session.tree->domainsOf(out.cpu);
    if (request.level.isEmpty()) {
        out.topologyLevel = doms.empty() ? -1 : doms.front().topologyLevel;
        return out;
    }
    // "NUMA:20": the NUMA (or NODE) domain at that distance, one of several of the level
    QString want = request.level.toUpper();
    int distance = 0;
    if (const qsizetype colon = want.indexOf(QLatin1Char(':')); colon > 0) {
        bool ok = false;
        distance = want.mid(colon + 1).toInt(&ok);
        if (!ok || distance <= 0) {
            out.error = QObject::tr("--select-level: '%1' is not LEVEL or LEVEL:DISTANCE (e.g. NUMA:20)").arg(request.level);
            return out;
        }
        want = want.left(colon);
    }
    if (!kernelLevelNames().contains(want)) {
        out.error = QObject::tr("--select-level: '%1' is no domain level (levels: SMT, CLS, MC, PKG, NODE, NUMA[:DISTANCE]; "
                                "CACHE on powerpc, BOOK and DRAWER on s390)")
                        .arg(request.level);
        return out;
    }
    if (doms.empty()) {
        out.error = session.tree->isolated.test(out.cpu)
                        ? QObject::tr("--select-level: CPU %1 of %2 is isolated (isolcpus=domain or an isolated cpuset "
                                      "partition): it has no sched domains")
                              .arg(out.cpu).arg(qs(t.name))
                        : QObject::tr("--select-level: CPU %1 of %2 has no sched domains (every level degenerates to "
                                      "it alone)")
                              .arg(out.cpu).arg(qs(t.name));
        return out;
    }
    auto same = [&want](const QString& name) {
        const QString n = name.toUpper();
        if (n == want) return true;
        const bool pkgLike = want == QLatin1String("PKG") || want == QLatin1String("DIE");
        return pkgLike && (n == QLatin1String("PKG") || n == QLatin1String("DIE"));
    };
    QStringList present;
    for (const auto& d : doms) {
        if (same(qs(d.level)) && (distance == 0 || d.numaDistance == distance)) {
            out.topologyLevel = d.topologyLevel;
            return out;
        }
        const QString name = d.numaDistance > 0 ? QStringLiteral("%1:%2").arg(qs(d.level)).arg(d.numaDistance) : qs(d.level);
        if (!present.contains(name)) present << name;
    }
    if (distance > 0) want += QStringLiteral(":%1").arg(distance);
    out.error = QObject::tr("--select-level: CPU %1 of %2 has no %3 domain (its levels: %4)")
                    .arg(out.cpu).arg(qs(t.name), want, present.join(QStringLiteral(", ")));
    return out;
}

}  // namespace schedscope::gui
