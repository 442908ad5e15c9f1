#include "session.h"

#include "qt_convert.h"

namespace schedscope::gui {

DomainBuildOptions DomainChoices::toOptions(const Topology& topology) const {
    DomainBuildOptions opt;
    opt.arch = topology.arch;
    opt.cls = cls;
    opt.node = node;
    opt.profile = profile.empty() ? nullptr : findProfile(profile);
    return opt;
}

QString Session::title() const {
    if (!topology) return {};
    return qs(topology->name) + QStringLiteral(" \u2014 %1 CPUs, %2 packages, %3 NUMA nodes")
                                    .arg(topology->onlineCount())
                                    .arg(topology->packageCount())
                                    .arg(topology->nodes.size());
}

}  // namespace schedscope::gui
