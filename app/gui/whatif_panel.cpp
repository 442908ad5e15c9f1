#include "whatif_panel.h"

#include <QScrollArea>
#include <QScrollBar>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <optional>
#include <qcustomplot.h>

#include "plot_note.h"
#include "plot_title.h"
#include "qt_convert.h"
#include "sim/compare_modes.h"
#include "sim/contention.h"
#include "sim/sched_knobs.h"
#include "topology_view.h"
#include "value_ticks.h"
#include "whatif_runner.h"
#include "whatif_table_model.h"
#include "workload/workload_spec.h"

namespace schedscope::gui {
namespace {

const QColor kOffColour(0x5b, 0x7d, 0xb1);
const QColor kOnColour(0xe0, 0x7a, 0x1f);

QString writeFile(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return QObject::tr("%1: cannot write (%2)").arg(path, f.errorString());
    return {};
}

// the tooltip of a compare mode in the panel's list (none for the domain levels, whose labels say it)
QString compareHint(sim::CompareWhat what) {
    switch (what) {
    case sim::CompareWhat::Cls:
    case sim::CompareWhat::Node:
    case sim::CompareWhat::DelayDequeue: return {};
    case sim::CompareWhat::NewidleRandom:
        return QObject::tr("6.19's proportional newidle balance (also in 6.1.160, 6.6.120, 6.12.65, 6.18.5): a newly "
                           "idle CPU balances a domain with the odds of its recent success");
    case sim::CompareWhat::WakeWide:
        return QObject::tr("A waker that flips between many wakees skips the affine wakeup (the kernel's, with the "
                           "LLC's size as its factor) vs never: seed 001 found pgbench faster without it in one LLC");
    case sim::CompareWhat::UtilEst:
        return QObject::tr("PELT's averages alone vs with util_est (UTIL_EST, in the kernels since 4.17): a CPU whose "
                           "tasks sleep between bursts reads as busy as their last bursts to the balancer, the idle "
                           "scan and fork placement");
    case sim::CompareWhat::RunToParity:
        return QObject::tr("EEVDF's wakeup preemption with and without RUN_TO_PARITY (in the kernels since 6.6): a "
                           "woken task waits for a task still in the slice it was picked with, unless that task's "
                           "group entity lost its protection to a reweight (before 7.0)");
    case sim::CompareWhat::NumaBalancing:
        return QObject::tr("numa_balancing=0 vs 1: a task away from its memory is taken back or swapped, and its "
                           "memory follows it to a node it stays on");
    case sim::CompareWhat::TaskGroups:
        return QObject::tr("Every task in one group vs each in its task group (a workload file's groups, a "
                           "recording's cgroups and autogroups): the kernel shares a CPU between groups first");
    case sim::CompareWhat::Bandwidth:
        return QObject::tr("The groups unlimited vs held to their quota per period (a workload file's quota_us, a "
                           "recording's cgroup cpu.max): a throttled group's tasks wait for the next period");
    }
    return {};
}

// A sched_features knob for both runs: the profile's (no data), on or off.
QComboBox* knobBox(const QString& objectName, const QString& toolTip) {
    auto* box = new QComboBox;
    box->setObjectName(objectName);
    box->addItem(QObject::tr("the profile's"), QString());
    box->addItem(QObject::tr("on"), QStringLiteral("on"));
    box->addItem(QObject::tr("off"), QStringLiteral("off"));
    box->setToolTip(toolTip);
    return box;
}

void selectKnob(QComboBox* box, const QString& setting) {
    const int i = box->findData(setting);
    box->setCurrentIndex(i >= 0 ? i : 0);
}

// The knob's setting for both runs; nullopt when the profile's, or when `compare` compares it.
std::optional<bool> knobSetting(const QComboBox* box, const std::string& compare, const char* knob) {
    const QString setting = box->currentData().toString();
    if (compare == knob || setting.isEmpty()) return std::nullopt;
    return setting == QStringLiteral("on");
}

}  // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("whatIfPanel"));
    runner_ = new WhatIfRunner(this);
    shown_ = runner_;
    model_ = new WhatIfTableModel(this);

