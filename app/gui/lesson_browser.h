#pragma once
// LessonBrowser: the teaching lessons. A list of lessons, the chosen one's text (markdown in a
// QTextBrowser; its images are the lesson's figures, rendered on demand into the user's cache
// directory by schedscope itself), "Load scenario" (the window applies the lesson's scenario)
// and "Run steps" (each step through schedscope-cli in a QProcess, output shown under the text;
// a step whose text makes claims about it runs again with --json, and each claim is checked).
#include <QWidget>
#include <memory>

#include "lessons/lesson.h"

class QLabel;
class QListWidget;
class QProcess;
class QPushButton;
class QTextBrowser;
class QTimer;
class QUrl;

namespace schedscope::gui {

class FigureRenderer;

class LessonBrowser : public QWidget {
    Q_OBJECT
public:
    explicit LessonBrowser(QWidget* parent = nullptr);
    ~LessonBrowser() override;

    // Shows a lesson by id or short name; returns an empty string or a one-line error.
    // Missing figures are rendered into the cache directory unless renderFigures is false.
    QString showLesson(const QString& name, bool renderFigures = true);
    const Lesson* lesson() const { return lesson_.get(); }
    QTextBrowser* textBrowser() const { return text_; }
    QString statusText() const;
    // Shows another browser's lesson and step output (standalone renders of the dock).
    void mirror(const LessonBrowser& other);

    // The schedscope-cli to run steps with: $SCHEDSCOPE_CLI, next to this binary, in the build
    // tree, or in PATH.
    static QString cliProgram();
    bool runningSteps() const { return process_ != nullptr; }
    bool renderingFigures() const { return renderer_ != nullptr; }

    QSize sizeHint() const override { return {560, 720}; }

public slots:
    void loadScenario();
    void runSteps();
    void stopSteps();

signals:
    void scenarioRequested(const schedscope::Lesson& lesson);
    void stepsFinished(int failures);
    void figuresRendered();

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void fitList();  // the lesson list's height for the browser's
    void refreshText();
    void fitImages();
    void renderMissingFigures();
    void startStep();
    void openLink(const QUrl& url);
    void showFigure(const QString& file);  // at full size, in a window of its own
    void checkClaims();  // reruns the step with --json and checks what the text says it shows
    void claimsChecked(const QByteArray& json, int exitCode);

    std::unique_ptr<Lesson> lesson_;
    QListWidget* list_;
    QTextBrowser* text_;
    QPushButton* scenario_;
    QPushButton* steps_;
    QLabel* status_;
    struct StepOutput {
        QString title, command, text;
        int exitCode = -2;  // -2: running, -1: could not start or crashed
        QString checks;     // a line per claim of the text (claimCheckLine()), or why none could be checked
    };
    std::vector<StepOutput> output_;
    QProcess* process_ = nullptr;
    size_t step_ = 0;
    int stepFailures_ = 0;
    int claimsHeld_ = 0, claimsFailed_ = 0;  // over the steps run so far
    FigureRenderer* renderer_ = nullptr;
    QTimer* refresh_;
};

}  // namespace schedscope::gui
