// Selection by name (--select-cpu/--select-level), the lesson browser (text, scenario, steps
// through schedscope-cli) and the lesson figures rendered by schedscope itself.
#include <gtest/gtest.h>

#include <map>

#include <QCryptographicHash>
#include <QDialog>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>

#include "banner.h"
#include "domain_tree_view.h"
#include "gui_test_util.h"
#include "launch_options.h"
#include "lesson_browser.h"
#include "lesson_figures.h"
#include "lessons/lesson.h"
#include "qt_convert.h"
#include "selection.h"
#include "topology_view.h"
#include "topology/topology_source.h"
#include "whatif_panel.h"
#include "whatif_runner.h"

namespace schedscope::gui {
namespace {

TopologySpec preset(const std::string& name) {
    TopologySpec s;
    s.kind = TopologySpec::Kind::Preset;
    s.value = name;
    return s;
}

const SchedDomain* selectedDomain(const MainWindow& w) { return w.topologyView()->selectedDomain(); }

TEST(Selection, ResolvesTheLowestDomainOfALevelByName) {
    auto session = test::loadNow(preset("kunpeng920-24"));
    ASSERT_TRUE(session);
    auto r = resolveSelection(*session, {4, QStringLiteral("cls")}, 0);
    ASSERT_TRUE(r.error.isEmpty()) << r.error.toStdString();
    EXPECT_EQ(r.cpu, 4);
    const auto& doms = session->tree->domainsOf(4);
    auto it = std::find_if(doms.begin(), doms.end(), [&](const SchedDomain& d) { return d.topologyLevel == r.topologyLevel; });
    ASSERT_NE(it, doms.end());
    EXPECT_EQ(it->level, "CLS");
    // NUMA: the lowest of several NUMA levels.
    r = resolveSelection(*session, {0, QStringLiteral("NUMA")}, 0);
    ASSERT_TRUE(r.error.isEmpty());
    for (const auto& d : session->tree->domainsOf(0))
        if (d.level == "NUMA") {
            EXPECT_EQ(d.topologyLevel, r.topologyLevel);
            break;
        }
    // NUMA:22: the one at that distance (Kunpeng 920's are 12, 20 and 22 from node 0)
    r = resolveSelection(*session, {0, QStringLiteral("numa:22")}, 0);
    ASSERT_TRUE(r.error.isEmpty()) << r.error.toStdString();
    int found = 0;
    for (const auto& d : session->tree->domainsOf(0))
        if (d.topologyLevel == r.topologyLevel) found = d.numaDistance;
    EXPECT_EQ(found, 22);
    r = resolveSelection(*session, {0, QStringLiteral("NUMA:21")}, 0);
    EXPECT_TRUE(r.error.contains(QStringLiteral("no NUMA:21 domain (its levels: CLS, MC, NUMA:12, NUMA:20, NUMA:22)")))
        << r.error.toStdString();
    r = resolveSelection(*session, {0, QStringLiteral("NUMA:far")}, 0);
    EXPECT_TRUE(r.error.contains(QStringLiteral("not LEVEL or LEVEL:DISTANCE"))) << r.error.toStdString();
    r = resolveSelection(*session, {0, QStringLiteral("SMT")}, 0);
    EXPECT_TRUE(r.error.contains(QStringLiteral("no SMT domain"))) << r.error.toStdString();
    r = resolveSelection(*session, {500, {}}, 0);
    EXPECT_TRUE(r.error.contains(QStringLiteral("no online CPU 500"))) << r.error.toStdString();
    // a name no kernel gives a level is a typo, not a level CPU 0 lacks
    r = resolveSelection(*session, {0, QStringLiteral("FOO")}, 0);
    EXPECT_TRUE(r.error.startsWith(QStringLiteral("--select-level: 'FOO' is no domain level (levels: SMT, CLS, MC, PKG, NODE, NUMA")))
        << r.error.toStdString();
}

// An isolated CPU has no domains to select: the error says it is isolated, not "(its levels: none)".
TEST(Selection, AnIsolatedCpuIsSaidToBeIsolated) {
    DomainChoices choices;
    choices.isolate = "4-7";
    auto session = test::loadNow(preset("kunpeng920-24"), choices);
    ASSERT_TRUE(session);
    const auto r = resolveSelection(*session, {5, QStringLiteral("MC")}, 0);
    EXPECT_TRUE(r.error.startsWith(QStringLiteral("--select-level: CPU 5 of kunpeng920-24 is isolated"))) << r.error.toStdString();
    EXPECT_TRUE(r.error.contains(QStringLiteral("no sched domains"))) << r.error.toStdString();
    EXPECT_FALSE(r.error.contains(QStringLiteral("its levels"))) << r.error.toStdString();
}

TEST(Selection, LaunchOptionsParseAndApplyAfterLoading) {
    LaunchOptions o = parseLaunchOptions({QStringLiteral("schedscope"), QStringLiteral("--preset"), QStringLiteral("epyc7601-2s"),
                                          QStringLiteral("--select-cpu"), QStringLiteral("8"), QStringLiteral("--select-level"),
                                          QStringLiteral("node")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.selectCpu, 8);
    EXPECT_EQ(o.selectLevel, QStringLiteral("NODE"));
    EXPECT_FALSE(parseLaunchOptions({QStringLiteral("schedscope"), QStringLiteral("--select-cpu"), QStringLiteral("x")}).error.isEmpty());

    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.start(o);
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.topologyView()->selectedCpu(), 8);
    ASSERT_TRUE(selectedDomain(window));
    EXPECT_EQ(selectedDomain(window)->level, "NODE");
    // The tree follows: its current row is CPU 8's NODE domain.
    const QModelIndex current = window.domainTreeView()->currentIndex();
    EXPECT_EQ(current.data(Qt::UserRole + 1).toInt(), 8);
    EXPECT_TRUE(window.banner()->isHidden());

    // A level the CPU lacks is an error in the banner (and so a failed screenshot).
    window.selectWhenLoaded({0, QStringLiteral("CLS")});
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->isError());
}

TEST(LessonBrowser, ListsTheLessonsAndShowsTheMarkdown) {
    LessonBrowser browser;
    ASSERT_TRUE(browser.findChild<QListWidget*>());
    EXPECT_EQ(browser.findChild<QListWidget*>()->count(), int(listLessons().size()));
    ASSERT_TRUE(browser.showLesson(QStringLiteral("what-is-a-sched-domain"), false).isEmpty());
    ASSERT_TRUE(browser.lesson());
    EXPECT_EQ(browser.lesson()->id, "01-what-is-a-sched-domain");
    const QString plain = browser.textBrowser()->toPlainText();
    EXPECT_TRUE(plain.contains(QStringLiteral("What a sched domain is")));
    EXPECT_FALSE(plain.contains(QStringLiteral("# What")));  // rendered, not shown as source
    EXPECT_FALSE(browser.showLesson(QStringLiteral("no-such-lesson"), false).isEmpty());
}

// In a short dock (1024x700 with the trace plots: about 290 px) the lesson's text gets most of
// the height, the list a few rows that scroll; they once shared it evenly and the text showed
// three lines.
TEST(LessonBrowser, AShortBrowserGivesItsHeightToTheText) {
    LessonBrowser browser;
    browser.resize(500, 290);
    browser.show();
    ASSERT_TRUE(browser.showLesson(QStringLiteral("what-if-on-a-recorded-trace"), false).isEmpty());
    QTest::qWait(0);
    auto* list = browser.findChild<QListWidget*>();
    ASSERT_NE(list, nullptr);
    const int line = QFontMetrics(browser.textBrowser()->font()).lineSpacing();
    EXPECT_GE(browser.textBrowser()->viewport()->height(), 7 * line)
        << "text " << browser.textBrowser()->viewport()->height() << " px, list " << list->height() << " px";
    EXPECT_GE(list->viewport()->height(), 3 * list->sizeHintForRow(0) - 1);
    ASSERT_NE(list->currentItem(), nullptr);
    EXPECT_TRUE(list->viewport()->rect().contains(list->visualItemRect(list->currentItem()))) << "the lesson's title scrolled away";
}

// The list shows whole rows at any height: a quarter of a 860-pixel browser showed eight and a
// half titles, the ninth cut through.
TEST(LessonBrowser, TheListShowsWholeRows) {
    LessonBrowser browser;
    auto* list = browser.findChild<QListWidget*>();
    ASSERT_NE(list, nullptr);
    for (int height : {290, 500, 700, 860, 1000}) {
        browser.resize(700, height);
        browser.show();
        QTest::qWait(0);
        const int row = list->sizeHintForRow(0);
        ASSERT_GT(row, 0);
        EXPECT_EQ(list->viewport()->height() % row, 0)
            << height << " px browser: a " << list->viewport()->height() << " px list of " << row << " px rows";
    }
}

// A figure not drawn (here: not asked for, as in a lesson's own figure of its browser) shows its
// caption in words where Qt would draw a broken-image icon; the lesson's text around it stays.
TEST(LessonBrowser, AFigureNotDrawnShowsItsCaptionNotABrokenImage) {
    QDir(figureCacheDir() + QStringLiteral("/04-node-level-on-naples")).removeRecursively();
    LessonBrowser browser;
    ASSERT_TRUE(browser.showLesson(QStringLiteral("04-node-level-on-naples"), false).isEmpty());
    const QString plain = browser.textBrowser()->toPlainText();
    EXPECT_TRUE(plain.contains(QStringLiteral("[EPYC 7601: CPU 0's NODE domain and its two LLC groups: figure not drawn]")))
        << plain.toStdString();
    EXPECT_TRUE(plain.contains(QStringLiteral("adjust_numa_imbalance()"))) << plain.toStdString();
    int images = 0;
    for (QTextBlock b = browser.textBrowser()->document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) images += it.fragment().charFormat().isImageFormat() ? 1 : 0;
    EXPECT_EQ(images, 0);

    // a drawn figure is an image again
    const QString drawn = figureCacheDir() + QStringLiteral("/04-node-level-on-naples");
    ASSERT_TRUE(QDir().mkpath(drawn));
    QImage figure(40, 30, QImage::Format_RGB32);
    figure.fill(Qt::darkBlue);
    ASSERT_TRUE(figure.save(drawn + QStringLiteral("/naples-node.png")));
    ASSERT_TRUE(browser.showLesson(QStringLiteral("04-node-level-on-naples"), false).isEmpty());
    EXPECT_FALSE(browser.textBrowser()->toPlainText().contains(QStringLiteral("figure not drawn")));
    images = 0;
    for (QTextBlock b = browser.textBrowser()->document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) images += it.fragment().charFormat().isImageFormat() ? 1 : 0;
    EXPECT_EQ(images, 1);
    // its caption shows under it (Qt shows nothing of an image's alt text), and the figure is a
    // link that opens it at its own size: fitted to a narrow dock its labels do not read
    EXPECT_TRUE(browser.textBrowser()->toPlainText().contains(QStringLiteral("EPYC 7601: CPU 0's NODE domain and its two LLC groups")));
    QString href;
    for (QTextBlock b = browser.textBrowser()->document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isAnchor() && it.fragment().text() == QStringLiteral("full size"))
                href = it.fragment().charFormat().anchorHref();
    EXPECT_EQ(href, QStringLiteral("naples-node.png"));
    emit browser.textBrowser()->anchorClicked(QUrl(href));
    auto* dialog = browser.findChild<QDialog*>(QStringLiteral("lessonFigureDialog"));
    ASSERT_TRUE(dialog);
    auto* image = dialog->findChild<QLabel*>();
    ASSERT_TRUE(image);
    EXPECT_EQ(image->pixmap().size(), QSize(40, 30)) << "the figure at its own size";
    delete dialog;
    QDir(drawn).removeRecursively();
}

TEST(LessonScenario, LoadsPresetViewAndSelectionInOneCall) {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    ASSERT_TRUE(window.showLesson(QStringLiteral("04-node-level-on-naples"), true).isEmpty());
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.session()->topology->name, "epyc7601-2s");
    EXPECT_EQ(window.topologyView()->selectedCpu(), 0);
    ASSERT_TRUE(selectedDomain(window));
    EXPECT_EQ(selectedDomain(window)->level, "NODE");
    const auto* lessons = window.findChild<QDockWidget*>(QStringLiteral("lessonsDock"));
    const auto* domains = window.findChild<QDockWidget*>(QStringLiteral("domainsDock"));
    EXPECT_TRUE(lessons->isVisible());
    EXPECT_TRUE(domains->isVisible());
    // the lesson's text has most of the column it shares with the domain tree
    EXPECT_GT(lessons->height(), domains->height() * 3 / 2) << lessons->height() << " against " << domains->height();
    EXPECT_TRUE(window.banner()->isHidden()) << window.banner()->text().toStdString();
}

