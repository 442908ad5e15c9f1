#include "domains/domain_builder.h"

#include <algorithm>
#include <map>
#include <memory>

#include "domains/sd_flags.h"
#include "domains/topology_levels.h"

namespace schedscope {
namespace {

constexpr unsigned kCapacityScale = 1024;  // SCHED_CAPACITY_SCALE

// One per (topology level, CPU): the kernel's per-cpu sdd->sd slots. Slots of levels a CPU never
// reached (its span covered the whole cpu_map earlier) stay unbuilt, like the kernel's zeroed ones.
struct Slot {
    bool built = false;
    SchedDomain sd;
};

class Builder {
public:
    // cpuMap: the CPUs one build_sched_domains() call covers (a root domain's)
    Builder(const Topology& t, const DomainBuildOptions& o, CpuSet cpuMap)
        : topo_(t), opt_(o), profile_(o.profile ? *o.profile : defaultProfile()), cpuMap_(std::move(cpuMap)) {}

    DomainTree run() {
        DomainTree tree;
        tree.profile = &profile_;
        tree.arch = opt_.arch;
        // what the kernel builds: the option, if the profile's kernel has the level at all
        tree.clsEnabled = buildsClusterLevel(opt_, profile_);
        tree.nodeEnabled = opt_.node && profile_.hasNodeLevel;
        levels_ = topologyLevels(topo_, opt_, tree.warnings, tree.notes);
        for (const auto& l : levels_) tree.levels.push_back({l.name, l.overlap, l.numaLevel, l.numaDistance});
        tree.isolated = topo_.onlineCpus() & topo_.isolated;
        tree.cpus.resize(topo_.cpus.size());
        for (size_t i = 0; i < tree.cpus.size(); ++i) {
            tree.cpus[i].cpu = static_cast<int>(i);
            tree.cpus[i].capacity = topo_.cpus[i].capacity;
        }
        if (levels_.empty()) return tree;

        // Capacity asymmetry classes (asym_cap_list): distinct capacities present in cpu_map.
        cpuMap_.forEach([&](int c) { capacities_.push_back(topo_.cpus[static_cast<size_t>(c)].capacity); });
        std::sort(capacities_.begin(), capacities_.end());
        capacities_.erase(std::unique(capacities_.begin(), capacities_.end()), capacities_.end());

        slots_.assign(levels_.size(), std::vector<Slot>(topo_.cpus.size()));
        masks_.assign(levels_.size(), std::vector<CpuSet>(topo_.cpus.size()));
        for (size_t level = 0; level < levels_.size(); ++level)
            cpuMap_.forEach([&](int cpu) { masks_[level][static_cast<size_t>(cpu)] = levels_[level].mask(cpu); });
        computeSpanSanity();
        if (profile_.asymCapacity == AsymCapacityRule::OneLevel || profile_.asymCapacity == AsymCapacityRule::FromLevel)
            asymLevel_ = asymCpuCapacityLevel();
        if (!buildAllDomains(tree.warnings)) return tree;  // the kernel gives up: no domains at all
        buildAllGroups();
        computeNumaImbalance();
        cpuMap_.forEach([&](int cpu) { tree.cpus[static_cast<size_t>(cpu)].domains = attachDomain(cpu); });
        return tree;
    }

private:
    Slot& slot(size_t level, int cpu) { return slots_[level][static_cast<size_t>(cpu)]; }
    Slot* child(size_t level, int cpu) {
        if (level == 0) return nullptr;
        Slot& s = slot(level - 1, cpu);
        return s.built ? &s : nullptr;
    }

