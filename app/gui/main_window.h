#pragma once
// MainWindow: menus, the domain toolbar, the message banner and the view docks. It owns the
// current Session and swaps it only when a load or rebuild succeeds, so a failed load leaves
// what was open untouched.
#include <QMainWindow>

#include <functional>
#include <memory>

#include "launch_options.h"
#include "selection.h"
#include "session.h"

namespace schedscope { struct Lesson; }

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;

namespace schedscope::gui {

class Banner;
class DomainControls;
class DomainTreeModel;
class DomainTreeView;
class LessonBrowser;
class SessionLoader;
class TopologyView;
class WhatIfPanel;
class TraceWorkspace;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Heat { None, MigrationLevel, Capacity, Node };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Applies the command line: domain choices, the topology to open, a trace file.
    void start(const LaunchOptions& options);
    // Starts loading `spec` on the worker; the views change when (and only if) it succeeds.
    void open(const TopologySpec& spec);
    // An hwloc .xml file, a sysfs snapshot directory, or else a trace file.
    void openPath(const QString& path);
    // Trace files load on a worker (TraceWorkspace); a failure keeps what is open.
    void openTraceFile(const QString& path);
    void setHeat(Heat heat);

    SessionPtr session() const { return session_; }
    SessionLoader* loader() const { return loader_; }
    Banner* banner() const { return banner_; }
    // Something opened: the error of an open that failed before it goes from the banner (other
    // messages, such as a lesson's problems, stay).
    void clearLoadError();
    TopologyView* topologyView() const { return topologyView_; }
    QString statusText() const;  // the status bar's line: the source, timings, root domains
    DomainTreeView* domainTreeView() const { return treeView_; }
    DomainTreeModel* domainModel() const { return model_; }
    DomainControls* domainControls() const { return controls_; }
    WhatIfPanel* whatIfPanel() const { return whatIf_; }
    LessonBrowser* lessonBrowser() const { return lessons_; }

    // Selects a CPU and level by name now, or after the load in flight (main_window_lessons.cpp).
    void selectWhenLoaded(const SelectionRequest& request);
    // Shows the dock of a view ("topology", "domains", "whatif", "lessons", or any "<view>Dock").
    bool raiseView(const QString& view);
    // Opens the lesson browser on a lesson and, with applyScenario, loads its scenario.
    QString showLesson(const QString& name, bool applyScenario, bool renderFigures = true);
    // Applies a lesson's scenario: topology, selection, what-if run, view. Problems go to the banner.
    void applyLessonScenario(const schedscope::Lesson& lesson);
    TraceWorkspace* traceWorkspace() const { return trace_; }

    // Docks stacked in one area add up their minimum heights (a lesson on a trace with its
    // what-if needed 990 px): while the window cannot fit in `space`, the bottom docks become
    // tabs of one place, then the right ones. Called when docks appear, with the screen's room.
    void fitDocksInto(const QSize& space);
    // the same with the room the window has: its screen's, or when rendered off screen its size
    void fitDocks();
    // Before the first show on a screen: shrinks the window (its preferred size, or the geometry
    // of the last session, moved too) to the screen's available area, then fits the docks into
    // that. Not for an offscreen render, which has a size of its own.
    void fitOnScreen();

    // Renders "window", "topology", "domains" or a trace view (TraceWorkspace::viewNames()) at `size` (the window renders at its own size).
    QImage renderView(const QString& view, const QSize& size);
    // Writes a view to PNG/SVG/PDF by suffix; returns an empty string or a one-line error.
    QString exportView(const QString& view, const QString& path, const QSize& size);

public slots:
    void diffAgainstKernel();
    // the open topology's domains against those a kernel printed in its sched_verbose log
    void diffAgainstKernelLog(const QString& path);
    void chooseKernelLogToDiff();  // asks for the log, then diffAgainstKernelLog()

signals:
    void sessionShown(schedscope::gui::SessionPtr session);
    void loadFailed(const QString& error);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildMenus(QMenuBar* bar);
    // reads a kernel's domains on a worker and shows how the open ones differ (`kernel` names it)
    void showKernelDiff(const QString& kernel, std::function<Result<DomainTree>()> read);
    std::unique_ptr<DomainTreeView> domainTreeSnapshot(const QSize& size);
    void rebuildRecentMenu();
    void showSession(const SessionPtr& session);
    void showLoadError(const QString& error);
    void onSelection(int cpu, int topologyLevel);
    void updateHeat();
    void exportWithDialog(const QString& view);
    void openXmlDialog();
    void openSysfsDialog();
    void openSysfsArchiveDialog();
    void openSyntheticDialog();
    void openKernelLogDialog();
    void setUpWhatIfAndLessons();
    QMargins expectedFrame() const;  // the title bar and borders around the window, or a guess
    void applyPendingSelection();
    std::unique_ptr<QWidget> standaloneView(const QString& view, const QSize& size);

    SessionLoader* loader_;
    SessionPtr session_;
    DomainTreeModel* model_;
    TopologyView* topologyView_;
    DomainTreeView* treeView_;
    DomainControls* controls_;
    Banner* banner_;
    bool bannerIsLoadError_ = false;
    QDockWidget* topologyDock_;
    QDockWidget* treeDock_;
    QProgressBar* progress_;
    QLabel* statusLabel_;
    QMenu* recentMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    Heat heat_ = Heat::None;
    WhatIfPanel* whatIf_ = nullptr;
    LessonBrowser* lessons_ = nullptr;
    QDockWidget* whatIfDock_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;
    SelectionRequest pendingSelection_;
    bool pendingWhatIfRun_ = false;
    bool pendingTraceWhatIf_ = false;  // a lesson's what-if on the trace it opens: runs once it is shown
    TraceWorkspace* trace_ = nullptr;
    bool restoredGeometry_ = false;  // the last session's, from the settings
};

}  // namespace schedscope::gui
