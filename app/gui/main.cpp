// schedscope: the Qt application. Parses its command line before QApplication exists so that
// a missing display is reported in one line (instead of Qt's platform-plugin abort) and
// --screenshot can switch to the offscreen platform on its own.
#include <QApplication>
#include <cstdio>

#include "launch_options.h"
#include "lesson_figures.h"
#include "main_window.h"
#include "screenshot.h"
#include "stop_signal_watcher.h"

using namespace schedscope::gui;

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    const LaunchOptions options = parseLaunchOptions(args);
    if (!options.error.isEmpty()) {
        std::fprintf(stderr, "schedscope: %s (try --help)\n", qPrintable(options.error));
        return 2;
    }
    if (options.help) {
        std::fputs(qPrintable(options.helpText), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("schedscope %s\n", SCHEDSCOPE_VERSION);
        return 0;
    }
    if (!displayAvailable()) {
        if (options.screenshot.isEmpty() && options.renderFigures.isEmpty()) {
            std::fprintf(stderr,
                         "schedscope: no display (DISPLAY and WAYLAND_DISPLAY are unset); use --screenshot OUT.png, "
                         "xvfb-run, QT_QPA_PLATFORM=offscreen, or schedscope-cli\n");
            return 3;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("schedscope"));
    QApplication::setApplicationName(QStringLiteral("schedscope"));
    QApplication::setApplicationVersion(QStringLiteral(SCHEDSCOPE_VERSION));

    if (!options.screenshot.isEmpty()) return runScreenshot(options);
    if (!options.renderFigures.isEmpty()) return runRenderLessonFigures(options);

    // Declared before the window, so it outlives it: the handlers stay while the window's
    // destructors stop the capture, and a second signal still ends a teardown that hangs.
    StopSignalWatcher stopSignals;
    // Ctrl-C, kill, a closed terminal: quit as the window's close button does (the window saves
    // its layout, the capture removes its tracefs instance), not die with the instance tracing.
    QObject::connect(&stopSignals, &StopSignalWatcher::stopRequested, &app, [] { QCoreApplication::quit(); });
    MainWindow window;
    window.fitOnScreen();
    window.show();
    window.start(options);
    return app.exec();
}