    // mirrors topology_span_sane(): non-NUMA levels must be equal or disjoint across CPUs.
    // Computed once per level as the set of CPUs whose mask partially overlaps another CPU's
    // (the kernel re-checks all CPUs per CPU, which is quadratic).
    void computeSpanSanity() {
        insane_.assign(levels_.size(), CpuSet{});
        for (size_t level = 0; level < levels_.size(); ++level) {
            if (levels_[level].overlap) continue;
            std::map<CpuSet, int> distinct;  // mask -> id
            std::vector<const CpuSet*> byId;
            cpuMap_.forEach([&](int cpu) {
                auto [it, added] = distinct.emplace(masks_[level][static_cast<size_t>(cpu)], static_cast<int>(byId.size()));
                if (added) byId.push_back(&it->first);
            });
            std::vector<int> owner(topo_.cpus.size() + 1, -1);
            std::vector<bool> conflicting(byId.size(), false);
            for (size_t id = 0; id < byId.size(); ++id) {
                byId[id]->forEach([&](int c) {
                    if (static_cast<size_t>(c) >= owner.size()) owner.resize(static_cast<size_t>(c) + 1, -1);
                    int& o = owner[static_cast<size_t>(c)];
                    if (o >= 0 && o != static_cast<int>(id)) conflicting[id] = conflicting[static_cast<size_t>(o)] = true;
                    o = static_cast<int>(id);
                });
            }
            cpuMap_.forEach([&](int cpu) {
                if (conflicting[static_cast<size_t>(distinct[masks_[level][static_cast<size_t>(cpu)]])]) insane_[level].set(cpu);
            });
        }
    }

    // mirrors asym_cpu_capacity_classify()
    uint32_t asymCapacityClassify(const CpuSet& span) {
        if (capacities_.size() < 2) return 0;
        int count = 0, miss = 0;
        for (unsigned cap : capacities_) {
            bool in = false;
            span.forEach([&](int c) { in = in || topo_.cpus[static_cast<size_t>(c)].capacity == cap; });
            if (in) ++count; else ++miss;
        }
        if (count < 2) return 0;
        return miss ? SD_ASYM_CPUCAPACITY : (SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL);
    }

    // mirrors asym_cpu_capacity_level() (4.20-5.13): the lowest level at which every CPU sees a
    // CPU of the highest capacity it can see; -1 when the cpu_map's CPUs all have one capacity.
    // It runs before sd_init(), which is what sets the NUMA level sd_numa_mask() reads: at boot
    // that is level 0, so the NODE and NUMA levels all show the CPU's own node here (5.14 moved
    // the check into sd_init()). A CPU whose node lacks the largest capacity does not see it.
    int asymCpuCapacityLevel() const {
        if (capacities_.size() < 2) return -1;
        int asymLevel = -1;
        cpuMap_.forEach([&](int cpu) {
            unsigned maxCap = topo_.cpus[static_cast<size_t>(cpu)].capacity;
            const CpuSet node = topo_.nodeCpus(topo_.cpus[static_cast<size_t>(cpu)].node);
            for (size_t level = 0; level < levels_.size(); ++level) {
                const CpuSet& mask = levels_[level].numaLevel >= 0 ? node : masks_[level][static_cast<size_t>(cpu)];
                (mask & cpuMap_).forEach([&](int other) {
                    const unsigned cap = topo_.cpus[static_cast<size_t>(other)].capacity;
                    if (cap <= maxCap) return;
                    maxCap = cap;
                    asymLevel = std::max(asymLevel, static_cast<int>(level));
                });
            }
        });
        return asymLevel;
    }

    // the asymmetry flags the profile's kernel gives the domain at `level` with span `span`
    uint32_t asymCapacityFlags(size_t level, const CpuSet& span) {
        switch (profile_.asymCapacity) {
        case AsymCapacityRule::None: return 0;
        case AsymCapacityRule::OneLevel: return static_cast<int>(level) == asymLevel_ ? uint32_t{SD_ASYM_CPUCAPACITY} : 0u;
        case AsymCapacityRule::FromLevel:
            return asymLevel_ >= 0 && static_cast<int>(level) >= asymLevel_ ? uint32_t{SD_ASYM_CPUCAPACITY} : 0u;
        case AsymCapacityRule::PerSpan: return asymCapacityClassify(span);
        }
        return 0;
    }