    // The form.
    topology_ = new QComboBox;
    topology_->addItem(tr("Open topology"), QString());
    for (const auto& p : listPresets()) {
        topology_->addItem(qs(p.name), qs(p.name));
        topology_->setItemData(topology_->count() - 1, qs(p.description), Qt::ToolTipRole);
    }
    workload_ = new QComboBox;
    workload_->setEditable(true);
    workload_->setInsertPolicy(QComboBox::NoInsert);
    for (const auto& g : workload::generators()) {
        const QString example = qs(g.name) + QLatin1Char(':') + qs(g.count) + QStringLiteral("=4");
        workload_->addItem(example);
        workload_->setItemData(workload_->count() - 1, qs(g.summary), Qt::ToolTipRole);
    }
    workload_->setToolTip(tr("A generator spec such as stream:threads=4,cpus=0-23,duration=1 (cpus=LIST, duration=S, "
                             "work=S), or a workload .json file"));
    auto* browse = new QToolButton;
    browse->setText(tr("File\u2026"));
    browse->setToolTip(tr("Use a workload .json file"));
    connect(browse, &QToolButton::clicked, this, &WhatIfPanel::chooseWorkloadFile);
    auto* workloadRow = new QHBoxLayout;
    workloadRow->setContentsMargins(0, 0, 0, 0);
    workloadRow->addWidget(workload_, 1);
    workloadRow->addWidget(browse);
    compare_ = new QComboBox;
    // the modes, their keys and labels from the table the CLI's --compare reads (a new mode shows
    // here as it is added there); the hints are the panel's own
    for (const sim::CompareMode& m : sim::compareModes()) {
        compare_->addItem(qs(std::string(m.label)), qs(std::string(m.key)));
        if (const QString hint = compareHint(m.what); !hint.isEmpty())
            compare_->setItemData(compare_->count() - 1, hint, Qt::ToolTipRole);
    }
    profile_ = new QComboBox;
    profile_->setObjectName(QStringLiteral("whatIfProfile"));
    profile_->addItem(tr("newest (%1)").arg(qs(defaultProfile().name)), QString());
    for (const auto& p : kernelProfiles()) {
        profile_->addItem(qs(p.name), qs(p.name));
        profile_->setItemData(profile_->count() - 1, qs(p.description), Qt::ToolTipRole);
    }
    delayDequeue_ = knobBox(QStringLiteral("whatIfDelayDequeue"),
                            tr("EEVDF's delayed dequeue (on from linux-6.12) for both runs, as the kernel's "
                               "sched_features knob sets it; the comparison of it sets it per run"));
    niRandom_ = knobBox(QStringLiteral("whatIfNiRandom"),
                        tr("Newidle balance at a domain with the odds of its recent success (on from linux-6.19) "
                           "for both runs, as the kernel's sched_features knob sets it; the comparison of it sets "
                           "it per run"));
    // no "the profile's": every profile leaves UTIL_EST off (modelled, not calibrated yet)
    utilEst_ = new QComboBox;
    utilEst_->setObjectName(QStringLiteral("whatIfUtilEst"));
    utilEst_->addItem(tr("off (the default)"), QString());
    utilEst_->addItem(tr("on"), QStringLiteral("on"));
    utilEst_->setToolTip(tr("util_est for both runs: a CPU reads as busy as its queued tasks' last bursts (in the "
                            "kernels since 4.17; off unless set here, as the simulator's figures were measured); "
                            "the comparison of it sets it per run"));
    wakeWide_ = new QComboBox;
    wakeWide_->setObjectName(QStringLiteral("whatIfWakeWide"));
    wakeWide_->addItem(tr("the kernel's (LLC size)"), QString());
    wakeWide_->addItem(tr("cluster size"), QStringLiteral("cluster"));
    wakeWide_->addItem(tr("off"), QStringLiteral("off"));
    wakeWide_->setToolTip(tr("wake_wide()'s factor for both runs: the LLC's size as in the kernel, the cluster's "
                             "(seed 001's experiment), or no wake_wide() at all; when wake_wide() is compared, the "
                             "factor of its on side"));
    auto knobsFollowCompare = [this] {
        delayDequeue_->setEnabled(compare_->currentData().toString() != QStringLiteral("delay-dequeue"));
        niRandom_->setEnabled(compare_->currentData().toString() != QStringLiteral("ni-random"));
        utilEst_->setEnabled(compare_->currentData().toString() != QStringLiteral("util-est"));
    };
    connect(compare_, &QComboBox::currentIndexChanged, this, knobsFollowCompare);
    knobsFollowCompare();
    seeds_ = new QSpinBox;
    seeds_->setRange(1, 100);
    seeds_->setValue(3);
    duration_ = new QDoubleSpinBox;
    duration_->setRange(0.05, 600);
    duration_->setDecimals(2);
    duration_->setSingleStep(0.5);
    duration_->setValue(1.0);
    duration_->setSuffix(tr(" s"));
    duration_->setToolTip(tr("Simulated seconds per run (a workload's own duration= wins)"));
    spread_ = new QCheckBox(tr("may use every CPU"));
    spread_->setToolTip(tr("With the open trace as the workload: its tasks that were not pinned may use every CPU of "
                           "the topology, not only the recording's CPUs 0..n-1"));
    syncWakeups_ = new QCheckBox(tr("all WF_SYNC (sockets)"));
    syncWakeups_->setObjectName(QStringLiteral("whatIfSyncWakeups"));
    syncWakeups_->setToolTip(tr("With the open trace as the workload: take every wakeup of one task by another as WF_SYNC, "
                                "as pipes and sockets wake (the kernel never does for futexes: mutexes, condition "
                                "variables). A trace does not show the flag; by default a wakeup whose waker blocks "
                                "right after is sync (replay's --sync-wakeups)"));
    sessions_ = new QCheckBox(tr("sessions from forks"));
    sessions_->setObjectName(QStringLiteral("whatIfSessionsFromForks"));
    sessions_->setEnabled(false);