TEST(LessonScenario, WhatIfLessonSetsUpAndStartsTheComparison) {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    ASSERT_TRUE(window.showLesson(QStringLiteral("02-cluster-scheduling"), true).isEmpty());
    WhatIfPanel* panel = window.whatIfPanel();
    EXPECT_TRUE(panel->running());
    EXPECT_TRUE(window.findChild<QDockWidget*>(QStringLiteral("whatifDock"))->isVisible());
    const WhatIfRequest r = panel->request();
    EXPECT_EQ(r.spec.value, "kunpeng920-24");
    EXPECT_EQ(r.workload, "stream:threads=4,cpus=0-23");
    EXPECT_EQ(r.compare, "cls");
    panel->cancel();
    EXPECT_TRUE(panel->statusText().startsWith(QStringLiteral("Cancelled")));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.session()->topology->name, "kunpeng920-24");
}

// `lesson`'s scenario loaded in `window` (shown at 1400x900) and its what-if run to the end: its
// result, or null (and the test failed) when it did not finish or failed.
const WhatIfResult* lessonWhatIf(MainWindow& window, const QString& lesson) {
    window.resize(1400, 900);
    window.show();
    WhatIfPanel* panel = window.whatIfPanel();
    QSignalSpy finished(panel, &WhatIfPanel::finished);
    const QString error = window.showLesson(lesson, true);
    EXPECT_TRUE(error.isEmpty()) << error.toStdString();
    const bool done = error.isEmpty() && finished.wait(120'000);
    EXPECT_TRUE(done) << panel->statusText().toStdString();
    if (!done) return nullptr;
    const WhatIfResult& r = panel->runner()->result();
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.setup);
    return r.error.empty() && r.setup ? &r : nullptr;
}

