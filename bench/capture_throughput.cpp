// bench/capture_throughput: events/s through the BPF ring-buffer streaming path, in process and
// through schedscope-capture to a client (pipe and Unix socket), under a context-switch storm.
// A benchmark, not a test; needs root (or CAP_BPF+CAP_PERFMON). bench/capture_throughput.sh
// runs it next to trace-cmd on the same workload.
//
//   capture_throughput [--seconds S] [--path inproc|pipe|socket|all|none] [--ring-mb N]
//                      [--pairs-per-cpu N] [--cpus N] [--sink store|window] [--drain]
//                      [--helper PATH]
//
// Workload: on every CPU (or the first --cpus), pairs of processes pinned to that CPU
// ping-pong one byte through two pipes (a round trip is 2 switches and 1 or 2 wakeups, each
// a sched_waking and a sched_wakeup: the wakee often preempts the waker before it blocks).
// The workload runs in child processes, so the in-process source (which ignores its own
// process) sees all of it.
// Every path decodes each record into an EventStore (--sink): `store` keeps them all, as
// `schedscope-cli live` does, so the consumer faults in ~25 MB of new memory a second;
// `window` starts a new store after each drain (what a bounded live window does; the freed
// memory is reused), which separates the streaming path from page-fault costs - on a VM
// guest first-touch faults slow the other vCPU's workload too. Prints one line per path:
// events, events/s over the workload's wall time, lost (failed ring reservations reported by
// the kernel), and the CPU time of the consumer (and of the helper).
//
// --drain measures the path's capacity rather than the workload's: the consumer reads nothing
// while the workload runs (give a ring big enough to hold it all, e.g. --ring-mb 256), then
// drains the backlog as fast as it can; events/s is then backlog / drain time.
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <new>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "bpf_source.h"
#include "capture_client.h"
#include "capture_launch.h"

using namespace schedscope;
using namespace schedscope::tracing;
using Clock = std::chrono::steady_clock;

extern char** environ;

namespace {

struct Options {
    double seconds = 5;
    std::string path = "all";
    int ringMiB = 16;
    int pairsPerCpu = 2;
    int cpus = 0;  // 0: every online CPU
    bool keepAll = true;  // --sink store (true) or window
    bool drain = false;
    std::string helper;
};

void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

// One ping-pong pair on `cpu` until `deadline`, adding its round trips to `*rounds` (shared
// memory); runs in a forked child, never returns.
[[noreturn]] void pingPong(int cpu, Clock::time_point deadline, std::atomic<uint64_t>* rounds) {
    int ab[2], ba[2];
    if (pipe(ab) != 0 || pipe(ba) != 0) _exit(1);
    pin(cpu);
    const pid_t b = fork();
    char c = 0;
    if (b == 0) {
        close(ab[1]);
        close(ba[0]);
        while (read(ab[0], &c, 1) == 1)
            if (write(ba[1], &c, 1) != 1) break;
        _exit(0);
    }
    close(ab[0]);
    close(ba[1]);
    uint64_t n = 0;
    for (;; ++n) {
        if ((n & 1023) == 0 && Clock::now() >= deadline) break;
        if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) break;
    }
    rounds->fetch_add(n);
    close(ab[1]);
    waitpid(b, nullptr, 0);
    _exit(0);
}

