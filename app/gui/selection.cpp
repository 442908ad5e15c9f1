#include "selection.h"

#include <QObject>
#include <QStringList>

#include "qt_convert.h"

namespace schedscope::gui {

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
                    .arg(out.cpu).arg(qs(t.name), want, present.isEmpty() ? QObject::tr("none") : present.join(QStringLiteral(", ")));
    return out;
}

}  // namespace schedscope::gui