// Lesson 14's workload is a file of the installed resources ("@data/workloads/cgroups.json"):
// the panel gets its path and the comparison of its task groups runs.
TEST(LessonScenario, AWorkloadFileOfTheResourcesRuns) {
    MainWindow window;
    const WhatIfResult* r = lessonWhatIf(window, QStringLiteral("14-task-groups"));
    ASSERT_TRUE(r);
    const WhatIfRequest q = window.whatIfPanel()->request();
    EXPECT_EQ(q.workload, resourcesDir() + "/workloads/cgroups.json");
    EXPECT_EQ(q.compare, "task-groups");
    EXPECT_EQ(r->setup->workload.groups.size(), 2u);
    for (const auto& run : r->runs) EXPECT_TRUE(run.error.empty()) << run.error;
}

// Lesson 7 opens the bundled trace (the window takes its 2-CPU sidecar topology) and runs the
// trace's own tasks on a Kunpeng 920, CLS off vs on, in the what-if panel.
TEST(LessonScenario, TraceWhatIfLessonRunsTheTracesTasksOnThePreset) {
    MainWindow window;
    const WhatIfResult* result = lessonWhatIf(window, QStringLiteral("07-what-if-on-a-recorded-trace"));
    ASSERT_TRUE(result);
    const WhatIfResult& r = *result;
    EXPECT_EQ(r.setup->topology->name, "kunpeng920-24");
    EXPECT_EQ(r.setup->request.compare, "cls");
    EXPECT_TRUE(r.setup->request.trace.has_value());
    EXPECT_NE(r.setup->workload.spec.find("sample.dat"), std::string::npos) << r.setup->workload.spec;
    EXPECT_EQ(r.runs.size(), 4u);
    // CPUs 0-1 share a Kunpeng cluster: the moves between them are CLS moves only with CLS on
    EXPECT_GT(r.meanMigrations(1, "CLS"), 0.0);
    EXPECT_EQ(r.meanMigrations(0, "CLS"), 0.0);
    ASSERT_TRUE(window.session());
    EXPECT_EQ(window.session()->topology->cpus.size(), 2u) << "the window shows the trace's own machine";
    EXPECT_TRUE(window.banner()->isHidden()) << window.banner()->text().toStdString();
}