    run_ = new QPushButton(tr("Run"));
    run_->setDefault(true);
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(tr("no runs yet"));  // "0 of 1 runs" before the first would be wrong
    status_ = new QLabel(tr("Pick a workload and press Run."));
    status_->setWordWrap(true);
    status_->setObjectName(QStringLiteral("whatIfStatus"));
    exportJson_ = new QPushButton(tr("Export JSON\u2026"));
    exportCsv_ = new QPushButton(tr("Export CSV\u2026"));
    exportJson_->setEnabled(false);
    exportCsv_->setEnabled(false);

    auto* form = new QFormLayout;
    form->addRow(tr("Topology"), topology_);
    form->addRow(tr("Workload"), workloadRow);
    form->addRow(tr("Compare"), compare_);
    form->addRow(tr("Profile"), profile_);
    form->addRow(tr("DELAY_DEQUEUE"), delayDequeue_);
    form->addRow(tr("NI_RANDOM"), niRandom_);
    form->addRow(tr("UTIL_EST"), utilEst_);
    form->addRow(tr("wake_wide"), wakeWide_);
    form->addRow(tr("Seeds"), seeds_);
    form->addRow(tr("Duration"), duration_);
    form->addRow(tr("Trace tasks"), spread_);
    form->addRow(tr("Trace wakeups"), syncWakeups_);
    form->addRow(tr("Trace groups"), sessions_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    auto* exports = new QHBoxLayout;
    exports->addWidget(exportJson_);
    exports->addWidget(exportCsv_);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addLayout(form);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(progress_);
    leftLayout->addWidget(status_);
    leftLayout->addStretch(1);
    leftLayout->addLayout(exports);
    left->setMinimumWidth(280);
    left->setMaximumWidth(340);

    // The results.
    table_ = new QTableView;
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    // every column as wide as its figures: a stretched last column put its spreads at the far
    // right of a wide window, a hand's width from their header and from the means they belong to
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(false);

    plot_ = new QCustomPlot;
    plot_->setObjectName(QStringLiteral("whatIfMigrationsPlot"));
    plot_->setMinimumSize(220, 120);
    // the title fits the plot as the trace plots' titles do: at 10 pt it is wider than the
    // plot's narrowest width (220 px), and was cut at both sides there
    plotTitle_ = std::make_unique<PlotTitle>(plot_);
    plotTitle_->setText(tr("Migrations per level (mean per run)"));
    plot_->yAxis->setLabel(tr("migrations"));
    keepValueTicksApart(plot_, plot_->yAxis);
    // The legend in a row of its own under the axes, its entries side by side: inside the axes
    // it covered the bars of a narrow plot (lesson 07 at 1024x700) and the "No runs yet" note.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(plot_->plotLayout()->rowCount(), 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(plot_->plotLayout()->rowCount() - 1, 0.001);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setMargins(QMargins(2, 0, 2, 0));
    plot_->installEventFilter(this);
    plotNote_ = std::make_unique<PlotNote>(plot_);

    auto* heatRow = new QWidget;
    auto* heatLayout = new QHBoxLayout(heatRow);
    heatLayout->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < 2; ++i) {
        auto* box = new QWidget;
        auto* v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(2);
        heatTitle_[i] = new QLabel;
        heatTitle_[i]->setAlignment(Qt::AlignCenter);
        // "Per-CPU utilisation, setting off (0 runs)" is wider than a box of a small window:
        // wrapped at its spaces, not cut at both ends
        heatTitle_[i]->setWordWrap(true);
        heat_[i] = new TopologyView;
        heat_[i]->setObjectName(i ? QStringLiteral("whatIfHeatOn") : QStringLiteral("whatIfHeatOff"));
        heat_[i]->setMinimumSize(200, 110);
        v->addWidget(heatTitle_[i]);
        v->addWidget(heat_[i], 1);
        heatLayout->addWidget(box, 1);
    }
    heatTitle_[0]->setText(tr("Per-CPU utilisation, setting off"));
    heatTitle_[1]->setText(tr("Per-CPU utilisation, setting on"));

    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(table_);
    top->addWidget(plot_);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    top->setSizes({640, 260});
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(top);
    right->addWidget(heatRow);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    right->setSizes({300, 420});

