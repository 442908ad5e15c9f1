// schedscope-cli topology | domains
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.h"
#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "topology/topology_format.h"
#include "topology_options.h"

namespace schedscope::cli {
namespace {

int runTopology(const Args& args) {
    if (args.has("list")) {
        auto presets = listPresets();
        if (args.has("json")) {
            nlohmann::json j = nlohmann::json::array();
            for (const auto& p : presets) j.push_back({{"name", p.name}, {"description", p.description}});
            std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        } else {
            for (const auto& p : presets) std::printf("%-20s %s\n", p.name.c_str(), p.description.c_str());
        }
        return 0;
    }
    auto topo = topologyFrom(args);
    if (!topo) return fail(topo.error());
    if (args.has("json")) std::cout << topologyToJson(*topo).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else std::cout << topologyToText(*topo);
    return 0;
}

Result<DomainBuildOptions> buildOptionsFrom(const Args& args, const Topology& topo) {
    DomainBuildOptions opt;
    opt.arch = topo.arch;
    if (auto p = args.value("profile")) {
        opt.profile = findProfile(*p);
        if (!opt.profile) return Error{"--profile: " + unknownProfileError(*p)};
    } else if (!topo.kernelProfile.empty()) {
        opt.profile = findProfile(topo.kernelProfile);  // a kernel log's machine: its kernel's domains
    }
    opt.cls = !args.has("no-cls");
    opt.node = !args.has("no-node");
    return opt;
}

// This machine's domains, and the comparison with them, are its own kernel's: without --profile
// they follow the running kernel's release (a 6.1 kernel builds DIE, no CLS on a hybrid CPU).
void runningKernelProfileUnlessGiven(const Args& args, DomainBuildOptions& opt) {
    if (args.has("profile")) return;
    auto spec = topologySpecFrom(args);
    const bool diffWithThisKernel = args.has("diff") && !args.has("kernel-log");
    if (!diffWithThisKernel && !(spec && spec->kind == TopologySpec::Kind::Local)) return;
    if (const KernelProfile* p = runningKernelProfile()) opt.profile = p;
}

// `dmesg | schedscope-cli domains --diff --kernel-log -`
int runDomains(const Args& args) {
    const std::string format = args.valueOr("format", args.has("json") ? "json" : "text");
    if (args.has("json") && format != "json")
        return fail("domains: --json and --format " + format + " ask for two formats: give one");
    if (format != "text" && format != "json" && format != "kernel")
        return fail("domains: --format must be text, json or kernel, not '" + format + "'");

    if (args.has("kernel") && args.has("kernel-log"))
        return fail("domains: --kernel (this kernel's debugfs) and --kernel-log FILE name two kernels: give one");
    if (args.has("diff") && format == "kernel")
        return fail("domains: --diff prints the differences (as text or json), not a kernel log: drop --format kernel");
    const bool showKernel = (args.has("kernel") || args.has("kernel-log")) && !args.has("diff");
    if (showKernel && topologyOptionGiven(args))
        return fail(std::string("domains: ") + (args.has("kernel") ? "--kernel" : "--kernel-log") +
                    " shows the kernel's own domains: a topology option builds domains only to compare with --diff");
    // --cpu LIST: the CPUs shown, or compared
    std::optional<CpuSet> only;
    if (auto list = args.value("cpu")) {
        auto keep = CpuSet::parseList(*list);
        if (!keep) return fail("domains: --cpu: " + keep.error());
        if (keep->empty()) return fail("domains: --cpu '" + *list + "' names no CPU");
        only = *keep;
    }
    auto keepOnly = [&](DomainTree& tree) -> bool {
        if (!only) return true;
        std::erase_if(tree.cpus, [&](const CpuDomains& c) { return !only->test(c.cpu); });
        return !tree.cpus.empty();
    };
    if (args.valueOr("kernel-log", "") == "-" && args.valueOr("from-kernel-log", "") == "-")
        return fail("domains: standard input is read once: give --kernel-log or --from-kernel-log a file");
    // the kernel's own domains: this one's from debugfs, or another machine's from its boot log
    auto kernelDomains = [&]() -> Result<DomainTree> {
        if (auto log = args.value("kernel-log")) return readKernelLog(*log);
        return readKernelDomains("/");
    };
    // a log that cannot be read is bad input (2); with --diff, whose 1 means "they differ", so is
    // debugfs that cannot be read (as diff(1): 2 is trouble), else that is a runtime failure (1)
    auto readFailure = [&](const std::string& error) {
        return args.has("kernel-log") || args.has("diff") ? fail(error) : failRuntime(error);
    };
    if (showKernel) {
        auto running = kernelDomains();
        if (!running) return readFailure(running.error());
        if (!keepOnly(*running)) return fail("domains: --cpu '" + *args.value("cpu") + "' names no CPU of the kernel's domains");
        if (format == "json") {
            writeDomainTreeJson(std::cout, *running);
            std::cout << "\n";
        }
        else if (format == "kernel") std::cout << domainTreeToKernelLog(*running);
        else std::cout << domainTreeToText(*running);
        return 0;
    }
    auto topo = topologyFrom(args);
    if (!topo) return fail(topo.error());
    auto opt = buildOptionsFrom(args, *topo);
    if (!opt) return fail(opt.error());
    runningKernelProfileUnlessGiven(args, *opt);
    // the kernel's side first: a log from another machine bounds the kernel that printed it,
    // and without --profile the build is for the newest kernel inside those bounds
    std::optional<Result<DomainTree>> running;
    if (args.has("diff")) {
        running = kernelDomains();
        if (!*running) return readFailure((*running).error());
        if (args.has("kernel-log") && !args.has("profile") && !(*running)->logProfile.empty())
            opt->profile = findProfile((*running)->logProfile);
    }
    auto tree = buildDomains(*topo, *opt);
    if (!tree) return fail(tree.error());

    if (args.has("diff")) {
        const DomainTree& kernelTree = **running;
        if (only && !std::any_of(tree->cpus.begin(), tree->cpus.end(), [&](const CpuDomains& c) { return only->test(c.cpu); }))
            return fail("domains: --cpu '" + *args.value("cpu") + "' names no CPU of this topology");
        std::vector<std::string> notes;
        auto diff = diffDomainTrees(*tree, kernelTree, &notes, only ? &*only : nullptr);
        const CpuSet notCompared = only ? cpusNotInLog(*tree, kernelTree) & *only : cpusNotInLog(*tree, kernelTree);
        for (const std::string& note : notes) std::cerr << "schedscope-cli: note: " << note << "\n";
        // a log from another machine's kernel: what it says of that kernel, when the build
        // did not get its profile
        if (args.has("kernel-log") && !args.has("profile"))
            for (const std::string& note : kernelTree.notes)
                std::cerr << "schedscope-cli: note: the log was " << note << "; the domains were built for "
                          << (tree->profile ? tree->profile->name : defaultProfile().name)
                          << (kernelTree.logProfile.empty() || !kernelTree.logKernelRelease.empty() ? "" : ", the newest such kernel")
                          << " (give --profile)\n";
        if (format == "json") {
            std::cout << nlohmann::json{{"identical", diff.empty()},
                                        {"differences", diff},
                                        {"not_compared", notCompared.toList()},
                                        {"notes", notes}}
                             .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                      << "\n";
        } else {
            const char* kernel = args.has("kernel-log") ? "the kernel's log" : "the running kernel";
            const std::string which = only ? "the CPUs of --cpu" : "every CPU";
            if (diff.empty() && notCompared.empty()) std::cout << "identical: the builder matches " << kernel << " on " << which << "\n";
            else if (diff.empty())
                std::cout << "identical on the CPUs the log printed: cpus " << notCompared.toList() << " were not compared\n";
            for (const auto& d : diff) std::cout << d << "\n";
        }
        return diff.empty() ? 0 : 1;
    }
    if (!keepOnly(*tree)) return fail("domains: --cpu '" + *args.value("cpu") + "' names no CPU of this topology");
    if (format == "json") {
        writeDomainTreeJson(std::cout, *tree);
        std::cout << "\n";
    }
    else if (format == "kernel") std::cout << domainTreeToKernelLog(*tree);
    else std::cout << domainTreeToText(*tree);
    return 0;
}

}  // namespace

std::vector<Command> topologyCommands() {
    auto topoOpts = topologyOptions();
    auto withJson = topoOpts;
    withJson.push_back({"json", false, "print JSON"});
    auto topologyOpts = withJson;
    topologyOpts.push_back({"list", false, "list the built-in topologies"});

    auto domainOpts = withJson;
    domainOpts.push_back({"no-cls", false, "leave out the cluster (CLS) level, as kernels before 5.16"});
    domainOpts.push_back({"no-node", false, "leave out the NUMA identity NODE level, as kernels before 4.15"});
    domainOpts.push_back({"profile", true,
                          "NAME kernel profile: " + profileNameList() + " (the newest by default; "
                          "for --local and --diff the running kernel's), or any linux-X.Y"});
    domainOpts.push_back({"format", true, "FMT text (default), json, or kernel (the sched_verbose boot log)"});
    domainOpts.push_back({"cpu", true, "LIST print only these CPUs' domains (a cpulist, e.g. 0,24)"});
    domainOpts.push_back({"kernel", false, "print the running kernel's own domains (debugfs)"});
    domainOpts.push_back({"kernel-log", true,
                          "FILE the domains a kernel printed at boot with sched_verbose (a saved dmesg, - for standard "
                          "input): shown as --kernel shows this kernel's, or compared with --diff (give the machine's "
                          "--profile)"});
    domainOpts.push_back({"diff", false,
                          "compare the built domains with the running kernel's, or --kernel-log's (exit 1 if they differ)"});
    return {
        {"topology", "show a CPU topology: packages, NUMA nodes, LLCs, clusters, cores, CPUs",
         "[--local | --sysfs-root DIR|ARCHIVE | --xml FILE | --synthetic STR | --preset NAME] [--json] [--list]", topologyOpts,
         runTopology},
        {"domains", "build the sched domains the kernel would build for a topology",
         "[topology options] [--arch ARCH] [--no-cls] [--no-node] [--profile NAME] [--format text|json|kernel] "
         "[--kernel | --kernel-log FILE] [--diff]",
         domainOpts, runDomains},
    };
}

}  // namespace schedscope::cli
