#include "workload/workload_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace schedscope::workload {
namespace {

constexpr double kMs = 1e6;

struct Params {
    std::map<std::string, std::string> kv;
    CpuSet cpus;
    double durationS = 0;
    double workS = 0;  // 0: run for the duration
    double runS = 1;   // the run's length when no duration= is given

    // how long the generator's tasks must last: the work, else the duration, else the run's
    double horizonS() const { return workS > 0 ? workS : (durationS > 0 ? durationS : runS); }
};

const GeneratorInfo* findGenerator(const std::string& name) {
    for (const auto& g : generators())
        if (g.name == name) return &g;
    return nullptr;
}

Result<long long> countParam(const Params& p, const std::string& wl, const std::string& key, long long fallback) {
    auto it = p.kv.find(key);
    if (it == p.kv.end()) return fallback;
    long long v = 0;
    const std::string& s = it->second;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
        return Error{"workload " + wl + ": " + key + "='" + s + "' is not a whole number"};
    if (v <= 0) return Error{"workload " + wl + ": " + key + " must be positive, not " + s};
    if (v > 100000) return Error{"workload " + wl + ": " + key + "=" + s + " is too large (at most 100000)"};
    return v;
}

Result<double> secondsParam(const std::map<std::string, std::string>& kv, const std::string& wl, const std::string& key) {
    auto it = kv.find(key);
    if (it == kv.end()) return 0.0;
    char* end = nullptr;
    double v = std::strtod(it->second.c_str(), &end);
    // decimal only, as the command line's numbers: strtod also reads "0x10" as 16
    if (it->second.empty() || *end != '\0' || !std::isfinite(v) || it->second.find_first_of("xX") != std::string::npos)
        return Error{"workload " + wl + ": " + key + "='" + it->second + "' is not a number of seconds"};
    if (v <= 0 || v > 1e5) return Error{"workload " + wl + ": " + key + " must be in (0, 100000] seconds, not " + it->second};
    return v;
}

// Steady-state loop: for a fixed amount of work the loop runs a bounded number of times.
long long iterations(const Params& p, double burstNs) {
    if (p.workS <= 0) return -1;
    return std::max(1LL, static_cast<long long>(std::llround(p.workS * 1e9 / burstNs)));
}

// A loop's bursts for work=S: the nominal burst's count, rounded (at least one), each resized so
// that they add up to S (work=0.05 was three 20 ms bursts of stream, 0.06 s; work=0.001 one,
// 0.02 s); without work=, the nominal burst for ever (count -1).
struct Bursts {
    long long count = -1;
    double ns = 0;
};
Bursts burstsFor(const Params& p, double nominalNs) {
    const long long n = iterations(p, nominalNs);
    return {n, n > 0 ? p.workS * 1e9 / static_cast<double>(n) : nominalNs};
}

Op run(double ns, double jitter = 0.0) { Op o; o.kind = OpKind::Run; o.amountNs = ns; o.jitter = jitter; return o; }
Op sleepOp(double ns, double jitter = 0.0) { Op o; o.kind = OpKind::Sleep; o.amountNs = ns; o.jitter = jitter; return o; }
Op waitOp() { Op o; o.kind = OpKind::Wait; return o; }
Op wake(std::vector<int> t, bool sync) { Op o; o.kind = OpKind::Wake; o.targets = std::move(t); o.sync = sync; return o; }
Op forkOp(std::vector<int> t) { Op o; o.kind = OpKind::Fork; o.targets = std::move(t); return o; }
Op barrier(int id, int parties) { Op o; o.kind = OpKind::Barrier; o.id = id; o.parties = parties; return o; }
Op post(int queue) { Op o; o.kind = OpKind::Post; o.id = queue; return o; }
Op take(int queue) { Op o; o.kind = OpKind::Take; o.id = queue; return o; }
Op loop(int to, long long count) { Op o; o.kind = OpKind::Loop; o.to = to; o.count = count; return o; }

TaskSpec task(const std::string& name, const Params& p, double mem, double bw) {
    TaskSpec t;
    t.name = name;
    t.affinity = p.cpus;
    t.memFraction = mem;
    t.bandwidthGBs = bw;
    return t;
}

// A worker of a block pipeline (pbzip2's compressors, pixz's encoders): forked by another task,
// with a footprint in the shared cache, looping over `body` once per block it takes from a queue.
// For a fixed amount of work the n workers split the blocks and exit, as the real ones do at
// the end of the input (which worker takes which block is still the queue's doing).
TaskSpec blockWorker(const std::string& name, const Params& p, double mem, double bw, double cacheFraction,
                     double cacheMB, std::vector<Op> body, long long blocks, int n, int i) {
    TaskSpec t = task(name, p, mem, bw);
    t.cacheFraction = cacheFraction;
    t.cacheMB = cacheMB;
    t.startAtBegin = false;
    const long long share = blocks < 0 ? -1 : blocks / n + (i <= blocks % n ? 1 : 0);
    if (share != 0) {
        body.push_back(loop(0, share < 0 ? -1 : share - 1));
        t.script = std::move(body);
    }
    return t;
}

// An OpenMP-style team: thread 0 forks the others, then all loop over bursts separated by a
// barrier (stream's four kernels; the threads spin briefly and sleep in the barrier).
Workload team(const std::string& name, int n, const Params& p, double burstNs, double mem, double bw) {
    Workload w;
    std::vector<int> others;
    for (int i = 1; i < n; ++i) others.push_back(i);
    const Bursts bursts = burstsFor(p, burstNs);
    for (int i = 0; i < n; ++i) {
        TaskSpec t = task(name + "/" + std::to_string(i), p, mem, bw);
        t.startAtBegin = i == 0;
        if (i == 0 && !others.empty()) t.script.push_back(forkOp(others));
        const int top = static_cast<int>(t.script.size());
        t.script.push_back(run(bursts.ns, 0.02));
        if (n > 1) t.script.push_back(barrier(0, n));
        t.script.push_back(loop(top, bursts.count < 0 ? -1 : bursts.count - 1));
        w.tasks.push_back(std::move(t));
    }
    return w;
}

Workload makeStream(int n, const Params& p) {
    // STREAM: memory bound (90% of the uncontended time waits on memory, 11 GB/s alone); see
    // contention.h for where these numbers come from.
    Workload w = team("stream", n, p, 20 * kMs, 0.9, 11.0);
    w.unit = "GB/s";
    w.bandwidthUnit = true;
    return w;
}

Workload makeSysbench(int n, const Params& p) {
    Workload w = team("sysbench", n, p, 10 * kMs, 0.0, 0.0);
    for (auto& t : w.tasks) t.script.erase(std::remove_if(t.script.begin(), t.script.end(),
                                                          [](const Op& o) { return o.kind == OpKind::Barrier; }),
                                           t.script.end());
    for (auto& t : w.tasks)  // re-point the loop after removing the barrier
        for (auto& o : t.script)
            if (o.kind == OpKind::Loop) o.to = static_cast<int>(t.script.size()) - 2;
    w.unit = "events/s";
    w.unitPerWorkSecond = 1000.0;  // one sysbench event ~ 1 ms of uncontended work
    return w;
}

Workload makeMcf(int n, const Params& p) {
    // SPEC mcf_r copies: independent processes, cache and memory hungry (60%, 5 GB/s alone),
    // and a 4 MB hot set in the shared cache for 5% of the time: with 4 MB of L3 per Kunpeng
    // cluster, one copy per cluster keeps it, four share it (seed 000: 8 copies +7% spread over
    // 8 clusters).
    //
    // SPEC's harness starts them: specinvoke forks one copy after another (half a millisecond
    // each, a fork and an exec) while it keeps its own CPU busy, so each copy is placed by
    // find_idlest_cpu() from a CPU that runs something, and lands on the next idle CPU, not on
    // the CPU it was forked from; then it exits. Started all at once by a shell from an idle
    // CPU, 4 copies fell on one cluster without CLS (+9.9% with it); launched, they take two, as
    // on the real machine (seed 000: +1.8%; the model now gives about +5%). Its half
    // millisecond of work per copy counts in the throughput: about 0.05% of the work of a 1 s
    // run, less in longer ones.
    Workload w;
    const Bursts bursts = burstsFor(p, 50 * kMs);
    TaskSpec launcher = task("specinvoke", p, 0.0, 0.0);
    for (int i = 0; i < n; ++i) {
        launcher.script.push_back(run(0.5 * kMs));
        launcher.script.push_back(forkOp({i + 1}));
    }
    w.tasks.push_back(std::move(launcher));
    for (int i = 0; i < n; ++i) {
        TaskSpec t = task("mcf/" + std::to_string(i), p, 0.6, 5.0);
        t.startAtBegin = false;
        t.cacheFraction = 0.05;
        t.cacheMB = 4.0;
        t.script = {run(bursts.ns, 0.05), loop(0, bursts.count < 0 ? -1 : bursts.count - 1)};
        w.tasks.push_back(std::move(t));
    }
    w.unit = "copies-work/s";
    return w;
}

Workload makePbzip2(int n, const Params& p) {
    // pbzip2's pipeline: a reader fills a bounded FIFO of blocks (two per compressor), each
    // compressor takes the next block (a post wakes one waiting compressor, as the queue's
    // condition variable does), compresses it and queues it for a writer. Compressing a block
    // takes 800 times as long as reading it, so one reader keeps 96 compressors busy (seed 002's
    // throughput grew almost linearly up to 96 threads). Compressors are CPU bound with a
    // little memory traffic (10%, 1 GB/s alone) and 10% of their time on hits in a 2.5 MB
    // footprint (a 900 kB block and its sort arrays) in the shared cache: two of them per 4 MB
    // Kunpeng cluster already miss some. Fit to both of seed 002's tables: +2.0/5.6/8.3/6.0/
    // 2.8/-0.3/-0.3% at 2-24 threads on one 24-core node, and on 96 cores the most (+5.3%) at
    // 21 threads, once the balancer has spread them over the nodes (a few seconds).
    constexpr int kBlocks = 0, kFreeSlots = 1, kCompressed = 2;
    constexpr double compressNs = 8 * kMs, readNs = compressNs / 800;
    Workload w;
    std::vector<int> started;
    for (int i = 1; i <= n + 1; ++i) started.push_back(i);
    const long long blocks = iterations(p, compressNs);
    TaskSpec reader = task("pbzip2/reader", p, 0.2, 2.0);
    reader.script = {forkOp(started), post(kFreeSlots), loop(1, 2LL * n - 1), take(kFreeSlots), run(readNs, 0.1),
                     post(kBlocks), loop(3, blocks < 0 ? -1 : blocks - 1)};
    w.tasks.push_back(std::move(reader));
    for (int i = 1; i <= n; ++i)
        w.tasks.push_back(blockWorker("pbzip2/" + std::to_string(i), p, 0.1, 1.0, 0.10, 2.5,
                                      {take(kBlocks), post(kFreeSlots), run(compressNs, 0.1), post(kCompressed)},
                                      blocks, n, i));
    TaskSpec writer = task("pbzip2/writer", p, 0.2, 2.0);
    writer.startAtBegin = false;
    writer.script = {take(kCompressed), run(readNs / 4, 0.1), loop(0, blocks < 0 ? -1 : blocks - 1)};
    w.tasks.push_back(std::move(writer));
    return w;
}

Workload makePixz(int n, const Params& p) {
    // pixz's pipeline (src/common.c, write.c): the main thread hands ceil(1.3 N + 1) block
    // buffers to a free queue and starts a reader and N encoders; the reader fills a free buffer
    // with the next block of input (twice the 8 MiB dictionary of the default level 6) and queues
    // it, an encoder takes it and compresses it with LZMA2, and the main thread writes the
    // encoded block out and frees its buffer. Encoding takes a thousand times as long as reading,
    // so the encoders never wait for input: they run like CPU hogs, placed once at fork and moved
    // only by the balancer. (A real block takes seconds; the 100 ms here changes no result, only
    // how many events a run has.) LZMA's match finder makes them memory bound (50% of the
    // uncontended time, 3.6 GB/s alone: on one 24-core node 24 encoders do 7.6x the work of 2,
    // as in seed 002, where pbzip2 does 9.5x) with 2.5% of the time on hits in a 3 MB hot set of
    // recent match-finder nodes: a cluster cache holds one encoder's, not two. Fit to seed 002's
    // table (+1.2/-0.3/+3.4/+2.2/+2.1/+1.2/+0.6% at 2-24 threads): smaller gains than pbzip2's,
    // the most at 6 threads.
    constexpr int kFreeBuffers = 0, kRead = 1, kEncoded = 2;
    constexpr double encodeNs = 100 * kMs, readNs = encodeNs / 1000;
    const int buffers = static_cast<int>(std::ceil(1.3 * n + 1));
    const long long blocks = iterations(p, encodeNs);
    Workload w;
    std::vector<int> started;
    for (int i = 1; i <= n + 1; ++i) started.push_back(i);
    TaskSpec mainThread = task("pixz/main", p, 0.2, 2.0);
    mainThread.script = {post(kFreeBuffers), loop(0, buffers - 1), forkOp(started), take(kEncoded),
                         run(readNs / 2, 0.1), post(kFreeBuffers), loop(3, blocks < 0 ? -1 : blocks - 1)};
    w.tasks.push_back(std::move(mainThread));
    TaskSpec reader = task("pixz/read", p, 0.2, 2.0);
    reader.startAtBegin = false;
    reader.script = {take(kFreeBuffers), run(readNs, 0.1), post(kRead), loop(0, blocks < 0 ? -1 : blocks - 1)};
    w.tasks.push_back(std::move(reader));
    for (int i = 1; i <= n; ++i)
        w.tasks.push_back(blockWorker("pixz/" + std::to_string(i), p, 0.5, 3.6, 0.025, 3.0,
                                      {take(kRead), run(encodeNs, 0.1), post(kEncoded)}, blocks, n, i));
    return w;
}

Workload makeKernbench(int jobs, const Params& p) {
    // make -jN: each job slot forks short compiler processes one after another; each compile
    // is CPU bound (10% memory, 1 GB/s) and exits. Fork placement and exits dominate.
    Workload w;
    const double jobNs = 40 * kMs;
    const double horizon = p.horizonS();
    const int perSlot = std::max(1, static_cast<int>(std::ceil(horizon * 1e9 / jobNs)) + (p.workS > 0 ? 0 : 2));
    std::vector<int> slotIds;
    slotIds.reserve(static_cast<size_t>(std::max(jobs, 0)));
    for (int s = 0; s < jobs; ++s) slotIds.push_back(s);
    for (int s = 0; s < jobs; ++s) {
        TaskSpec slot = task("make/" + std::to_string(s), p, 0.1, 0.5);
        w.tasks.push_back(std::move(slot));
    }
    for (int s = 0; s < jobs; ++s) {
        for (int k = 0; k < perSlot; ++k) {
            const int id = static_cast<int>(w.tasks.size());
            TaskSpec cc = task("cc1/" + std::to_string(s) + "." + std::to_string(k), p, 0.1, 1.0);
            cc.startAtBegin = false;
            cc.script = {run(jobNs, 0.5), wake({s}, false)};
            w.tasks.push_back(std::move(cc));
            w.tasks[static_cast<size_t>(s)].script.push_back(run(0.2 * kMs, 0.2));
            w.tasks[static_cast<size_t>(s)].script.push_back(forkOp({id}));
            w.tasks[static_cast<size_t>(s)].script.push_back(waitOp());
        }
    }
    w.unit = "jobs/s";
    w.unitPerWorkSecond = 1e9 / jobNs;
    return w;
}

Workload makePgbench(int clients, int scale, const Params& p) {
    // One pgbench driver thread talks to `clients` backends: it wakes them all (1:N), each
    // backend runs a short transaction and wakes the driver back (sync wakeups). Read-only
    // (pgbench -S) by default; with scale=S the TPC-B-like default transaction, whose update of
    // one of the S branch rows holds that row's lock to the commit: backend i takes branch
    // i mod S's lock (a work queue holding one item while the row is free), and the backend
    // that commits hands it to the next waiter, a wakeup between backends. At scale 1 (a bare
    // "pgbench -i") every client queues on one row, as in seed 001's pgbench -c 48 runs.
    Workload w;
    std::vector<int> backends;
    for (int i = 1; i <= clients; ++i) backends.push_back(i);
    const long long iters = iterations(p, 0.3 * kMs);
    TaskSpec driver = task("pgbench", p, 0.1, 1.0);
    for (int branch = 1; branch <= scale; ++branch) driver.script.push_back(post(branch));  // rows unlocked
    const int roundStart = static_cast<int>(driver.script.size());
    driver.script.push_back(run(0.02 * kMs * clients, 0.1));
    driver.script.push_back(wake(backends, true));
    for (int i = 0; i < clients; ++i) driver.script.push_back(waitOp());
    driver.script.push_back(loop(roundStart, iters < 0 ? -1 : iters - 1));
    w.tasks.push_back(std::move(driver));
    for (int i = 1; i <= clients; ++i) {
        TaskSpec t = task("postgres/" + std::to_string(i), p, 0.3, 2.0);
        if (scale > 0) {
            const int branch = 1 + (i - 1) % scale;
            t.script = {waitOp(), run(0.2 * kMs, 0.3), take(branch), run(0.05 * kMs, 0.3), post(branch),
                        run(0.05 * kMs, 0.3), wake({0}, true), loop(0, iters < 0 ? -1 : iters - 1)};
        } else {
            t.script = {waitOp(), run(0.3 * kMs, 0.3), wake({0}, true), loop(0, iters < 0 ? -1 : iters - 1)};
        }
        // (with work=S a backend serves the driver's rounds, one transaction each, and exits
        // with it: waiting for a round that never comes read as a stalled run)
        w.tasks.push_back(std::move(t));
    }
    // a transaction is a backend's 0.3 ms and the driver's 0.02 ms for it: the work of both
    // counts once (the backends' alone overstated tps by the driver's share, 7%)
    w.unit = "tps";
    w.unitPerWorkSecond = 1e9 / (0.32 * kMs);
    return w;
}

Workload makeHackbench(int groups, const Params& p) {
    // hackbench: per group 20 senders each writing to all 20 receivers of its group (1:N).
    Workload w;
    const int fan = 20;
    const long long loops = p.workS > 0 ? iterations(p, 0.01 * kMs * fan) : -1;
    for (int g = 0; g < groups; ++g) {
        const int base = static_cast<int>(w.tasks.size());
        std::vector<int> receivers;
        receivers.reserve(static_cast<size_t>(fan));
        for (int r = 0; r < fan; ++r) receivers.push_back(base + fan + r);
        for (int s = 0; s < fan; ++s) {
            TaskSpec t = task("hb" + std::to_string(g) + "/send" + std::to_string(s), p, 0.05, 0.5);
            t.script = {run(0.01 * kMs * fan, 0.2), wake(receivers, true), sleepOp(0.05 * kMs, 0.5),
                        loop(0, loops < 0 ? -1 : loops - 1)};
            w.tasks.push_back(std::move(t));
        }
        for (int r = 0; r < fan; ++r) {
            TaskSpec t = task("hb" + std::to_string(g) + "/recv" + std::to_string(r), p, 0.05, 0.5);
            // every sender's every round is a message to each receiver: with work=S a receiver
            // takes that many and exits with them
            t.script = {waitOp(), run(0.01 * kMs, 0.2), loop(0, loops < 0 ? -1 : fan * loops - 1)};
            w.tasks.push_back(std::move(t));
        }
    }
    // a message is its sender's 0.01 ms and its receiver's 0.01 ms: both ends' work counts once
    w.unit = "msgs/s";
    w.unitPerWorkSecond = 1e9 / (0.02 * kMs);
    return w;
}

}  // namespace

