#include "session_loader.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "progress_relay.h"
#include "qt_convert.h"

namespace schedscope::gui {
namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Stages reported as progress: load (0->1), build (1->2), validate (2->3).
constexpr int kStages = 3;

LoadOutcome buildInto(Session s, const std::function<void(int, const QString&)>& stage) {
    LoadOutcome out;
    if (stage) stage(1, QObject::tr("building sched domains"));
    const auto t0 = Clock::now();
    if (!s.choices.profile.empty() && !findProfile(s.choices.profile)) {
        out.error = qs(unknownProfileError(s.choices.profile));
        return out;
    }
    // the what-ifs over the input as loaded (a rebuild starts from it again); without
    // any, the input itself, not a copy of it
    s.topology = s.input;
    if (s.choices.whatIf()) {
        auto withWhatIfs = s.choices.applyWhatIfs(*s.input, s.spec.describe());
        if (!withWhatIfs) {
            out.error = qs(withWhatIfs.error());
            return out;
        }
        s.topology = std::make_shared<const Topology>(std::move(withWhatIfs).value());
    }
    auto tree = buildDomains(*s.topology, s.choices.toOptions(*s.topology));
    if (!tree) {
        out.error = qs(tree.error());
        return out;
    }
    s.buildMs = msSince(t0);
    if (stage) stage(2, QObject::tr("validating"));
    s.problems = tree->warnings;
    for (auto& p : validateDomainTree(*tree)) s.problems.push_back(std::move(p));
    s.tree = std::make_shared<const DomainTree>(std::move(tree).value());
    if (stage) stage(3, QObject::tr("done"));
    out.session = std::make_shared<const Session>(std::move(s));
    return out;
}

}  // namespace

LoadOutcome loadSession(const TopologySpec& spec, const DomainChoices& choices,
                        const std::function<void(int, const QString&)>& stage) {
    if (stage) stage(0, QObject::tr("loading topology"));
    const auto t0 = Clock::now();
    auto topo = loadTopology(spec);
    if (!topo) return {0, nullptr, qs(topo.error())};
    if (auto st = topo->check(); !st) return {0, nullptr, qs(spec.describe() + ": " + st.error())};
    Session s;
    s.spec = spec;
    s.choices = choices;
    // this machine's domains are its own kernel's, as 'schedscope-cli domains --local' builds them
    if (spec.kind == TopologySpec::Kind::Local && s.choices.profile.empty())
        if (const KernelProfile* running = runningKernelProfile(); running && running != &defaultProfile()) {
            s.choices.profile = running->name;
            s.choices.profileFromInput = true;
        }
    // a kernel log's machine: the domains of the kernel that printed it
    if (s.choices.profile.empty() && !topo->kernelProfile.empty()) {
        s.choices.profile = topo->kernelProfile;
        s.choices.profileFromInput = true;
    }
    s.input = std::make_shared<const Topology>(std::move(topo).value());
    s.layout = std::make_shared<const TopologyLayout>(TopologyLayout::build(*s.input));
    s.loadMs = msSince(t0);
    return buildInto(std::move(s), stage);
}

LoadOutcome rebuildSession(const SessionPtr& from, const DomainChoices& choices,
                           const std::function<void(int, const QString&)>& stage) {
    if (!from || !from->topology) return {0, nullptr, QObject::tr("nothing is open to rebuild")};
    Session s;
    s.spec = from->spec;
    s.choices = choices;
    s.loadMs = from->loadMs;
    s.input = from->input;
    s.layout = from->layout;
    return buildInto(std::move(s), stage);
}

LoadOutcome sessionFromTopology(Topology topology, const TopologySpec& spec, const DomainChoices& choices,
                                const std::function<void(int, const QString&)>& stage) {
    if (auto st = topology.check(); !st) return {0, nullptr, qs(spec.describe() + ": " + st.error())};
    Session s;
    s.spec = spec;
    s.choices = choices;
    s.input = std::make_shared<const Topology>(std::move(topology));
    s.layout = std::make_shared<const TopologyLayout>(TopologyLayout::build(*s.input));
    return buildInto(std::move(s), stage);
}

SessionLoader::SessionLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<SessionPtr>();
    pool_.setMaxThreadCount(1);
}

SessionLoader::~SessionLoader() { pool_.waitForDone(); }

void SessionLoader::load(const TopologySpec& spec, const DomainChoices& choices) {
    const quint64 gen = ++generation_;
    ProgressRelay* relay = progressRelay(gen);
    auto future = QtConcurrent::run(&pool_, [spec, choices, gen, relay](QPromise<LoadOutcome>& promise) {
        auto outcome = loadSession(spec, choices, [relay](int v, const QString& text) { relay->report(v, text); });
        outcome.generation = gen;
        promise.addResult(std::move(outcome));
    });
    submit(future, relay, qs(spec.describe()));
}

void SessionLoader::rebuild(const SessionPtr& from, const DomainChoices& choices) {
    const quint64 gen = ++generation_;
    ProgressRelay* relay = progressRelay(gen);
    auto future = QtConcurrent::run(&pool_, [from, choices, gen, relay](QPromise<LoadOutcome>& promise) {
        relay->report(1);
        auto outcome = rebuildSession(from, choices, [relay](int v, const QString& text) { relay->report(v, text); });
        outcome.generation = gen;
        promise.addResult(std::move(outcome));
    });
    submit(future, relay, tr("rebuilding domains"));
}

// the relay, not QFuture's own progress: see progress_relay.h
ProgressRelay* SessionLoader::progressRelay(quint64 gen) {
    auto* relay = new ProgressRelay(kStages, this);
    connect(relay, &ProgressRelay::reported, this, [this, gen](int v, const QString& stage) {
        if (gen == generation_) emit progress(v, kStages, stage);
    });
    return relay;
}

void SessionLoader::submit(const QFuture<LoadOutcome>& future, ProgressRelay* relay, const QString& what) {
    ++pending_;
    emit started(what);
    // The watcher lives on this (GUI) thread: its signals reach us queued from the worker.
    auto* watcher = new QFutureWatcher<LoadOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, relay] {
        watcher->deleteLater();
        relay->deleteLater();
        --pending_;
        if (watcher->future().resultCount() > 0) {
            LoadOutcome outcome = watcher->result();
            if (outcome.generation == generation_) {  // a newer request supersedes this one
                if (outcome.session) emit loaded(outcome.session);
                else emit failed(outcome.error);
            }
        }
        if (pending_ == 0) emit idle();
    });
    watcher->setFuture(future);
}

}  // namespace schedscope::gui
