#pragma once
// Lesson figures rendered by schedscope itself: each figure spec of a lesson ({file, view,
// size, args}) becomes the options of `schedscope --screenshot` and goes through the same
// ScreenshotJob. Used by `schedscope --render-lesson-figures OUTDIR [--lesson NAME]` and by the
// lesson browser, which renders missing figures into the user's cache directory on demand.
#include <QObject>
#include <QString>
#include <QStringList>
#include <vector>

#include "launch_options.h"

namespace schedscope::gui {

class ScreenshotJob;

struct FigureTask {
    QString lessonId;
    QString file;     // absolute output path: OUTDIR/<lesson id>/<figure file>
    LaunchOptions options;
};

// The figures of `lesson` (every lesson when empty) as screenshot jobs writing under `outDir`.
// Returns false with a one-line `error` when a lesson or a figure spec is wrong.
bool lessonFigureTasks(const QString& lesson, const QString& outDir, std::vector<FigureTask>& tasks, QString& error);

// Where the lesson browser keeps the figures it renders: <cache>/lesson-figures.
QString figureCacheDir();

// A lesson's markdown as the browser shows it. A figure that is in none of `searchPaths` (not
// drawn yet, or its drawing failed) is replaced by its caption and `state` in italics: Qt would
// show a broken-image icon there, which says nothing. A drawn one gets its caption under it (a
// QTextBrowser shows nothing of an image's alt text) and a "full size" link to its file: fitted
// to a narrow dock, a figure's labels do not read.
QString figureMarkdown(const QString& markdown, const QStringList& searchPaths, const QString& state);

// Renders tasks one after the other without blocking the event loop.
class FigureRenderer : public QObject {
    Q_OBJECT
public:
    explicit FigureRenderer(std::vector<FigureTask> tasks, QObject* parent = nullptr);
    ~FigureRenderer() override;
    void start();
    bool busy() const { return job_ != nullptr; }
    int failures() const { return failures_; }

signals:
    void figureDone(const QString& lessonId, const QString& file, int exitCode, const QString& message);
    void finished(int failures);

private:
    void next();
    std::vector<FigureTask> tasks_;
    size_t index_ = 0;
    ScreenshotJob* job_ = nullptr;
    int failures_ = 0;
};

// `schedscope --render-lesson-figures OUTDIR [--lesson NAME]`: renders, prints one line per
// figure, returns 0 when every figure was written without error.
int runRenderLessonFigures(const LaunchOptions& options);

}  // namespace schedscope::gui