    // the settings scroll rather than hold the window taller than a laptop's screen
    auto* leftScroll = new QScrollArea;
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftScroll->setMinimumWidth(left->minimumWidth() + leftScroll->verticalScrollBar()->sizeHint().width());
    leftScroll->setMaximumWidth(left->maximumWidth() + leftScroll->verticalScrollBar()->sizeHint().width());
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(leftScroll);
    layout->addWidget(right, 1);

    connect(run_, &QPushButton::clicked, this, &WhatIfPanel::run);
    connect(cancel_, &QPushButton::clicked, this, &WhatIfPanel::cancel);
    connect(exportJson_, &QPushButton::clicked, this, [this] { exportWithDialog(true); });
    connect(exportCsv_, &QPushButton::clicked, this, [this] { exportWithDialog(false); });
    connect(runner_, &WhatIfRunner::started, this, &WhatIfPanel::onStarted);
    connect(runner_, &WhatIfRunner::progress, this, &WhatIfPanel::onProgress);
    connect(runner_, &WhatIfRunner::advanced, this, &WhatIfPanel::onAdvanced);
    connect(runner_, &WhatIfRunner::finished, this, &WhatIfPanel::onFinished);
    showResult();
}

WhatIfPanel::~WhatIfPanel() = default;

void WhatIfPanel::setSession(const SessionPtr& session) {
    session_ = session;
    topology_->setItemText(0, session && session->topology ? tr("Open topology (%1)").arg(qs(session->topology->name))
                                                           : tr("Open topology (none)"));
    showDefaultProfile();
}

