#include "trace_loader.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "domains/domain_builder.h"
#include "progress_relay.h"
#include "qt_convert.h"
#include "session_loader.h"
#include "trace_reader.h"
#include "trace_topology.h"

namespace schedscope::gui {
namespace {
using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// A trace from a bigger machine than the open one (or with none open) still opens, as any viewer
// opens it: its CPUs as one flat package, so the timeline, tasks and latency are all there; only
// the levels of its migrations wait for the recording machine's topology.
LoadOutcome flatSession(const tracing::EventStore& store, const DomainChoices& choices) {
    auto flat = tracing::flatTopologyForTrace(store);
    if (!flat) return {0, nullptr, qs(flat.error())};
    TopologySpec spec;
    spec.kind = TopologySpec::Kind::Synthetic;
    spec.value = "pu:" + std::to_string(flat->cpus.size());
    spec.arch = flat->arch;
    spec.archGiven = true;
    return sessionFromTopology(std::move(*flat), spec, choices);
}
}  // namespace

TraceLoadOutcome loadTraceSession(const QString& path, const SessionPtr& current, const DomainChoices& choices,
                                  const std::function<void(int, const QString&)>& progress,
                                  const std::atomic<bool>* cancel, const QString& buffer, bool onOpenTopology) {
    // Progress: reading 0..600, topology 600..650, analysis 650..1000.
    auto stage = [&](int v, const QString& text) {
        if (progress) progress(v, text);
    };
    const std::string file = ss(path);
    const auto t0 = Clock::now();
    stage(0, QObject::tr("reading %1").arg(QFileInfo(path).fileName()));
    tracing::LoadOptions lo;
    lo.cancel = cancel;
    lo.buffer = ss(buffer);
    lo.progress = [&](double f) { stage(static_cast<int>(f * 600), QString()); };
    auto store = tracing::readTraceFile(file, lo);
    if (!store) return {0, nullptr, qs(store.error())};
    if (cancel && cancel->load()) return {0, nullptr, QObject::tr("%1: loading cancelled").arg(path)};
    if (store->size() == 0) return {0, nullptr, QObject::tr("%1: the trace holds no sched events").arg(path)};
    const double loadMs = msSince(t0);

    stage(600, QObject::tr("topology"));
    auto trace = std::make_shared<TraceSession>();
    trace->path = path;
    trace->name = QFileInfo(path).fileName();
    trace->buffer = qs(store->buffer());
    trace->bufferChosen = !buffer.isEmpty();
    if (!trace->buffer.isEmpty()) trace->name += QStringLiteral(" [%1]").arg(trace->buffer);
    for (const auto& b : store->fileBuffers()) trace->fileBuffers << qs(b);
    trace->lostEvents = store->anomaly(tracing::Anomaly::LostEvents);
    auto sidecar = tracing::readTopologySidecar(file);
    if (!sidecar) return {0, nullptr, qs(sidecar.error())};
    // the groups the tasks ran in: one that cannot be read is a notice, the trace opens anyway
    if (auto groups = tracing::readGroupsSidecar(file); !groups)
        trace->groupsError = qs(groups.error());
    else if (*groups)
        trace->taskGroups = std::make_shared<const tracing::TaskGroupSnapshot>(std::move(**groups));
    bool flatStandIn = false;
    // the kernel the trace names (trace-cmd and schedscope-cli record save its uname): its
    // profile builds the domains the recording machine had, unless the user picked one
    const KernelProfile* traceKernel = profileForKernelRelease(store->kernelRelease());
    // (a profile the window's loader chose for its own machine is no pick: the trace's kernel
    // built the trace's machine; a trace that names no kernel gets the newest profile, as
    // trace stats and replay build it)
    DomainChoices own = choices;
    if (own.profile.empty() || own.profileFromInput) {
        own.profile = traceKernel ? traceKernel->name : std::string();
        own.profileFromInput = traceKernel != nullptr;
    }
    // the machine the user named with the trace, when the trace fits it; else its sidecar's
    const bool named = onOpenTopology && current && current->tree &&
                       tracing::checkTraceFitsTopology(file, *store, *current->topology, current->topology->name);
    if (*sidecar && !named) {
        if (auto fits = tracing::checkTraceFitsTopology(file, *store, **sidecar, tracing::sidecarPath(file)); !fits)
            return {0, nullptr, qs(fits.error())};
        TopologySpec spec;
        spec.kind = TopologySpec::Kind::Preset;  // only names it: "--preset <sidecar>"
        spec.value = tracing::sidecarPath(file);
        spec.arch = (*sidecar)->arch;
        spec.archGiven = true;
        auto built = sessionFromTopology(std::move(**sidecar), spec, own);
        if (!built.session) return {0, nullptr, built.error};
        trace->topology = built.session;
        trace->showsOwnTopology = true;
    } else if (current && current->tree &&
               tracing::checkTraceFitsTopology(file, *store, *current->topology, current->topology->name)) {
        trace->topology = current;
        trace->topologyNote = *sidecar ? QObject::tr("classified on %1, as named (not its sidecar's machine)").arg(qs(current->topology->name))
                                       : QObject::tr("no topology sidecar: classified on %1").arg(qs(current->topology->name));
        // the open domains are those of the window's profile; say so when the trace's kernel
        // would have built other levels on this machine (no CLS before 5.16, DIE for PKG...)
        if (traceKernel && current->tree->profile != traceKernel) {
            DomainBuildOptions o = choices.toOptions(*current->topology);
            o.profile = traceKernel;
            if (auto theirs = buildDomains(*current->topology, o); theirs && theirs->levelNames() != current->tree->levelNames()) {
                auto join = [](const std::vector<std::string>& v) {
                    QStringList l;
                    for (const auto& x : v) l << qs(x);
                    return l.join(QLatin1Char(' '));
                };
                trace->topologyNote += QObject::tr(" with %1's levels (%2); the trace's kernel %3 builds %4 here: choose "
                                                   "profile %5 to classify as it did")
                                           .arg(qs(current->tree->profile ? current->tree->profile->name : defaultProfile().name),
                                                join(current->tree->levelNames()), qs(store->kernelRelease()),
                                                join(theirs->levelNames()), qs(traceKernel->name));
            }
        }
    } else {
        auto flat = flatSession(*store, own);
        if (!flat.session) return {0, nullptr, QObject::tr("%1: %2").arg(path, flat.error)};
        trace->topology = flat.session;
        trace->showsOwnTopology = true;
        trace->flatStandIn = flatStandIn = true;
        const QString why = current && current->tree
                                ? QObject::tr("no topology sidecar, and %1")
                                      .arg(qs(tracing::traceTopologyMismatch(*store, *current->topology, current->topology->name)))
                                : QObject::tr("no topology sidecar and none open");
        trace->topologyNote = QObject::tr("%1: shown on %2, migrations not classified by level (open the recording "
                                          "machine's topology, then the trace)")
                                  .arg(why, qs(flat.session->topology->name));
    }
    if (cancel && cancel->load()) return {0, nullptr, QObject::tr("%1: loading cancelled").arg(path)};

    stage(650, QObject::tr("analysing"));
    const auto t1 = Clock::now();
    AnalysisOptions ao;
    ao.cancel = cancel;
    ao.progress = [&](double f) { stage(650 + static_cast<int>(f * 350), QString()); };
    ao.levelsKnown = !flatStandIn;
    trace->data = analyzeTrace(std::make_shared<const tracing::EventStore>(std::move(store).value()), *trace->topology->tree, ao);
    if (!trace->data) return {0, nullptr, QObject::tr("%1: loading cancelled").arg(path)};
    trace->loadMs = loadMs;
    trace->analyzeMs = msSince(t1);
    return {0, trace, {}};
}

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<TraceSessionPtr>();
    pool_.setMaxThreadCount(1);
}