void useBuiltCli() {
    if (qEnvironmentVariableIsEmpty("SCHEDSCOPE_CLI")) qputenv("SCHEDSCOPE_CLI", SCHEDSCOPE_CLI_BINARY);
}

TEST(LessonBrowser, RunsTheStepsThroughTheCli) {
    useBuiltCli();
    ASSERT_FALSE(LessonBrowser::cliProgram().isEmpty());
    LessonBrowser browser;
    ASSERT_TRUE(browser.showLesson(QStringLiteral("04-node-level-on-naples"), false).isEmpty());
    QSignalSpy done(&browser, &LessonBrowser::stepsFinished);
    browser.runSteps();
    EXPECT_TRUE(browser.runningSteps());
    ASSERT_TRUE(done.wait(240'000));
    EXPECT_EQ(done.first().at(0).toInt(), 0) << browser.textBrowser()->toPlainText().toStdString();
    const QString text = browser.textBrowser()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("$ schedscope-cli domains --preset epyc7601-2s --cpu 0")));
    EXPECT_TRUE(text.contains(QStringLiteral("NODE")));
    EXPECT_TRUE(text.contains(QStringLiteral("Step 4")));
    // each step the text makes claims about ran again with --json, and every claim holds
    size_t claims = 0;
    for (const auto& step : browser.lesson()->steps) claims += step.claims.size();
    ASSERT_GT(claims, 0u);
    EXPECT_EQ(size_t(text.count(QStringLiteral("holds  "))), claims) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("FAILS  "))) << text.toStdString();
    EXPECT_TRUE(browser.statusText().contains(QStringLiteral("All %1 claims of the text hold.").arg(claims)))
        << browser.statusText().toStdString();
}