const std::vector<GeneratorInfo>& generators() {
    static const std::vector<GeneratorInfo> g = {
        {"stream", "threads", "STREAM: memory-bound OpenMP team, barrier per kernel (GB/s)"},
        {"pbzip2", "threads", "a reader queueing blocks for N compressor threads and a writer"},
        {"pixz", "threads", "pixz: a reader, N LZMA encoder threads and a writer sharing block buffers"},
        {"mcf", "copies", "SPEC mcf_r rate copies, forked one by one by specinvoke: independent, memory hungry"},
        {"kernbench", "jobs", "make -jN: short CPU-bound compiler processes forked and exiting"},
        {"sysbench-cpu", "threads", "sysbench cpu: pure CPU-bound threads"},
        {"pgbench", "clients", "one driver waking N backends (1:N), sync wakeups back; scale=S: TPC-B's branch row locks", "scale"},
        {"hackbench", "groups", "20 senders x 20 receivers per group, 1:N wakeups"},
    };
    return g;
}

namespace {
Result<Workload> parseSpec(const std::string& spec, int cpuCount, double runS);
}  // namespace

Result<Workload> parseWorkloadSpec(const std::string& spec, int cpuCount, double runS) {
    auto w = parseSpec(spec, cpuCount, runS);
    if (!w) return Error{escapeControl(w.error())};
    return w;
}