    // mirrors sd_init()
    void sdInit(size_t level, int cpu, SchedDomain& sd) {
        const TopologyLevel& tl = levels_[level];
        const CpuSet& mask = masks_[level][static_cast<size_t>(cpu)];
        // the balance intervals scale with the level's CPUs; since 7.1 only those of the cpu_map
        // (the CPUs left out as isolated no longer count)
        const unsigned weight =
            static_cast<unsigned>(profile_.sdWeightWithinCpuMap ? (cpuMap_ & mask).count() : mask.count());
        sd.level = tl.name;
        sd.topologyLevel = static_cast<int>(level);
        sd.numaLevel = tl.numaLevel;
        sd.numaDistance = tl.numaDistance;
        sd.minInterval = weight;
        sd.maxInterval = 2 * weight;
        sd.busyFactor = profile_.busyFactor;
        sd.imbalancePct = profile_.defaultImbalancePct;
        sd.cacheNiceTries = 0;
        sd.flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_PREFER_SIBLING |
                   tl.sdFlags;
        sd.span = cpuMap_ & mask;
        sd.flags |= asymCapacityFlags(level, sd.span);
        if (sd.flags & SD_ASYM_CPUCAPACITY) {
            // Don't attempt to spread across CPUs of different capacities.
            if (Slot* c = child(level, cpu)) c->sd.flags &= ~SD_PREFER_SIBLING;
            // 4.20-5.6: wakeups balance here and below ("for_each_lower_domain")
            if (profile_.asymBalanceWake) {
                sd.flags |= SD_BALANCE_WAKE;
                for (size_t below = level; below-- > 0;)
                    if (slot(below, cpu).built) slot(below, cpu).sd.flags |= SD_BALANCE_WAKE;
            }
        }

        if (sd.flags & SD_SHARE_CPUCAPACITY) {
            sd.imbalancePct = 110;
        } else if (sd.flags & SD_SHARE_LLC) {
            sd.imbalancePct = 117;
            sd.cacheNiceTries = 1;
        } else if (sd.flags & SD_NUMA) {
            sd.cacheNiceTries = 2;
            sd.flags &= ~SD_PREFER_SIBLING;
            sd.flags |= SD_SERIALIZE;
            if (tl.numaDistance > topo_.nodeReclaimDistance)
                sd.flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
        } else {
            sd.cacheNiceTries = 1;
        }
    }

    // mirrors the first loop of build_sched_domains() with build_sched_domain()
    bool buildAllDomains(std::vector<std::string>& warnings) {
        bool ok = true;
        cpuMap_.forEach([&](int cpu) {
            if (!ok) return;
            for (size_t level = 0; level < levels_.size(); ++level) {
                if (insane_[level].test(cpu)) {
                    warnings.push_back("topology_span_sane failed: level " + levels_[level].name + " of cpu" +
                                       std::to_string(cpu) +
                                       " partially overlaps another CPU's; the kernel builds no sched domains");
                    ok = false;
                    return;
                }
                Slot& s = slot(level, cpu);
                s.built = true;
                sdInit(level, cpu, s.sd);
                if (Slot* c = child(level, cpu); c && !c->sd.span.isSubsetOf(s.sd.span)) {
                    warnings.push_back("BUG: arch topology borken: the " + c->sd.level + " domain of cpu" +
                                       std::to_string(cpu) + " is not a subset of the " + s.sd.level + " domain");
                    s.sd.span |= c->sd.span;
                }
                if (levels_[level].overlap) s.sd.flags |= SD_OVERLAP;
                if (s.sd.span == cpuMap_) break;
            }
        });
        return ok;
    }

    unsigned capacityOf(const CpuSet& span) const {
        unsigned cap = 0;
        span.forEach([&](int c) { cap += topo_.cpus[static_cast<size_t>(c)].capacity; });
        return cap;
    }

    // mirrors build_sched_groups() / get_group(): each group is a child domain's span
    std::vector<SchedGroup> buildSchedGroups(size_t level, int cpu) {
        std::vector<SchedGroup> groups;
        CpuSet covered;
        for (int i : slot(level, cpu).sd.span.toVectorWrappedFrom(cpu)) {
            if (covered.test(i)) continue;
            SchedGroup g;
            Slot& sib = slot(level, i);
            Slot* c = sib.built ? child(level, i) : nullptr;
            g.span = c ? c->sd.span : CpuSet::single(i);
            g.balanceMask = g.span;
            g.capacity = capacityOf(g.span);
            covered |= g.span;
            groups.push_back(std::move(g));
        }
        return groups;
    }

