#include "topology/topology_format.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "util/json_error.h"

namespace schedscope {

nlohmann::json topologyToJson(const Topology& t) {
    using nlohmann::json;
    json cpus = json::array();
    for (const auto& c : t.cpus) {
        if (!c.online) {
            cpus.push_back({{"cpu", c.id}, {"online", false}});
            continue;
        }
        json caches = json::array();
        for (const auto& k : c.caches) {
            json jk = {{"level", k.level}, {"type", k.type}, {"shared", k.shared.toList()}};
            if (k.sizeKB > 0) jk["size_kb"] = k.sizeKB;
            caches.push_back(std::move(jk));
        }
        json jc = {{"cpu", c.id},
                   {"online", true},
                   {"node", c.node},
                   {"package", c.packageId},
                   {"die", c.dieId},
                   {"cluster", c.clusterId},
                   {"core", c.coreId},
                   {"thread_siblings", c.threadSiblings.toList()},
                   {"cluster_cpus", c.clusterCpus.toList()},
                   {"llc_cpus", t.llcCpus(c.id).toList()},
                   {"die_cpus", c.dieCpus.toList()},
                   {"package_cpus", c.packageCpus.toList()},
                   {"capacity", c.capacity},
                   {"caches", caches}};
        if (!t.kindNames.empty()) jc["kind"] = t.kindNames[static_cast<size_t>(c.kind)];
        if (!c.bookCpus.empty()) jc["book_cpus"] = c.bookCpus.toList();
        if (!c.drawerCpus.empty()) jc["drawer_cpus"] = c.drawerCpus.toList();
        cpus.push_back(jc);
    }
    json nodes = json::array();
    for (size_t i = 0; i < t.nodes.size(); ++i)
        nodes.push_back({{"node", t.nodes[i].id}, {"cpus", t.nodes[i].cpus.toList()}, {"distance", t.distance[i]}});
    for (size_t i = 0; i < t.nodes.size(); ++i)
        if (t.nodes[i].cpusHidden) nodes[i]["cpus_hidden"] = true;
    json out = {{"name", t.name},
                {"source", t.source},
                {"arch", archName(t.arch)},
                {"online_cpus", t.onlineCpus().toList()},
                {"packages", t.packageCount()},
                {"node_reclaim_distance", t.nodeReclaimDistance},
                {"nodes", nodes},
                {"cpus", cpus}};
    // what changes the domains beyond the masks: the kinds in hwloc's order (the least powerful
    // first), the ITMT switch, the isolated CPUs and the cpuset root partitions, when the source
    // had them
    if (!t.kindNames.empty()) out["kinds"] = t.kindNames;
    if (!t.cpuModel.empty()) out["cpu_model"] = t.cpuModel;
    if (!t.cpuVendor.empty()) out["cpu_vendor"] = t.cpuVendor;
    if (t.cpuFamily >= 0) out["cpu_family"] = t.cpuFamily;
    if (t.cpuModelNumber >= 0) out["cpu_model_number"] = t.cpuModelNumber;
    if (t.itmtEnabled) out["itmt"] = *t.itmtEnabled;
    if (!t.isolated.empty()) out["isolated"] = t.isolated.toList();
    if (!t.rootPartitions.empty()) {
        auto& parts = out["root_partitions"] = nlohmann::json::array();
        for (const CpuSet& p : t.rootPartitions) parts.push_back(p.toList());
    }
    return out;
}

std::string topologyToText(const Topology& t) {
    std::ostringstream out;
    CpuSet online = t.onlineCpus();
    out << t.name << " (" << t.source << ", " << archName(t.arch) << "): " << online.count() << " CPUs, "
        << t.packageCount() << " package(s), " << t.nodes.size() << " NUMA node(s)";
    // memory-only nodes (HBM, CXL, or CPUs a lower node claimed): they hold no domain
    const auto cpuLess = std::count_if(t.nodes.begin(), t.nodes.end(), [](const NumaNode& n) { return n.cpus.empty(); });
    if (cpuLess > 0) out << " (" << cpuLess << " without CPUs)";
    out << (t.cpuModel.empty() ? "" : ", " + t.cpuModel) << "\n";
    // Group CPUs the way lstopo nests them: package > node > LLC > cluster > core > CPU, or
    // package > LLC > node where an LLC holds several nodes (sub-NUMA clustering).
    const bool llcHoldsNodes = t.llcHoldsNodes();
    std::map<int, std::map<int, std::map<int, std::map<int, std::set<CpuSet>>>>> tree;
    for (const auto& c : t.cpus) {
        if (!c.online) continue;
        const int llc = t.llcCpus(c.id).first();
        tree[c.packageCpus.first()][llcHoldsNodes ? llc : c.node][llcHoldsNodes ? c.node : llc][c.clusterCpus.first()].insert(
            c.threadSiblings);
    }
    auto nodeLine = [&](int node) { return "NUMANode " + std::to_string(node) + " (cpus " + t.nodeCpus(node).toList() + ")\n"; };
    auto llcLine = [&](int cpu) {
        const CacheInfo* llc = t.llc(cpu);
        const std::string size = llc && llc->sizeKB > 0 ? ", L" + std::to_string(llc->level) + " " + cacheSizeText(llc->sizeKB) : "";
        return "LLC (cpus " + t.llcCpus(cpu).toList() + size + ")\n";
    };
    for (const auto& [pkg, outer] : tree) {
        out << "  Package (cpus " << t.cpus[static_cast<size_t>(pkg)].packageCpus.toList() << ")\n";
        for (const auto& [first, inner] : outer) {
            out << "    " << (llcHoldsNodes ? llcLine(first) : nodeLine(first));
            for (const auto& [second, clusters] : inner) {
                out << "      " << (llcHoldsNodes ? nodeLine(second) : llcLine(second));
                for (const auto& [cl, cores] : clusters) {
                    const CpuSet& clSet = t.cpus[static_cast<size_t>(cl)].clusterCpus;
                    bool showCluster = clSet.count() > t.cpus[static_cast<size_t>(cl)].threadSiblings.count();
                    std::string indent = showCluster ? "          " : "        ";
                    if (showCluster) out << "        Cluster (cpus " << clSet.toList() << ")\n";
                    for (const auto& core : cores) out << indent << "Core: CPU " << core.toList() << "\n";
                }
            }
        }
    }
    if (t.nodes.size() > 1) {
        out << "  NUMA distances:\n";
        for (size_t i = 0; i < t.nodes.size(); ++i) {
            out << "    node" << t.nodes[i].id << ":";
            for (int d : t.distance[i]) out << " " << d;
            out << "\n";
        }
    }
    return out.str();
}

}  // namespace schedscope

