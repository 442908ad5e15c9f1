#include "sim_run.h"

#include <cmath>
#include <filesystem>

#include "domains/profile.h"
#include "topology_options.h"
#include "workload/workload_json.h"
#include "workload/workload_spec.h"

namespace schedscope::cli {
namespace {
// A script that loops at one instant is the workload's fault: its error names the workload
// (a file's path) as a load error would.
std::string inWorkload(const SimSetup& setup, const std::string& error) {
    if (!error.starts_with("simulation stuck")) return error;
    return "workload " + setup.workload.spec + ": " + error;
}
}  // namespace

Result<sim::SchedKnobs> schedKnobOptions(const Args& args) {
    sim::SchedKnobs knobs;
    for (auto [name, knob] : {std::pair{"delay-dequeue", &knobs.delayDequeue}, {"ni-random", &knobs.newidleRandom},
                              {"smt-balance", &knobs.smtBalance}, {"util-est", &knobs.utilEst},
                              {"run-to-parity", &knobs.runToParity}}) {
        if (!args.has(name)) continue;
        auto on = args.onOff(name, true);
        if (!on) return Error{on.error()};
        *knob = *on;
    }
    if (auto w = args.value("wake-wide")) {
        auto factor = sim::parseWakeWide(*w);
        if (!factor) return Error{factor.error()};
        knobs.wakeWide = *factor;
    }
    return knobs;
}

Result<std::optional<sim::SimFeatures>> schedFeatureOptions(const Args& args, const KernelProfile& profile) {
    auto knobs = schedKnobOptions(args);
    if (!knobs) return Error{knobs.error()};
    if (!knobs->delayDequeue && !knobs->newidleRandom && !knobs->wakeWide && !knobs->smtBalance && !knobs->utilEst &&
        !knobs->runToParity)
        return std::optional<sim::SimFeatures>{};
    auto f = sim::featuresWithKnobs(profile, *knobs);
    if (!f) {
        const std::string& e = f.error();
        const char* option = e.starts_with("UTIL_EST")        ? "--util-est on: "
                             : e.starts_with("RUN_TO_PARITY") ? "--run-to-parity on: "
                                                              : "--delay-dequeue on: ";
        return Error{option + e};
    }
    return std::optional<sim::SimFeatures>{*f};
}

Result<SimSetup> simSetupFrom(const Args& args) {
    SimSetup s;
    auto topo = topologyFrom(args);
    if (!topo) return Error{topo.error()};
    s.topology = std::move(*topo);
    const int cpuCount = static_cast<int>(s.topology.cpus.size());
    auto spec = args.value("workload");
    if (!spec) return Error{"simulate: --workload SPEC is required (e.g. stream:threads=4,cpus=0-23, or a .json file)"};
    std::error_code ec;
    // a file when it names one (any name: "wk", "./w1") or ends in .json; else a generator's spec
    const bool isFile = spec->ends_with(".json") || std::filesystem::is_regular_file(*spec, ec);
    // --duration is read first: a generator without duration= fills the run (kernbench's compiles)
    auto runS = args.number("duration", 1.0);
    if (!runS) return Error{runS.error()};
    auto wl = isFile ? workload::loadWorkloadFile(*spec, cpuCount)
                     : workload::parseWorkloadSpec(*spec, cpuCount, *runS > 0 && *runS <= 100000 ? *runS : 1.0);
    if (!wl) return Error{wl.error()};
    s.workload = std::move(*wl);
    s.build.arch = s.topology.arch;
    if (auto p = args.value("profile")) {
        s.build.profile = findProfile(*p);
        if (!s.build.profile) return Error{"--profile: " + unknownProfileError(*p)};
    } else if (!s.topology.kernelProfile.empty()) {
        s.build.profile = findProfile(s.topology.kernelProfile);  // a kernel log's machine, under its kernel
    } else if (auto where = topologySpecFrom(args); where && where->kind == TopologySpec::Kind::Local) {
        // this machine under its own kernel, as `domains --local` builds it (none known: the newest)
        s.build.profile = runningKernelProfile();
    }
    s.profileName = (s.build.profile ? *s.build.profile : defaultProfile()).name;
    auto cls = args.onOff("cls", true);
    if (!cls) return Error{cls.error()};
    auto node = args.onOff("node", true);
    if (!node) return Error{node.error()};
    s.build.cls = *cls;
    s.build.node = *node;
    auto seed = args.integer("seed", 1, 0, (1LL << 62));
    if (!seed) return Error{seed.error()};
    s.options.seed = static_cast<uint64_t>(*seed);
    auto dur = args.number("duration", 1.0);
    if (!dur) return Error{dur.error()};
    // the clock counts nanoseconds: a run shorter than one simulates nothing
    if (!(*dur >= 1e-9) || *dur > 100000) return Error{"--duration must be from 1e-9 (1 ns) to 100000 seconds"};
    s.options.durationS = *dur;
    auto hz = args.integer("hz", 250, 10, 10000);
    if (!hz) return Error{hz.error()};
    s.options.hz = static_cast<int>(*hz);
    auto knobs = schedKnobOptions(args);
    if (!knobs) return Error{knobs.error()};
    s.knobs = *knobs;
    auto features = schedFeatureOptions(args, s.build.profile ? *s.build.profile : defaultProfile());
    if (!features) return Error{features.error()};
    if (*features) s.options.features = **features;
    // what the kernel would print while building these domains bears on what the run means (no
    // domains at all: every task stays where it started); said once, as `domains` says it
    if (auto tree = buildDomains(s.topology, s.build)) {
        sayDomainWarnings(tree->warnings);
        s.tree = std::make_shared<const DomainTree>(std::move(*tree));
    }
    auto idleExit = args.numberIn("idle-exit-us", 0.0, 0.0, 1e6, "microseconds");
    if (!idleExit) return Error{idleExit.error()};
    s.options.idleExitNs = std::llround(*idleExit * 1000.0);
    auto remoteResched = args.numberIn("remote-resched-us", 0.0, 0.0, 1e6, "microseconds");
    if (!remoteResched) return Error{remoteResched.error()};
    s.options.remoteReschedNs = std::llround(*remoteResched * 1000.0);
    auto numaBalancing = args.onOff("numa-balancing", true);
    if (!numaBalancing) return Error{numaBalancing.error()};
    if (!*numaBalancing) s.options.numaMemoryFollowsS = 0;
    s.options.samplePeriodS = std::max(0.001, (s.workload.durationS > 0 ? s.workload.durationS : *dur) / 100.0);
    return s;
}

Result<SimRun> runSimulation(const SimSetup& setup, bool cls, bool node, uint64_t seed, int explain,
                             std::vector<sim::Decision>* decisions, const std::function<bool(double)>& progress) {
    SimRun run;
    if (setup.tree && cls == setup.build.cls && node == setup.build.node) {
        run.tree = *setup.tree;  // the settings' own domains, built with the set-up
    } else {
        DomainBuildOptions b = setup.build;
        b.cls = cls;
        b.node = node;
        auto tree = buildDomains(setup.topology, b);
        if (!tree) return Error{tree.error()};
        run.tree = std::move(*tree);
    }
    sim::SimOptions o = setup.options;
    o.seed = seed;
    o.progress = progress;
    if (explain > 0 && decisions) {
        auto sim = sim::Simulation::create(setup.topology, run.tree, setup.workload, o);
        if (!sim) return Error{sim.error()};
        while (static_cast<int>(decisions->size()) < explain) {
            auto d = (*sim)->nextDecision();
            if (!d) break;
            decisions->push_back(std::move(*d));
        }
        (*sim)->runToEnd();
        if (const std::string stuck = (*sim)->stuckError(); !stuck.empty()) return Error{inWorkload(setup, stuck)};  // as without --explain
        run.state = (*sim)->release();
        return run;
    }
    auto st = sim::simulate(setup.topology, run.tree, setup.workload, o);
    if (!st) return Error{inWorkload(setup, st.error())};
    run.state = std::move(*st);
    return run;
}

sim::RunConfig runConfig(const SimSetup& setup, bool cls, bool node) {
    sim::RunConfig c;
    c.topology = setup.topology.name;
    c.profile = setup.profileName;
    // the levels the run's kernel builds: linux-4.14 has neither, whatever --cls and --node say
    const KernelProfile& kernel = setup.build.profile ? *setup.build.profile : defaultProfile();
    c.cls = cls && kernel.hasClusterLevel;
    c.node = node && kernel.hasNodeLevel;
    c.workloadSpec = setup.workload.spec;
    return c;
}

}  // namespace schedscope::cli
