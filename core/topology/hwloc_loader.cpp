#include "topology/hwloc_loader.h"

#include <hwloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "topology/hwloc_xml_v3.h"
#include "topology/sysfs_loader.h"
#include "util/quiet_descriptor.h"

namespace schedscope {
namespace {

struct HwlocDeleter {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using HwlocTopology = std::unique_ptr<hwloc_topology, HwlocDeleter>;

// Every use of hwloc in the process holds this lock, from init to destroy. The XML probe forks:
// a child inherits hwloc's internal locks in whatever state other threads left them, so a fork
// while another loader thread was inside hwloc (two windows loading at once) left the child, and
// the parent waiting for it, blocked forever. With the lock held across the fork, no thread of
// ours is inside hwloc when the child starts.
std::mutex& hwlocMutex() {
    static std::mutex m;
    return m;
}

// hwloc loads its plugins (the libxml2 XML importer among them) with the first topology and
// unloads them with the last one. One topology kept initialised for the life of the process
// keeps them loaded: no dlopen/dlclose per load, and what they leak on malformed XML is still
// attributed to their library (an unloaded one is an "<unknown module>" no sanitizer
// suppression can name). Call with hwlocMutex() held.
void keepHwlocPluginsLoaded() {
    static hwloc_topology_t keeper = nullptr;
    if (!keeper && hwloc_topology_init(&keeper) != 0) keeper = nullptr;
}

CpuSet fromBitmap(hwloc_const_bitmap_t b) {
    CpuSet s;
    if (!b) return s;
    int i = hwloc_bitmap_first(b);
    while (i >= 0 && i < kMaxCpus) {
        s.set(i);
        i = hwloc_bitmap_next(b, i);
    }
    return s;
}

hwloc_obj_t ancestorOfType(hwloc_obj_t o, hwloc_obj_type_t type) {
    for (hwloc_obj_t p = o->parent; p; p = p->parent)
        if (p->type == type) return p;
    return nullptr;
}

const char* infoOf(hwloc_obj_t o, const char* name) {
    for (; o; o = o->parent)
        if (const char* v = hwloc_obj_get_info_by_name(o, name)) return v;
    return nullptr;
}

// hwloc 1.x exported relative latencies (the SLIT divided by 10, with latency_base 10), which
// hwloc 2 imports scaled to integers: a 10/16/22 SLIT comes back as 1000/1600/2200. A matrix
// whose diagonal is one value other than 10 is such a scaled table (or another source's
// latencies): put back in the SLIT's units, diagonal 10, rounded, and said.
void scaleRelativeLatencies(Topology& t) {
    if (t.distance.empty()) return;
    const int diagonal = t.distance[0][0];
    if (diagonal <= 0 || diagonal == 10) return;
    for (size_t i = 0; i < t.distance.size(); ++i)
        if (t.distance[i][i] != diagonal) return;
    for (auto& row : t.distance)
        for (int& d : row) d = static_cast<int>(std::lround(static_cast<double>(d) * 10.0 / diagonal));
    t.notes.push_back("NUMA latencies relative to a diagonal of " + std::to_string(diagonal) +
                      " (an hwloc 1.x export's, or not a SLIT) scaled to the SLIT's units, 10 local");
}

// Turns a loaded hwloc topology into the masks the kernel would export in sysfs.
Result<Topology> convert(hwloc_topology_t ht, const std::string& what, bool archGiven, Arch arch) {
    hwloc_obj_t root = hwloc_get_root_obj(ht);
    Topology t;
    if (!archGiven) {
        arch = hostArch();
        if (const char* a = hwloc_obj_get_info_by_name(root, "Architecture")) {
            if (auto parsed = parseArch(a)) arch = *parsed;
        }
    }
    t.arch = arch;
    // hwloc puts CPUModel on each package (x86, powerpc) or on the root
    if (hwloc_obj_t pu = hwloc_get_next_obj_by_type(ht, HWLOC_OBJ_PU, nullptr))
        if (const char* model = infoOf(pu, "CPUModel")) t.cpuModel = model;

    // fromBitmap() keeps CPUs below kMaxCpus only: look at hwloc's own last index first, or a
    // CPU numbered beyond the limit would vanish without a word
    const int lastIndex = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(ht));
    if (lastIndex >= kMaxCpus || hwloc_bitmap_weight(hwloc_topology_get_complete_cpuset(ht)) > kMaxCpus)
        return Error{what + ": CPU numbers beyond " + std::to_string(kMaxCpus - 1) + " (the tool's limit is " +
                     std::to_string(kMaxCpus) + " CPUs; this topology's last is " + std::to_string(lastIndex) + ")"};
    CpuSet complete = fromBitmap(hwloc_topology_get_complete_cpuset(ht));
    CpuSet online = fromBitmap(hwloc_topology_get_topology_cpuset(ht));
    if (online.empty()) return Error{what + ": the topology has no CPU"};
    // each PU is one CPU number: two PUs with one number (a hand-edited export) would make one
    // of them vanish and leave its core's and package's masks naming a CPU nobody is
    {
        CpuSet seen;
        for (hwloc_obj_t pu = nullptr; (pu = hwloc_get_next_obj_by_type(ht, HWLOC_OBJ_PU, pu));) {
            const int id = static_cast<int>(pu->os_index);
            if (id < 0 || id >= kMaxCpus) continue;
            if (seen.test(id))
                return Error{what + ": two PU objects have os_index " + std::to_string(id) + " (each CPU needs its own)"};
            seen.set(id);
        }
        // (hwloc drops a PU whose cpuset another PU has: its number is then in the cpusets above
        // with no PU)
        if (const CpuSet orphans = online.minus(seen); !orphans.empty())
            return Error{what + ": CPUs " + orphans.toList() +
                         " are in the topology's cpuset but no PU object is them (a PU listed twice?)"};
    }
    t.cpus.resize(static_cast<size_t>(std::max(complete.last(), online.last())) + 1);
    for (size_t i = 0; i < t.cpus.size(); ++i) {
        t.cpus[i].id = static_cast<int>(i);
        t.cpus[i].online = false;
    }