// A claim the step no longer bears out is shown as failing, with what the text said, and
// counted in the status line; the step itself ran fine.
TEST(LessonBrowser, AClaimThatFailsIsShownAndCounted) {
    useBuiltCli();
    QTemporaryDir data;
    ASSERT_TRUE(QDir().mkpath(data.filePath(QStringLiteral("lessons/01-fake"))));
    auto write = [&](const QString& name, const QByteArray& text) {
        QFile f(data.filePath(name));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text);
    };
    write(QStringLiteral("lessons/index.json"), R"(["01-fake"])");
    write(QStringLiteral("lessons/01-fake/lesson.md"), "# Fake\n");
    write(QStringLiteral("lessons/01-fake/lesson.json"), R"({"title": "Fake", "steps": [
      {"title": "one core", "run": ["domains", "--synthetic", "pack:1 core:1 pu:2", "--cpu", "0"],
       "expect": [{"says": "an SMT pair", "json": "/cpus/0/domains/0/span", "equals": "0-1"},
                  {"says": "an MC level", "json": "/cpus/0/domains/1/level", "equals": "MC"}]}]})");
    const QByteArray before = qgetenv("SCHEDSCOPE_DATA_DIR");
    qputenv("SCHEDSCOPE_DATA_DIR", data.path().toLocal8Bit());
    {
        LessonBrowser browser;
        ASSERT_TRUE(browser.showLesson(QStringLiteral("01"), false).isEmpty());
        QSignalSpy done(&browser, &LessonBrowser::stepsFinished);
        browser.runSteps();
        ASSERT_TRUE(done.wait(60'000));
        const QString text = browser.textBrowser()->toPlainText();
        EXPECT_EQ(done.first().at(0).toInt(), 0) << "the step ran: " << text.toStdString();
        EXPECT_TRUE(text.contains(QStringLiteral("holds  an SMT pair: span = 0-1"))) << text.toStdString();
        EXPECT_TRUE(text.contains(QStringLiteral("FAILS  an MC level: no /cpus/0/domains/1/level in the output (the text: MC)")))
            << text.toStdString();
        EXPECT_TRUE(browser.statusText().contains(QStringLiteral("1 of 2 claims of the text do not hold.")))
            << browser.statusText().toStdString();
    }
    if (before.isNull()) qunsetenv("SCHEDSCOPE_DATA_DIR");
    else qputenv("SCHEDSCOPE_DATA_DIR", before);
}

// A step whose command is meant to exit 1 (a --diff that finds the difference the lesson is
// about) is no failure; its exit status still shows.
TEST(LessonBrowser, AStepMeantToExitOneIsNoFailure) {
    useBuiltCli();
    LessonBrowser browser;
    ASSERT_TRUE(browser.showLesson(QStringLiteral("11-a-real-kernels-log"), false).isEmpty());
    QSignalSpy done(&browser, &LessonBrowser::stepsFinished);
    browser.runSteps();
    ASSERT_TRUE(done.wait(240'000));
    const QString text = browser.textBrowser()->toPlainText();
    EXPECT_EQ(done.first().at(0).toInt(), 0) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("identical on the CPUs the log printed: cpus 1-95 were not compared")));
    EXPECT_TRUE(text.contains(QStringLiteral("cpu0 domain-2 NUMA groups: built {0-47} {48-71}, kernel {0-47} {48-95}")));
    EXPECT_TRUE(text.contains(QStringLiteral("[exit status 1]"))) << text.toStdString();
}

TEST(LessonBrowser, StopEndsTheStepsAtOnce) {
    useBuiltCli();
    LessonBrowser browser;
    ASSERT_TRUE(browser.showLesson(QStringLiteral("02-cluster-scheduling"), false).isEmpty());
    browser.runSteps();
    ASSERT_TRUE(browser.runningSteps());
    QTest::qWait(100);
    browser.stopSteps();
    EXPECT_FALSE(browser.runningSteps());
    EXPECT_TRUE(browser.textBrowser()->toPlainText().contains(QStringLiteral("[stopped]")));
}

// --- figures ---------------------------------------------------------------------------------

QProcessEnvironment headless() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    return env;
}

