#include "whatif_runner.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <mutex>
#include <utility>

#include "qt_convert.h"
#include "util/parallel_runs.h"
#include "util/time_left.h"

namespace schedscope::gui {


WhatIfRunner::WhatIfRunner(QObject* parent) : QObject(parent), advanceTimer_(new QTimer(this)) {
    // One experiment at a time (its setup, then its runs, which spread over the cores
    // themselves): a new one cancels the last.
    pool_.setMaxThreadCount(1);
    advanceTimer_->setInterval(250);
    connect(advanceTimer_, &QTimer::timeout, this, &WhatIfRunner::reportAdvance);
}

WhatIfRunner::~WhatIfRunner() {
    cancel();
    pool_.waitForDone();
}

void WhatIfRunner::start(const WhatIfRequest& request) {
    if (busy_) cancel();
    busy_ = true;
    result_ = WhatIfResult{};
    sessions_[0] = sessions_[1] = nullptr;
    total_ = 2 * std::max(1, request.seeds);
    emit started(total_);
    emit progress(0, total_);
    prepareWatcher_ = new QFutureWatcher<WhatIfSetupOutcome>(this);
    auto* watcher = prepareWatcher_;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (watcher != prepareWatcher_) return;  // cancelled meanwhile
        prepareWatcher_ = nullptr;
        if (watcher->isCanceled() || watcher->future().resultCount() == 0) return;
        const WhatIfSetupOutcome outcome = watcher->result();
        if (!outcome.setup) {
            result_.error = outcome.error;
            finish();
            return;
        }
        startRuns(outcome);
    });
    watcher->setFuture(QtConcurrent::run(&pool_, [request]() -> WhatIfSetupOutcome {
        auto setup = prepareWhatIf(request);
        if (!setup) return {nullptr, setup.error(), {}};
        WhatIfSetupOutcome out;
        out.setup = std::move(*setup);
        // The heat views' boxes are grouped here, not on the GUI thread (1024 CPUs take 150 ms).
        auto layout = std::make_shared<const TopologyLayout>(TopologyLayout::build(*out.setup->topology));
        for (int setting = 0; setting < 2; ++setting) {
            Session s;
            s.spec = request.spec;
            s.choices.cls = out.setup->build[setting].cls;
            s.choices.node = out.setup->build[setting].node;
            s.choices.profile = request.profile;
            s.topology = s.input = out.setup->topology;
            s.tree = out.setup->trees[setting];
            s.layout = layout;
            out.sessions[setting] = std::make_shared<const Session>(std::move(s));
        }
        return out;
    }));
}

void WhatIfRunner::startRuns(const WhatIfSetupOutcome& outcome) {
    const auto setup = outcome.setup;
    result_.setup = setup;
    sessions_[0] = outcome.sessions[0];
    sessions_[1] = outcome.sessions[1];
    const int seeds = setup->request.seeds;
    const size_t jobs = 2 * static_cast<size_t>(seeds);
    auto shares = std::make_shared<std::vector<std::atomic<double>>>(jobs);
    shares_ = shares;
    runsClock_.start();
    advanceTimer_->start();
    runWatcher_ = new QFutureWatcher<WhatIfRun>(this);
    auto* watcher = runWatcher_;
    connect(watcher, &QFutureWatcherBase::resultReadyAt, this, [this, watcher](int index) {
        if (watcher != runWatcher_) return;
        // kept in (seed, setting) order, whichever worker finished first: the means add up in
        // one order, so the same experiment shows the same figures to the last digit
        WhatIfRun run = watcher->resultAt(index);
        auto key = [](const WhatIfRun& r) { return std::pair(r.seed, r.setting); };
        auto at = std::upper_bound(result_.runs.begin(), result_.runs.end(), run,
                                   [&](const WhatIfRun& a, const WhatIfRun& b) { return key(a) < key(b); });
        result_.runs.insert(at, std::move(run));
        emit progress(int(result_.runs.size()), total_);
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (watcher != runWatcher_) return;
        runWatcher_ = nullptr;
        finish();
    });
    watcher->setFuture(QtConcurrent::run(&pool_, [setup, jobs, shares](QPromise<WhatIfRun>& promise) {
        promise.setProgressRange(0, static_cast<int>(jobs));
        // the (seed, setting) runs are independent: one per core at once, seeds in order
        std::mutex resultLock;
        runParallel(jobs, workerCount(jobs), [&](size_t i) {
            if (promise.isCanceled()) return;
            // a cancel stops the runs in flight too: the worker is free for the next experiment
            // at once, and closing the window does not wait for a long simulation to end
            auto keepGoing = [&promise, &share = (*shares)[i]](double done) {
                share.store(done, std::memory_order_relaxed);
                return !promise.isCanceled();
            };
            WhatIfRun run = runWhatIfJob(*setup, static_cast<int>(i % 2), static_cast<int>(i / 2), keepGoing);
            (*shares)[i].store(1.0, std::memory_order_relaxed);
            if (promise.isCanceled()) return;
            const std::lock_guard hold(resultLock);
            promise.addResult(std::move(run));
        });
    }));
}

void WhatIfRunner::cancel() {
    if (!busy_) return;
    // The watchers stay connected only to delete themselves; their late results are dropped.
    if (prepareWatcher_) prepareWatcher_->cancel();
    if (runWatcher_) runWatcher_->cancel();
    prepareWatcher_ = nullptr;
    runWatcher_ = nullptr;
    result_.cancelled = true;
    finish();
}

void WhatIfRunner::finish() {
    advanceTimer_->stop();
    shares_.reset();
    busy_ = false;
    emit finished();
}

void WhatIfRunner::reportAdvance() {
    if (!shares_ || total_ <= 0) return;
    double done = 0;
    for (const auto& share : *shares_) done += share.load(std::memory_order_relaxed);
    const double elapsed = static_cast<double>(runsClock_.elapsed()) / 1000.0;
    emit advanced(done, total_, qs(timeLeftText(done / total_, elapsed)));
}

}  // namespace schedscope::gui