    // NUMA nodes: a CPU belongs to the first node (by OS index) whose cpuset holds it; further
    // nodes covering the same CPUs (HBM, CXL) are memory-only, as Linux shows them.
    std::vector<hwloc_obj_t> numa;
    for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(ht, HWLOC_OBJ_NUMANODE, n));) numa.push_back(n);
    std::sort(numa.begin(), numa.end(), [](auto a, auto b) { return a->os_index < b->os_index; });
    CpuSet assigned;
    for (hwloc_obj_t n : numa) {
        CpuSet cpus = fromBitmap(n->cpuset) & online;
        NumaNode node{static_cast<int>(n->os_index), cpus.minus(assigned)};
        // an HBM or CXL node's cpuset is its neighbour's online CPUs; one whose CPUs are all
        // offline or outside the export's cpuset is a CPU node we cannot see into
        node.cpusHidden = node.cpus.empty() && !fromBitmap(n->complete_cpuset).minus(online).empty();
        assigned |= node.cpus;
        t.nodes.push_back(node);
    }
    // CPUs no node covers (their node offline or left out of the export)
    if (const CpuSet orphans = online.minus(assigned); !orphans.empty()) adoptNodelessCpus(t, orphans, "export");

    unsigned nrDist = 1;
    hwloc_distances_s* dist = nullptr;
    if (hwloc_distances_get_by_type(ht, HWLOC_OBJ_NUMANODE, &nrDist, &dist, HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) != 0)
        nrDist = 0;
    t.distance.assign(t.nodes.size(), std::vector<int>(t.nodes.size(), 20));
    for (size_t i = 0; i < t.nodes.size(); ++i) t.distance[i][i] = 10;
    if (nrDist >= 1 && dist) {
        std::map<unsigned, size_t> pos;
        for (unsigned i = 0; i < dist->nbobjs; ++i) pos[dist->objs[i]->os_index] = i;
        bool complete = true;
        for (const auto& n : t.nodes) complete = complete && pos.count(static_cast<unsigned>(n.id));
        // a value no latency scale reaches (a negative one written to the file reads as 2^64 - 5):
        // said as written, and the table left out as the kernel leaves out an invalid SLIT
        constexpr uint64_t kLargestLatency = 100000;
        std::string outOfScale;
        for (size_t i = 0; complete && outOfScale.empty() && i < t.nodes.size(); ++i)
            for (size_t j = 0; outOfScale.empty() && j < t.nodes.size(); ++j) {
                size_t a = pos[static_cast<unsigned>(t.nodes[i].id)], b = pos[static_cast<unsigned>(t.nodes[j].id)];
                const uint64_t v = dist->values[a * dist->nbobjs + b];
                if (v <= kLargestLatency) {
                    t.distance[i][j] = static_cast<int>(v);
                    continue;
                }
                const auto asSigned = static_cast<int64_t>(v);  // the file's "-5", as hwloc's strtoull reads it
                outOfScale = "NUMA distance " +
                             (asSigned < 0 ? std::to_string(asSigned) + " (" + std::to_string(v) + " unsigned)" : std::to_string(v)) +
                             " from node " + std::to_string(t.nodes[i].id) + " to node " + std::to_string(t.nodes[j].id) +
                             " is no latency: the table is not used, distances 10 local and 20 remote instead";
            }
        if (!outOfScale.empty()) {
            t.warnings.push_back(outOfScale);
            for (size_t i = 0; i < t.nodes.size(); ++i)
                for (size_t j = 0; j < t.nodes.size(); ++j) t.distance[i][j] = i == j ? 10 : 20;
        } else if (complete) {
            scaleRelativeLatencies(t);
        } else {
            std::string missing;
            for (const auto& n : t.nodes)
                if (!pos.count(static_cast<unsigned>(n.id))) missing += (missing.empty() ? "" : ",") + std::to_string(n.id);
            t.warnings.push_back("the NUMA distance matrix leaves out node(s) " + missing +
                                 ": not used, distances 10 local and 20 remote instead");
        }
        hwloc_distances_release(ht, dist);
    }

