#pragma once
// The command line of `schedscope`, parsed before QApplication exists (the display check and
// the offscreen switch for --screenshot have to happen first).
#include <QSize>
#include <QString>
#include <QStringList>

#include "session.h"

namespace schedscope::gui {

struct LaunchOptions {
    TopologySpec spec;       // default: this machine
    DomainChoices choices;
    QString traceFile;       // positional FILE: reserved for traces
    QString traceBuffer;     // --buffer NAME: the trace.dat buffer to read (needs FILE)
    bool topologyGiven = false;  // a topology option was given (then FILE is read against it)
    QString screenshot;      // --screenshot OUT.png
    QString view = QStringLiteral("window");  // --view window|topology|domains
    QSize size{1400, 860};   // --size WxH
    int selectCpu = -1;      // --select-cpu N: the CPU the views select after loading
    QString selectLevel;     // --select-level NAME: that CPU's lowest domain of this level
    QString lesson;          // --lesson NAME: open the lesson browser on it (and apply its scenario)
    QString renderFigures;   // --render-lesson-figures OUTDIR (all lessons, or --lesson's)
    // the screenshot draws one of a lesson's figures (lessonFigureTasks()): it draws no lesson
    // figures itself, as a figure that shows its own lesson would draw itself again without end
    bool drawingAFigure = false;
    QString attachCapture;   // --attach-capture PATH: live data from a helper started with sudo
    bool captureHelper = false;  // --capture-helper: live data through schedscope-capture even as root
    size_t liveBufferKb = 0;     // --buffer-kb N: live capture's ring buffer per CPU (0: the default)
    bool help = false;
    bool version = false;
    QString helpText;
    QString error;           // one line; set when the command line is wrong
};

// `arguments` includes the program name first, as QCoreApplication::arguments() does.
LaunchOptions parseLaunchOptions(const QStringList& arguments);

// The views --view accepts.
QStringList screenshotViews();

// True when Qt can open a window: DISPLAY or WAYLAND_DISPLAY set, or QT_QPA_PLATFORM chosen.
bool displayAvailable();

}  // namespace schedscope::gui
