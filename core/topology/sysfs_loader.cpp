#include "topology/sysfs_loader.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <system_error>

#include "topology/cpuset_partitions.h"

namespace schedscope {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> readSmallFile(const fs::path& p) {
    // sysfs attributes are regular files: a FIFO in a snapshot would block the read for ever, a
    // device (a link to /dev/zero) never ends, a directory reads as nothing. Taken as absent.
    std::error_code ec;
    if (!fs::is_regular_file(fs::status(p, ec)) || ec) return std::nullopt;
    std::ifstream in(p);
    if (!in) return std::nullopt;
    // sysfs attributes are at most a page; read no more than 1 MB + 1 of a snapshot's file so a
    // huge (or endless) file cannot exhaust memory.
    constexpr size_t kLimit = 1u << 20;
    std::string text;
    char buf[4096];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<size_t>(in.gcount()));
        if (text.size() > kLimit) return std::nullopt;
    }
    // A sysfs text attribute is a C string: dumps of real machines (hwloc's test set among them)
    // keep the NUL that ends it, '0\n\0', which is no part of the value.
    if (const size_t nul = text.find('\0'); nul != std::string::npos) text.resize(nul);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.pop_back();
    return text;
}

std::optional<int> readInt(const fs::path& p) {
    auto t = readSmallFile(p);
    if (!t || t->empty()) return std::nullopt;
    try {
        size_t used = 0;
        int v = std::stoi(*t, &used);
        return used == t->size() ? std::optional<int>(v) : std::nullopt;
    } catch (...) {
        return std::nullopt;
    }
}

// A cache's size as cacheinfo prints it (size_show(): "%uK"); 0 for anything else: the size
// only tunes the simulator's cache model, so an odd one is unknown, not an error.
long long cacheSizeKB(const std::string& text) {
    if (text.size() < 2 || text.size() > 20 || text.back() != 'K') return 0;
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size() - 1, v);
    return ec == std::errc() && end == text.data() + text.size() - 1 && v > 0 ? v : 0;
}

// Where a snapshot's list and hex-mask files of one mask disagree: the first such pair, and how many.
struct MaskMismatches {
    std::string first;
    int count = 0;
};

// Reads a mask from the hex-mask file, as hwloc does, or from the cpulist file when there is no
// mask (kernels always print both, from one cpumask, so they agree; only an edited or damaged
// snapshot has them disagree, and that is counted in `mismatches`).
Result<std::optional<CpuSet>> readMaskFiles(const fs::path& dir, const std::string& listFile, const std::string& maskFile,
                                            MaskMismatches* mismatches = nullptr) {
    std::optional<CpuSet> fromList;
    if (auto t = readSmallFile(dir / listFile)) {
        auto s = CpuSet::parseList(*t);
        if (!s) return Error{(dir / listFile).string() + ": " + s.error()};
        fromList = *s;
    }
    if (auto t = readSmallFile(dir / maskFile)) {
        auto s = CpuSet::parseMask(*t);
        if (!s) return Error{(dir / maskFile).string() + ": " + s.error()};
        if (fromList && *fromList != *s && mismatches && mismatches->count++ == 0)
            mismatches->first = (dir / maskFile).string() + " says " + (s->empty() ? "none" : s->toList()) + ", " + listFile +
                                " " + (fromList->empty() ? "none" : fromList->toList());
        return std::optional<CpuSet>(*s);
    }
    return fromList;
}

// topology/<name> or topology/<name>_list
Result<std::optional<CpuSet>> readMask(const fs::path& dir, const std::string& name, MaskMismatches* mismatches) {
    return readMaskFiles(dir, name + "_list", name, mismatches);
}

bool numberedEntry(const std::string& name, const std::string& prefix, int& id) {
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return false;
    std::string digits = name.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), ::isdigit) || digits.size() > 6) return false;
    id = std::stoi(digits);
    return true;
}