    // Kinds (hybrid CPUs) and capacities (arm64's cpu_capacity, exported by hwloc as LinuxCapacity).
    std::map<int, unsigned> capacityOf;
    std::map<int, int> kindOf;
    int nrKinds = hwloc_cpukinds_get_nr(ht, 0);
    for (int k = 0; nrKinds > 1 && k < nrKinds; ++k) {
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        int efficiency = 0;
        unsigned nrInfos = 0;
        hwloc_info_s* infos = nullptr;
        if (hwloc_cpukinds_get_info(ht, static_cast<unsigned>(k), set, &efficiency, &nrInfos, &infos, 0) == 0) {
            std::string name = "kind" + std::to_string(k);
            unsigned cap = 0;
            for (unsigned i = 0; i < nrInfos; ++i) {
                if (!std::strcmp(infos[i].name, "CoreType") || !std::strcmp(infos[i].name, "ARMCoreModel") ||
                    !std::strcmp(infos[i].name, "ARM-Model"))
                    name = infos[i].value;
                if (!std::strcmp(infos[i].name, "LinuxCapacity")) cap = static_cast<unsigned>(std::atoi(infos[i].value));
            }
            t.kindNames.push_back(name);
            fromBitmap(set).forEach([&](int c) {
                kindOf[c] = k;
                if (cap) capacityOf[c] = cap;
            });
        }
        hwloc_bitmap_free(set);
    }

    // the first CPU's identity, as the kernel's boot_cpu_data
    hwloc_obj_t firstPu = hwloc_get_obj_by_type(ht, HWLOC_OBJ_PU, 0);
    if (const char* vendor = infoOf(firstPu, "CPUVendor")) t.cpuVendor = vendor;
    if (const char* family = infoOf(firstPu, "CPUFamilyNumber")) t.cpuFamily = std::atoi(family);
    if (const char* model = infoOf(firstPu, "CPUModelNumber")) t.cpuModelNumber = std::atoi(model);

