#include "topology/topology_source.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string_view>

#include "domains/topology_from_log.h"
#include "topology/hwloc_loader.h"
#include "topology/snapshot_archive.h"
#include "topology/sysfs_loader.h"

namespace schedscope {
namespace fs = std::filesystem;

namespace {

std::string describeSource(const TopologySpec& spec) {
    switch (spec.kind) {
        case TopologySpec::Kind::Local: return "--local";
        case TopologySpec::Kind::SysfsRoot: return "--sysfs-root " + spec.value;
        case TopologySpec::Kind::HwlocXml: return "--xml " + spec.value;
        case TopologySpec::Kind::Synthetic: return "--synthetic \"" + spec.value + "\"";
        case TopologySpec::Kind::Preset: return "--preset " + spec.value;
        case TopologySpec::Kind::KernelLog: return "--from-kernel-log " + spec.value;
    }
    return {};
}

Result<Topology> loadSource(const TopologySpec& spec);

}  // namespace

Result<Topology> withCpusets(Topology t, const CpuSet& isolate, const std::optional<std::vector<CpuSet>>& partitions,
                             const std::string& where) {
    const CpuSet online = t.onlineCpus();
    auto mustBeOnline = [&](const char* what, const CpuSet& cpus) -> Status {
        if (cpus.isSubsetOf(online)) return {};
        return Error{where + ": " + what + " " + cpus.toList() + ": CPUs " + cpus.minus(online).toList() +
                     " are not online there"};
    };
    if (auto st = mustBeOnline("--isolate", isolate); !st) return Error{st.error()};
    t.isolated |= isolate;
    // housekeeping_setup(): isolcpus= may not take every CPU; the boot CPU stays
    if (!isolate.empty() && online.isSubsetOf(t.isolated)) {
        const int boot = online.first();
        t.isolated.reset(boot);
        t.warnings.push_back("--isolate " + isolate.toList() + " leaves no CPU for housekeeping: cpu" +
                             std::to_string(boot) + " stays, as the kernel keeps its boot CPU (\"Housekeeping: must include one present CPU\")");
    }
    if (partitions) {
        CpuSet taken;
        for (const CpuSet& p : *partitions) {
            if (auto st = mustBeOnline("--partition", p); !st) return Error{st.error()};
            if (p.intersects(taken)) return Error{where + ": --partition " + p.toList() + " overlaps another partition"};
            taken |= p;
        }
        t.rootPartitions = *partitions;
    }
    return t;
}

std::string TopologySpec::describe() const { return describeSource(*this) + describeWhatIfs(); }

std::string TopologySpec::describeWhatIfs() const {
    std::string out;
    if (!isolate.empty()) out += " --isolate " + isolate.toList();
    if (partitions)
        for (const CpuSet& p : *partitions) out += " --partition " + p.toList();
    if (numaDistances) out += " --numa-distances \"" + numaDistancesText(*numaDistances) + "\"";  // (';' is a shell word end)
    return out;
}

std::string resourcesDir() {
    if (const char* env = std::getenv("SCHEDSCOPE_DATA_DIR"); env && *env) return env;
    std::error_code ec;
    // Installed layout: <prefix>/bin/schedscope-cli -> <prefix>/share/schedscope
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        fs::path share = exe.parent_path().parent_path() / "share/schedscope";
        if (fs::is_directory(share / "topologies", ec)) return share.string();
    }
    if (fs::is_directory(fs::path(SCHEDSCOPE_DATA_DIR) / "topologies", ec)) return SCHEDSCOPE_DATA_DIR;
    return SCHEDSCOPE_SOURCE_RESOURCES;  // running from a build tree
}

std::vector<PresetInfo> listPresets() {
    std::vector<PresetInfo> out;
    const fs::path dir = fs::path(resourcesDir()) / "topologies";
    std::ifstream in(dir / "presets.json");
    if (!in) return out;
    auto j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_array()) return out;
    for (const auto& p : j)
        out.push_back({p.value("name", ""), p.value("description", ""), (dir / p.value("file", "")).string()});
    return out;
}