void WhatIfPanel::setTrace(const TraceSessionPtr& trace) {
    const bool usable = trace && !trace->live && trace->data && trace->data->store && trace->topology && trace->topology->topology;
    const int old = traceText_.isEmpty() ? -1 : workload_->findText(traceText_);
    const bool wasPicked = old >= 0 && workload_->currentIndex() == old;
    if (old >= 0) workload_->removeItem(old);
    trace_ = usable ? trace : nullptr;
    traceText_ = usable ? tr("trace: %1 (its tasks, derived)").arg(trace->name) : QString();
    // a groups sidecar says the groups; without one the tasks replay in the root group unless
    // their sessions are guessed from the trace's forks
    const bool sidecar = usable && trace->taskGroups;
    sessions_->setEnabled(usable && !sidecar);
    sessions_->setToolTip(
        sidecar ? tr("The trace's groups sidecar says the task groups its tasks ran in: they replay in those")
                : tr("With the open trace as the workload, when it has no groups sidecar (trace-cmd records none): "
                     "guess its autogroup sessions from its forks. A task the trace does not show forked leads a "
                     "session of its own, a forked task joins its parent's, kernel threads stay in the root group "
                     "(replay's --sessions-from-forks). The balancer weighs a task by its share of its group: a "
                     "busy session's tasks move many at once. Wrong where the tasks never left init's session, "
                     "or where another session ran as several processes"));
    showDefaultProfile();
    if (!usable) return;
    workload_->insertItem(0, traceText_);
    workload_->setItemData(0, tr("Replay the open trace's tasks: their bursts, sleeps, who woke whom, forks and "
                                 "pinning, trace CPU c on CPU c"),
                           Qt::ToolTipRole);
    if (wasPicked) workload_->setCurrentIndex(0);
}

// what the first profile choice (none picked) runs under: the trace's kernel's for a trace, the
// open machine's as the window built it (this machine's kernel's, a kernel log's, the toolbar's)
// for a generator on it (prepareWhatIf() picks them so)
void WhatIfPanel::showDefaultProfile() {
    const KernelProfile* traceKernel = trace_ ? profileForKernelRelease(trace_->data->store->kernelRelease()) : nullptr;
    // the profile the window built the open machine under (a kernel log's, this machine's kernel's
    // or the user's), else the machine's own
    std::string machineKernel = session_ ? session_->choices.profile : std::string();
    if (machineKernel.empty() && session_ && session_->topology) machineKernel = session_->topology->kernelProfile;
    QString text = tr("newest (%1)").arg(qs(defaultProfile().name));
    if (traceKernel) text = tr("newest (%1); the trace's kernel's (%2) for the trace").arg(qs(defaultProfile().name), qs(traceKernel->name));
    else if (!machineKernel.empty()) text = tr("the open machine's (%1); newest (%2) for presets").arg(qs(machineKernel), qs(defaultProfile().name));
    profile_->setItemText(0, text);
}

void WhatIfPanel::setTopologyPreset(const QString& preset) {
    const int i = topology_->findData(preset);
    topology_->setCurrentIndex(i >= 0 ? i : 0);
}

void WhatIfPanel::setWorkload(const QString& spec) {
    workload_->setCurrentText(spec);
    if (workload_->lineEdit()) workload_->lineEdit()->setCursorPosition(0);  // a long text shows its start
}

void WhatIfPanel::setCompare(const QString& what) {
    const int i = compare_->findData(what.toLower());
    if (i >= 0) compare_->setCurrentIndex(i);
}

void WhatIfPanel::setProfile(const QString& profile) {
    const int i = profile_->findData(profile);
    profile_->setCurrentIndex(i >= 0 ? i : 0);
}

void WhatIfPanel::setDelayDequeue(const QString& setting) { selectKnob(delayDequeue_, setting); }
void WhatIfPanel::setNiRandom(const QString& setting) { selectKnob(niRandom_, setting); }
void WhatIfPanel::setUtilEst(const QString& setting) { selectKnob(utilEst_, setting); }
void WhatIfPanel::setWakeWide(const QString& factor) { selectKnob(wakeWide_, factor == QStringLiteral("llc") ? QString() : factor); }

void WhatIfPanel::setSeeds(int seeds) { seeds_->setValue(seeds); }
void WhatIfPanel::setDuration(double seconds) { duration_->setValue(seconds); }
void WhatIfPanel::setTraceSpread(bool spread) { spread_->setChecked(spread); }
void WhatIfPanel::setTraceSyncWakeups(bool all) { syncWakeups_->setChecked(all); }
void WhatIfPanel::setTraceSessionsFromForks(bool guess) { sessions_->setChecked(guess); }

