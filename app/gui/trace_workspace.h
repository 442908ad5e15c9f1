#pragma once
// TraceWorkspace: the trace half of the window. Owns the trace docks (timeline, migration
// matrix, per-level rates, wait latency, task table), the trace loader with its progress bar
// and cancel button, the Trace menu and live capture. MainWindow creates one and forwards
// trace files, renders and exports to it; selections flow between the trace views, the
// topology view (selected CPU, heat = migrations per CPU) and the task table.
#include <QObject>
#include <QStringList>

#include "trace_loader.h"

class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QMenuBar;
class QProgressBar;
class QToolButton;

namespace schedscope::gui {

class LatencyHistogramPlot;
class LevelRatePlot;
class LiveCapture;
class MainWindow;
class MigrationMatrixPlot;
class TaskTableModel;
class TaskTableView;
class TimelineView;

class TraceWorkspace : public QObject {
    Q_OBJECT
public:
    explicit TraceWorkspace(MainWindow* window);
    ~TraceWorkspace() override;

    // The views --screenshot/--view and exportView() know.
    static QStringList viewNames();
    bool handlesView(const QString& view) const { return viewNames().contains(view); }

    // Menus: the Trace menu on the bar, dock toggles in the View menu.
    void addMenus(QMenuBar* bar, QMenu* viewMenu);

    // Loads a trace on the worker (after a topology load in flight has finished). `buffer`: the
    // trace.dat buffer to read (TraceLoader::load()); empty: the top-level one or the first
    // instance with sched events.
    // onOpenTopology: read it against the open machine even when it has a sidecar (the user
    // named both: schedscope FILE --preset NAME)
    void openTrace(const QString& path, const QString& buffer = {}, bool onOpenTopology = false);
    // Trace > Buffer: the open trace.dat's buffers (trace-cmd record -B), the shown one checked.
    QMenu* bufferMenu() const { return bufferMenu_; }
    void openTraceDialog();
    bool busy() const;
    TraceSessionPtr trace() const { return trace_; }

    // Live capture of this machine when permitted; otherwise a one-line reason in the banner
    // with a button opening the bundled sample trace. When it would need pkexec, the banner
    // offers to start it instead of raising a password dialog unasked.
    void startLiveIfPermitted();
    LiveCapture* live() const { return live_; }
    static QString sampleTracePath();

    QImage renderView(const QString& view, const QSize& size);
    QString exportView(const QString& view, const QString& path, const QSize& size);

    TimelineView* timeline() const { return timeline_; }
    MigrationMatrixPlot* matrix() const { return matrix_; }
    LevelRatePlot* rates() const { return rates_; }
    LatencyHistogramPlot* latency() const { return latency_; }
    TaskTableModel* taskModel() const { return taskModel_; }
    QDockWidget* timelineDock() const { return docks_.empty() ? nullptr : docks_.front(); }
    // the trace plots' docks (matrix, rates, latency, tasks), tabs of one place
    std::vector<QDockWidget*> plotDocks() const {
        return docks_.empty() ? std::vector<QDockWidget*>{} : std::vector<QDockWidget*>(docks_.begin() + 1, docks_.end());
    }
    TaskTableView* taskTable() const { return taskTable_; }

public slots:
    void selectTask(int pid);
    void selectCpu(int cpu);

signals:
    void traceShown(schedscope::gui::TraceSessionPtr trace);
    // The trace came with its own topology (sidecar): the window shows it.
    void topologyFromTrace(schedscope::gui::SessionPtr session);
    void loadFailed(const QString& error);
    void recentFilesChanged();
    void idle();

private:
    void showTrace(const TraceSessionPtr& trace);
    void exportWithDialog(const QString& view);
    void updateTopologyHeat();
    QDockWidget* addDock(const QString& title, const QString& name, QWidget* w);
    void startLive();
    void updateBufferMenu();

    MainWindow* window_;
    TraceLoader* loader_;
    LiveCapture* live_;
    TraceSessionPtr trace_;
    TimelineView* timeline_;
    MigrationMatrixPlot* matrix_;
    LevelRatePlot* rates_;
    LatencyHistogramPlot* latency_;
    TaskTableModel* taskModel_;
    TaskTableView* taskTable_;
    std::vector<QDockWidget*> docks_;  // the timeline's first
    QProgressBar* progress_;
    QToolButton* cancel_;
    QLabel* liveLabel_;
    QMenu* bufferMenu_ = nullptr;
    QActionGroup* bufferGroup_ = nullptr;
    int waitingForTopology_ = 0;
    int task_ = -1;
    int cpu_ = -1;
    bool docksShown_ = false;
};

}  // namespace schedscope::gui