    // mirrors find_descended_sibling(): on NUMA diameters >= 3 the sibling's child can span out
    // of the domain being built; go down until it does not, then skip levels that will degenerate.
    size_t findDescendedSibling(const SchedDomain& sd, size_t level, int cpu) {
        while (level > 0 && slot(level - 1, cpu).built && !slot(level - 1, cpu).sd.span.isSubsetOf(sd.span)) --level;
        while (level > 0 && slot(level - 1, cpu).built && slot(level - 1, cpu).sd.span == slot(level, cpu).sd.span)
            --level;
        return level;
    }

    // mirrors build_overlap_sched_groups() with build_group_from_child_sched_domain() and
    // build_balance_mask()
    std::vector<SchedGroup> buildOverlapSchedGroups(size_t level, int cpu) {
        const SchedDomain& sd = slot(level, cpu).sd;
        std::vector<SchedGroup> groups;
        CpuSet covered;
        for (int i : sd.span.toVectorWrappedFrom(cpu)) {
            if (covered.test(i)) continue;
            Slot& sibling = slot(level, i);
            // Asymmetric node setups: a sibling whose tree ended early has an empty span.
            if (!sibling.built || !sibling.sd.span.test(i)) continue;
            // only a sibling whose child spans out of sd descends (the kernel's condition): a
            // child equal to the sibling stays, and the domain then has one group and degenerates
            // (a cpuset partition that cuts a NUMA level down to its child's span). Before 5.13
            // none did: the group was the child's span, past sd's on a NUMA diameter above 2.
            Slot* direct = child(level, i);
            const bool spansOut = direct && !direct->sd.span.isSubsetOf(sd.span) && profile_.numaDescendedSibling;
            size_t sibLevel = spansOut ? findDescendedSibling(sd, level, i) : level;
            Slot* sibChild = child(sibLevel, i);
            SchedGroup g;
            g.span = sibChild ? sibChild->sd.span : slot(sibLevel, i).sd.span;
            // The mask depends only on (level, group span): CPUs sharing a group share it.
            auto key = std::make_pair(sibLevel, g.span);
            auto cached = balanceMasks_.find(key);
            if (cached == balanceMasks_.end()) {
                CpuSet mask;
                g.span.forEach([&](int k) {
                    Slot* kc = slot(sibLevel, k).built ? child(sibLevel, k) : nullptr;
                    if (kc && kc->sd.span == g.span) mask.set(k);
                });
                cached = balanceMasks_.emplace(key, mask).first;
            }
            g.balanceMask = cached->second;
            g.capacity = kCapacityScale * static_cast<unsigned>(g.span.count());  // init_overlap_sched_group()
            covered |= g.span;
            groups.push_back(std::move(g));
        }
        return groups;
    }

    // build_sched_domains() builds every CPU's groups in CPU order, and for non-overlapping
    // levels get_group() hands out one shared sched_group per child span: each build relinks the
    // same ring, so the ring left is the one built from the span's last CPU, and each CPU's
    // sd->groups points at its own group in it. Overlapping (NUMA) groups stay per CPU.
    void buildAllGroups() {
        std::map<std::pair<size_t, CpuSet>, std::shared_ptr<const std::vector<SchedGroup>>> rings;
        cpuMap_.forEach([&](int cpu) {
            for (size_t level = 0; level < levels_.size() && slot(level, cpu).built; ++level) {
                Slot& s = slot(level, cpu);
                if (s.sd.flags & SD_OVERLAP) {
                    s.sd.groups = GroupRing(buildOverlapSchedGroups(level, cpu));
                    continue;
                }
                auto key = std::make_pair(level, s.sd.span);
                auto found = rings.find(key);
                if (found == rings.end()) {
                    const int last = s.sd.span.last();
                    const bool lastShares = slot(level, last).built && slot(level, last).sd.span == s.sd.span;
                    auto ring = std::make_shared<const std::vector<SchedGroup>>(buildSchedGroups(level, lastShares ? last : cpu));
                    found = rings.emplace(std::move(key), std::move(ring)).first;
                }
                const std::vector<SchedGroup>& ring = *found->second;
                size_t own = 0;
                while (own < ring.size() && !ring[own].span.test(cpu)) ++own;
                s.sd.groups = GroupRing(found->second, own < ring.size() ? own : 0);
            }
        });
    }