WhatIfRequest WhatIfPanel::request(QString* error) const {
    WhatIfRequest r;
    const QString preset = topology_->currentData().toString();
    if (preset.isEmpty()) {
        if (session_ && session_->topology) {
            r.topology = session_->topology;
            r.spec = session_->spec;
            r.cls = session_->choices.cls;
            r.node = session_->choices.node;
            r.machineProfile = session_->choices.profile;
        } else if (error) {
            *error = tr("No topology is open: open one or pick a preset");
        }
    } else {
        r.spec.kind = TopologySpec::Kind::Preset;
        r.spec.value = ss(preset);
    }
    r.workload = ss(workload_->currentText().trimmed());
    if (trace_ && !traceText_.isEmpty() && workload_->currentText() == traceText_)
        r.trace = WhatIfRequest::TraceSource{ss(trace_->name), trace_->data->store, trace_->topology->topology,
                                             spread_->isChecked(), trace_->taskGroups, syncWakeups_->isChecked(),
                                             sessions_->isEnabled() && sessions_->isChecked()};
    r.compare = ss(compare_->currentData().toString());
    r.profile = ss(profile_->currentData().toString());
    r.delayDequeue = knobSetting(delayDequeue_, r.compare, "delay-dequeue");
    r.newidleRandom = knobSetting(niRandom_, r.compare, "ni-random");
    r.utilEst = knobSetting(utilEst_, r.compare, "util-est");
    if (const QString factor = wakeWide_->currentData().toString(); !factor.isEmpty()) {
        auto parsed = sim::parseWakeWide(ss(factor));
        if (parsed) r.wakeWide = *parsed;
    }
    r.seeds = seeds_->value();
    r.durationS = duration_->value();
    return r;
}

bool WhatIfPanel::running() const { return runner_->busy(); }

QString WhatIfPanel::statusText() const { return status_->text(); }

void WhatIfPanel::run() {
    QString error;
    const WhatIfRequest r = request(&error);
    if (!error.isEmpty()) {
        status_->setText(error);
        return;
    }
    runner_->start(r);
}

void WhatIfPanel::cancel() { runner_->cancel(); }

void WhatIfPanel::onStarted(int total) {
    shown_ = runner_;
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    exportJson_->setEnabled(false);
    exportCsv_->setEnabled(false);
    timeLeft_.clear();
    showRunsDone(0.0, total, QString());
    status_->setText(tr("Preparing: loading the topology and building both domain trees\u2026"));
    showResult();
}

// The bar fills by the simulated time done (a hundredth of a run a step), so a long run moves
// it too; its text counts the runs finished, and the time left once there is a rate.
void WhatIfPanel::showRunsDone(double runsDone, int total, const QString& timeLeft) {
    progress_->setRange(0, 100 * total);
    progress_->setValue(int(std::lround(100.0 * runsDone)));
    const int finished = int(runner_->result().runs.size());
    progress_->setFormat(timeLeft.isEmpty() ? tr("%1 of %2 runs").arg(finished).arg(total)
                                            : tr("%1 of %2 runs, %3").arg(finished).arg(total).arg(timeLeft));
}

void WhatIfPanel::onAdvanced(double runsDone, int total, const QString& timeLeft) {
    timeLeft_ = timeLeft;
    showRunsDone(runsDone, total, timeLeft);
}

void WhatIfPanel::onProgress(int done, int total) {
    // a run that finished was already counted by its share: the bar never moves back
    showRunsDone(std::max<double>(done, progress_->value() / 100.0), total, done < total ? timeLeft_ : QString());
    if (runner_->result().setup) status_->setText(tr("Running: %1 of %2 simulations done").arg(done).arg(total));
    // Partial results as they come, but bounded: short runs finish every few ms, and redrawing
    // the table, the plot and two topology heat maps each time would starve the GUI thread.
    if (done > 0 && (!lastShown_.isValid() || lastShown_.elapsed() >= 200)) {
        showResult();
        lastShown_.restart();
    }
}

