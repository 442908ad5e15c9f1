// gui_soak: the whole app (MainWindow, offscreen) in live mode for MINUTES, its views refreshing
// at the live rate from a ring window of WINDOW_S seconds. Every 10 s it prints one CSV row:
// elapsed seconds, this process's RSS, the events in the window (and their rate), the lost
// events the capture reported, and the snapshots the views have shown so far. RSS must level
// off: the window, not the run's length, bounds memory. Not a test: bench/soak.sh --gui runs it
// under a context-switch storm.
//   gui_soak [MINUTES] [WINDOW_S] [--helper]     (--helper: through schedscope-capture)
#include <QApplication>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "launch_options.h"
#include "live_capture.h"
#include "main_window.h"
#include "trace_workspace.h"

using namespace schedscope::gui;

static long rssKb() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    const double minutes = argc > 1 ? std::atof(argv[1]) : 10.0;
    const int windowSec = argc > 2 ? std::atoi(argv[2]) : 10;
    const bool helper = argc > 3 && std::strcmp(argv[3], "--helper") == 0;
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("schedscope-bench"));  // not the user's settings

    QStringList args{QStringLiteral("schedscope")};
    if (helper) args << QStringLiteral("--capture-helper");
    const LaunchOptions options = parseLaunchOptions(args);
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    LiveCapture* live = window.traceWorkspace()->live();
    live->setWindowSec(windowSec);
    window.start(options);

    long snapshots = 0;
    QObject::connect(window.traceWorkspace(), &TraceWorkspace::traceShown, [&](const TraceSessionPtr&) { ++snapshots; });
    QObject::connect(live, &LiveCapture::failed, [](const QString& e) {
        std::fprintf(stderr, "gui_soak: live capture failed: %s\n", qPrintable(e));
        QApplication::exit(1);
    });

    std::printf("t_s,rss_kb,window_events,window_events_per_s,lost,snapshots\n");
    int elapsed = 0;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, [&] {
        elapsed += 10;
        const TraceSessionPtr t = window.traceWorkspace()->trace();
        const size_t inWindow = t && t->live && t->data ? t->data->store->size() : 0;
        const unsigned long long lost = t && t->live ? t->lostEvents : 0;
        std::printf("%d,%ld,%zu,%.0f,%llu,%ld\n", elapsed, rssKb(), inWindow, double(inWindow) / windowSec, lost, snapshots);
        std::fflush(stdout);
        if (elapsed >= minutes * 60) QApplication::quit();
    });
    sampler.start(10'000);
    const int rc = QApplication::exec();
    if (rc == 0 && snapshots == 0) {
        std::fprintf(stderr, "gui_soak: the views received no live snapshot (is live capture permitted here?)\n");
        return 1;
    }
    return rc;
}