TraceLoader::~TraceLoader() {
    if (cancel_) cancel_->store(true);
    pool_.waitForDone();
}

void TraceLoader::cancel() {
    if (cancel_) cancel_->store(true);
}

void TraceLoader::load(const QString& path, const SessionPtr& current, const DomainChoices& choices, const QString& buffer,
                       bool onOpenTopology) {
    if (cancel_) cancel_->store(true);  // a newer request supersedes the running one
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 gen = ++generation_;
    // the relay, not QFuture's own progress: see progress_relay.h
    auto* relay = new ProgressRelay(1000, this);
    connect(relay, &ProgressRelay::reported, this, [this, gen](int v, const QString& stage) {
        if (gen == generation_) emit progress(v, stage);
    });
    auto future = QtConcurrent::run(&pool_, [path, current, choices, buffer, onOpenTopology, gen, cancel = cancel_,
                                             relay](QPromise<TraceLoadOutcome>& promise) {
        auto outcome = loadTraceSession(path, current, choices, [&](int v, const QString& text) { relay->report(v, text); },
                                        cancel.get(), buffer, onOpenTopology);
        outcome.generation = gen;
        promise.addResult(std::move(outcome));
    });
    ++pending_;
    emit started(path);
    auto* watcher = new QFutureWatcher<TraceLoadOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, relay] {
        watcher->deleteLater();
        relay->deleteLater();
        --pending_;
        if (watcher->future().resultCount() > 0) {
            TraceLoadOutcome outcome = watcher->result();
            if (outcome.generation == generation_) {
                if (outcome.trace) emit loaded(outcome.trace);
                else emit failed(outcome.error);
            }
        }
        if (pending_ == 0) emit idle();
    });
    watcher->setFuture(future);
}

}  // namespace schedscope::gui