void WhatIfPanel::onFinished() {
    run_->setEnabled(true);
    cancel_->setEnabled(false);
    const WhatIfResult& r = runner_->result();
    const int done = int(r.runs.size());
    if (!r.error.empty()) {
        status_->setText(tr("Failed: %1").arg(qs(r.error)));
    } else if (r.cancelled) {
        status_->setText(tr("Cancelled after %1 of %2 simulations.").arg(done).arg(progress_->maximum()));
    } else {
        QString runErrors, stall;
        int stalled = 0;
        for (const auto& run : r.runs) {
            if (!run.error.empty() && runErrors.isEmpty()) runErrors = qs(run.error);
            if (!run.stall.empty() && stalled++ == 0) stall = qs(run.stall);
        }
        QString text = runErrors.isEmpty()
                           ? tr("Done: %1 simulations of %2 on %3.").arg(done).arg(qs(r.setup->workload.spec), qs(r.setup->topology->name))
                           : tr("Done, with errors: %1").arg(runErrors);
        // a workload file whose tasks wait for each other: say so, not just "not finished"
        if (stalled) text += tr(" %1 of them %2.").arg(stalled).arg(stall);
        if (r.seedsGaveOneRun())
            text += tr(" Every seed gave the same run: the seeds do not reach this workload's placement (tasks forked "
                       "onto an idle machine that never sleep are placed alike), so a spread of 0 is no measure of noise.");
        status_->setText(text);
        // what the runs' speeds came from: the machine's bandwidths and shared caches
        status_->setToolTip(tr("Contention model: %1")
                                .arg(qs(sim::describeContention(sim::contentionParamsFor(*r.setup->topology)))));
    }
    exportJson_->setEnabled(r.setup != nullptr);
    exportCsv_->setEnabled(r.setup != nullptr);
    showResult();
    emit finished();
}

void WhatIfPanel::mirror(const WhatIfPanel& other) {
    session_ = other.session_;
    topology_->setItemText(0, other.topology_->itemText(0));
    topology_->setCurrentIndex(other.topology_->currentIndex());
    setTrace(other.trace_);
    setWorkload(other.workload_->currentText());
    compare_->setCurrentIndex(other.compare_->currentIndex());
    profile_->setCurrentIndex(other.profile_->currentIndex());
    delayDequeue_->setCurrentIndex(other.delayDequeue_->currentIndex());
    niRandom_->setCurrentIndex(other.niRandom_->currentIndex());
    utilEst_->setCurrentIndex(other.utilEst_->currentIndex());
    wakeWide_->setCurrentIndex(other.wakeWide_->currentIndex());
    seeds_->setValue(other.seeds_->value());
    duration_->setValue(other.duration_->value());
    spread_->setChecked(other.spread_->isChecked());
    syncWakeups_->setChecked(other.syncWakeups_->isChecked());
    sessions_->setChecked(other.sessions_->isChecked());
    progress_->setRange(other.progress_->minimum(), other.progress_->maximum());
    progress_->setValue(other.progress_->value());
    progress_->setFormat(other.progress_->format());
    status_->setText(other.status_->text());
    run_->setEnabled(other.run_->isEnabled());
    cancel_->setEnabled(other.cancel_->isEnabled());
    exportJson_->setEnabled(other.exportJson_->isEnabled());
    exportCsv_->setEnabled(other.exportCsv_->isEnabled());
    shown_ = other.runner_;
    showResult();
}

bool WhatIfPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize) fitLegend();
    return QWidget::eventFilter(watched, event);
}