    // mirrors the imb_numa_nr computation in build_sched_domains() (5.18+)
    void computeNumaImbalance() {
        cpuMap_.forEach([&](int cpu) {
            unsigned imb = 0, imbSpan = 1;
            for (size_t level = 0; level < levels_.size() && slot(level, cpu).built; ++level) {
                SchedDomain& sd = slot(level, cpu).sd;
                Slot* c = child(level, cpu);
                unsigned weight = static_cast<unsigned>(sd.span.count());
                if (!(sd.flags & SD_SHARE_LLC) && c && (c->sd.flags & SD_SHARE_LLC)) {
                    unsigned nrLlcs = weight / static_cast<unsigned>(c->sd.span.count());
                    imb = std::max(1u, nrLlcs == 1 ? weight >> 3 : nrLlcs);
                    sd.imbNumaNr = imb;
                    size_t top = level + 1;
                    while (top < levels_.size() && slot(top, cpu).built && !(slot(top, cpu).sd.flags & SD_NUMA)) ++top;
                    bool found = top < levels_.size() && slot(top, cpu).built;
                    imbSpan = found ? static_cast<unsigned>(slot(top, cpu).sd.span.count()) : weight;
                } else {
                    unsigned factor = std::max(1u, weight / imbSpan);
                    sd.imbNumaNr = imb * factor;
                }
            }
        });
    }

    // mirrors sd_degenerate(); before 5.10 every domain had SD_LOAD_BALANCE, one of the flags
    // that need groups, so any domain of several groups stayed
    bool sdDegenerate(const SchedDomain& sd) const {
        if (sd.span.count() == 1) return true;
        const bool needsGroups = legacyMasks() || (sd.flags & sdDegenerateGroupsMask());
        if (needsGroups && sd.groups.size() > 1) return false;
        if (sd.flags & SD_WAKE_AFFINE) return false;
        return true;
    }

    // mirrors sd_parent_degenerate()
    bool sdParentDegenerate(const SchedDomain& sd, const SchedDomain& parent) const {
        if (sdDegenerate(parent)) return true;
        if (!(sd.span == parent.span)) return false;
        uint32_t pflags = parent.flags;
        if (parent.groups.size() <= 1) pflags &= ~(legacyMasks() ? legacyParentGroupsMask() : sdDegenerateGroupsMask());
        return (~sd.flags & pflags) == 0;
    }

    bool legacyMasks() const { return opt_.profile && opt_.profile->legacyDegenerateMasks; }
    // the flags a one-group parent drops before 5.10 (SD_LOAD_BALANCE and SD_SHARE_POWERDOMAIN
    // too, which every domain or none had); SD_SERIALIZE only when there is a single node
    uint32_t legacyParentGroupsMask() const {
        uint32_t m = SD_BALANCE_NEWIDLE | SD_BALANCE_FORK | SD_BALANCE_EXEC | SD_ASYM_CPUCAPACITY | SD_SHARE_CPUCAPACITY |
                     SD_SHARE_LLC | SD_PREFER_SIBLING;
        if (topo_.nodes.size() <= 1) m |= SD_SERIALIZE;
        return m;
    }

    // mirrors cpu_attach_domain(): remove the domains that do not contribute to scheduling
    std::vector<SchedDomain> attachDomain(int cpu) {
        std::vector<SchedDomain> chain;
        for (size_t level = 0; level < levels_.size() && slot(level, cpu).built; ++level)
            chain.push_back(slot(level, cpu).sd);
        size_t i = 0;
        while (i + 1 < chain.size()) {
            if (sdParentDegenerate(chain[i], chain[i + 1])) {
                // SD_PREFER_SIBLING moves down from a degenerate parent: the spans match.
                if (chain[i + 1].flags & SD_PREFER_SIBLING) chain[i].flags |= SD_PREFER_SIBLING;
                chain.erase(chain.begin() + static_cast<long>(i) + 1);
            } else {
                ++i;
            }
        }
        // Only the base domain is checked once more, as the kernel does.
        if (!chain.empty() && sdDegenerate(chain.front())) chain.erase(chain.begin());
        return chain;
    }

