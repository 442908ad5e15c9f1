#pragma once
// WhatIfPanel: the what-if simulator dock. Pick a topology (the open one or a preset), a
// workload (a generator spec, a workload .json file or the open trace's tasks), the level to
// compare (CLS, NODE or DELAY_DEQUEUE, off vs on), a kernel profile and the number of seeds; Run simulates both
// settings x seeds on a worker (WhatIfRunner) with a progress bar counting finished runs, and
// Cancel. The result: a metric table (mean, spread, relative change), migrations per level for
// both settings as bars, and each setting's mean per-CPU utilisation as topology heat. Exports
// JSON and CSV.
#include <QElapsedTimer>
#include <QWidget>
#include <memory>

#include "session.h"
#include "trace_loader.h"
#include "whatif_run.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace schedscope::gui {

class PlotNote;
class PlotTitle;
class TopologyView;
class WhatIfRunner;
class WhatIfTableModel;

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);
    ~WhatIfPanel() override;

    // The window's open topology: the "current" choice of the topology box.
    void setSession(const SessionPtr& session);
    // The window's open trace (a file; live captures are left out): offered as a workload, the
    // tasks derived from it as replay derives them. Null withdraws it.
    void setTrace(const TraceSessionPtr& trace);
    // The workload box's text that picks the open trace ("" when none is open).
    QString traceWorkloadText() const { return traceText_; }

    // Form fields, as a lesson scenario or a test sets them. An empty preset name picks the
    // open topology.
    void setTopologyPreset(const QString& preset);
    void setWorkload(const QString& spec);
    void setCompare(const QString& what);  // "cls" or "node"
    void setProfile(const QString& profile);  // empty: the newest
    void setDelayDequeue(const QString& setting);  // "on", "off"; empty: the profile's
    void setNiRandom(const QString& setting);      // "on", "off"; empty: the profile's
    void setUtilEst(const QString& setting);       // "on"; empty: off, the simulator's default
    void setWakeWide(const QString& factor);       // "llc", "cluster", "off"; empty: the kernel's (llc)
    void setSeeds(int seeds);
    void setDuration(double seconds);
    void setTraceSpread(bool spread);  // a trace's unpinned tasks may use every CPU
    void setTraceSyncWakeups(bool all);  // every task wakeup of a trace WF_SYNC (pipes, sockets)
    // a trace without a groups sidecar: its sessions guessed from its forks (replay's --sessions-from-forks)
    void setTraceSessionsFromForks(bool guess);
    // The request the form describes; `error` is set when it cannot run (nothing open ...).
    WhatIfRequest request(QString* error = nullptr) const;

    WhatIfRunner* runner() const { return runner_; }
    WhatIfTableModel* model() const { return model_; }
    QCustomPlot* plot() const { return plot_; }
    TopologyView* heatView(int setting) const { return heat_[setting & 1]; }
    QString statusText() const;
    QString plotTitleText() const;  // the migrations plot's title as drawn: smaller or elided to fit
    QString plotNoteText() const;  // the note across the empty migrations plot ("" when it has bars)
    bool running() const;

    // Write the latest result; return an empty string or a one-line error naming the file.
    QString exportJson(const QString& path) const;
    QString exportCsv(const QString& path) const;

    // Shows another panel's form, status and result (standalone renders of the docked panel).
    void mirror(const WhatIfPanel& other);

    QSize sizeHint() const override { return {1100, 720}; }

public slots:
    void run();
    void cancel();

signals:
    void finished();  // an experiment finished, was cancelled or failed

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // the plot's resizes: fitLegend()

private:
    void fitLegend();  // the legend's entries side by side where they fit the plot, else stacked
    void showDefaultProfile();  // the first profile choice names what runs without a pick
    void onStarted(int total);
    void onProgress(int done, int total);
    void onAdvanced(double runsDone, int total, const QString& timeLeft);
    void showRunsDone(double runsDone, int total, const QString& timeLeft);
    void onFinished();
    void showResult();
    QString whyNoResult() const;  // what the empty plot and heat maps say: press Run, wait, ...
    void exportWithDialog(bool json);
    void chooseWorkloadFile();

    SessionPtr session_;
    TraceSessionPtr trace_;
    QString traceText_;
    WhatIfRunner* runner_;
    const WhatIfRunner* shown_;  // runner_, or the mirrored panel's
    QElapsedTimer lastShown_;    // partial results are redrawn at most every 200 ms
    WhatIfTableModel* model_;
    QComboBox* topology_;
    QComboBox* workload_;
    QComboBox* compare_;
    QComboBox* profile_;
    QComboBox* delayDequeue_;  // DELAY_DEQUEUE when not compared: the profile's, on or off
    QComboBox* niRandom_;      // NI_RANDOM when not compared: the profile's, on or off
    QComboBox* utilEst_;       // UTIL_EST when not compared: off (the simulator's default) or on
    QComboBox* wakeWide_;      // wake_wide()'s factor: the kernel's, the cluster's or off
    QSpinBox* seeds_;
    QDoubleSpinBox* duration_;
    QCheckBox* spread_;
    QCheckBox* syncWakeups_;
    QCheckBox* sessions_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* exportJson_;
    QPushButton* exportCsv_;
    QProgressBar* progress_;
    QString timeLeft_;  // the runner's last estimate of the time left (WhatIfRunner::advanced)
    QLabel* status_;
    QTableView* table_;
    QCustomPlot* plot_;
    std::unique_ptr<PlotTitle> plotTitle_;
    std::unique_ptr<PlotNote> plotNote_;  // across the empty plot: why it is empty (no runs yet, ...)
    TopologyView* heat_[2];
    QLabel* heatTitle_[2];
};

}  // namespace schedscope::gui