// Intel hybrid CPUs: the kernel registers a PMU per core type, sys/devices/cpu_atom and
// sys/devices/cpu_core, whose `cpus` file lists that type's CPUs (hwloc reads the same files).
// Kinds in hwloc's order, the less powerful first; a snapshot without them stays homogeneous.
void readHybridKinds(const std::string& root, Topology& topo) {
    const std::pair<const char*, const char*> pmus[] = {{"cpu_atom", "IntelAtom"}, {"cpu_core", "IntelCore"}};
    std::vector<std::pair<std::string, CpuSet>> kinds;
    for (const auto& [pmu, name] : pmus) {
        auto text = readSmallFile(fs::path(root) / "sys/devices" / pmu / "cpus");
        if (!text) continue;
        auto set = CpuSet::parseList(*text);
        if (set && !set->empty()) kinds.emplace_back(name, *set);
    }
    if (kinds.size() < 2) return;
    for (size_t k = 0; k < kinds.size(); ++k) {
        topo.kindNames.push_back(kinds[k].first);
        kinds[k].second.forEach([&](int c) {
            if (static_cast<size_t>(c) < topo.cpus.size()) topo.cpus[static_cast<size_t>(c)].kind = static_cast<int>(k);
        });
    }
}

}  // namespace

std::optional<Arch> detectSnapshotArch(const std::string& root) {
    std::ifstream in(fs::path(root) / "proc/cpuinfo");
    std::string line;
    for (int n = 0; n < 200 && std::getline(in, line); ++n) {
        if (line.rfind("vendor_id", 0) == 0) return line.find("S390") != std::string::npos ? Arch::S390 : Arch::X86_64;
        if (line.rfind("CPU implementer", 0) == 0 || line.find("asimd") != std::string::npos) return Arch::Arm64;
        if (line.rfind("cpu\t", 0) == 0 && line.find("POWER") != std::string::npos) return Arch::Ppc64;
        if (line.rfind("arch", 0) == 0 && line.find("IA-64") != std::string::npos) return Arch::Generic;
    }
    // hwloc-gather-topology's dumps note the machine's uname ("Architecture: s390x")
    std::ifstream note(fs::path(root) / "proc/hwloc-nofile-info");
    for (int n = 0; n < 50 && std::getline(note, line); ++n)
        if (line.rfind("Architecture:", 0) == 0) {
            const auto start = line.find_first_not_of(' ', 13);
            if (start == std::string::npos) break;
            if (auto a = parseArch(line.substr(start))) return *a;
            break;
        }
    // Neither: the topology files tell. book_siblings is s390's (TOPOLOGY_BOOK_SYSFS);
    // die_id/die_cpus exist where the arch defines TOPOLOGY_DIE_SYSFS (x86); a 5.16+ kernel (it
    // has cluster_cpus) without them runs the generic arch_topology rules (arm64, riscv).
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(root) / "sys/devices/system/cpu", ec)) {
        int id;
        if (!numberedEntry(e.path().filename().string(), "cpu", id)) continue;
        const fs::path t = e.path() / "topology";
        if (!fs::is_directory(t, ec)) continue;
        if (fs::exists(t / "book_siblings", ec) || fs::exists(t / "book_siblings_list", ec)) return Arch::S390;
        if (fs::exists(t / "die_id", ec) || fs::exists(t / "die_cpus_list", ec)) return Arch::X86_64;
        if (fs::exists(t / "cluster_cpus_list", ec) || fs::exists(t / "cluster_cpus", ec)) return Arch::Arm64;
        return std::nullopt;  // an older kernel: its files do not say
    }
    return std::nullopt;
}