// Side by side, two settings' names as long as "DELAY_DEQUEUE off" ran past the right edge of
// the plot in a 1300 px window; one under the other they fit (a row's height more).
void WhatIfPanel::fitLegend() {
    QCPLegend* legend = plot_->legend;
    int wanted = legend->margins().left() + legend->margins().right();
    for (int i = 0; i < legend->itemCount(); ++i) {
        const QCPLayoutElement* item = legend->item(i);
        wanted += item->minimumOuterSizeHint().width() + (i > 0 ? legend->columnSpacing() : 0);
    }
    const auto order = wanted <= plot_->width() ? QCPLegend::foColumnsFirst : QCPLegend::foRowsFirst;
    if (legend->fillOrder() == order) return;
    legend->setFillOrder(order, true);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void WhatIfPanel::showResult() {
    const WhatIfResult& r = shown_->result();
    model_->setResult(r);

    // Migrations per level, both settings side by side.
    plot_->clearPlottables();
    const auto levels = r.levels();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QVector<double> keys;
    for (int i = 0; i < int(levels.size()); ++i) {
        keys << i + 1;
        ticker->addTick(i + 1, qs(levels[size_t(i)]));
    }
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(0.4, std::max<double>(1, double(levels.size())) + 0.6);
    auto* group = plot_->findChild<QCPBarsGroup*>();
    if (!group) group = new QCPBarsGroup(plot_);
    double top = 1;
    for (int setting = 0; setting < 2; ++setting) {
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(qs(r.settingName(setting)));
        const QColor c = setting ? kOnColour : kOffColour;
        bars->setPen(QPen(c.darker(130)));
        bars->setBrush(c);
        bars->setWidth(0.36);
        bars->setBarsGroup(group);
        QVector<double> values;
        for (const auto& level : levels) {
            values << r.meanMigrations(setting, level);
            top = std::max(top, values.back());
        }
        bars->setData(keys, values, true);
    }
    plot_->yAxis->setRange(0, top * 1.15);
    plot_->legend->setVisible(!levels.empty());  // no bars, nothing to tell apart
    fitLegend();
    // empty axes and heat maps say what would fill them, not "Nothing open" beside an open machine
    plotNote_->setText(levels.empty() ? whyNoResult() : QString());
    plot_->replot();

    // Utilisation heat on one shared 0..1 scale, each setting on its own domain tree.
    for (int setting = 0; setting < 2; ++setting) {
        const SessionPtr s = shown_->session(setting);
        const QString name = r.setup ? qs(r.settingName(setting)) : (setting ? tr("setting on") : tr("setting off"));
        heatTitle_[setting]->setText(tr("Per-CPU utilisation, %1 (%2 runs)").arg(name).arg(r.runsOf(setting)));
        if (!s) {
            heat_[setting]->setEmptyText(whyNoResult());
            heat_[setting]->setSession(nullptr);
            continue;
        }
        if (heat_[setting]->session() != s) {
            heat_[setting]->setSession(s);
            heat_[setting]->setSelection(-1, -1);  // a selected CPU would hide its own heat
        }
        heat_[setting]->setHeat(r.meanUtilisation(setting), tr("utilisation"), 0.0, 1.0);
    }
}

QString WhatIfPanel::whyNoResult() const {
    const WhatIfResult& r = shown_->result();
    if (shown_->busy()) return tr("Simulating\u2026 the first runs show here when they finish");
    if (!r.error.empty()) return tr("No result: the runs failed (see the status)");
    if (r.cancelled) return tr("No result: cancelled; press Run to start again");
    return tr("No runs yet: press Run to simulate both settings");
}

QString WhatIfPanel::plotTitleText() const { return plotTitle_->shown(); }

QString WhatIfPanel::plotNoteText() const { return plotNote_->text(); }

QString WhatIfPanel::exportJson(const QString& path) const {
    const WhatIfResult& r = runner_->result();
    if (!r.setup) return tr("%1: no what-if result to export").arg(path);
    return writeFile(path, QByteArray::fromStdString(r.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"));
}

QString WhatIfPanel::exportCsv(const QString& path) const {
    const WhatIfResult& r = runner_->result();
    if (!r.setup) return tr("%1: no what-if result to export").arg(path);
    return writeFile(path, QByteArray::fromStdString(r.toCsv()));
}

void WhatIfPanel::exportWithDialog(bool json) {
    const QString suffix = json ? QStringLiteral("json") : QStringLiteral("csv");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export what-if result"), QStringLiteral("whatif.") + suffix,
                                                      json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    const QString error = json ? exportJson(path) : exportCsv(path);
    status_->setText(error.isEmpty() ? tr("Exported %1").arg(path) : error);
}

void WhatIfPanel::chooseWorkloadFile() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Workload file"), qs(resourcesDir() + "/workloads"),
                                                   tr("Workload JSON (*.json);;All files (*)"));
    if (!f.isEmpty()) workload_->setCurrentText(f);
}

}  // namespace schedscope::gui
