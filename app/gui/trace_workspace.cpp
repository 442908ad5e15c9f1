#include "trace_workspace.h"

#include <algorithm>

#include <QActionGroup>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QToolButton>

#include "banner.h"
#include "input_anomalies.h"
#include "live_capture.h"
#include "buffer_choice.h"
#include "lost_events.h"
#include "plausible_span.h"
#include "silent_cpus.h"
#include "switch_gaps.h"
#include "trace_clock_units.h"
#include "main_window.h"
#include "qt_convert.h"
#include "switch_migrations.h"
#include "recent_files.h"
#include "session_loader.h"
#include "task_table_model.h"
#include "timeline_view.h"
#include "topology_view.h"
#include "trace_plots.h"
#include "view_export.h"

namespace schedscope::gui {

TraceWorkspace::TraceWorkspace(MainWindow* window) : QObject(window), window_(window) {
    loader_ = new TraceLoader(this);
    live_ = new LiveCapture(this);
    const QSettings settings;
    live_->setRateHz(settings.value(QStringLiteral("live/rateHz"), 10).toInt());
    live_->setWindowSec(settings.value(QStringLiteral("live/windowSec"), 30).toInt());

    timeline_ = new TimelineView;
    matrix_ = new MigrationMatrixPlot;
    rates_ = new LevelRatePlot;
    latency_ = new LatencyHistogramPlot;
    taskModel_ = new TaskTableModel(this);
    taskTable_ = new TaskTableView(taskModel_);

    QDockWidget* timelineDock = addDock(tr("Timeline"), QStringLiteral("timelineDock"), timeline_);
    window_->addDockWidget(Qt::BottomDockWidgetArea, timelineDock);
    QDockWidget* matrixDock = addDock(tr("Migration matrix"), QStringLiteral("matrixDock"), matrix_);
    QDockWidget* ratesDock = addDock(tr("Migrations per level"), QStringLiteral("ratesDock"), rates_);
    QDockWidget* latencyDock = addDock(tr("Wait latency"), QStringLiteral("latencyDock"), latency_);
    QDockWidget* tasksDock = addDock(tr("Tasks"), QStringLiteral("tasksDock"), taskTable_);
    for (QDockWidget* d : {matrixDock, ratesDock, latencyDock, tasksDock}) window_->addDockWidget(Qt::RightDockWidgetArea, d);
    window_->tabifyDockWidget(matrixDock, ratesDock);
    window_->tabifyDockWidget(ratesDock, latencyDock);
    window_->tabifyDockWidget(latencyDock, tasksDock);
    for (QDockWidget* d : docks_) d->hide();  // shown with the first trace

    progress_ = new QProgressBar;
    progress_->setMaximumWidth(200);
    progress_->setRange(0, 1000);
    progress_->hide();
    cancel_ = new QToolButton;
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop loading the trace"));
    cancel_->hide();
    liveLabel_ = new QLabel;
    liveLabel_->hide();
    window_->statusBar()->addPermanentWidget(liveLabel_);
    window_->statusBar()->addPermanentWidget(progress_);
    window_->statusBar()->addPermanentWidget(cancel_);
    connect(cancel_, &QToolButton::clicked, loader_, &TraceLoader::cancel);

    connect(loader_, &TraceLoader::started, this, [this](const QString& path) {
        progress_->setValue(0);
        progress_->setFormat(tr("trace %p%"));
        progress_->show();
        cancel_->show();
        window_->statusBar()->showMessage(tr("Loading %1\u2026").arg(path));
    });
    connect(loader_, &TraceLoader::progress, this, [this](int v, const QString& stage) {
        progress_->setValue(v);
        if (!stage.isEmpty()) progress_->setFormat(stage + QStringLiteral(" %p%"));
    });
    connect(loader_, &TraceLoader::loaded, this, [this](const TraceSessionPtr& t) {
        live_->stop();  // a file replaces live capture
        liveLabel_->hide();
        if (t->showsOwnTopology) emit topologyFromTrace(t->topology);
        showTrace(t);
        RecentFiles::add(QFileInfo(t->path).absoluteFilePath());
        emit recentFilesChanged();
        QString message = tr("%1: %2 events read in %3 ms, analysed in %4 ms")
                              .arg(t->path)
                              .arg(t->data->store->size())
                              .arg(t->loadMs, 0, 'f', 0)
                              .arg(t->analyzeMs, 0, 'f', 0);
        if (!t->buffer.isEmpty()) message += tr("; from its buffer %1 (trace-cmd record -B)").arg(t->buffer);
        if (!t->topologyNote.isEmpty()) message += QStringLiteral("; ") + t->topologyNote;
        if (const std::string_view from = tracing::migrationSource(*t->data->store); from.starts_with("sched_switch"))
            message += tr("; no sched_migrate_task: migrations inferred from %1").arg(qs(std::string(from)));
        window_->statusBar()->showMessage(message, 10'000);
        QStringList notices;
        const auto& store = *t->data->store;
        if (!store.clockCountsNs())
            notices << tr("%1: its trace clock %2 does not count nanoseconds: the timeline's times are its counts, and "
                          "what-if replay needs real times (%3)")
                           .arg(t->name, store.traceClock().empty() ? tr("(raw counts)") : qs(store.traceClock()),
                                qs(tracing::nsClockAdvice(store.traceClock())));
        if (const std::string broken = tracing::describeImplausibleTimestamps(store, t->data->span); !broken.empty())
            notices << tr("%1: %2").arg(t->name, qs(broken));
        if (const std::string anomalies = tracing::describeInputAnomalies(store); !anomalies.empty())
            notices << tr("%1: %2").arg(t->name, qs(anomalies));
        if (const std::string unreadable = tracing::describeUnreadableRecords(store); !unreadable.empty())
            notices << tr("%1: %2: events, migrations and waits in that part are missing").arg(t->name, qs(unreadable));
        if (const std::string buffers = tracing::describeUnreadBuffers(store, t->bufferChosen); !buffers.empty())
            notices << tr("%1: %2").arg(t->name, qs(buffers));
        if (const std::string lost = tracing::describeLostEvents(store); !lost.empty())
            notices << tr("%1: %2: its ring buffer overran, so events, migrations and waits near the gaps are missing "
                          "(a bigger buffer keeps them: schedscope-cli record --buffer-kb, or trace-cmd record -b)")
                           .arg(t->name, qs(lost));
        // the stand-in's domains are no machine's: said where it cannot be missed
        if (t->flatStandIn) notices << tr("%1: %2").arg(t->name, t->topologyNote);
        if (!t->groupsError.isEmpty()) notices << tr("%1 (the what-if replays its tasks without their task groups)").arg(t->groupsError);
        if (const auto silent = tracing::silentCpus(store, t->data->cpus); !silent.empty())
            notices << tr("%1: %2").arg(t->name, qs(tracing::describeSilentCpus(silent)));
        if (const std::string gaps = tracing::describeSwitchGaps(t->data->switchGaps); !gaps.empty())
            notices << tr("%1: %2").arg(t->name, qs(gaps));
        // this trace's own row, in place of the last one's; a failed open never gets here, so
        // it leaves the open trace's notices as they were
        window_->clearLoadError();
        window_->banner()->setNotices(Banner::Topic::Trace, notices.join(QStringLiteral("; ")));
    });
    connect(loader_, &TraceLoader::failed, this, [this](const QString& error) {
        window_->statusBar()->clearMessage();
        emit loadFailed(error);
    });
    connect(loader_, &TraceLoader::idle, this, [this] {
        progress_->hide();
        cancel_->hide();
        if (!busy()) emit idle();
    });

    connect(live_, &LiveCapture::snapshot, this, [this](const TraceSessionPtr& t) {
        showTrace(t);
        liveLabel_->setText(tr("live%1: %2 events, %3 lost").arg(live_->paused() ? tr(" (paused)") : QString())
                                .arg(t->data->store->size())
                                .arg(t->lostEvents));
        liveLabel_->show();
        live_->acknowledge();
    });
    connect(live_, &LiveCapture::warning, this, [this](const QString& text) { window_->banner()->showNotice(text); });
    connect(live_, &LiveCapture::failed, this, [this](const QString& error) {
        liveLabel_->hide();
        window_->banner()->showNotice(tr("Live capture stopped: %1").arg(error), tr("Open the sample trace"),
                                      [this] { openTrace(sampleTracePath()); });
    });

    // Selections: timeline, matrix, table and topology view follow one CPU and one task.
    connect(timeline_, &TimelineView::taskPicked, this, &TraceWorkspace::selectTask);
    connect(timeline_, &TimelineView::cpuPicked, this, &TraceWorkspace::selectCpu);
    connect(matrix_, &MigrationMatrixPlot::cpuPicked, this, &TraceWorkspace::selectCpu);
    connect(taskTable_, &TaskTableView::taskPicked, this, &TraceWorkspace::selectTask);
    connect(window_->topologyView(), &TopologyView::selectionChanged, this, [this](int cpu, int) {
        if (cpu == cpu_) return;
        cpu_ = cpu;
        timeline_->setSelectedCpu(cpu);
        matrix_->setSelectedCpu(cpu);
    });
    connect(window_, &MainWindow::sessionShown, this, [this](const SessionPtr& s) {
        live_->setTopology(s);
        updateTopologyHeat();
    });
    connect(timeline_, &TimelineView::markersChanged, this, [this] {
        const QString s = timeline_->markerSummary();
        if (!s.isEmpty()) window_->statusBar()->showMessage(s);
    });
    connect(timeline_, &TimelineView::exportRequested, this, [this] { exportWithDialog(QStringLiteral("timeline")); });
    connect(matrix_, &TracePlot::exportRequested, this, [this] { exportWithDialog(QStringLiteral("matrix")); });
    connect(rates_, &TracePlot::exportRequested, this, [this] { exportWithDialog(QStringLiteral("rates")); });
    connect(latency_, &TracePlot::exportRequested, this, [this] { exportWithDialog(QStringLiteral("latency")); });
    connect(taskTable_, &TaskTableView::exportRequested, this, [this] { exportWithDialog(QStringLiteral("tasks")); });
}

TraceWorkspace::~TraceWorkspace() { live_->stop(); }

QStringList TraceWorkspace::viewNames() {
    return {QStringLiteral("timeline"), QStringLiteral("matrix"), QStringLiteral("rates"), QStringLiteral("latency"),
            QStringLiteral("tasks")};
}

QString TraceWorkspace::sampleTracePath() { return qs(resourcesDir()) + QStringLiteral("/traces/sample.dat"); }

QDockWidget* TraceWorkspace::addDock(const QString& title, const QString& name, QWidget* w) {
    auto* dock = new QDockWidget(title, window_);
    dock->setObjectName(name);
    dock->setWidget(w);
    docks_.push_back(dock);
    return dock;
}

void TraceWorkspace::addMenus(QMenuBar* bar, QMenu* viewMenu) {
    viewMenu->addSeparator();
    for (QDockWidget* d : docks_) viewMenu->addAction(d->toggleViewAction());

    QMenu* menu = bar->addMenu(tr("T&race"));
    menu->addAction(tr("&Open trace\u2026"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, &TraceWorkspace::openTraceDialog);
    menu->addAction(tr("Open the &sample trace"), this, [this] { openTrace(sampleTracePath()); });
    menu->addAction(tr("&Cancel loading"), loader_, &TraceLoader::cancel);
    bufferMenu_ = menu->addMenu(tr("&Buffer"));
    bufferGroup_ = new QActionGroup(this);  // its actions go with the menu's clear()
    updateBufferMenu();
    QMenu* exportMenu = menu->addMenu(tr("&Export"));
    const std::pair<QString, QString> views[] = {{QStringLiteral("timeline"), tr("Timeline\u2026")},
                                                 {QStringLiteral("matrix"), tr("Migration matrix\u2026")},
                                                 {QStringLiteral("rates"), tr("Migrations per level\u2026")},
                                                 {QStringLiteral("latency"), tr("Wait latency\u2026")},
                                                 {QStringLiteral("tasks"), tr("Task table\u2026")}};
    for (const auto& [view, text] : views) exportMenu->addAction(text, this, [this, v = view] { exportWithDialog(v); });
    menu->addSeparator();
    QMenu* liveMenu = menu->addMenu(tr("&Live capture"));
    liveMenu->addAction(tr("&Start"), this, [this] {
        if (const QString why = live_->unavailableReason(); !why.isEmpty())
            window_->banner()->showNotice(tr("Live capture unavailable: %1").arg(why), tr("Open the sample trace"),
                                          [this] { openTrace(sampleTracePath()); });
        else startLive();
    });
    QAction* pause = liveMenu->addAction(tr("&Pause"));
    pause->setCheckable(true);
    connect(pause, &QAction::toggled, this, [this](bool on) { live_->setPaused(on); });
    liveMenu->addAction(tr("S&top"), this, [this] {
        live_->stop();
        liveLabel_->hide();
    });
    QMenu* rate = liveMenu->addMenu(tr("&Refresh rate"));
    auto* rateGroup = new QActionGroup(this);
    for (int hz : {1, 2, 5, 10, 20}) {
        QAction* a = rate->addAction(tr("%1 Hz").arg(hz), this, [this, hz] {
            live_->setRateHz(hz);
            QSettings().setValue(QStringLiteral("live/rateHz"), hz);
        });
        a->setCheckable(true);
        a->setChecked(hz == live_->rateHz());
        rateGroup->addAction(a);
    }
    QMenu* keep = liveMenu->addMenu(tr("&Keep the last"));
    auto* keepGroup = new QActionGroup(this);
    for (int s : {5, 10, 30, 60, 300}) {
        QAction* a = keep->addAction(tr("%1 s").arg(s), this, [this, s] {
            live_->setWindowSec(s);
            QSettings().setValue(QStringLiteral("live/windowSec"), s);
        });
        a->setCheckable(true);
        a->setChecked(s == live_->windowSec());
        keepGroup->addAction(a);
    }
}

bool TraceWorkspace::busy() const { return loader_->busy() || waitingForTopology_ > 0; }

void TraceWorkspace::openTraceDialog() {
    const QString f = QFileDialog::getOpenFileName(window_, tr("Open trace"), QString(),
                                                   tr("Traces (*.dat *.txt *.trace);;All files (*)"));
    if (!f.isEmpty()) openTrace(f);
}

void TraceWorkspace::openTrace(const QString& path, const QString& buffer, bool onOpenTopology) {
    // Without a sidecar the trace is read against the open topology: wait for one in flight.
    if (window_->loader()->busy()) {
        ++waitingForTopology_;
        connect(window_->loader(), &SessionLoader::idle, this, [this, path, buffer, onOpenTopology] {
            --waitingForTopology_;
            openTrace(path, buffer, onOpenTopology);
        }, Qt::SingleShotConnection);
        return;
    }
    loader_->load(path, window_->session(), window_->session() ? window_->session()->choices : DomainChoices{}, buffer,
                  onOpenTopology);
}

// One entry per buffer of the open trace.dat, enabled when it has several: picking one reads
// the file again from that buffer (the shown trace stays until it is read).
void TraceWorkspace::updateBufferMenu() {
    if (!bufferMenu_) return;
    bufferMenu_->clear();
    const bool several = trace_ && !trace_->live && trace_->fileBuffers.size() > 1;
    bufferMenu_->setEnabled(several);
    if (!several) return;
    const QString shown = trace_->buffer.isEmpty() ? QStringLiteral("top") : trace_->buffer;
    for (const QString& name : trace_->fileBuffers) {
        QAction* a = bufferMenu_->addAction(name == QStringLiteral("top") ? tr("top (the top-level buffer)") : name);
        a->setCheckable(true);
        a->setChecked(name == shown);
        bufferGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, name, path = trace_->path] { openTrace(path, name); });
    }
}

void TraceWorkspace::startLiveIfPermitted() {
    const QString why = live_->unavailableReason();
    if (!why.isEmpty()) {
        window_->banner()->showNotice(tr("Live capture unavailable: %1").arg(why), tr("Open the sample trace"),
                                      [this] { openTrace(sampleTracePath()); });
        return;
    }
    // No password dialog the user did not ask for: offer it (Trace > Live capture > Start too).
    if (live_->needsAuthentication()) {
        window_->banner()->showNotice(tr("Live capture runs schedscope-capture, which needs an administrator's "
                                         "authentication (pkexec) to load its BPF program."),
                                      tr("Authenticate and start"), [this] { startLive(); });
        return;
    }
    startLive();
}

void TraceWorkspace::startLive() {
    // Needs the topology of this machine: wait for the load in flight.
    if (window_->loader()->busy() || !window_->session()) {
        if (!window_->loader()->busy()) return;
        connect(window_->loader(), &SessionLoader::idle, this, [this] { if (window_->session()) startLive(); },
                Qt::SingleShotConnection);
        return;
    }
    live_->start(window_->session());
    switch (live_->sourceKind()) {
        case LiveSourceKind::InProcess: liveLabel_->setText(tr("live: starting\u2026")); break;
        case LiveSourceKind::Helper: liveLabel_->setText(tr("live: starting schedscope-capture\u2026")); break;
        case LiveSourceKind::Attach: liveLabel_->setText(tr("live: attaching to the capture helper\u2026")); break;
    }
    liveLabel_->show();
}

void TraceWorkspace::showTrace(const TraceSessionPtr& trace) {
    const bool fresh = !trace_ || trace_->path != trace->path || trace_->live != trace->live;
    trace_ = trace;
    timeline_->setTrace(trace);
    matrix_->setTrace(trace);
    rates_->setTrace(trace);
    latency_->setTrace(trace);
    taskModel_->setTrace(trace);
    if (fresh) {
        task_ = -1;
        // a live capture replaces the file and what was said of it (its own warnings are messages)
        if (trace->live) window_->banner()->setNotices(Banner::Topic::Trace, QString());
        if (!docksShown_) {
            for (QDockWidget* d : docks_) d->show();
            docks_[1]->raise();
            docksShown_ = true;
            // room for the lanes (about 14 px each with their group headers, up to half the
            // window): at the dock's default height a 16-CPU trace's lanes were 2 px
            const int lanes = trace->data ? trace->data->cpus : 2;
            window_->resizeDocks({docks_[0]}, {std::clamp(140 + 16 * lanes, 220, window_->height() / 2)}, Qt::Vertical);
            window_->fitDocks();
        }
        taskTable_->table()->resizeColumnsToContents();
    } else if (task_ > 0) {
        taskTable_->selectTask(task_);
        latency_->setTask(task_);
    }
    updateTopologyHeat();
    updateBufferMenu();
    emit traceShown(trace);
}

void TraceWorkspace::selectTask(int pid) {
    task_ = pid;
    if (timeline_->followedTask() != pid) timeline_->followTask(pid);
    taskTable_->selectTask(pid);
    latency_->setTask(pid);
    updateTopologyHeat();
}

void TraceWorkspace::selectCpu(int cpu) {
    cpu_ = cpu;
    timeline_->setSelectedCpu(cpu);
    matrix_->setSelectedCpu(cpu);
    if (window_->topologyView()->selectedCpu() != cpu)
        window_->topologyView()->setSelection(cpu, window_->topologyView()->selectedLevel());
    updateTopologyHeat();
}

void TraceWorkspace::updateTopologyHeat() {
    if (!trace_ || !trace_->data || !window_->session() || trace_->topology != window_->session()) return;
    const auto& d = *trace_->data;
    std::vector<double> heat = d.migrationsPerCpu(task_);
    QString what;
    if (task_ > 0) {
        const TaskSummary* t = d.task(task_);
        what = tr("migrations of %1 (%2)").arg(t ? qs(t->comm) : QString()).arg(task_);
    } else if (cpu_ >= 0 && cpu_ < d.cpus) {
        // Migrations between the selected CPU and each other CPU, both directions.
        std::fill(heat.begin(), heat.end(), 0.0);
        const auto n = size_t(d.cpus);
        for (size_t c = 0; c < n; ++c)
            heat[c] = double(d.matrix[size_t(cpu_) * n + c] + d.matrix[c * n + size_t(cpu_)]);
        what = tr("migrations to or from CPU %1").arg(cpu_);
    } else {
        what = tr("migrations per CPU (source + destination)");
    }
    heat.resize(window_->session()->topology->cpus.size(), 0.0);
    window_->topologyView()->setHeat(std::move(heat), what);
}

QImage TraceWorkspace::renderView(const QString& view, const QSize& size) {
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    if (view == QLatin1String("tasks")) {
        TaskTableView table(taskModel_);
        table.setAttribute(Qt::WA_DontShowOnScreen);
        table.resize(size);
        table.show();
        table.table()->resizeColumnsToContents();
        table.table()->horizontalHeader()->setStretchLastSection(true);
        return table.grab().toImage();
    }
    QPainter p(&img);
    const QRectF r(QPointF(0, 0), QSizeF(size));
    if (view == QLatin1String("timeline")) timeline_->paintTo(p, r);
    else if (view == QLatin1String("matrix")) matrix_->paintTo(p, r);
    else if (view == QLatin1String("rates")) rates_->paintTo(p, r);
    else if (view == QLatin1String("latency")) latency_->paintTo(p, r);
    return img;
}

QString TraceWorkspace::exportView(const QString& view, const QString& path, const QSize& size) {
    const QString title = trace_ ? trace_->name + QStringLiteral(" \u2014 ") + view : view;
    if (view == QLatin1String("tasks")) {
        if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0)
            return renderView(view, size).save(path, "PNG") ? QString() : tr("%1: cannot write the PNG file").arg(path);
        TaskTableView table(taskModel_);
        table.setAttribute(Qt::WA_DontShowOnScreen);
        table.resize(size);
        table.show();
        table.table()->resizeColumnsToContents();
        return exportWidget(&table, path, title);
    }
    PaintFunction paint;
    if (view == QLatin1String("timeline")) paint = [this](QPainter& p, const QRectF& r) { timeline_->paintTo(p, r); };
    else if (view == QLatin1String("matrix")) paint = [this](QPainter& p, const QRectF& r) { matrix_->paintTo(p, r); };
    else if (view == QLatin1String("rates")) paint = [this](QPainter& p, const QRectF& r) { rates_->paintTo(p, r); };
    else if (view == QLatin1String("latency")) paint = [this](QPainter& p, const QRectF& r) { latency_->paintTo(p, r); };
    else return tr("unknown view '%1'").arg(view);
    return exportPicture(paint, size, path, title);
}