    const Topology& topo_;
    DomainBuildOptions opt_;
    const KernelProfile& profile_;
    std::vector<TopologyLevel> levels_;
    CpuSet cpuMap_;
    std::vector<unsigned> capacities_;
    int asymLevel_ = -1;  // asym_cpu_capacity_level()'s level (4.20-5.13), -1: none
    std::vector<std::vector<Slot>> slots_;
    std::vector<std::vector<CpuSet>> masks_;  // tl->mask(cpu), computed once
    std::map<std::pair<size_t, CpuSet>, CpuSet> balanceMasks_;  // build_balance_mask() results
    std::vector<CpuSet> insane_;              // per level: CPUs failing topology_span_sane()
};

}  // namespace

std::string levelNeverBuilt(const std::string& level, Arch arch, const KernelProfile& profile) {
    if (level == "CLS") {
        // the arch first: no kernel version of it builds the level
        if (arch != Arch::X86_64 && arch != Arch::Arm64)
            return std::string(archName(arch)) + " kernels build no CLS level (no SCHED_CLUSTER)";
        if (!profile.hasClusterLevel) return profile.name + " has no CLS level (5.16+)";
    }
    if (level == "NODE" && !profile.hasNodeLevel) return profile.name + " has no NODE level (4.15+)";
    return {};
}

std::string levelChangesNothing(const Topology& topology, const DomainBuildOptions& options, const std::string& level) {
    const KernelProfile& profile = options.profile ? *options.profile : defaultProfile();
    if (std::string why = levelNeverBuilt(level, options.arch, profile); !why.empty()) return why;
    DomainBuildOptions on = options, off = options;
    (level == "CLS" ? on.cls : on.node) = true;
    (level == "CLS" ? off.cls : off.node) = false;
    auto a = buildDomains(topology, off);
    auto b = buildDomains(topology, on);
    if (!a || !b) return {};  // the caller's own build says what is wrong
    return levelChangesNothing(topology, *a, *b, level);
}

std::string levelChangesNothing(const Topology& topology, const DomainTree& off, const DomainTree& on, const std::string& level) {
    for (size_t c = 0; c < off.cpus.size() && c < on.cpus.size(); ++c) {
        const auto& x = off.cpus[c].domains;
        const auto& y = on.cpus[c].domains;
        if (x.size() != y.size()) return {};
        for (size_t i = 0; i < x.size(); ++i) {
            if (x[i].level != y[i].level || !(x[i].span == y[i].span) || x[i].flags != y[i].flags ||
                x[i].groups.size() != y[i].groups.size())
                return {};
            for (size_t g = 0; g < x[i].groups.size(); ++g)
                if (!(x[i].groups[g].span == y[i].groups[g].span)) return {};
        }
    }
    return topology.name + " has no " + level + " domain of its own (" +
           (level == "CLS" ? "no cluster wider than a core and narrower than its LLC"
                           : "no NUMA node holding several LLCs or packages") +
           ")";
}

bool buildsClusterLevel(const DomainBuildOptions& options, const KernelProfile& profile) {
    return options.cls && options.config.schedCluster && levelNeverBuilt("CLS", options.arch, profile).empty();
}

Result<DomainTree> buildDomains(const Topology& topology, const DomainBuildOptions& options) {
    if (auto st = topology.check(); !st) return Error{st.error()};
    // partition_sched_domains(): one build_sched_domains() per root domain, each over its own
    // CPUs (housekeeping_cpumask(HK_TYPE_DOMAIN) of the active ones), nothing shared between them
    const std::vector<CpuSet> spans = topology.rootDomainSpans();
    DomainTree tree = Builder(topology, options, spans.front()).run();
    for (size_t i = 1; i < spans.size(); ++i) {
        DomainTree part = Builder(topology, options, spans[i]).run();
        spans[i].forEach([&](int c) { tree.cpus[static_cast<size_t>(c)] = std::move(part.cpus[static_cast<size_t>(c)]); });
        for (std::string& w : part.warnings)
            if (std::find(tree.warnings.begin(), tree.warnings.end(), w) == tree.warnings.end()) tree.warnings.push_back(std::move(w));
    }
    for (const CpuSet& rd : spans) tree.builtFor |= rd;
    if (!topology.rootPartitions.empty()) tree.rootDomains = spans;
    return tree;
}

}  // namespace schedscope
