#include "sim/socket_bandwidth.h"

#include <algorithm>
#include <regex>
#include <set>

namespace schedscope::sim {
namespace {

// Each platform's DDR channels per socket and the fastest memory it supports, from the vendors'
// product briefs.
SocketMemory platform(const char* name, int channels, int megaTransfers, const char* memory) {
    return SocketMemory{name, channels, megaTransfers, memory};
}
const SocketMemory kMagnyCours = platform("Opteron 6100 Magny-Cours", 4, 1333, "DDR3-1333");
const SocketMemory kIstanbul = platform("Opteron 8400 Istanbul", 2, 800, "DDR2-800");
const SocketMemory kInterlagos = platform("Opteron 6200 Interlagos", 4, 1600, "DDR3-1600");
const SocketMemory kAbuDhabi = platform("Opteron 6300 Abu Dhabi", 4, 1866, "DDR3-1866");
const SocketMemory kNaples = platform("EPYC 7001 Naples", 8, 2666, "DDR4-2666");
const SocketMemory kDhyana = platform("Hygon Dhyana (Zen, Naples' package)", 8, 2666, "DDR4-2666");
const SocketMemory kRome = platform("EPYC 7002 Rome", 8, 3200, "DDR4-3200");
const SocketMemory kMilan = platform("EPYC 7003 Milan", 8, 3200, "DDR4-3200");
const SocketMemory kGenoa = platform("EPYC 9004 Genoa/Bergamo", 12, 4800, "DDR5-4800");
const SocketMemory kSiena = platform("EPYC 8004 Siena", 6, 4800, "DDR5-4800");
const SocketMemory kTurin = platform("EPYC 9005 Turin", 12, 6000, "DDR5-6000");
const SocketMemory kEpyc4004 = platform("EPYC 4004/4005 (AM5)", 2, 5200, "DDR5-5200");
const SocketMemory kSandyEp = platform("Xeon E5 Sandy Bridge-EP", 4, 1600, "DDR3-1600");
const SocketMemory kIvyEp = platform("Xeon E5 v2 Ivy Bridge-EP", 4, 1866, "DDR3-1866");
const SocketMemory kHaswellEp = platform("Xeon E5 v3 Haswell-EP", 4, 2133, "DDR4-2133");
const SocketMemory kBroadwellEp = platform("Xeon E5 v4 Broadwell-EP", 4, 2400, "DDR4-2400");
const SocketMemory kSkylakeSp = platform("Xeon Scalable 1st gen Skylake-SP", 6, 2666, "DDR4-2666");
const SocketMemory kCascadeLake = platform("Xeon Scalable 2nd gen Cascade Lake", 6, 2933, "DDR4-2933");
const SocketMemory kCascadeLakeAp = platform("Xeon Platinum 9200 Cascade Lake-AP", 12, 2933, "DDR4-2933");
const SocketMemory kIceLakeSp = platform("Xeon Scalable 3rd gen Ice Lake-SP", 8, 3200, "DDR4-3200");
const SocketMemory kSapphireRapids = platform("Xeon Scalable 4th gen Sapphire Rapids", 8, 4800, "DDR5-4800");
const SocketMemory kXeonMax = platform("Xeon Max Sapphire Rapids (its HBM not counted)", 8, 4800, "DDR5-4800");
const SocketMemory kEmeraldRapids = platform("Xeon Scalable 5th gen Emerald Rapids", 8, 5600, "DDR5-5600");
const SocketMemory kXeon6Ap = platform("Xeon 6 6900 (Granite Rapids-AP / Sierra Forest-AP)", 12, 6400, "DDR5-6400");
const SocketMemory kXeon6Sp = platform("Xeon 6 6700/6500 (Granite Rapids-SP / Sierra Forest-SP)", 8, 6400, "DDR5-6400");
const SocketMemory kXeonPhi = platform("Xeon Phi x200 (its MCDRAM not counted)", 6, 2400, "DDR4-2400");

int digit(const std::ssub_match& m) { return m.str().empty() ? -1 : m.str().front() - '0'; }

// By the model name, which tells apart what one family and model number covers (Skylake-SP from
// Cascade Lake, Genoa from Siena, an EPYC from the Ryzen of the same die).
std::optional<SocketMemory> byName(const std::string& name) {
    std::smatch m;
    // EPYC 7763, 9654P, 7H12: the first digit is the series, the last the generation
    static const std::regex epyc(R"(EPYC\s*(?:\(TM\)\s*)?([0-9])[0-9A-Z]{2}([0-9]))");
    if (std::regex_search(name, m, epyc)) {
        const int series = digit(m[1]), generation = digit(m[2]);
        if (series == 7 && generation == 1) return kNaples;
        if (series == 7 && generation == 2) return kRome;
        if (series == 7 && generation == 3) return kMilan;
        if (series == 9 && generation == 4) return kGenoa;
        if (series == 9 && generation == 5) return kTurin;
        if (series == 8 && generation == 4) return kSiena;
        if (series == 4 && (generation == 4 || generation == 5)) return kEpyc4004;
        return std::nullopt;
    }
    static const std::regex opteron(R"(Opteron.*\b([68])([0-9])[0-9]{2}\b)");
    if (std::regex_search(name, m, opteron)) {
        const int series = digit(m[1]), generation = digit(m[2]);
        if (series == 6 && generation == 1) return kMagnyCours;
        if (series == 6 && generation == 2) return kInterlagos;
        if (series == 6 && generation == 3) return kAbuDhabi;
        if (series == 8 && generation == 4) return kIstanbul;
        return std::nullopt;
    }
    // Xeon Gold 6140, Platinum 8480+: the second digit is the generation
    static const std::regex scalable(R"((Bronze|Silver|Gold|Platinum)\s+([0-9])([0-9])[0-9]{2})");
    if (std::regex_search(name, m, scalable)) {
        const int series = digit(m[2]), generation = digit(m[3]);
        if (generation == 1) return kSkylakeSp;
        if (generation == 2) return series == 9 ? kCascadeLakeAp : kCascadeLake;
        if (generation == 3) return kIceLakeSp;
        if (generation == 4) return kSapphireRapids;
        if (generation == 5) return kEmeraldRapids;
        return std::nullopt;
    }
    static const std::regex xeon6(R"(Xeon.*\b6([5-9])[0-9]{2}[PE]\b)");
    if (std::regex_search(name, m, xeon6)) return digit(m[1]) == 9 ? kXeon6Ap : kXeon6Sp;
    static const std::regex xeonMax(R"(Xeon.*Max\s+9[0-9]{3})");
    if (std::regex_search(name, xeonMax)) return kXeonMax;
    // Xeon E5-2680 v3, E5-4620 v2, E5-2650 0 (the first generation has no "v")
    static const std::regex e5(R"(E5-[124][0-9]{3}[A-Z]?(?:\s+v([2-4]))?)");
    if (std::regex_search(name, m, e5)) {
        switch (digit(m[1])) {
        case 2: return kIvyEp;
        case 3: return kHaswellEp;
        case 4: return kBroadwellEp;
        default: return kSandyEp;
        }
    }
    static const std::regex phi(R"(Xeon Phi.*\b7[0-9]{3}\b)");
    if (std::regex_search(name, phi)) return kXeonPhi;
    return std::nullopt;
}

// By x86 family and model number, for sources without a model name (or an engineering sample's);
// only where the number is a server part alone or the server part is the likelier
std::optional<SocketMemory> byNumber(const std::string& vendor, int family, int model) {
    if (vendor == "GenuineIntel" && family == 6) {
        switch (model) {
        case 0x2D: return kSandyEp;
        case 0x3E: return kIvyEp;
        case 0x3F: return kHaswellEp;
        case 0x4F: return kBroadwellEp;
        case 0x55: return kSkylakeSp;
        case 0x6A: return kIceLakeSp;
        case 0x8F: return kSapphireRapids;
        case 0xCF: return kEmeraldRapids;
        case 0xAD: return kXeon6Sp;
        case 0x57:
        case 0x85: return kXeonPhi;
        default: return std::nullopt;
        }
    }
    if (vendor == "HygonGenuine" && family == 0x18) return kDhyana;
    if (vendor != "AuthenticAMD") return std::nullopt;
    if (family == 0x10 && model == 8) return kIstanbul;
    if (family == 0x10 && model == 9) return kMagnyCours;
    if (family == 0x15 && model == 1) return kInterlagos;
    if (family == 0x15 && model == 2) return kAbuDhabi;
    if (family == 0x17 && model == 0x01) return kNaples;
    if (family == 0x17 && model == 0x31) return kRome;
    if (family == 0x19 && model == 0x01) return kMilan;
    if (family == 0x19 && model == 0x11) return kGenoa;
    if (family == 0x1A && (model == 0x02 || model == 0x11)) return kTurin;
    return std::nullopt;
}

// a client part: its family and model number may be a server's (Ryzen 1000 is Naples' die)
bool clientName(const std::string& name) {
    static const std::regex client(R"(Core\(TM\)|Core Ultra|Ryzen|Athlon|Pentium|Celeron|Threadripper|Phenom)");
    return std::regex_search(name, client);
}

}  // namespace

std::optional<SocketMemory> socketMemoryOf(const Topology& t) {
    if (t.arch != Arch::X86_64) return std::nullopt;
    if (auto named = byName(t.cpuModel)) return named;
    if (clientName(t.cpuModel)) return std::nullopt;
    return byNumber(t.cpuVendor, t.cpuFamily, t.cpuModelNumber);
}

double socketsPerNode(const Topology& t) {
    const auto first = std::find_if(t.cpus.begin(), t.cpus.end(), [](const CpuTopology& c) { return c.online; });
    if (first == t.cpus.end()) return 1.0;
    // counted by packages and nodes, not CPUs: an offline CPU or a hidden one leaves a node and
    // its package as many sockets apart as before
    std::set<CpuSet> packagesOfNode;
    std::set<int> nodesOfPackage;
    for (const CpuTopology& c : t.cpus) {
        if (!c.online) continue;
        if (c.node == first->node && !c.packageCpus.empty()) packagesOfNode.insert(c.packageCpus);
        if (c.packageCpus == first->packageCpus) nodesOfPackage.insert(c.node);
    }
    if (packagesOfNode.empty() || nodesOfPackage.empty()) return 1.0;
    return static_cast<double>(packagesOfNode.size()) / static_cast<double>(nodesOfPackage.size());
}

}  // namespace schedscope::sim