namespace schedscope {
namespace {

// Every integer of the format is read through here: nlohmann's get<int>() converts a float as
// it is (1e224 into an int is undefined behaviour) and lets a too large integer wrap.
long long integerIn(const nlohmann::json& v, const std::string& key, long long lo, long long hi) {
    const std::string range = key + " must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
    if (!v.is_number_integer()) throw std::runtime_error(range);
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi)) throw std::runtime_error(range);
    const long long x = v.get<long long>();
    if (x < lo || x > hi) throw std::runtime_error(range);
    return x;
}
int intAt(const nlohmann::json& obj, const std::string& where, const char* key) {
    return static_cast<int>(integerIn(obj.at(key), where + key, INT_MIN, INT_MAX));
}
int intOr(const nlohmann::json& obj, const std::string& where, const char* key, int fallback) {
    return obj.contains(key) ? intAt(obj, where, key) : fallback;
}

}  // namespace

Result<Topology> topologyFromJson(const nlohmann::json& j, const std::string& what) {
    try {
        Topology t;
        t.name = j.value("name", "");
        t.source = j.value("source", "");
        auto arch = parseArch(j.value("arch", "x86_64"));
        if (!arch) return Error{what + ": " + arch.error()};
        t.arch = *arch;
        const auto& cpus = j.at("cpus");
        if (!cpus.is_array() || cpus.empty()) return Error{what + ": no cpus"};
        if (cpus.size() > static_cast<size_t>(kMaxCpus)) return Error{what + ": more than " + std::to_string(kMaxCpus) + " CPUs"};
        auto mask = [&](const nlohmann::json& c, const char* key) -> CpuSet {
            auto s = CpuSet::parseList(c.at(key).get<std::string>());
            if (!s) throw std::runtime_error(std::string(key) + ": " + s.error());
            return *s;
        };
        t.cpus.resize(cpus.size());
        t.cpuModel = j.value("cpu_model", "");
        t.cpuVendor = j.value("cpu_vendor", "");
        if (j.contains("cpu_family")) t.cpuFamily = static_cast<int>(integerIn(j.at("cpu_family"), "cpu_family", 0, 0xFFFF));
        if (j.contains("cpu_model_number"))
            t.cpuModelNumber = static_cast<int>(integerIn(j.at("cpu_model_number"), "cpu_model_number", 0, 0xFFFF));
        if (j.contains("kinds")) t.kindNames = j.at("kinds").get<std::vector<std::string>>();
        if (j.contains("itmt")) t.itmtEnabled = j.at("itmt").get<bool>();
        if (j.contains("node_reclaim_distance"))
            t.nodeReclaimDistance = static_cast<int>(integerIn(j.at("node_reclaim_distance"), "node_reclaim_distance", 10, 255));
        for (size_t i = 0; i < cpus.size(); ++i) {
            const auto& c = cpus[i];
            CpuTopology& out = t.cpus[i];
            const std::string where = "cpu " + std::to_string(i) + ": ";
            out.id = intAt(c, where, "cpu");
            if (out.id != static_cast<int>(i)) return Error{what + ": cpus must be listed in order of their id"};
            out.online = c.value("online", true);
            if (!out.online) continue;
            out.node = intAt(c, where, "node");
            out.packageId = intOr(c, where, "package", -1);
            out.dieId = intOr(c, where, "die", -1);
            out.clusterId = intOr(c, where, "cluster", -1);
            out.coreId = intOr(c, where, "core", -1);
            out.threadSiblings = mask(c, "thread_siblings");
            out.clusterCpus = mask(c, "cluster_cpus");
            out.dieCpus = mask(c, "die_cpus");
            out.packageCpus = mask(c, "package_cpus");
            out.coreSiblings = out.packageCpus;
            if (c.contains("book_cpus")) out.bookCpus = mask(c, "book_cpus");
            if (c.contains("drawer_cpus")) out.drawerCpus = mask(c, "drawer_cpus");
            if (c.contains("capacity"))
                out.capacity = static_cast<unsigned>(integerIn(c.at("capacity"), where + "capacity", 0, UINT32_MAX));
            if (c.contains("kind")) {  // by name; a kind the "kinds" list lacks joins it
                const std::string kind = c.at("kind").get<std::string>();
                auto it = std::find(t.kindNames.begin(), t.kindNames.end(), kind);
                out.kind = static_cast<int>(it - t.kindNames.begin());
                if (it == t.kindNames.end()) t.kindNames.push_back(kind);
            }
            for (const auto& k : c.value("caches", nlohmann::json::array())) {
                auto s = CpuSet::parseList(k.at("shared").get<std::string>());
                if (!s) return Error{what + ": cache: " + s.error()};
                out.caches.push_back({intAt(k, where + "cache ", "level"), k.at("type").get<std::string>(), *s,
                                      k.contains("size_kb") ? integerIn(k.at("size_kb"), where + "cache size_kb", 0, 1LL << 40) : 0});
            }
        }
        for (const auto& n : j.at("nodes")) {
            auto s = CpuSet::parseList(n.at("cpus").get<std::string>());
            if (!s) return Error{what + ": node cpus: " + s.error()};
            t.nodes.push_back({intAt(n, "nodes: ", "node"), *s, n.value("cpus_hidden", false)});
            const std::string where = "node " + std::to_string(t.nodes.back().id) + ": distance";
            const auto& distances = n.at("distance");
            if (!distances.is_array()) throw std::runtime_error(where + " must be an array");
            std::vector<int> row;
            for (const auto& d : distances) row.push_back(static_cast<int>(integerIn(d, where, INT_MIN, INT_MAX)));
            t.distance.push_back(std::move(row));
        }
        CpuSet online = t.onlineCpus();
        for (auto& n : t.nodes) n.cpus &= online;
        if (j.contains("isolated")) {
            auto s = CpuSet::parseList(j.at("isolated").get<std::string>());
            if (!s) return Error{what + ": isolated: " + s.error()};
            t.isolated = *s & online;
        }
        if (j.contains("root_partitions")) {
            const auto& parts = j.at("root_partitions");
            if (!parts.is_array()) throw std::runtime_error("root_partitions must be an array");
            for (const auto& p : parts) {
                auto s = CpuSet::parseList(p.get<std::string>());
                if (!s) return Error{what + ": root_partitions: " + s.error()};
                t.rootPartitions.push_back(*s & online);
            }
        }
        if (auto st = t.check(); !st) return Error{what + ": " + st.error()};
        return t;
    } catch (const std::exception& e) {
        return Error{what + ": malformed topology JSON (" + jsonErrorText(e.what()) + ")"};
    }
}

}  // namespace schedscope
