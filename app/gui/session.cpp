#include "session.h"

#include <algorithm>
#include <sstream>

#include "qt_convert.h"
#include "topology/numa_distances.h"

namespace schedscope::gui {

DomainBuildOptions DomainChoices::toOptions(const Topology& topology) const {
    DomainBuildOptions opt;
    opt.arch = topology.arch;
    opt.cls = cls;
    opt.node = node;
    opt.profile = profile.empty() ? nullptr : findProfile(profile);
    return opt;
}

Result<Topology> DomainChoices::applyWhatIfs(const Topology& input, const std::string& where) const {
    Topology t = input;
    if (!distances.empty()) {  // first, as loadTopology() applies --numa-distances
        auto table = parseNumaDistances(distances);
        if (!table) return Error{where + ": distances " + distances + ": " + table.error()};
        auto withTable = withNumaDistances(std::move(t), *table, where);
        if (!withTable) return withTable;
        t = std::move(*withTable);
    }
    if (isolate.empty() && partitions.empty()) return t;
    CpuSet isolated;
    if (!isolate.empty()) {
        auto set = CpuSet::parseList(isolate);
        if (!set) return Error{where + ": isolate " + isolate + ": " + set.error()};
        isolated = *set;
    }
    std::optional<std::vector<CpuSet>> parts;
    if (!partitions.empty()) {
        parts.emplace();
        std::string list;
        std::istringstream words(partitions);
        while (std::getline(words, list, ';')) {
            std::istringstream inner(list);
            for (std::string one; inner >> one;) {
                auto set = CpuSet::parseList(one);
                if (!set) {
                    std::string e = where;
                    e += ": partition " + one;
                    e += ": " + set.error();
                    return Error{e};
                }
                parts->push_back(*set);
            }
        }
    }
    return withCpusets(std::move(t), isolated, parts, where);
}

std::pair<TopologySpec, DomainChoices> whatIfsAsChoices(TopologySpec spec, DomainChoices choices) {
    choices.distances = spec.numaDistances ? numaDistancesText(*spec.numaDistances) : std::string{};
    spec.numaDistances.reset();
    choices.isolate = spec.isolate.empty() ? std::string{} : spec.isolate.toList();
    choices.partitions.clear();
    if (spec.partitions)
        for (const CpuSet& p : *spec.partitions) choices.partitions += (choices.partitions.empty() ? "" : "; ") + p.toList();
    spec.isolate = {};
    spec.partitions.reset();
    return {std::move(spec), std::move(choices)};
}

namespace {
// " (2 without CPUs)" where some nodes are memory only (HBM, CXL): they hold no sched domain
QString cpuLessNodes(const Topology& t) {
    const auto n = std::count_if(t.nodes.begin(), t.nodes.end(), [](const NumaNode& node) { return node.cpus.empty(); });
    return n > 0 ? QStringLiteral(" (%1 without CPUs)").arg(n) : QString();
}
}  // namespace

QString Session::title() const {
    if (!topology) return {};
    auto count = [](qsizetype n, const QString& one, const QString& many) -> QString {
        return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
    };
    return qs(topology->name) + QStringLiteral(" \u2014 ") +
           count(topology->onlineCount(), QStringLiteral("CPU"), QStringLiteral("CPUs")) + QStringLiteral(", ") +
           count(topology->packageCount(), QStringLiteral("package"), QStringLiteral("packages")) + QStringLiteral(", ") +
           count(qsizetype(topology->nodes.size()), QStringLiteral("NUMA node"), QStringLiteral("NUMA nodes")) +
           cpuLessNodes(*topology);
}

}  // namespace schedscope::gui
