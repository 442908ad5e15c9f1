#include "lesson_figures.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>
#include <cstdio>

#include "lessons/lesson.h"
#include "qt_convert.h"
#include "screenshot.h"

namespace schedscope::gui {

bool lessonFigureTasks(const QString& lesson, const QString& outDir, std::vector<FigureTask>& tasks, QString& error) {
    std::vector<std::string> ids;
    if (lesson.isEmpty()) ids = listLessons();
    else ids.push_back(ss(lesson));
    if (ids.empty()) {
        error = QObject::tr("no lessons found in %1").arg(qs(resourcesDir()));
        return false;
    }
    for (const auto& id : ids) {
        auto l = loadLesson(id);
        if (!l) {
            error = qs(l.error());
            return false;
        }
        const QString dir = QDir(outDir).absoluteFilePath(qs(l->id));
        for (const auto& f : l->figures) {
            FigureTask t;
            t.lessonId = qs(l->id);
            t.file = dir + QLatin1Char('/') + qs(f.file);
            QStringList args{QStringLiteral("schedscope")};
            for (const auto& a : f.args) args << qs(expandDataPath(a));
            args << QStringLiteral("--screenshot") << t.file << QStringLiteral("--view") << qs(f.view) << QStringLiteral("--size")
                 << qs(f.size);
            t.options = parseLaunchOptions(args);
            t.options.drawingAFigure = true;
            if (!t.options.error.isEmpty()) {
                error = QObject::tr("lesson %1, figure %2: %3").arg(qs(l->id), qs(f.file), t.options.error);
                return false;
            }
            tasks.push_back(std::move(t));
        }
    }
    return true;
}

QString figureCacheDir() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/lesson-figures");
}

QString figureMarkdown(const QString& markdown, const QStringList& searchPaths, const QString& state) {
    // ![caption](file): the form the lessons use for their figures
    static const QRegularExpression image(QStringLiteral(R"(!\[([^\]]*)\]\(([^)\s]+)\))"));
    QString out;
    qsizetype from = 0;
    for (auto it = image.globalMatch(markdown); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString file = m.captured(2);
        const bool found = std::any_of(searchPaths.begin(), searchPaths.end(),
                                       [&](const QString& dir) { return QFileInfo::exists(dir + QLatin1Char('/') + file); });
        out += markdown.mid(from, m.capturedStart() - from);
        const QString caption = m.captured(1).simplified();  // the alt text may wrap over lines
        // (Qt's markdown reader drops a link around an image: the caption carries it)
        out += found ? QStringLiteral("%1\n\n*%2* ([%3](%4))").arg(m.captured(0), caption, QObject::tr("full size"), file)
                     : QStringLiteral("*[%1: %2]*").arg(caption, state);
        from = m.capturedEnd();
    }
    return out + markdown.mid(from);
}

FigureRenderer::FigureRenderer(std::vector<FigureTask> tasks, QObject* parent) : QObject(parent), tasks_(std::move(tasks)) {}

FigureRenderer::~FigureRenderer() = default;

void FigureRenderer::start() { next(); }

void FigureRenderer::next() {
    if (job_) {
        job_->deleteLater();
        job_ = nullptr;
    }
    if (index_ >= tasks_.size()) {
        emit finished(failures_);
        return;
    }
    const FigureTask& t = tasks_[index_++];
    if (!QDir().mkpath(QFileInfo(t.file).absolutePath())) {
        ++failures_;
        emit figureDone(t.lessonId, t.file, 1, tr("%1: cannot create the directory").arg(QFileInfo(t.file).absolutePath()));
        QMetaObject::invokeMethod(this, &FigureRenderer::next, Qt::QueuedConnection);
        return;
    }
    job_ = new ScreenshotJob(t.options, this);
    connect(job_, &ScreenshotJob::finished, this, [this, lessonId = t.lessonId, file = t.file](int code, const QString& message) {
        if (code != 0) ++failures_;
        emit figureDone(lessonId, file, code, message);
        next();
    });
    job_->start();
}

int runRenderLessonFigures(const LaunchOptions& options) {
    std::vector<FigureTask> tasks;
    QString error;
    if (!lessonFigureTasks(options.lesson, options.renderFigures, tasks, error)) {
        std::fprintf(stderr, "schedscope: --render-lesson-figures: %s\n", qPrintable(error));
        return 1;
    }
    FigureRenderer renderer(std::move(tasks));
    QEventLoop loop;
    int failures = -1;
    QObject::connect(&renderer, &FigureRenderer::figureDone, [](const QString&, const QString& file, int code, const QString& message) {
        if (code == 0) std::printf("wrote %s\n", qPrintable(file));
        else std::fprintf(stderr, "schedscope: %s: %s\n", qPrintable(file), qPrintable(message));
    });
    QObject::connect(&renderer, &FigureRenderer::finished, &loop, [&](int n) {
        failures = n;
        loop.quit();
    });
    renderer.start();
    if (failures < 0) loop.exec();
    return failures == 0 ? 0 : 1;
}

}  // namespace schedscope::gui