namespace {
Result<Workload> parseSpec(const std::string& spec, int cpuCount, double runS) {
    const auto colon = spec.find(':');
    const std::string name = spec.substr(0, colon);
    const GeneratorInfo* gen = findGenerator(name);
    if (!gen) {
        std::string known;
        for (const auto& g : generators()) known += (known.empty() ? "" : ", ") + g.name;
        return Error{"unknown workload '" + name + "' (known: " + known + ", or a .json file)"};
    }
    Params p;
    std::string lastKey;
    if (colon != std::string::npos) {
        std::string rest = spec.substr(colon + 1);
        std::replace(rest.begin(), rest.end(), ':', ',');
        size_t pos = 0;
        while (pos <= rest.size()) {
            size_t next = rest.find(',', pos);
            if (next == std::string::npos) next = rest.size();
            std::string tok = rest.substr(pos, next - pos);
            pos = next + 1;
            if (tok.empty()) continue;
            const auto eq = tok.find('=');
            if (eq == std::string::npos) {
                // "cpus=0-3,8-11": a bare list item continues the cpus value
                if (lastKey == "cpus") { p.kv["cpus"] += "," + tok; continue; }
                return Error{"workload " + name + ": expected key=value, got '" + tok + "'"};
            }
            lastKey = tok.substr(0, eq);
            if (lastKey.empty()) {
                std::string message = "workload " + name + ": '";
                message += tok + "' names no parameter before its '='";
                return Error{message};
            }
            if (lastKey != gen->count && lastKey != "cpus" && lastKey != "duration" && lastKey != "work" &&
                lastKey != "handoff" && lastKey != gen->option)
                return Error{"workload " + name + ": unknown parameter '" + lastKey + "' (takes " + gen->count +
                             (gen->option.empty() ? "" : ", " + gen->option) + ", cpus, duration, work, handoff)"};
            // a key given twice is a typo or two workloads run together ("stream:threads=4;pbzip2:
            // threads=2"): the second would silently win
            if (p.kv.count(lastKey)) {
                std::string message = "workload " + name + ": ";
                message += lastKey + "= is given twice (one workload per spec)";
                return Error{message};
            }
            p.kv[lastKey] = tok.substr(eq + 1);
        }
    }
    if (auto it = p.kv.find("cpus"); it != p.kv.end()) {
        auto set = CpuSet::parseList(it->second);
        if (!set) return Error{"workload " + name + ": cpus=" + it->second + ": " + set.error()};
        if (set->empty()) return Error{"workload " + name + ": cpus= is empty"};
        if (set->last() >= cpuCount)
            return Error{"workload " + name + ": cpus=" + it->second + " goes beyond the topology's CPUs 0-" +
                         std::to_string(cpuCount - 1)};
        p.cpus = *set;
    }
    auto dur = secondsParam(p.kv, name, "duration");
    if (!dur) return Error{dur.error()};
    auto work = secondsParam(p.kv, name, "work");
    if (!work) return Error{work.error()};
    p.durationS = *dur;
    p.workS = *work;
    p.runS = runS > 0 ? runS : 1.0;
    auto n = countParam(p, name, gen->count, name == "hackbench" ? 1 : 4);
    if (!n) return Error{n.error()};
    const int count = static_cast<int>(*n);
    // Tasks each generator makes, computed before building anything.
    double tasks = static_cast<double>(count) + 1;
    if (name == "pbzip2" || name == "pixz") tasks = count + 2.0;  // a reader and a writer
    if (name == "hackbench") tasks = 40.0 * count;
    if (name == "kernbench") {
        const double horizon = p.horizonS();
        tasks = count * (1.0 + std::ceil(horizon * 1e9 / (40 * kMs)) + 2);
    }
    if (tasks > static_cast<double>(kMaxWorkloadTasks))
        return Error{"workload " + name + ": " + spec.substr(colon == std::string::npos ? spec.size() : colon + 1) +
                     " would make " + std::to_string(static_cast<long long>(tasks)) + " tasks (at most " +
                     std::to_string(kMaxWorkloadTasks) + ")"};

    Workload w;
    if (name == "stream") w = makeStream(count, p);
    else if (name == "pbzip2") w = makePbzip2(count, p);
    else if (name == "pixz") w = makePixz(count, p);
    else if (name == "mcf") w = makeMcf(count, p);
    else if (name == "kernbench") w = makeKernbench(count, p);
    else if (name == "sysbench-cpu") w = makeSysbench(count, p);
    else if (name == "pgbench") {
        auto scale = countParam(p, name, "scale", 0);
        if (!scale) return Error{scale.error()};
        if (p.kv.count("scale") && (*scale < 1 || *scale > 1000000))
            return Error{"workload pgbench: scale must be from 1 to 1000000, not " + std::to_string(*scale)};
        // rows past the clients' count are never contended: the model needs one per client at most
        w = makePgbench(count, static_cast<int>(std::min<long long>(*scale, count)), p);
    }
    else w = makeHackbench(count, p);
    if (auto it = p.kv.find("handoff"); it != p.kv.end()) {
        char* end = nullptr;
        const double kb = std::strtod(it->second.c_str(), &end);
        if (it->second.empty() || *end != '\0' || !(kb >= 0) || kb > kMaxHandoffKB || it->second.find_first_of("xX") != std::string::npos)
            return Error{"workload " + name + ": handoff='" + it->second + "' must be a number of KB from 0 to 1048576"};
        for (TaskSpec& t : w.tasks) t.handoffKB = kb;
    }
    w.name = name;
    w.spec = spec;
    w.durationS = p.durationS;
    return w;
}
}  // namespace

}  // namespace schedscope::workload
