#include "main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QVBoxLayout>
#include <QWindow>
#include <cmath>

#include "banner.h"
#include "domain_controls.h"
#include "domain_tree_model.h"
#include "domain_tree_view.h"
#include "live_capture.h"
#include "qt_convert.h"
#include "recent_files.h"
#include "session_loader.h"
#include "domains/kernel_log_reader.h"
#include "topology/snapshot_archive.h"
#include "topology_view.h"
#include "trace_workspace.h"
#include "view_export.h"
#include "window_fit.h"

namespace schedscope::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("schedscope"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    loader_ = new SessionLoader(this);
    model_ = new DomainTreeModel(this);
    topologyView_ = new TopologyView;
    treeView_ = new DomainTreeView(model_);
    controls_ = new DomainControls(this);
    addToolBar(Qt::TopToolBarArea, controls_);

    // The banner sits under the menu bar across the whole window, above toolbar and docks.
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    auto* bar = new QMenuBar(top);
    banner_ = new Banner(top);
    topLayout->addWidget(bar);
    topLayout->addWidget(banner_);
    setMenuWidget(top);

    topologyDock_ = new QDockWidget(tr("Topology"), this);
    topologyDock_->setObjectName(QStringLiteral("topologyDock"));
    topologyDock_->setWidget(topologyView_);
    addDockWidget(Qt::LeftDockWidgetArea, topologyDock_);
    treeDock_ = new QDockWidget(tr("Sched domains"), this);
    treeDock_->setObjectName(QStringLiteral("domainsDock"));
    treeDock_->setWidget(treeView_);
    addDockWidget(Qt::RightDockWidgetArea, treeDock_);
    resizeDocks({topologyDock_, treeDock_}, {6, 5}, Qt::Horizontal);

    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(180);
    progress_->setTextVisible(true);
    progress_->hide();
    statusLabel_ = new QLabel(this);
    statusBar()->addWidget(statusLabel_, 1);
    statusBar()->addPermanentWidget(progress_);

    trace_ = new TraceWorkspace(this);
    connect(trace_, &TraceWorkspace::topologyFromTrace, this, &MainWindow::showSession);
    connect(trace_, &TraceWorkspace::loadFailed, this, &MainWindow::showLoadError);
    connect(trace_, &TraceWorkspace::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);

    buildMenus(bar);
    setUpWhatIfAndLessons();

    connect(loader_, &SessionLoader::started, this, [this](const QString& what) {
        progress_->setRange(0, 3);
        progress_->setValue(0);
        progress_->setFormat(tr("loading %p%"));
        progress_->show();
        statusLabel_->setText(tr("Opening %1\u2026").arg(what));
    });
    connect(loader_, &SessionLoader::progress, this, [this](int v, int max, const QString& stage) {
        progress_->setRange(0, std::max(1, max));
        progress_->setValue(v);
        if (!stage.isEmpty()) progress_->setFormat(stage);
    });
    connect(loader_, &SessionLoader::idle, progress_, &QWidget::hide);
    connect(loader_, &SessionLoader::loaded, this, &MainWindow::showSession);
    connect(loader_, &SessionLoader::failed, this, &MainWindow::showLoadError);

    connect(topologyView_, &TopologyView::selectionChanged, this, &MainWindow::onSelection);
    connect(treeView_, &DomainTreeView::selectionPicked, this, [this](int cpu, int level) {
        topologyView_->setSelection(cpu, level >= 0 ? level : topologyView_->selectedLevel());
    });
    connect(controls_, &DomainControls::levelPicked, this,
            [this](int level) { topologyView_->setSelection(topologyView_->selectedCpu(), level); });
    connect(controls_, &DomainControls::choicesChanged, this, [this](const DomainChoices& c) {
        if (session_) loader_->rebuild(session_, c);
    });
    connect(topologyView_, &TopologyView::exportRequested, this, [this] { exportWithDialog(QStringLiteral("topology")); });
    connect(treeView_, &DomainTreeView::exportRequested, this, [this] { exportWithDialog(QStringLiteral("domains")); });
    connect(treeView_, &DomainTreeView::diffRequested, this, &MainWindow::diffAgainstKernel);
    connect(treeView_, &DomainTreeView::diffWithLogRequested, this, &MainWindow::chooseKernelLogToDiff);

    const QSettings settings;
    restoredGeometry_ = restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (!restoredGeometry_) resize(1400, 860);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::fitOnScreen() {
    // 1400x860 on a 1024x700 laptop, or a geometry saved on a bigger monitor, opened the window
    // with its status bar and right docks off screen. Its screen: the primary one until shown,
    // or the one under a restored geometry.
    const QRect available = screen() ? screen()->availableGeometry() : QRect();
    const QRect fitted = restoredGeometry_ ? fitWindowOnScreen(geometry(), available, expectedFrame())
                                           : QRect(pos(), initialWindowSize(size(), available.size(), expectedFrame()));
    // the docks make room as for a screenshot of that size: bottom docks become tabs, then right;
    // the layout then lowers the window's minimum size, which would otherwise keep it tall
    fitDocksInto(fitted.size());
    layout()->activate();
    // a window never placed stays so: the window manager places it
    if (restoredGeometry_) setGeometry(fitted);
    else resize(fitted.size());
}

QMargins MainWindow::expectedFrame() const {
    // the window manager's frame, once it has framed us; before that (the window is not shown
    // yet) a guess: the frame the style draws around a window of its own (an MDI subwindow)
    if (const QWindow* w = windowHandle(); w && !w->frameMargins().isNull()) return w->frameMargins();
    const int border = style()->pixelMetric(QStyle::PM_MdiSubWindowFrameWidth, nullptr, this);
    const int titleBar = style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, this);
    return {border, border + titleBar, border, border};
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus(QMenuBar* bar) {
    QMenu* file = bar->addMenu(tr("&File"));
    file->addAction(tr("Open &this machine"), this, [this] { open(TopologySpec{}); });
    file->addAction(tr("Open hwloc &XML\u2026"), QKeySequence::Open, this, &MainWindow::openXmlDialog);
    file->addAction(tr("Open sysfs &snapshot\u2026"), this, &MainWindow::openSysfsDialog);
    file->addAction(tr("Open sysfs snapshot &archive\u2026"), this, &MainWindow::openSysfsArchiveDialog);
    file->addAction(tr("Open s&ynthetic\u2026"), this, &MainWindow::openSyntheticDialog);
    file->addAction(tr("Open the machine of a &kernel log\u2026"), this, &MainWindow::openKernelLogDialog);
    file->addAction(tr("Open t&race\u2026"), this, [this] { trace_->openTraceDialog(); });
    QMenu* presets = file->addMenu(tr("&Presets"));
    const auto presetList = listPresets();
    for (const auto& p : presetList) {
        QAction* a = presets->addAction(qs(p.name), this, [this, name = p.name] {
            TopologySpec s;
            s.kind = TopologySpec::Kind::Preset;
            s.value = name;
            open(s);
        });
        a->setToolTip(qs(p.description));
    }
    if (presetList.empty()) presets->addAction(tr("(no presets found in %1)").arg(qs(resourcesDir())))->setEnabled(false);
    presets->setToolTipsVisible(true);
    recentMenu_ = file->addMenu(tr("&Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(tr("Topology view\u2026"), this, [this] { exportWithDialog(QStringLiteral("topology")); });
    exportMenu->addAction(tr("Domain tree view\u2026"), this, [this] { exportWithDialog(QStringLiteral("domains")); });
    exportMenu->addAction(tr("Whole window\u2026"), this, [this] { exportWithDialog(QStringLiteral("window")); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    viewMenu_ = bar->addMenu(tr("&View"));
    viewMenu_->addAction(topologyDock_->toggleViewAction());
    viewMenu_->addAction(treeDock_->toggleViewAction());
    viewMenu_->addAction(controls_->toggleViewAction());
    viewMenu_->addSeparator();
    QMenu* heat = viewMenu_->addMenu(tr("&Heat"));
    auto* group = new QActionGroup(this);
    const std::pair<Heat, QString> modes[] = {
        {Heat::None, tr("None")},
        {Heat::MigrationLevel, tr("Migration level from the selected CPU")},
        {Heat::Capacity, tr("CPU capacity")},
        {Heat::Node, tr("NUMA distance from the selected CPU")},
    };
    for (const auto& [mode, text] : modes) {
        QAction* a = heat->addAction(text, this, [this, m = mode] { setHeat(m); });
        a->setCheckable(true);
        a->setChecked(mode == Heat::None);
        group->addAction(a);
    }

    trace_->addMenus(bar, viewMenu_);

    QMenu* tools = bar->addMenu(tr("&Tools"));
    tools->addAction(tr("&Diff against the running kernel"), this, &MainWindow::diffAgainstKernel);
    tools->addAction(tr("Diff against a kernel &log\u2026"), this, &MainWindow::chooseKernelLogToDiff);
    tools->addAction(tr("Expand all domains"), treeView_, &QTreeView::expandAll);

    QMenu* help = bar->addMenu(tr("&Help"));
    help->addAction(tr("&About schedscope"), this, [this] {
        banner_->showNotice(tr("schedscope: see the Linux scheduler's sched-domain hierarchy. Hover a CPU for its "
                               "domains; click a CPU or a box to pick a domain."));
        bannerIsLoadError_ = false;
    });
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList files = RecentFiles::list();
    for (const QString& f : files) recentMenu_->addAction(f, this, [this, f] { openPath(f); });
    if (files.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    else {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear"), this, [this] { RecentFiles::clear(); rebuildRecentMenu(); });
    }
}

void MainWindow::start(const LaunchOptions& options) {
    controls_->setChoices(options.choices);
    if (!options.lesson.isEmpty()) {
        // a screenshot of a lesson draws its missing figures first (ScreenshotJob waits for
        // them), unless the screenshot is itself one of the figures
        showLesson(options.lesson, true, !options.drawingAFigure);
        return;
    }
    selectWhenLoaded({options.selectCpu, options.selectLevel});
    open(options.spec);
    if (!options.attachCapture.isEmpty() || options.captureHelper || options.liveBufferKb > 0) {
        LiveSourceConfig live = trace_->live()->sourceConfig();
        live.attachPath = ss(options.attachCapture);
        live.forceHelper = live.forceHelper || options.captureHelper;
        live.bufferKb = options.liveBufferKb;
        trace_->live()->setSourceConfig(live);
    }
    if (!options.traceFile.isEmpty()) trace_->openTrace(options.traceFile, options.traceBuffer, options.topologyGiven);
    else if (options.spec.kind == TopologySpec::Kind::Local && options.screenshot.isEmpty()) trace_->startLiveIfPermitted();
}

void MainWindow::open(const TopologySpec& spec) {
    // the what-ifs were the open machine's: another one starts from its own, plus those named
    // with it (--isolate, --partition, --numa-distances), shown in the toolbar's fields
    DomainChoices kept = controls_->choices();
    // a profile the loader chose for the open input (this machine's kernel's, a log's, a trace's)
    // is that input's: the next one gets its own, a profile the user picked stays
    if (kept.profileFromInput) {
        kept.profile.clear();
        kept.profileFromInput = false;
    }
    const auto [input, choices] = whatIfsAsChoices(spec, kept);
    loader_->load(input, choices);
}

void MainWindow::openPath(const QString& path) {
    const QFileInfo fi(path);
    TopologySpec spec;
    if (fi.isDir() || isSnapshotArchive(ss(path))) {
        spec.kind = TopologySpec::Kind::SysfsRoot;
    } else if (fi.suffix().compare(QLatin1String("xml"), Qt::CaseInsensitive) == 0) {
        spec.kind = TopologySpec::Kind::HwlocXml;
    } else if (looksLikeKernelLog(ss(path))) {
        spec.kind = TopologySpec::Kind::KernelLog;
    } else {
        openTraceFile(path);
        return;
    }
    spec.value = ss(path);
    open(spec);
}

void MainWindow::openTraceFile(const QString& path) { trace_->openTrace(path); }

void MainWindow::showSession(const SessionPtr& session) {
    const bool newTopology = !session_ || session_->input != session->input;
    session_ = session;
    model_->setSession(session);
    // the loader may have chosen for the user (this machine's own kernel's profile): the
    // controls show what the domains were built under, and rebuild from it
    controls_->setChoices(session->choices);
    controls_->setSession(session);
    topologyView_->setSession(session);
    setWindowTitle(tr("schedscope \u2014 %1").arg(qs(session->topology->name)));
    QString status = tr("%1   (loaded in %2 ms, domains built in %3 ms)")
                         .arg(qs(session->topology->source))
                         .arg(session->loadMs, 0, 'f', 0)
                         .arg(session->buildMs, 0, 'f', 1);
    // cpuset partitions split the machine: say where, first (a long source would push it out of
    // sight), as the domains alone do not show it at a glance
    if (const auto& rds = session->tree->rootDomains; !rds.empty()) {
        QStringList spans;
        for (const CpuSet& rd : rds) spans << qs(rd.toList());
        status = tr("root domains (cpuset partitions): %1   ").arg(spans.join(QStringLiteral(" | "))) + status;
    }
    statusLabel_->setText(status);
    clearLoadError();
    // what the loader set aside from the input (an invalid SLIT, a CPU two nodes list) first,
    // then what the built domains break
    QStringList notices;
    if (const auto& said = session->topology->notes; !said.empty())
        notices << tr("%n note(s) on the input; first: %1", nullptr, int(said.size())).arg(qs(said.front()));
    if (const auto& set = session->topology->warnings; !set.empty())
        notices << tr("%n input problem(s) set aside as the kernel would; first: %1", nullptr, int(set.size()))
                       .arg(qs(set.front()));
    // what the kernel would print building them (a BUG, an asymmetric SLIT), a caveat of the
    // model, or a broken invariant of the built tree
    if (!session->problems.empty())
        notices << tr("%n warning(s) building the domains; first: %1", nullptr, int(session->problems.size()))
                       .arg(qs(session->problems.front()));
    for (const auto& note : session->tree->notes) notices << tr("the kernel: %1").arg(qs(note));
    // this topology's own row: the last one's notices go, a message (an error) stays beside them
    banner_->setNotices(Banner::Topic::Topology, notices.join(QStringLiteral("  \u00b7  ")));
    if (newTopology) {
        const auto& sp = session->spec;
        if (sp.kind == TopologySpec::Kind::HwlocXml || sp.kind == TopologySpec::Kind::SysfsRoot ||
            sp.kind == TopologySpec::Kind::KernelLog) {
            if (sp.value != "-")  // standard input cannot be opened again
                RecentFiles::add(QFileInfo(qs(sp.value)).absoluteFilePath());
            rebuildRecentMenu();
        }
    }
    updateHeat();
    emit sessionShown(session);
}

void MainWindow::clearLoadError() {
    if (bannerIsLoadError_) banner_->clearMessage();
    bannerIsLoadError_ = false;
}

QString MainWindow::statusText() const { return statusLabel_->text(); }

void MainWindow::showLoadError(const QString& error) {
    banner_->showError(error);
    bannerIsLoadError_ = true;
    statusLabel_->setText(session_ ? tr("Kept %1 open").arg(qs(session_->topology->name)) : tr("Nothing open"));
    emit loadFailed(error);
}

void MainWindow::onSelection(int cpu, int topologyLevel) {
    controls_->setLevel(topologyLevel);
    treeView_->showSelection(cpu, topologyLevel);
    if (heat_ == Heat::MigrationLevel || heat_ == Heat::Node) updateHeat();
}

void MainWindow::setHeat(Heat heat) {
    heat_ = heat;
    updateHeat();
}

void MainWindow::updateHeat() {
    if (!session_ || heat_ == Heat::None) {
        topologyView_->setHeat({}, {});
        return;
    }
    const Topology& t = *session_->topology;
    const DomainTree& tree = *session_->tree;
    const int sel = topologyView_->selectedCpu();
    std::vector<double> v(t.cpus.size(), NAN);
    QString what;
    for (const auto& c : t.cpus) {
        if (!c.online) continue;
        switch (heat_) {
            case Heat::MigrationLevel:
                // How far up the hierarchy a migration from the selected CPU has to go.
                what = tr("domain levels from CPU %1").arg(sel);
                v[size_t(c.id)] = c.id == sel ? 0.0 : double(tree.lowestCommonDomain(sel, c.id) + 1);
                break;
            case Heat::Capacity:
                what = tr("capacity");
                v[size_t(c.id)] = c.capacity;
                break;
            case Heat::Node:
                what = tr("NUMA distance from CPU %1").arg(sel);
                if (sel >= 0) v[size_t(c.id)] = t.nodeDistance(t.cpus[size_t(sel)].node, c.node);
                break;
            case Heat::None: break;
        }
    }
    topologyView_->setHeat(std::move(v), what);
}

void MainWindow::openXmlDialog() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Open hwloc XML"), QString(),
                                                   tr("hwloc XML (*.xml);;All files (*)"));
    if (!f.isEmpty()) openPath(f);
}

void MainWindow::openSysfsDialog() {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Open sysfs snapshot root (holding sys/)"));
    if (d.isEmpty()) return;
    TopologySpec s;
    s.kind = TopologySpec::Kind::SysfsRoot;
    s.value = ss(d);
    open(s);
}

// hwloc-gather-topology's tarballs and the like: extracted to a temporary directory and read
void MainWindow::openSysfsArchiveDialog() {
    const QString f = QFileDialog::getOpenFileName(
        this, tr("Open sysfs snapshot archive"), QString(),
        tr("Snapshot archives (*.tar *.tar.bz2 *.tbz2 *.tar.gz *.tgz *.tar.xz *.txz);;All files (*)"));
    if (!f.isEmpty()) openPath(f);
}

// a saved dmesg with sched_verbose: the machine its domains show (domains/topology_from_log.h)
void MainWindow::openKernelLogDialog() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Open the machine of a kernel log (sched_verbose dmesg)"), QString(),
                                                   tr("Kernel logs (*.txt *.log *.dmesg);;All files (*)"));
    if (f.isEmpty()) return;
    TopologySpec s;
    s.kind = TopologySpec::Kind::KernelLog;
    s.value = ss(f);
    open(s);
}

void MainWindow::openSyntheticDialog() {
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Open synthetic topology"),
                                               tr("hwloc synthetic description:"), QLineEdit::Normal,
                                               QStringLiteral("pack:2 numa:2 l3:2 core:4 pu:2"), &ok);
    if (!ok || text.trimmed().isEmpty()) return;
    TopologySpec s;
    s.kind = TopologySpec::Kind::Synthetic;
    s.value = ss(text.trimmed());
    open(s);
}

// A standalone view of the same model showing the current selection, so the dock's size and
// scroll state are untouched by renders and exports.
std::unique_ptr<DomainTreeView> MainWindow::domainTreeSnapshot(const QSize& size) {
    auto tree = std::make_unique<DomainTreeView>(model_);
    tree->setAttribute(Qt::WA_DontShowOnScreen);
    tree->resize(size);
    tree->show();
    tree->showSelection(topologyView_->selectedCpu(), topologyView_->selectedLevel());
    tree->expandRecursively(model_->cpuIndex(topologyView_->selectedCpu()));
    return tree;
}

QImage MainWindow::renderView(const QString& view, const QSize& size) {
    if (trace_->handlesView(view)) return trace_->renderView(view, size);
    if (auto standalone = standaloneView(view, size)) return standalone->grab().toImage();
    if (view == QLatin1String("topology")) {
        QImage img(size, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        QPainter p(&img);
        topologyView_->paintTo(p, QRectF(QPointF(0, 0), QSizeF(size)));
        return img;
    }
    if (view == QLatin1String("domains")) {
        auto tree = domainTreeSnapshot(size);
        tree->scrollTo(model_->cpuIndex(topologyView_->selectedCpu()), QAbstractItemView::PositionAtTop);
        return tree->grab().toImage();
    }
    return grab().toImage();
}

QString MainWindow::exportView(const QString& view, const QString& path, const QSize& size) {
    if (trace_->handlesView(view)) return trace_->exportView(view, path, size);
    const QString title = session_ ? qs(session_->topology->name) : QStringLiteral("schedscope");
    if (auto standalone = standaloneView(view, size)) {
        if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0)
            return standalone->grab().save(path, "PNG") ? QString() : tr("%1: cannot write the PNG file").arg(path);
        return exportWidget(standalone.get(), path, title);
    }
    if (view == QLatin1String("topology"))
        return exportPicture([this](QPainter& p, const QRectF& r) { topologyView_->paintTo(p, r); }, size, path, title);
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0) {
        const QImage img = renderView(view, size);
        return img.save(path, "PNG") ? QString() : tr("%1: cannot write the PNG file").arg(path);
    }
    if (view == QLatin1String("domains")) {
        auto tree = domainTreeSnapshot(size);
        return exportWidget(tree.get(), path, title);
    }
    return exportWidget(this, path, title);
}

void MainWindow::exportWithDialog(const QString& view) {
    QString selected;
    const QString suggested = (session_ ? qs(session_->topology->name) : QStringLiteral("schedscope")) +
                              QLatin1Char('-') + view + QStringLiteral(".png");
    QString path = QFileDialog::getSaveFileName(this, tr("Export %1 view").arg(view), suggested, exportFileFilter(), &selected);
    if (path.isEmpty()) return;
    if (!isExportSuffix(path)) path += selected.contains(QLatin1String("svg")) ? QStringLiteral(".svg")
                                       : selected.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                                                  : QStringLiteral(".png");
    const QSize size = view == QLatin1String("topology") ? topologyView_->size()
                       : view == QLatin1String("domains")  ? treeView_->size()
                                                            : this->size();
    const QString error = exportView(view, path, size);
    if (error.isEmpty()) statusLabel_->setText(tr("Exported %1").arg(path));
    else {
        banner_->showError(error);
        bannerIsLoadError_ = false;
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && !e->mimeData()->urls().isEmpty() && e->mimeData()->urls().front().isLocalFile())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    openPath(urls.front().toLocalFile());
    e->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(e);
}

}  // namespace schedscope::gui