namespace {
// What /proc/cpuinfo says of the first CPU: the model x86 and riscv name in "model name" and
// powerpc in "cpu" ("POWER9 (raw), altivec supported"; arm64 gives only part numbers), and on
// x86 (the lines with vendor_id) the CPUID vendor, family and model number. Only the first
// processor's lines count: the kernel's boot_cpu_data is CPU 0's.
void readSnapshotCpuInfo(const std::string& root, Topology& topo) {
    std::ifstream in(fs::path(root) / "proc/cpuinfo");
    std::string line, family, model;
    bool x86 = false;
    for (int n = 0; n < 200 && std::getline(in, line); ++n) {
        if (line.empty() && n > 0) break;  // the end of the first processor's block
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        if ((key == "model name" || key == "cpu") && topo.cpuModel.empty()) topo.cpuModel = value;
        if (key == "vendor_id") {
            x86 = true;
            topo.cpuVendor = value;
        }
        if (key == "cpu family") family = value;
        if (key == "model") model = value;
    }
    auto number = [](const std::string& v) {
        int out = -1;
        const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
        return ec == std::errc{} && p != v.data() ? out : -1;
    };
    if (!x86) return;
    topo.cpuFamily = number(family);
    topo.cpuModelNumber = number(model);
}

// A kernel's topology masks partition the CPUs: every CPU a mask names has that same mask. The
// first pair of online CPUs whose masks overlap without being equal ("cpu1's thread_siblings
// 0-2 and cpu0's 0-1"), or "" when they all agree. Each CPU is compared with the first CPU of its
// mask, and each CPU its mask names must share that first CPU: O(CPUs + the masks' sizes).
std::string firstDisagreeingMasks(const Topology& topo) {
    std::vector<const CpuTopology*> byId(static_cast<size_t>(kMaxCpus), nullptr);
    for (const CpuTopology& c : topo.cpus)
        if (c.online && c.id >= 0 && c.id < kMaxCpus) byId[static_cast<size_t>(c.id)] = &c;
    const std::pair<const char*, CpuSet CpuTopology::*> masks[] = {{"thread_siblings", &CpuTopology::threadSiblings},
                                                               {"cluster_cpus", &CpuTopology::clusterCpus},
                                                               {"core_siblings", &CpuTopology::coreSiblings},
                                                               {"die_cpus", &CpuTopology::dieCpus},
                                                               {"package_cpus", &CpuTopology::packageCpus}};
    for (const auto& mask : masks) {
        const char* name = mask.first;
        CpuSet CpuTopology::*member = mask.second;  // (a structured binding cannot be captured below)
        for (const CpuTopology& c : topo.cpus) {
            if (!c.online) continue;
            const CpuSet& mine = c.*member;
            const CpuTopology* other = nullptr;
            mine.forEach([&](int d) {
                const CpuTopology* o = d < kMaxCpus ? byId[static_cast<size_t>(d)] : nullptr;
                if (!other && o && (o->*member).first() != mine.first()) other = o;
            });
            const CpuTopology* first = mine.empty() ? nullptr : byId[static_cast<size_t>(mine.first())];
            if (!other && first && first->*member != mine) other = first;
            if (other)
                return "cpu" + std::to_string(c.id) + "'s " + name + " " + mine.toList() + " and cpu" + std::to_string(other->id) +
                       "'s " + (other->*member).toList();
        }
    }
    return "";
}
}  // namespace