    for (hwloc_obj_t pu = nullptr; (pu = hwloc_get_next_obj_by_type(ht, HWLOC_OBJ_PU, pu));) {
        int id = static_cast<int>(pu->os_index);
        if (id < 0 || id >= static_cast<int>(t.cpus.size()) || !online.test(id)) continue;
        CpuTopology& c = t.cpus[static_cast<size_t>(id)];
        c.online = true;
        hwloc_obj_t core = ancestorOfType(pu, HWLOC_OBJ_CORE);
        hwloc_obj_t pkg = ancestorOfType(pu, HWLOC_OBJ_PACKAGE);
        hwloc_obj_t die = ancestorOfType(pu, HWLOC_OBJ_DIE);
        c.threadSiblings = (core ? fromBitmap(core->cpuset) : CpuSet::single(id)) & online;
        c.packageCpus = (pkg ? fromBitmap(pkg->cpuset) : online) & online;
        c.coreSiblings = c.packageCpus;
        c.dieCpus = (die ? fromBitmap(die->cpuset) : c.packageCpus) & online;
        c.packageId = pkg ? static_cast<int>(pkg->os_index) : 0;
        c.dieId = die ? static_cast<int>(die->os_index) : 0;
        c.coreId = core ? static_cast<int>(core->os_index) : id;
        hwloc_obj_t cluster = nullptr, book = nullptr, drawer = nullptr;
        for (hwloc_obj_t p = pu->parent; p; p = p->parent) {
            if (p->type != HWLOC_OBJ_GROUP || !p->subtype) continue;
            if (!cluster && !std::strcmp(p->subtype, "Cluster")) cluster = p;
            if (!book && !std::strcmp(p->subtype, "Book")) book = p;
            if (!drawer && !std::strcmp(p->subtype, "Drawer")) drawer = p;
        }
        if (book) c.bookCpus = fromBitmap(book->cpuset) & online;
        if (drawer) c.drawerCpus = fromBitmap(drawer->cpuset) & online;
        // Caches, innermost first, as sysfs cache/indexN lists them.
        hwloc_obj_t l2 = nullptr;
        std::vector<CacheInfo> caches;
        for (hwloc_obj_t p = pu->parent; p; p = p->parent) {
            if (!hwloc_obj_type_is_cache(p->type) || p->type == HWLOC_OBJ_MEMCACHE) continue;
            // a memory-side cache (KNL's MCDRAM in cache mode) caches memory, not the CPUs':
            // hwloc 1.x exports it as an L3 with this subtype, and the kernel's LLC is below it
            if (p->subtype && !std::strcmp(p->subtype, "MemorySideCache")) continue;
            CacheInfo ci;
            ci.level = static_cast<int>(p->attr->cache.depth);
            ci.type = p->attr->cache.type == HWLOC_OBJ_CACHE_DATA          ? "Data"
                      : p->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? "Instruction"
                                                                           : "Unified";
            ci.shared = fromBitmap(p->cpuset) & online;
            ci.sizeKB = static_cast<long long>(p->attr->cache.size / 1024);
            if (ci.level == 2 && ci.type != "Instruction") l2 = p;
            caches.push_back(ci);
        }
        c.caches = caches;
        // The kernel's cluster: firmware clusters where hwloc saw them (sysfs cluster_cpus);
        // on x86 the L2 sharers (cpu_l2c_shared_mask); otherwise just the core.
        if (cluster) c.clusterCpus = fromBitmap(cluster->cpuset) & online;
        else if (arch == Arch::X86_64 && l2) c.clusterCpus = (fromBitmap(l2->cpuset) & online) | c.threadSiblings;  // see the sysfs loader
        else c.clusterCpus = c.threadSiblings;
        c.clusterId = c.clusterCpus.first();
        if (capacityOf.count(id)) c.capacity = capacityOf[id];
        if (kindOf.count(id)) c.kind = kindOf[id];
        for (const auto& n : t.nodes)
            if (n.cpus.test(id)) c.node = n.id;
    }
    // Capacities are relative to the biggest CPU (arch_scale_cpu_capacity tops out at 1024).
    unsigned maxCap = 0;
    for (const auto& c : t.cpus) maxCap = std::max(maxCap, c.online ? c.capacity : 0u);
    if (maxCap && maxCap != 1024)
        for (auto& c : t.cpus) c.capacity = static_cast<unsigned>(uint64_t{c.capacity} * 1024 / maxCap);
    applyCpuIdentity(t);  // (with the CPUs in place: AMD family 15h's compute units)
    ignoreInvalidSlit(t);
    if (auto st = t.check(what); !st) return Error{st.error()};
    return t;
}

