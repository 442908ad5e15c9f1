#pragma once
// What the window shows: one topology, the options its domains were built with, and the tree.
// Immutable once made and shared between threads by pointer, so a worker can build the next
// one while the views keep painting this one.
#include <QMetaType>
#include <QString>
#include <memory>
#include <utility>

#include "domains/domain_builder.h"
#include "topology/topology_source.h"
#include "topology_layout.h"

namespace schedscope::gui {

// The user's domain-building choices (toolbar toggles); the arch comes from the topology.
struct DomainChoices {
    bool cls = true;
    bool node = true;
    std::string profile;  // empty: the newest profile
    // the loader chose `profile` from the input (this machine's running kernel, a kernel log's),
    // the user did not: a trace opened over it builds its machine under the trace's own kernel
    bool profileFromInput = false;
    // What-if cpusets, as typed: CPUs to isolate (a cpulist) and root partitions (cpulists
    // separated by spaces or ';'); empty: the input's own.
    std::string isolate;
    std::string partitions;
    // A what-if NUMA distance table as typed (--numa-distances' text); empty: the input's
    std::string distances;

    DomainBuildOptions toOptions(const Topology& topology) const;
    bool whatIf() const { return !isolate.empty() || !partitions.empty() || !distances.empty(); }
    // `input` with these distances and cpusets; an error (a table or list that does not parse,
    // a table of another size than the machine's, a CPU not online, partitions that overlap)
    // names `where`
    Result<Topology> applyWhatIfs(const Topology& input, const std::string& where) const;
    friend bool operator==(const DomainChoices&, const DomainChoices&) = default;
};

// `spec` without its what-ifs (--isolate, --partition, --numa-distances), and `choices` with them
// as the toolbar's fields hold them, in place of any there: the user sees the what-ifs in effect,
// and a rebuild can edit or undo them (in the spec they would be part of the input)
std::pair<TopologySpec, DomainChoices> whatIfsAsChoices(TopologySpec spec, DomainChoices choices);

struct Session {
    TopologySpec spec;
    DomainChoices choices;
    std::shared_ptr<const Topology> topology;  // the input with the choices' what-ifs
    std::shared_ptr<const Topology> input;     // as loaded: rebuilds start from it
    std::shared_ptr<const DomainTree> tree;
    // The topology view's boxes, grouped on the worker: for a thousand CPUs that takes longer
    // than the GUI thread may block. Shared by rebuilds, like the topology.
    std::shared_ptr<const TopologyLayout> layout;
    std::vector<std::string> problems;  // validateDomainTree() output and builder warnings
    double loadMs = 0, buildMs = 0;

    QString title() const;  // "kunpeng920-24 — 96 CPUs"
};

using SessionPtr = std::shared_ptr<const Session>;

}  // namespace schedscope::gui

Q_DECLARE_METATYPE(schedscope::gui::SessionPtr)