Result<Topology> loadSysfsTopology(const std::string& root, Arch arch) {
    const fs::path cpuDir = fs::path(root) / "sys/devices/system/cpu";
    const fs::path nodeDir = fs::path(root) / "sys/devices/system/node";
    std::error_code ec;
    if (!fs::is_directory(cpuDir, ec))
        return Error{root + ": not a sysfs root (no sys/devices/system/cpu directory)"};

    std::vector<int> ids;
    for (const auto& e : fs::directory_iterator(cpuDir, ec)) {
        int id;
        if (e.is_directory() && numberedEntry(e.path().filename().string(), "cpu", id)) {
            if (id >= kMaxCpus)
                return Error{root + ": cpu" + std::to_string(id) + " exceeds the limit of " + std::to_string(kMaxCpus) +
                             " CPUs"};
            ids.push_back(id);
        }
    }
    if (ids.empty()) return Error{root + ": no cpuN directories under sys/devices/system/cpu"};
    std::sort(ids.begin(), ids.end());

    CpuSet online;
    if (auto t = readSmallFile(cpuDir / "online")) {
        auto s = CpuSet::parseList(*t);
        if (!s) return Error{(cpuDir / "online").string() + ": " + s.error()};
        online = *s;
        // an online CPU without its directory is a broken snapshot, not a CPU to drop quietly
        for (int id = online.first(); id >= 0; id = online.next(id))
            if (!std::binary_search(ids.begin(), ids.end(), id))
                return Error{(cpuDir / "online").string() + " lists cpu" + std::to_string(id) + " but " +
                             (cpuDir / ("cpu" + std::to_string(id))).string() + " is missing"};
    }

    Topology topo;
    topo.name = fs::path(root).filename().string();
    if (topo.name.empty()) topo.name = root == "/" ? "this machine" : root;
    topo.source = root == "/" ? "sysfs of this machine" : "sysfs snapshot " + root;
    topo.arch = arch;
    readSnapshotCpuInfo(root, topo);
    applyCpuIdentity(topo);
    topo.cpus.resize(static_cast<size_t>(ids.back()) + 1);
    for (size_t i = 0; i < topo.cpus.size(); ++i) {
        topo.cpus[i].id = static_cast<int>(i);
        topo.cpus[i].online = false;
    }

    MaskMismatches mismatches;
    for (int id : ids) {
        CpuTopology& c = topo.cpus[static_cast<size_t>(id)];
        const fs::path dir = cpuDir / ("cpu" + std::to_string(id));
        const fs::path t = dir / "topology";
        // An offline CPU has no topology directory; the online file is authoritative when present.
        c.online = online.empty() ? fs::is_directory(t, ec) : online.test(id);
        if (!c.online) continue;
        if (!fs::is_directory(t, ec)) return Error{dir.string() + ": online CPU without a topology directory"};
        struct MaskField { const char* name; CpuSet* out; };
        std::optional<CpuSet> masks[5];
        const char* names[5] = {"thread_siblings", "cluster_cpus", "core_siblings", "die_cpus", "package_cpus"};
        for (int m = 0; m < 5; ++m) {
            auto r = readMask(t, names[m], &mismatches);
            if (!r) return Error{r.error()};
            masks[m] = *r;
        }
        c.threadSiblings = masks[0].value_or(CpuSet::single(id));
        c.clusterCpus = masks[1].value_or(c.threadSiblings);  // kernels before 5.16 have no cluster files
        // Old kernels (the PS3's in hwloc's test set) export thread_siblings only: the package
        // is then at least what the finer masks say it holds.
        c.packageCpus = masks[4]   ? *masks[4]
                        : masks[2] ? *masks[2]
                        : masks[3] ? *masks[3]
                                   : c.clusterCpus | c.threadSiblings;
        c.coreSiblings = masks[2] ? *masks[2] : c.packageCpus;
        c.dieCpus = masks[3].value_or(c.packageCpus);
        // s390 (TOPOLOGY_BOOK_SYSFS, TOPOLOGY_DRAWER_SYSFS)
        for (auto [name, out] : {std::pair{"book_siblings", &c.bookCpus}, {"drawer_siblings", &c.drawerCpus}}) {
            auto r = readMask(t, name, &mismatches);
            if (!r) return Error{r.error()};
            if (*r) *out = **r;
        }
        c.packageId = readInt(t / "physical_package_id").value_or(-1);
        c.dieId = readInt(t / "die_id").value_or(-1);
        c.clusterId = readInt(t / "cluster_id").value_or(-1);
        c.coreId = readInt(t / "core_id").value_or(-1);
        if (auto cap = readInt(dir / "cpu_capacity"); cap && *cap > 0) c.capacity = static_cast<unsigned>(*cap);

        std::vector<std::pair<int, CacheInfo>> caches;
        if (fs::is_directory(dir / "cache", ec)) {
            for (const auto& e : fs::directory_iterator(dir / "cache", ec)) {
                int idx;
                if (!numberedEntry(e.path().filename().string(), "index", idx)) continue;
                CacheInfo ci;
                ci.level = readInt(e.path() / "level").value_or(0);
                ci.type = readSmallFile(e.path() / "type").value_or("Unified");
                ci.sizeKB = cacheSizeKB(readSmallFile(e.path() / "size").value_or(""));
                auto shared = readMaskFiles(e.path(), "shared_cpu_list", "shared_cpu_map", &mismatches);
                if (!shared) return Error{shared.error()};
                ci.shared = shared->value_or(CpuSet::single(id));
                // A kernel's cacheinfo always lists the CPU itself; an empty map (old ia64
                // kernels left their L3's zero) says nothing of who shares the cache: leave it out
                // rather than call it private to this CPU and cut the LLC below the SMT siblings.
                if (ci.shared.empty()) continue;
                caches.emplace_back(idx, std::move(ci));
            }
        }
        std::sort(caches.begin(), caches.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [idx, ci] : caches) c.caches.push_back(std::move(ci));
        // Kernels before 5.16 export no cluster_cpus. A current x86 kernel derives the cluster
        // from the L2 sharers (cpu_l2c_shared_mask), so do the same; elsewhere it is the core.
        // Hardware threads share their core's L2 whatever an old cacheinfo said (3.x kernels
        // listed a Bulldozer compute unit's L2 as private to each of its two "threads").
        if (!masks[1] && arch == Arch::X86_64)
            for (const auto& k : c.caches)
                if (k.level == 2 && k.type != "Instruction") c.clusterCpus = k.shared | c.threadSiblings;
    }
    CpuSet onlineSet = topo.onlineCpus();
    if (onlineSet.empty()) return Error{root + ": no online CPU"};
    // The kernel's masks only ever hold online CPUs; older snapshots may list offline ones.
    // They always hold the CPU itself: a mask without it is a damaged (or hand-made) snapshot,
    // read with the CPU added, and said.
    CpuSet withoutSelf;
    std::string firstWithoutSelf;
    for (auto& c : topo.cpus) {
        if (!c.online) continue;
        const char* maskNames[] = {"thread_siblings", "cluster_cpus", "core_siblings", "die_cpus", "package_cpus"};
        CpuSet* masks[] = {&c.threadSiblings, &c.clusterCpus, &c.coreSiblings, &c.dieCpus, &c.packageCpus};
        for (size_t m = 0; m < std::size(masks); ++m) {
            CpuSet& mask = *masks[m];
            mask &= onlineSet;
            if (!mask.test(c.id)) {
                if (withoutSelf.empty())
                    firstWithoutSelf = "cpu" + std::to_string(c.id) + "/topology/" + maskNames[m] + " (" +
                                       (mask.empty() ? std::string("empty") : mask.toList()) + ")";
                withoutSelf.set(c.id);
            }
            mask.set(c.id);
        }
        if (c.packageCpus.count() == 1 && c.coreSiblings.count() > 1) c.packageCpus = c.coreSiblings;
    }
    if (!withoutSelf.empty())
        topo.warnings.push_back("the topology masks of CPUs " + withoutSelf.toList() +
                                " leave the CPU itself out, which a kernel never does (first: " + firstWithoutSelf +
                                "): each is read with its CPU added");
    if (const std::string pair = firstDisagreeingMasks(topo); !pair.empty())
        topo.warnings.push_back("topology masks that overlap without being equal, which a kernel's never do (" + pair +
                                "): the sched domains built on them fail topology_span_sane() as the kernel's would");

    // NUMA nodes
    std::vector<int> nodeIds;
    if (fs::is_directory(nodeDir, ec))
        for (const auto& e : fs::directory_iterator(nodeDir, ec)) {
            int id;
            if (e.is_directory() && numberedEntry(e.path().filename().string(), "node", id)) nodeIds.push_back(id);
        }
    std::sort(nodeIds.begin(), nodeIds.end());
    if (nodeIds.empty()) {
        topo.nodes.push_back({0, onlineSet});
        topo.distance = {{10}};
    } else {
        CpuSet taken, listedTwice;
        std::string nodesListingTwice;
        int nrNodesListingTwice = 0;
        for (int id : nodeIds) {
            const fs::path nd = nodeDir / ("node" + std::to_string(id));
            auto cpus = readMaskFiles(nd, "cpulist", "cpumap", &mismatches);
            if (!cpus) return Error{cpus.error()};
            CpuSet listed = cpus->value_or(CpuSet{}) & onlineSet;
            // The kernel gives a CPU one node (cpu_to_node()); a snapshot whose nodes list the
            // same CPUs (a firmware's broken SRAT, hwloc's "buggynuma" machine) keeps each CPU
            // on the first node listing it, as the hwloc XML loader does.
            if (const CpuSet again = listed & taken; !again.empty()) {
                listedTwice |= again;
                nodesListingTwice += (nodesListingTwice.empty() ? "node" : ", node") + std::to_string(id);
                ++nrNodesListingTwice;
                listed = listed.minus(taken);
            }
            taken |= listed;
            topo.nodes.push_back({id, listed});
        }
        if (!listedTwice.empty())
            topo.warnings.push_back(nodesListingTwice + (nrNodesListingTwice == 1 ? " lists" : " list") + " CPUs " +
                                    listedTwice.toList() +
                                    " that a lower node lists too: each CPU stays on the lowest node listing it");
        // A kernel prints every node's row or none (no SLIT): one node without its row among
        // nodes with theirs is a damaged snapshot, whose defaults would mix with the real rows.
        const fs::path* rowless = nullptr;
        const fs::path* withRow = nullptr;
        std::vector<fs::path> distanceFiles;
        distanceFiles.reserve(nodeIds.size());
        for (int id : nodeIds) distanceFiles.push_back(nodeDir / ("node" + std::to_string(id)) / "distance");
        for (size_t i = 0; i < nodeIds.size(); ++i) {
            const fs::path& f = distanceFiles[i];
            std::vector<int> row;
            if (auto t = readSmallFile(f)) {
                std::istringstream in(*t);
                int d;
                while (in >> d) row.push_back(d);
                if (!in.eof()) return Error{f.string() + ": not a list of numbers"};
            }
            (row.empty() ? rowless : withRow) = &f;
            if (rowless && withRow)
                return Error{rowless->string() + ": no distances (missing, empty or not a file) while " + withRow->string() +
                             " has them"};
            if (row.empty()) {  // no SLIT: the kernel's defaults
                for (size_t j = 0; j < nodeIds.size(); ++j) row.push_back(i == j ? 10 : 20);
            }
            // The row is indexed by node id over all possible nodes; keep the ones we have.
            if (row.size() != nodeIds.size()) {
                if (row.size() > static_cast<size_t>(nodeIds.back())) {
                    std::vector<int> picked;
                    picked.reserve(nodeIds.size());
                    for (int id : nodeIds) picked.push_back(row[static_cast<size_t>(id)]);
                    row = picked;
                } else {
                    return Error{f.string() + ": " + std::to_string(row.size()) + " distances for " +
                                 std::to_string(nodeIds.size()) + " nodes"};
                }
            }
            topo.distance.push_back(row);
        }
    }
    CpuSet nodeless;  // CPUs no node lists (their node offline)
    for (auto& c : topo.cpus) {
        if (!c.online) continue;
        c.node = -1;
        for (const auto& n : topo.nodes)
            if (n.cpus.test(c.id)) c.node = n.id;
        if (c.node < 0) nodeless.set(c.id);
    }
    if (!nodeless.empty()) {
        const int node = adoptNodelessCpus(topo, nodeless, "snapshot");
        nodeless.forEach([&](int cpu) { topo.cpus[static_cast<size_t>(cpu)].node = node; });
    }
    if (mismatches.count > 0)
        topo.warnings.push_back(std::to_string(mismatches.count) + (mismatches.count == 1 ? " hex mask disagrees with its list file" : " hex masks disagree with their list files") +
                                ", which a kernel never prints (first: " + mismatches.first +
                                "): the hex masks are read, as hwloc reads them");
    readHybridKinds(root, topo);
    for (const char* file : {"sys/devices/system/cpu/isolated", "sys/fs/cgroup/cpuset.cpus.isolated"}) {
        auto text = readSmallFile(fs::path(root) / file);
        if (!text) continue;
        auto set = CpuSet::parseList(*text);
        if (!set) return Error{(fs::path(root) / file).string() + ": " + set.error()};
        topo.isolated |= *set & onlineSet;
    }
    if (auto st = readCpusetPartitions(root, topo); !st) return Error{st.error()};
    // the ITMT switch: a sysctl until 6.13, a debugfs bool ("Y"/"N") since 6.14 ("x86/itmt: Move
    // the sched_itmt_enabled sysctl to debugfs")
    if (auto itmt = readInt(fs::path(root) / "proc/sys/kernel/sched_itmt_enabled")) topo.itmtEnabled = *itmt != 0;
    else if (auto flag = readSmallFile(fs::path(root) / "sys/kernel/debug/x86/sched_itmt_enabled"); flag && !flag->empty())
        if ((*flag)[0] == 'Y' || (*flag)[0] == 'N' || (*flag)[0] == '1' || (*flag)[0] == '0')
            topo.itmtEnabled = (*flag)[0] == 'Y' || (*flag)[0] == '1';
    ignoreInvalidSlit(topo);
    if (auto st = topo.check(); !st) return Error{st.error()};
    return topo;
}

}  // namespace schedscope