TEST(LessonFigures, RenderedBySchedscopeWithTheRequestedSizeAndNotBlank) {
    QTemporaryDir dir;
    QProcess p;
    p.setProcessEnvironment(headless());
    p.start(QStringLiteral(SCHEDSCOPE_GUI_BINARY), {QStringLiteral("--render-lesson-figures"), dir.path()});
    ASSERT_TRUE(p.waitForFinished(300'000));
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    ASSERT_EQ(p.exitCode(), 0) << err.toStdString();
    int figures = 0;
    std::map<QByteArray, std::string> seen;  // a figure's bytes: the lesson and file showing them
    for (const auto& id : listLessons()) {
        auto lesson = loadLesson(id);
        ASSERT_TRUE(lesson) << lesson.error();
        for (const auto& f : lesson->figures) {
            const QString path = dir.filePath(qs(lesson->id) + QLatin1Char('/') + qs(f.file));
            // every figure rendered is shown in its lesson, and is no other lesson's picture
            EXPECT_NE(lesson->text.find("](" + f.file + ")"), std::string::npos) << lesson->id << " never shows " << f.file;
            QFile bytes(path);
            ASSERT_TRUE(bytes.open(QIODevice::ReadOnly)) << path.toStdString();
            const auto [same, fresh] = seen.emplace(QCryptographicHash::hash(bytes.readAll(), QCryptographicHash::Sha256),
                                                    lesson->id + "/" + f.file);
            EXPECT_TRUE(fresh) << lesson->id << "/" << f.file << " is the same picture as " << same->second;
            const QImage img(path);
            ASSERT_FALSE(img.isNull()) << path.toStdString();
            const QStringList wh = qs(f.size).split(QLatin1Char('x'));
            EXPECT_EQ(img.size(), QSize(wh[0].toInt(), wh[1].toInt())) << path.toStdString();
            EXPECT_GE(test::distinctColours(img), 40) << path.toStdString();
            test::keepShot(img, QStringLiteral("figure-") + QString::fromStdString(f.file).chopped(4));
            ++figures;
        }
    }
    EXPECT_GE(figures, 4);
}

TEST(LessonFigures, OneLessonOnlyAndBadNamesFail) {
    QTemporaryDir dir;
    std::vector<FigureTask> tasks;
    QString error;
    ASSERT_TRUE(lessonFigureTasks(QStringLiteral("cluster-first-wakeup"), dir.path(), tasks, error)) << error.toStdString();
    ASSERT_EQ(tasks.size(), 1u);
    EXPECT_EQ(tasks[0].options.selectCpu, 4);
    EXPECT_EQ(tasks[0].options.selectLevel, QStringLiteral("CLS"));
    EXPECT_EQ(tasks[0].options.size, QSize(900, 600));
    EXPECT_FALSE(lessonFigureTasks(QStringLiteral("nope"), dir.path(), tasks, error));
    EXPECT_TRUE(error.contains(QStringLiteral("unknown lesson")));
}

TEST(LessonScreenshot, TheAppWithALessonLoaded) {
    QTemporaryDir dir;
    for (const char* view : {"window", "lessons"}) {
        const QString out = dir.filePath(QLatin1String(view) + QStringLiteral(".png"));
        QProcess p;
        QProcessEnvironment env = headless();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SCHEDSCOPE_GUI_BINARY),
                {QStringLiteral("--screenshot"), out, QStringLiteral("--view"), QLatin1String(view), QStringLiteral("--size"),
                 QStringLiteral("1500x950"), QStringLiteral("--lesson"), QStringLiteral("01-what-is-a-sched-domain")});
        ASSERT_TRUE(p.waitForFinished(300'000));
        ASSERT_EQ(p.exitCode(), 0) << view << ": " << p.readAllStandardError().toStdString();
        const QImage img(out);
        EXPECT_EQ(img.size(), QSize(1500, 950)) << view;
        EXPECT_GE(test::distinctColours(img), 40) << view;
        test::keepShot(img, QStringLiteral("lesson01-") + QLatin1String(view));
    }
    // the screenshot drew the lesson's figures before it was taken (it showed their captions,
    // "figure not drawn"), into the cache where the running app keeps them
    std::vector<FigureTask> figures;
    QString error;
    ASSERT_TRUE(lessonFigureTasks(QStringLiteral("01-what-is-a-sched-domain"), dir.path(), figures, error)) << error.toStdString();
    ASSERT_FALSE(figures.empty());
    for (const FigureTask& f : figures) {
        const QString name = QFileInfo(f.file).fileName();
        QDirIterator drawn(dir.filePath(QStringLiteral("cache")), {name}, QDir::Files, QDirIterator::Subdirectories);
        EXPECT_TRUE(drawn.hasNext()) << name.toStdString() << " was not drawn";
    }
}

}  // namespace
}  // namespace schedscope::gui
