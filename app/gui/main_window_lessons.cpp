// MainWindow's what-if and lesson parts: the two docks, selection by name, lesson scenarios
// and the standalone renders of the new views. Kept apart from main_window.cpp so the views
// can grow without touching the window's core.
#include <QDockWidget>
#include <QMenu>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <qcustomplot.h>

#include "banner.h"
#include "domain_controls.h"
#include "lesson_browser.h"
#include "lessons/lesson.h"
#include "main_window.h"
#include "trace_workspace.h"
#include "qt_convert.h"
#include "session_loader.h"
#include "topology_view.h"
#include "whatif_panel.h"

namespace schedscope::gui {

void MainWindow::setUpWhatIfAndLessons() {
    whatIf_ = new WhatIfPanel;
    whatIfDock_ = new QDockWidget(tr("What-if"), this);
    whatIfDock_->setObjectName(QStringLiteral("whatifDock"));
    whatIfDock_->setWidget(whatIf_);
    addDockWidget(Qt::BottomDockWidgetArea, whatIfDock_);
    whatIfDock_->hide();

    lessons_ = new LessonBrowser;
    lessonDock_ = new QDockWidget(tr("Lessons"), this);
    lessonDock_->setObjectName(QStringLiteral("lessonsDock"));
    lessonDock_->setWidget(lessons_);
    addDockWidget(Qt::RightDockWidgetArea, lessonDock_);
    lessonDock_->hide();

    if (viewMenu_) {
        const auto actions = viewMenu_->actions();
        QAction* before = actions.size() > 3 ? actions[3] : nullptr;  // after the existing dock toggles
        viewMenu_->insertAction(before, whatIfDock_->toggleViewAction());
        viewMenu_->insertAction(before, lessonDock_->toggleViewAction());
    }

    connect(this, &MainWindow::sessionShown, this, [this](const SessionPtr& s) {
        whatIf_->setSession(s);
        applyPendingSelection();
        if (pendingWhatIfRun_) {
            pendingWhatIfRun_ = false;
            whatIf_->run();
        }
    });
    connect(trace_, &TraceWorkspace::traceShown, this, [this](const TraceSessionPtr& t) {
        whatIf_->setTrace(t);
        if (pendingTraceWhatIf_ && !whatIf_->traceWorkloadText().isEmpty()) {
            pendingTraceWhatIf_ = false;
            whatIf_->setWorkload(whatIf_->traceWorkloadText());
            whatIf_->run();
        }
    });
    connect(this, &MainWindow::loadFailed, this, [this] {
        pendingSelection_ = {};
        pendingWhatIfRun_ = false;
        pendingTraceWhatIf_ = false;
    });
    connect(lessons_, &LessonBrowser::scenarioRequested, this, &MainWindow::applyLessonScenario);
}

void MainWindow::fitDocksInto(const QSize& space) {
    auto tooBig = [&] {
        const QSize need = minimumSizeHint();
        return need.height() > space.height() || need.width() > space.width();
    };
    auto together = [&](QDockWidget* a, QDockWidget* b) {
        if (!a || !b || a->isHidden() || b->isHidden() || tabifiedDockWidgets(a).contains(b)) return;
        tabifyDockWidget(a, b);
        b->raise();  // the later dock is the one just asked for (the what-if, the lesson)
    };
    if (!tooBig()) return;
    together(trace_->timelineDock(), whatIfDock_);
    if (!tooBig()) return;
    together(treeDock_, lessonDock_);
    if (!tooBig()) return;
    // the trace plots join the tree's (and lesson's) tabs, the lesson still in front
    QDockWidget* right = lessonDock_->isHidden() ? treeDock_ : lessonDock_;
    for (QDockWidget* plot : trace_->plotDocks()) together(right, plot);
    right->raise();
}

void MainWindow::fitDocks() {
    const bool onScreen = !testAttribute(Qt::WA_DontShowOnScreen) && screen();
    fitDocksInto(onScreen ? screen()->availableSize() : size());
}

void MainWindow::selectWhenLoaded(const SelectionRequest& request) {
    pendingSelection_ = request;
    if (!loader_->busy()) applyPendingSelection();
}

void MainWindow::applyPendingSelection() {
    if (pendingSelection_.empty() || !session_) return;
    const SelectionRequest request = pendingSelection_;
    pendingSelection_ = {};
    const ResolvedSelection r = resolveSelection(*session_, request, topologyView_->selectedCpu());
    if (!r.error.isEmpty()) {
        banner_->showError(r.error);
        bannerIsLoadError_ = false;
        return;
    }
    topologyView_->setSelection(r.cpu, r.topologyLevel);
    updateHeat();
}

bool MainWindow::raiseView(const QString& view) {
    QDockWidget* dock = view == QLatin1String("topology")  ? topologyDock_
                        : view == QLatin1String("domains") ? treeDock_
                        : view == QLatin1String("whatif")  ? whatIfDock_
                        : view == QLatin1String("lessons") ? lessonDock_
                                                           : findChild<QDockWidget*>(view + QStringLiteral("Dock"));
    if (!dock) return false;
    dock->show();
    dock->raise();
    fitDocks();
    return true;
}

QString MainWindow::showLesson(const QString& name, bool applyScenario, bool renderFigures) {
    QString error = lessons_->showLesson(name, renderFigures);  // (returned: moved)
    lessonDock_->show();
    lessonDock_->raise();
    // With no trace open, and none the lesson's scenario opens, the trace plots are empty
    // frames: they go behind the lesson's tab, so its text gets their room (at 1400x900 it had
    // two lines under them). A lesson about a trace keeps them beside its text.
    const Lesson* shown = lessons_->lesson();
    const bool opensTrace = shown && shown->scenario.is_object() &&
                            (shown->scenario.contains("trace") || shown->scenario.value("workload", "") == "trace");
    if (!trace_->trace() && !opensTrace)
        for (QDockWidget* plot : trace_->plotDocks())
            if (!plot->isHidden() && !tabifiedDockWidgets(lessonDock_).contains(plot)) tabifyDockWidget(plot, lessonDock_);
    lessonDock_->raise();
    // the lesson is read, the domain tree looked up: where the two share the column, the text
    // gets two thirds of it (an even split left it six lines at 1920x1080); a trace's plots
    // between them keep the even split
    auto besideLesson = [this](QDockWidget* d) {
        return !d->isHidden() && dockWidgetArea(d) == dockWidgetArea(lessonDock_) && !tabifiedDockWidgets(lessonDock_).contains(d);
    };
    const auto plots = trace_->plotDocks();
    if (besideLesson(treeDock_) && std::none_of(plots.begin(), plots.end(), besideLesson))
        resizeDocks({treeDock_, lessonDock_}, {1, 2}, Qt::Vertical);
    fitDocks();
    if (!error.isEmpty()) {
        banner_->showError(tr("--lesson: %1").arg(error));
        bannerIsLoadError_ = false;
        return error;
    }
    if (applyScenario) applyLessonScenario(*lessons_->lesson());
    return {};
}

void MainWindow::applyLessonScenario(const Lesson& lesson) {
    const nlohmann::json& sc = lesson.scenario;
    QStringList problems;
    SelectionRequest selection;
    if (sc.contains("cpu") && sc["cpu"].is_number_integer()) selection.cpu = sc["cpu"].get<int>();
    if (sc.contains("level") && sc["level"].is_string()) selection.level = qs(sc["level"].get<std::string>());

    QString preset;  // the what-if panel runs on the preset itself, without waiting for the window
    bool opening = false;
    if (sc.contains("topology") && sc["topology"].is_array()) {
        QStringList args{QStringLiteral("schedscope")};
        for (const auto& w : sc["topology"])
            if (w.is_string()) args << qs(expandDataPath(w.get<std::string>()));
        const LaunchOptions o = parseLaunchOptions(args);
        if (!o.error.isEmpty()) {
            problems << tr("topology: %1").arg(o.error);
        } else {
            controls_->setChoices(o.choices);
            if (o.spec.kind == TopologySpec::Kind::Preset) preset = qs(o.spec.value);
            if (selection.cpu < 0 && o.selectCpu >= 0) selection.cpu = o.selectCpu;
            if (selection.level.isEmpty()) selection.level = o.selectLevel;
            pendingSelection_ = selection;
            open(o.spec);
            opening = true;
        }
    }
    if (!opening && !selection.empty()) selectWhenLoaded(selection);

    if (sc.contains("trace") && sc["trace"].is_string())
        openPath(qs(expandDataPath("@data/" + sc["trace"].get<std::string>())));

    if (sc.contains("workload") && sc["workload"].is_string()) {
        // "whatif_preset": the machine the what-if runs on when the window shows another (a
        // trace's own, from its sidecar)
        if (sc.contains("whatif_preset") && sc["whatif_preset"].is_string()) preset = qs(sc["whatif_preset"].get<std::string>());
        whatIf_->setTopologyPreset(preset);
        // "trace": the tasks of the trace the scenario opens, once it is shown
        const bool onTrace = sc["workload"] == "trace";
        // a workload file of the lessons ("@data/workloads/...") is read from the installed resources
        if (!onTrace) whatIf_->setWorkload(qs(expandDataPath(sc["workload"].get<std::string>())));
        whatIf_->setCompare(sc.contains("compare") && sc["compare"].is_string() ? qs(sc["compare"].get<std::string>())
                                                                               : QStringLiteral("cls"));
        whatIf_->setProfile(sc.contains("profile") && sc["profile"].is_string() ? qs(sc["profile"].get<std::string>()) : QString());
        whatIf_->setSeeds(sc.contains("seeds") && sc["seeds"].is_number_integer() ? sc["seeds"].get<int>() : 3);
        whatIf_->setDuration(sc.contains("duration") && sc["duration"].is_number() ? sc["duration"].get<double>() : 1.0);
        if (onTrace) pendingTraceWhatIf_ = true;
        else if (preset.isEmpty() && opening) pendingWhatIfRun_ = true;  // runs on the window's topology once it is open
        else whatIf_->run();
        // a what-if of a preset's machine: the empty timeline goes behind the what-if's tab, which
        // gets the window's whole width (beside it the results table showed two rows)
        QDockWidget* timeline = trace_->timelineDock();
        if (timeline && !onTrace && !sc.contains("trace") && !trace_->trace() &&
            !tabifiedDockWidgets(whatIfDock_).contains(timeline))
            tabifyDockWidget(timeline, whatIfDock_);
        raiseView(QStringLiteral("whatif"));
    }
    if (sc.contains("view") && sc["view"].is_string()) {
        const QString view = qs(sc["view"].get<std::string>());
        if (!raiseView(view)) problems << tr("the %1 view is not available in this build").arg(view);
    }
    if (!problems.isEmpty()) {
        banner_->showNotice(tr("Lesson %1: %2").arg(qs(lesson.id), problems.join(QStringLiteral("; "))));
        bannerIsLoadError_ = false;
    }
    statusBar()->showMessage(tr("Loaded the scenario of lesson %1").arg(qs(lesson.title)), 5000);
}

std::unique_ptr<QWidget> MainWindow::standaloneView(const QString& view, const QSize& size) {
    if (view == QLatin1String("whatif")) {
        auto panel = std::make_unique<WhatIfPanel>();
        panel->mirror(*whatIf_);
        panel->setAttribute(Qt::WA_DontShowOnScreen);
        panel->resize(size);
        panel->show();
        panel->plot()->replot();
        return panel;
    }
    if (view == QLatin1String("lessons")) {
        auto browser = std::make_unique<LessonBrowser>();
        browser->mirror(*lessons_);
        browser->setAttribute(Qt::WA_DontShowOnScreen);
        browser->resize(size);
        browser->show();
        return browser;
    }
    return nullptr;
}

}  // namespace schedscope::gui