void TraceWorkspace::exportWithDialog(const QString& view) {
    QString selected;
    const QString suggested = (trace_ ? QFileInfo(trace_->name).completeBaseName() : QStringLiteral("trace")) +
                              QLatin1Char('-') + view + QStringLiteral(".png");
    QString path = QFileDialog::getSaveFileName(window_, tr("Export %1 view").arg(view), suggested, exportFileFilter(), &selected);
    if (path.isEmpty()) return;
    if (!isExportSuffix(path)) path += selected.contains(QLatin1String("svg")) ? QStringLiteral(".svg")
                                       : selected.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                                                  : QStringLiteral(".png");
    QWidget* w = view == QLatin1String("timeline") ? static_cast<QWidget*>(timeline_)
                 : view == QLatin1String("matrix") ? static_cast<QWidget*>(matrix_)
                 : view == QLatin1String("rates")  ? static_cast<QWidget*>(rates_)
                 : view == QLatin1String("latency") ? static_cast<QWidget*>(latency_)
                                                     : static_cast<QWidget*>(taskTable_);
    const QString error = exportView(view, path, w->size().isEmpty() ? QSize(1200, 700) : w->size());
    if (error.isEmpty()) window_->statusBar()->showMessage(tr("Exported %1").arg(path), 10'000);
    else window_->banner()->showError(error);
}

}  // namespace schedscope::gui