namespace {
Result<Topology> loadSysfsAt(const std::string& root, const TopologySpec& spec) {
    auto topo = loadSysfsTopology(root, spec.archGiven ? spec.arch : detectSnapshotArch(root).value_or(hostArch()));
    // hwloc's x86+linux dumps hold <machine>/fsroot/sys: the machine is the directory above
    if (topo && topo->name == "fsroot") topo->name = fs::path(root).parent_path().filename().string();
    return topo;
}

// A directory holding sys/, one a few levels above it (an extracted dump), or the dump's archive.
// "host1.tar.bz2" -> "host1"; a generic "sysfs.tar.xz" takes its folder's name
std::string archiveStem(const std::string& archive) {
    const fs::path p(archive);
    std::string stem = p.filename().string();
    for (const std::string_view suffix : {".tar.xz", ".tar.bz2", ".tar.gz", ".tgz", ".tar"})
        if (stem.size() > suffix.size() && stem.ends_with(suffix)) {
            stem = stem.substr(0, stem.size() - suffix.size());
            break;
        }
    if ((stem == "sysfs" || stem.empty()) && p.has_parent_path() && !p.parent_path().filename().empty())
        return p.parent_path().filename().string();
    return stem;
}

Result<Topology> loadSysfsSnapshot(const TopologySpec& spec) {
    if (!isSnapshotArchive(spec.value)) {
        auto root = findSnapshotRoot(spec.value);
        if (!root) return Error{root.error()};
        return loadSysfsAt(*root, spec);
    }
    auto extracted = ExtractedSnapshot::extract(spec.value);
    if (!extracted) return Error{extracted.error()};
    auto root = findSnapshotRoot(extracted->dir());
    if (!root) return Error{spec.value + ": no sysfs snapshot in the archive (no sys/devices/system/cpu directory)"};
    auto topo = loadSysfsAt(*root, spec);
    // errors and warnings name files inside the archive, not in the temporary directory it goes away with
    auto inArchive = [&](std::string text) {
        for (size_t at; (at = text.find(extracted->dir())) != std::string::npos;)
            text.replace(at, extracted->dir().size(), spec.value);
        return text;
    };
    if (!topo) return Error{inArchive(topo.error())};
    for (std::string& w : topo->warnings) w = inArchive(w);
    topo->source = "sysfs snapshot " + spec.value;
    // an archive holding sys/ at its top: named after the archive, not the temporary directory
    if (fs::path(*root) == fs::path(extracted->dir())) topo->name = archiveStem(spec.value);
    return topo;
}
}  // namespace

Result<Topology> loadTopology(const TopologySpec& spec) {
    auto t = loadSource(spec);
    if (!t) return t;
    return withWhatIfsOf(std::move(*t), spec, describeSource(spec));
}

Result<Topology> withWhatIfsOf(Topology t, const TopologySpec& spec, const std::string& where) {
    if (spec.numaDistances) {
        auto withTable = withNumaDistances(std::move(t), *spec.numaDistances, where);
        if (!withTable) return withTable;
        t = std::move(*withTable);
    }
    if (spec.isolate.empty() && !spec.partitions) return t;
    return withCpusets(std::move(t), spec.isolate, spec.partitions, where);
}

namespace {

Result<Topology> loadSource(const TopologySpec& spec) {
    switch (spec.kind) {
        case TopologySpec::Kind::Local: {
            auto t = loadLocalTopology();
            if (t && spec.archGiven) t->arch = spec.arch;
            return t;
        }
        case TopologySpec::Kind::SysfsRoot: return loadSysfsSnapshot(spec);
        case TopologySpec::Kind::HwlocXml:
            return spec.archGiven ? loadHwlocXml(spec.value, spec.arch) : loadHwlocXmlDetectArch(spec.value);
        case TopologySpec::Kind::Synthetic:
            return loadHwlocSynthetic(spec.value, spec.arch);
        case TopologySpec::Kind::Preset: {
            auto presets = listPresets();
            for (const auto& p : presets) {
                if (p.name != spec.value) continue;
                auto t = spec.archGiven ? loadHwlocXml(p.file, spec.arch) : loadHwlocXmlDetectArch(p.file);
                if (!t) return Error{"preset '" + p.name + "': " + t.error()};
                t->name = p.name;
                t->source = "preset " + p.name + " (" + p.description + ")";
                return t;
            }
            std::string known;
            for (const auto& p : presets) known += (known.empty() ? "" : ", ") + p.name;
            if (known.empty()) return Error{"unknown preset '" + spec.value + "': no presets found in " + resourcesDir()};
            return Error{"unknown preset '" + spec.value + "' (known: " + known + ")"};
        }
        case TopologySpec::Kind::KernelLog: {
            TopologyFromLogOptions options;
            if (spec.archGiven) options.arch = spec.arch;
            auto read = loadTopologyFromKernelLog(spec.value, options);
            if (!read) return Error{read.error()};
            // what the log could not tell goes with the topology, after its differences
            for (size_t i = 1; i < read->notes.size(); ++i) read->topology.notes.push_back(read->notes[i]);
            read->topology.kernelProfile = read->profile->name;
            return std::move(read->topology);
        }
    }
    return Error{"unknown topology source"};
}

}  // namespace

}  // namespace schedscope