struct Workload {
    std::vector<pid_t> pids;
    Clock::time_point start;
    double wallS = 0;
    std::atomic<uint64_t>* rounds = nullptr;
    Workload() {
        void* m = mmap(nullptr, sizeof(std::atomic<uint64_t>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        rounds = m == MAP_FAILED ? nullptr : new (m) std::atomic<uint64_t>(0);
    }
    ~Workload() {
        if (rounds) munmap(rounds, sizeof *rounds);
    }
    Workload(const Workload&) = delete;
    Workload& operator=(const Workload&) = delete;
    double roundsPerS() const { return rounds && wallS > 0 ? static_cast<double>(rounds->load()) / wallS : 0; }
    void run(const Options& o) {
        const int cpus = o.cpus > 0 ? o.cpus : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
        start = Clock::now();
        const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
        for (int c = 0; c < cpus; ++c)
            for (int p = 0; p < o.pairsPerCpu; ++p) {
                const pid_t pid = fork();
                if (pid == 0) pingPong(c, deadline, rounds);
                pids.push_back(pid);
            }
    }
    // Reaps finished workers; true when all are done.
    bool done() {
        for (auto& p : pids)
            if (p > 0 && waitpid(p, nullptr, WNOHANG) == p) p = 0;
        for (pid_t p : pids)
            if (p > 0) return false;
        if (wallS == 0) wallS = std::chrono::duration<double>(Clock::now() - start).count();
        return true;
    }
};

double selfCpuS() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// utime + stime of another process, from /proc/PID/stat (0 when it is gone).
double procCpuS(pid_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(f, line)) return 0;
    const auto close = line.rfind(')');
    if (close == std::string::npos) return 0;
    std::vector<std::string> fields;
    std::string cur;
    for (char ch : line.substr(close + 2)) {
        if (ch == ' ') {
            fields.push_back(cur);
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (fields.size() < 13) return 0;
    return (std::stod(fields[11]) + std::stod(fields[12])) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Counts what `store` holds and, with --sink window, starts a new store (freed memory is reused
// by the next one instead of faulting in fresh pages).
struct Sink {
    bool keepAll;
    EventStore store;
    uint64_t dropped = 0;
    void drained() {
        if (keepAll) return;
        dropped += store.size();
        store = EventStore();
    }
    uint64_t events() const { return dropped + store.size(); }
};

struct Figures {
    uint64_t events = 0, lost = 0;
    double wallS = 0, consumerCpuS = 0, helperCpuS = -1, roundsPerS = 0;
    double drainS = 0;  // --drain: time to read the backlog
};

void print(const char* name, const Figures& f) {
    const double over = f.drainS > 0 ? f.drainS : f.wallS;
    std::printf("%-8s %10llu events %12.0f events/s %8llu lost  consumer %.2f s CPU", name,
                static_cast<unsigned long long>(f.events), static_cast<double>(f.events) / over,
                static_cast<unsigned long long>(f.lost), f.consumerCpuS);
    if (f.helperCpuS >= 0) std::printf("  helper %.2f s CPU", f.helperCpuS);
    if (f.drainS > 0) std::printf("  (backlog drained in %.2f s)", f.drainS);
    std::printf("  (workload %.2f s, %.0f round trips/s)\n", f.wallS, f.roundsPerS);
    std::fflush(stdout);
}

Result<Figures> inProcess(const Options& o) {
    BpfOptions bo;
    bo.ringBytes = static_cast<uint32_t>(o.ringMiB) << 20;
    bo.wakeupBytes = bo.ringBytes / 4;
    auto src = BpfSource::start(bo);
    if (!src) return Error{src.error()};
    Sink sink{o.keepAll, {}};
    const double cpu0 = selfCpuS();
    Workload w;
    w.run(o);
    Figures f;
    if (o.drain) {
        while (!w.done()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const auto t0 = Clock::now();
        for (;;) {
            auto r = (*src)->poll(sink.store, 0);
            if (!r) return Error{r.error()};
            sink.drained();
            if (*r == 0) break;
        }
        f.drainS = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    while (!w.done()) {
        auto r = (*src)->poll(sink.store, 100);
        if (!r) return Error{r.error()};
        sink.drained();
    }
    if (auto r = (*src)->poll(sink.store, 0); !r) return Error{r.error()};
    f.events = sink.events();
    f.lost = (*src)->lost();
    f.wallS = w.wallS;
    f.roundsPerS = w.roundsPerS();
    f.consumerCpuS = selfCpuS() - cpu0;
    return f;
}

// Reads a helper's stream until its End frame (its --duration covers the workload).
Result<Figures> drainHelper(CaptureClient& client, pid_t helperPid, const Options& o) {
    Sink sink{o.keepAll, {}};
    for (int i = 0; i < 200 && !client.hello(); ++i) {
        auto r = client.pump(sink.store, 50);
        if (!r) return Error{r.error()};
    }
    if (!client.hello()) return Error{"no hello from the helper within 10 s"};
    if (helperPid <= 0) helperPid = static_cast<pid_t>(client.hello()->helperPid);
    const double cpu0 = selfCpuS();
    Workload w;
    w.run(o);
    double helperCpu = 0;
    Clock::time_point drainStart{};
    if (o.drain) {  // read nothing: the helper blocks on its write, the ring keeps the backlog
        while (!w.done()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        drainStart = Clock::now();
    }
    // The backlog is read when a pump brings no more than the machine's background trickle
    // (other tasks keep switching until the helper's --duration ends).
    Clock::time_point lastRecords = drainStart;
    uint64_t seen = 0;
    for (;;) {
        auto r = client.pump(sink.store, 100);
        if (!r) return Error{r.error()};
        if (sink.events() >= seen + 10000) lastRecords = Clock::now();
        seen = sink.events();
        sink.drained();
        if (w.done()) {
            // The helper's own CPU time, read while it still runs (it ends at --duration).
            if (helperCpu == 0) helperCpu = procCpuS(helperPid);
        }
        if (!*r) break;
    }
    w.done();
    Figures f;
    if (o.drain) f.drainS = std::chrono::duration<double>(lastRecords - drainStart).count();
    f.events = sink.events();
    f.lost = client.lost();
    f.wallS = w.wallS;
    f.roundsPerS = w.roundsPerS();
    f.consumerCpuS = selfCpuS() - cpu0;
    f.helperCpuS = helperCpu;
    return f;
}

std::vector<std::string> helperArgs(const Options& o) {
    char dur[32];
    std::snprintf(dur, sizeof dur, "%.1f", o.seconds + 2.5);
    return {"--mode", "stream", "--interval-ms", "100", "--ring-mb", std::to_string(o.ringMiB), "--duration", dur,
            "--ignore-pid", std::to_string(getpid())};
}

Result<Figures> viaPipe(const Options& o) {
    std::vector<std::string> argv{o.helper};
    for (auto& a : helperArgs(o)) argv.push_back(a);
    auto c = CaptureClient::spawn(argv);
    if (!c) return Error{c.error()};
    return drainHelper(**c, 0, o);
}

Result<Figures> viaSocket(const Options& o) {
    char dir[] = "/tmp/capture-throughput-XXXXXX";
    if (!mkdtemp(dir)) return Error{"mkdtemp failed"};
    const std::string sock = std::string(dir) + "/s";
    std::vector<std::string> argv{o.helper, "--socket", sock};
    for (auto& a : helperArgs(o)) argv.push_back(a);
    std::vector<char*> av;
    for (auto& a : argv) av.push_back(a.data());
    av.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, av[0], nullptr, nullptr, av.data(), environ) != 0) return Error{"cannot start " + o.helper};
    struct stat st {};
    for (int i = 0; i < 1000 && lstat(sock.c_str(), &st) != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto c = CaptureClient::attach(sock);
    if (!c) {
        kill(pid, SIGTERM);
        waitpid(pid, nullptr, 0);
        rmdir(dir);
        return Error{c.error()};
    }
    auto f = drainHelper(**c, pid, o);
    (*c)->close();
    waitpid(pid, nullptr, 0);
    rmdir(dir);
    return f;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "capture_throughput: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--seconds") o.seconds = std::atof(next().c_str());
        else if (a == "--path") o.path = next();
        else if (a == "--ring-mb") o.ringMiB = std::atoi(next().c_str());
        else if (a == "--pairs-per-cpu") o.pairsPerCpu = std::atoi(next().c_str());
        else if (a == "--helper") o.helper = next();
        else if (a == "--cpus") o.cpus = std::atoi(next().c_str());
        else if (a == "--drain") o.drain = true;
        else if (a == "--sink") {
            const std::string v = next();
            if (v != "store" && v != "window") {
                std::fprintf(stderr, "capture_throughput: --sink store or window\n");
                return 2;
            }
            o.keepAll = v == "store";
        }
        else {
            std::fprintf(stderr, "usage: capture_throughput [--seconds S] [--path inproc|pipe|socket|all|none] [--ring-mb N] "
                                 "[--pairs-per-cpu N] [--cpus N] [--sink store|window] [--drain] [--helper PATH]\n");
            return 2;
        }
    }
    if (o.seconds <= 0 || o.seconds > 600 || o.ringMiB < 1 || o.pairsPerCpu < 1 || o.pairsPerCpu > 64) {
        std::fprintf(stderr, "capture_throughput: --seconds in (0, 600], --ring-mb >= 1, --pairs-per-cpu in 1..64\n");
        return 2;
    }
    if (o.path == "none") {  // the workload alone (for trace-cmd and perf to observe)
        Workload w;
        w.run(o);
        while (!w.done()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::printf("workload %.2f s, %.0f round trips/s\n", w.wallS, w.roundsPerS());
        return 0;
    }
    if (auto why = BpfSource::unavailableReason(); !why.empty()) {
        std::fprintf(stderr, "capture_throughput: %s\n", why.c_str());
        return 77;
    }
    if (o.helper.empty()) o.helper = findCaptureHelper();
    if (o.helper.empty()) {
        // The build tree: bench binary in build/<preset>/tracing/..., helper in app/capture.
        std::fprintf(stderr, "capture_throughput: give --helper PATH (or SCHEDSCOPE_CAPTURE)\n");
        return 2;
    }
    int status = 0;
    const std::pair<const char*, Result<Figures> (*)(const Options&)> paths[] = {
        {"inproc", inProcess}, {"pipe", viaPipe}, {"socket", viaSocket}};
    for (const auto& [name, fn] : paths) {
        if (o.path != "all" && o.path != name) continue;
        auto f = fn(o);
        if (!f) {
            std::fprintf(stderr, "capture_throughput: %s: %s\n", name, f.error().c_str());
            status = 1;
            continue;
        }
        print(name, *f);
    }
    return status;
}
