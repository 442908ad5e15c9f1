#include "screenshot.h"

#include <QCoreApplication>

#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QPainter>
#include <QPixmap>
#include <algorithm>
#include <cstdio>

#include "banner.h"
#include "lesson_browser.h"
#include "main_window.h"
#include "session_loader.h"
#include "whatif_panel.h"
#include "trace_workspace.h"

namespace schedscope::gui {

namespace {
// A single view's picture has no banner, so a failed load's error was on stderr only and the
// picture showed an empty view ("No trace open"): the banner goes across the picture's top, in
// the colours and words the window shows. PNG only; an SVG or PDF keeps the view alone.
QString stampBanner(const QString& path, Banner& banner) {
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) != 0) return {};
    QImage img(path);
    if (img.isNull()) return QObject::tr("%1: cannot read the PNG file back").arg(path);
    const int h = banner.hasHeightForWidth() ? banner.heightForWidth(img.width()) : banner.sizeHint().height();
    banner.resize(img.width(), std::min(h, img.height()));
    QPainter p(&img);
    p.drawPixmap(0, 0, banner.grab());
    p.end();
    return img.save(path, "PNG") ? QString() : QObject::tr("%1: cannot write the PNG file").arg(path);
}
// A window no smaller than its layout's minimum (its docks and toolbar) gives a larger PNG than
// --size asked for: said in a line, not left for a script to find out (`--size 320x200` wrote
// 480x528). "" when the PNG has the size asked for, or is no PNG.
QString sizeNote(const QString& path, const QSize& asked) {
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) != 0) return {};
    const QSize got = QImageReader(path).size();
    if (!got.isValid() || got == asked) return {};
    return QObject::tr("note: %1 is %2x%3, not the %4x%5 asked for: the smallest the window's layout allows")
        .arg(path)
        .arg(got.width())
        .arg(got.height())
        .arg(asked.width())
        .arg(asked.height());
}

}  // namespace

ScreenshotJob::ScreenshotJob(LaunchOptions options, QObject* parent) : QObject(parent), options_(std::move(options)) {
    // One more turn so layouts and resizes posted by the new session settle before rendering.
    settle_.setSingleShot(true);
    settle_.setInterval(0);
    connect(&settle_, &QTimer::timeout, this, &ScreenshotJob::complete);
    timeout_.setSingleShot(true);
    timeout_.setInterval(120'000);
    connect(&timeout_, &QTimer::timeout, this, [this] {
        if (completing_) return;
        completing_ = true;
        window_.reset();
        emit finished(1, tr("loading %1 timed out").arg(QString::fromStdString(options_.spec.describe())));
    });
}

ScreenshotJob::~ScreenshotJob() = default;

void ScreenshotJob::start() {
    window_ = std::make_unique<MainWindow>();
    window_->setAttribute(Qt::WA_DontShowOnScreen);
    window_->resize(options_.size);
    window_->show();
    connect(window_->loader(), &SessionLoader::idle, this, &ScreenshotJob::check);
    connect(window_->whatIfPanel(), &WhatIfPanel::finished, this, &ScreenshotJob::check);
    connect(window_->lessonBrowser(), &LessonBrowser::figuresRendered, this, &ScreenshotJob::check);
    // A trace loads after the topology (it may need it); wait for it too.
    connect(window_->traceWorkspace(), &TraceWorkspace::idle, this, &ScreenshotJob::check);
    timeout_.start();
    window_->start(options_);
    check();
}

bool ScreenshotJob::busy() const {
    return window_->loader()->busy() || window_->whatIfPanel()->running() ||
           window_->lessonBrowser()->renderingFigures() || window_->traceWorkspace()->busy();
}

void ScreenshotJob::check() {
    if (completing_ || !window_ || busy()) return;
    completing_ = true;
    settle_.start();
}

void ScreenshotJob::complete() {
    if (busy()) {  // that turn started more work (a queued load or run): wait for its idle signal
        completing_ = false;
        return;
    }
    timeout_.stop();
    MainWindow& window = *window_;
    // the docks the scenario opened may not fit the size asked for: tabs, then that size again
    window.fitDocksInto(options_.size);
    QCoreApplication::processEvents();
    window.resize(options_.size);
    QCoreApplication::processEvents();
    int code = 0;
    QString message = window.exportView(options_.view, options_.screenshot, options_.size);
    if (const QString note = sizeNote(options_.screenshot, options_.size); message.isEmpty() && !note.isEmpty())
        std::fprintf(stderr, "schedscope: %s\n", qPrintable(note));
    if (message.isEmpty() && options_.view != QLatin1String("window") && window.banner()->isError() &&
        !window.banner()->isHidden())
        message = stampBanner(options_.screenshot, *window.banner());
    if (!message.isEmpty()) {
        code = 1;
    } else if (!window.session() || (window.banner()->isError() && !window.banner()->isHidden())) {
        message = tr("%1 (screenshot written to %2)").arg(window.banner()->message(), options_.screenshot);
        code = 1;
    }
    window_.reset();
    emit finished(code, message);
}

int runScreenshot(const LaunchOptions& options) {
    ScreenshotJob job(options);
    QEventLoop loop;
    int code = 1;
    bool done = false;
    QObject::connect(&job, &ScreenshotJob::finished, &loop, [&](int exitCode, const QString& message) {
        code = exitCode;
        done = true;
        if (!message.isEmpty()) std::fprintf(stderr, "schedscope: %s\n", qPrintable(message));
        loop.quit();
    });
    job.start();
    if (!done) loop.exec();
    return code;
}

}  // namespace schedscope::gui
