#include "screenshot.h"

#include <QEventLoop>
#include <QTimer>
#include <cstdio>

#include "banner.h"
#include "main_window.h"
#include "session_loader.h"
#include "trace_workspace.h"

namespace schedscope::gui {

int runScreenshot(const LaunchOptions& options) {
    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(options.size);
    window.show();

    QEventLoop loop;
    bool timedOut = false;
    QObject::connect(window.loader(), &SessionLoader::idle, &loop, &QEventLoop::quit);
    QTimer::singleShot(120'000, &loop, [&] { timedOut = true; loop.quit(); });
    window.start(options);
    if (window.loader()->busy()) loop.exec();
    // A trace loads after the topology (it may need it); wait for it too.
    if (window.traceWorkspace()->busy()) {
        QObject::connect(window.traceWorkspace(), &TraceWorkspace::idle, &loop, &QEventLoop::quit);
        loop.exec();
    }
    // One more turn so layouts and resizes posted by the new session settle before rendering.
    QTimer::singleShot(0, &loop, &QEventLoop::quit);
    loop.exec();

    if (timedOut) {
        std::fprintf(stderr, "schedscope: loading %s timed out\n", options.spec.describe().c_str());
        return 1;
    }
    const QString error = window.exportView(options.view, options.screenshot, options.size);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "schedscope: %s\n", qPrintable(error));
        return 1;
    }
    if (!window.session() || (window.banner()->isError() && !window.banner()->isHidden())) {
        std::fprintf(stderr, "schedscope: %s (screenshot written to %s)\n", qPrintable(window.banner()->text()),
                     qPrintable(options.screenshot));
        return 1;
    }
    return 0;
}

}  // namespace schedscope::gui