Result<HwlocTopology> makeTopology() {
    keepHwlocPluginsLoaded();
    hwloc_topology_t ht = nullptr;
    if (hwloc_topology_init(&ht) != 0) return Error{"hwloc: cannot initialise a topology"};
    HwlocTopology owner(ht);
    hwloc_topology_set_flags(ht, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    hwloc_topology_set_type_filter(ht, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_io_types_filter(ht, HWLOC_TYPE_FILTER_KEEP_NONE);
    return owner;
}

// The largest number in the description's "(indexes=...)" lists: hwloc allocates a bitmap up to
// it before anything else looks at the CPUs (a second for 1e8 here, minutes under ASan).
long long syntheticLargestIndex(const std::string& desc) {
    long long largest = -1;
    for (size_t at = desc.find("indexes="); at != std::string::npos; at = desc.find("indexes=", at + 1)) {
        for (size_t i = at + 8; i < desc.size() && desc[i] != ')'; ++i) {
            if (!std::isdigit(static_cast<unsigned char>(desc[i]))) continue;
            long long n = 0;
            while (i < desc.size() && std::isdigit(static_cast<unsigned char>(desc[i])) && n < 1'000'000'000)
                n = n * 10 + (desc[i++] - '0');
            largest = std::max(largest, n);
            if (i >= desc.size() || desc[i] == ')') break;
        }
    }
    return largest;
}

// What hwloc reads: the file itself, or (`buffer` set) a document made from it.
struct XmlInput {
    const std::string& path;
    const std::string* buffer = nullptr;
};

int setXmlInput(hwloc_topology_t ht, const XmlInput& in) {
    // hwloc counts the terminating NUL in the buffer's size
    if (in.buffer) return hwloc_topology_set_xmlbuffer(ht, in.buffer->c_str(), static_cast<int>(in.buffer->size() + 1));
    return hwloc_topology_set_xml(ht, in.path.c_str());
}

}  // namespace

long long syntheticPuCount(const std::string& desc) {
    std::istringstream in(desc);
    std::string tok;
    long long product = 1;
    auto multiply = [&](const std::string& num) {
        long long n = 0;
        size_t i = 0;
        while (i < num.size() && std::isdigit(static_cast<unsigned char>(num[i])) && n < 1'000'000'000)
            n = n * 10 + (num[i++] - '0');
        if (i == 0) return;  // attributes such as "(memory=1GB)"
        // Saturate instead of overflowing: "pack:9999999999 core:9999999999" is just "too many".
        constexpr long long kCap = 1'000'000'000'000LL;
        n = std::clamp<long long>(n, 1, 1'000'000'000);
        product = product > kCap / n ? kCap : std::min(product * n, kCap);
    };
    int braces = 0;  // "{...}" holds a distance matrix or other attributes, not counts
    while (in >> tok) {
        const long opens = std::count(tok.begin(), tok.end(), '{'), closes = std::count(tok.begin(), tok.end(), '}');
        const bool inside = braces > 0 || opens > 0;
        braces = std::max(0, braces + static_cast<int>(opens - closes));
        if (inside) continue;
        if (tok.find(':') == std::string::npos) {
            multiply(tok);  // a bare count: "4096"
            continue;
        }
        // every "type:count" in the token: hwloc also reads levels run together without a space
        // ("pack:52nu@ma:22" is 52 packages of 22 NUMA nodes), which once slipped past this guard
        for (size_t colon = tok.find(':'); colon != std::string::npos; colon = tok.find(':', colon + 1))
            multiply(tok.substr(colon + 1));
    }
    return product;
}

namespace fs = std::filesystem;
// The largest XML file read: a machine's export is a few MiB even with all its I/O devices.
constexpr uintmax_t kMaxXmlBytes = uintmax_t{256} << 20;

// hwloc's first reason for refusing an XML file, from what its parser printed: its lines start
// with the file's name (or "hwloc/xml" for a buffer), which the caller's error names already.
static std::string firstXmlReason(const std::string& said, const std::string& path) {
    std::istringstream lines(said);
    for (std::string line; std::getline(lines, line);) {
        const std::string base = fs::path(path).filename().string();
        for (const std::string& prefix : {path + ":", base + ":", std::string("hwloc/xml:"), std::string("hwloc:")})
            if (line.starts_with(prefix)) {
                line.erase(0, prefix.size());
                while (line.starts_with(' ')) line.erase(0, 1);
                if (!line.empty() && line[0] >= '0' && line[0] <= '9') line.insert(0, "line ");  // libxml2's "FILE:4: ..."
                break;
            }
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        if (line.size() > 200) {
            line.resize(200);
            line += "...";
        }
        if (!line.empty()) return line;
    }
    return "";
}

// hwloc caches HWLOC_XML_VERBOSE at its first XML parse, in this process and in every probe
// child forked after: set once, before any, unless the user set it.
static void askHwlocForXmlReasons() {
    static std::once_flag once;
    std::call_once(once, [] { setenv("HWLOC_XML_VERBOSE", "1", 0); });
}

// the same for its synthetic parser, which reads HWLOC_SYNTHETIC_VERBOSE on every description
static void askHwlocForSyntheticReasons() {
    static std::once_flag once;
    std::call_once(once, [] { setenv("HWLOC_SYNTHETIC_VERBOSE", "1", 0); });
}

// hwloc 2.9 dereferences NULL on some well-formed but inconsistent XML (found by fuzz_hwloc_xml;
// `lstopo -i` dies the same way). A file from another machine must never take the app down, so
// hwloc first reads it in a forked child; only a file the child survived is loaded here.
// Returns "" when hwloc can load it, else the one-line reason.
//
// The child also says why hwloc refused a file: hwloc prints its XML parser's reasons to stderr
// when HWLOC_XML_VERBOSE is set (askHwlocForXmlReasons()), and the child's stderr is a pipe
// whose first line the error quotes ("invalid special object child distances2 while looking
// for objects"), where it said only that hwloc failed to load the file.
static std::string probeXmlInChild(const XmlInput& in) {
    const std::string& path = in.path;
    int reasons[2] = {-1, -1};
    if (pipe2(reasons, O_CLOEXEC | O_NONBLOCK) != 0) reasons[0] = reasons[1] = -1;
    const pid_t child = fork();
    if (child < 0) {  // cannot isolate: load in process as before
        for (int fd : reasons)
            if (fd >= 0) close(fd);
        return "";
    }
    if (child == 0) {
        // Die quietly if hwloc crashes: no core file, and none of the parent's crash handlers
        // (a sanitizer's report, a fuzzer's crash artifact, an app's crash dialog) in the probe.
        const struct rlimit noCore = {0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) signal(sig, SIG_DFL);
        if (reasons[1] >= 0) dup2(reasons[1], STDERR_FILENO);  // (dup2 clears O_CLOEXEC on the copy)
        hwloc_topology_t ht = nullptr;
        if (hwloc_topology_init(&ht) != 0) _exit(3);
        hwloc_topology_set_flags(ht, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
        hwloc_topology_set_io_types_filter(ht, HWLOC_TYPE_FILTER_KEEP_NONE);
        if (setXmlInput(ht, in) != 0 || hwloc_topology_load(ht) != 0) _exit(3);
        _exit(0);  // no cleanup: the process ends here
    }
    // A probe should never block, but if it does the user gets an error, not a frozen loader.
    // Polled from 50 us up to every 5 ms: most files are read in a few milliseconds.
    constexpr int kProbeSeconds = 60;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kProbeSeconds);
    if (reasons[1] >= 0) close(reasons[1]);
    std::string said;  // what the child wrote to stderr, drained as it goes (a full pipe would stall it)
    auto drain = [&] {
        char chunk[4096];
        for (ssize_t n; reasons[0] >= 0 && (n = read(reasons[0], chunk, sizeof chunk)) > 0;)
            if (said.size() < 64 * 1024) said.append(chunk, static_cast<size_t>(n));
    };
    struct Closer {
        int fd;
        ~Closer() {
            if (fd >= 0) close(fd);
        }
    } closeReasons{reasons[0]};
    int status = 0;
    for (useconds_t pause = 50;; pause = std::min<useconds_t>(pause * 2, 5'000)) {
        drain();
        const pid_t r = waitpid(child, &status, WNOHANG);
        if (r == child) break;
        if (r < 0 && errno != EINTR) return "";  // no child to wait for (SIGCHLD ignored): cannot tell
        if (std::chrono::steady_clock::now() >= deadline) {
            kill(child, SIGKILL);
            while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
            return path + ": hwloc did not finish reading it within " + std::to_string(kProbeSeconds) + " s";
        }
        usleep(pause);
    }
    drain();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
        const std::string reason = firstXmlReason(said, path);
        return reason.empty() ? "" : path + ": malformed hwloc XML (" + reason + ")";  // "": the load says it
    }
    return path + ": malformed hwloc XML (hwloc crashed reading it)";
}

static Result<Topology> loadXmlImpl(const std::string& path, Arch arch, bool archGiven) {
    // hwloc (and the 3.x rewrite) parse the whole file into a DOM: a file far larger than any
    // machine's export, or no regular file (a FIFO would block the open), is refused first
    std::error_code ec;
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) return Error{path + ": not a regular file"};
    if (const auto size = fs::file_size(path, ec); !ec && size > kMaxXmlBytes)
        return Error{path + ": " + std::to_string(size >> 20) + " MiB, more than the " + std::to_string(kMaxXmlBytes >> 20) +
                     " MiB an hwloc XML topology may have"};
    std::ifstream in(path);
    if (!in) return Error{path + ": cannot open (" + std::string(std::strerror(errno)) + ")"};
    // the root element's start (after the prolog, a DOCTYPE and any comments a tool wrote)
    std::string head(64 * 1024, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (head.find("<topology") == std::string::npos)
        return Error{path + ": not an hwloc XML topology (no <topology> element at the start)"};
    // hwloc 2.x reads hwloc 3.x XML once rewritten in its own format (hwloc_xml_v3.h);
    // a format newer than that is refused with the way out
    const int major = hwlocXmlMajorVersion(head);
    // declared before `ht`: released after its destroy; held over the rewrite too, as hwloc's
    // libxml2 importer shares libxml2's global state
    const std::lock_guard hwlocLock(hwlocMutex());
    std::string rewritten;
    XmlInput input{path};
    if (major == 3 && HWLOC_API_VERSION < 0x00030000) {
        auto v2 = hwloc3XmlAsV2(path);
        if (!v2) return Error{v2.error()};
        if (v2->size() >= static_cast<size_t>(std::numeric_limits<int>::max()))
            return Error{path + ": too large for hwloc to read (over 2 GB)"};
        rewritten = std::move(*v2);
        input.buffer = &rewritten;
    } else if (major > 3) {
        return Error{path + ": hwloc " + std::to_string(major) + ".x XML format, which hwloc " HWLOC_VERSION
                            " cannot read; re-export it with 'lstopo --export-xml-flags v2 out.xml'"};
    }
    keepHwlocPluginsLoaded();
    askHwlocForXmlReasons();
    if (auto refused = probeXmlInChild(input); !refused.empty()) return Error{refused};
    auto ht = makeTopology();
    if (!ht) return Error{ht.error()};
    // hwloc prints its XML parser's reasons to stderr (HWLOC_XML_VERBOSE, for the probe), notes
    // on files it reads included: the errors below are the one line. With the libxml2 importer
    // (libhwloc-plugins) a malformed file already fails at setXmlInput(), with EINVAL; hwloc's
    // built-in parser only fails in hwloc_topology_load(). Same message for both.
    const QuietDescriptor quiet(STDERR_FILENO);
    if (setXmlInput(ht->get(), input) != 0) {
        if (errno == EINVAL) return Error{path + ": malformed hwloc XML (hwloc failed to load it)"};
        return Error{path + ": hwloc cannot read this XML (" + std::string(std::strerror(errno)) + ")"};
    }
    if (hwloc_topology_load(ht->get()) != 0)
        return Error{path + ": malformed hwloc XML (hwloc failed to load it)"};
    auto t = convert(ht->get(), path, archGiven, arch);
    if (!t) return t;
    std::string base = path.substr(path.find_last_of('/') + 1);
    t->name = base.size() > 4 && base.ends_with(".xml") ? base.substr(0, base.size() - 4) : base;
    t->source = input.buffer ? "hwloc 3.x XML " + path : "hwloc XML " + path;
    return t;
}

Result<Topology> loadHwlocXml(const std::string& path, Arch arch) { return loadXmlImpl(path, arch, true); }

Result<Topology> loadHwlocXmlDetectArch(const std::string& path) { return loadXmlImpl(path, hostArch(), false); }

Result<Topology> loadHwlocSynthetic(const std::string& description, Arch arch) {
    // hwloc reads the description as a C string: what follows a NUL byte would escape the size
    // guard below ("222222\0...:2" is 222222 CPUs to hwloc, 2 to the guard)
    if (description.find('\0') != std::string::npos)
        return Error{"synthetic topology: the description contains a NUL byte"};
    const std::string what = "synthetic topology '" + description + "'";
    long long pus = syntheticPuCount(description);
    if (pus > kMaxCpus)
        return Error{what + ": asks for " + std::to_string(pus) + " CPUs, more than the limit of " +
                     std::to_string(kMaxCpus)};
    if (const long long index = syntheticLargestIndex(description); index >= kMaxCpus)
        return Error{what + ": index " + std::to_string(index) + " is beyond the limit of " + std::to_string(kMaxCpus) +
                     " CPUs"};
    const std::lock_guard hwlocLock(hwlocMutex());
    auto ht = makeTopology();
    if (!ht) return Error{ht.error()};
    // hwloc says why it refuses a description only on stderr, asked to (it also notes there
    // what it adds to one it accepts): its first line goes in the error
    askHwlocForSyntheticReasons();
    {
        CapturedStderr said;
        const bool refused = hwloc_topology_set_synthetic(ht->get(), description.c_str()) != 0;
        const bool failed = !refused && hwloc_topology_load(ht->get()) != 0;
        const std::string text = said.text();
        const std::string reason = text.substr(0, text.find('\n'));
        const std::string because = reason.empty() ? "" : " (" + reason + ")";
        if (refused) return Error{what + ": hwloc rejects this description" + because};
        if (failed) return Error{what + ": hwloc failed to build it" + because};
    }
    auto t = convert(ht->get(), what, true, arch);
    if (!t) return t;
    t->name = "synthetic";
    t->source = "hwloc synthetic \"" + description + "\"";
    return t;
}

Result<Topology> loadLocalTopology() {
    auto sysfs = loadSysfsTopology("/", hostArch());
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    if (sysfs) {
        sysfs->name = host[0] ? host : "this machine";
        sysfs->source = "sysfs of this machine";
        return sysfs;
    }
    const std::lock_guard hwlocLock(hwlocMutex());
    auto ht = makeTopology();
    if (!ht) return Error{ht.error()};
    if (hwloc_topology_load(ht->get()) != 0) return Error{"this machine: hwloc cannot read the topology"};
    auto t = convert(ht->get(), "this machine", true, hostArch());
    if (!t) return t;
    t->name = host[0] ? host : "this machine";
    t->source = "hwloc view of this machine (sysfs unreadable: " + sysfs.error() + ")";
    return t;
}

}  // namespace schedscope
