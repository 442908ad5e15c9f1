#include "lesson_browser.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageReader>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QPixmap>
#include <QPushButton>
#include <QScrollArea>
#include <QScreen>
#include <QScrollBar>
#include <QSplitter>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "lesson_figures.h"
#include "window_fit.h"
#include "qt_convert.h"

namespace schedscope::gui {

namespace {
// The lesson list asks for the height fitList() allows it (whole rows), not QAbstractScrollArea's
// 192 px: past 13 titles the layout held it there, a row and a half short of whole rows. It may
// still be given less where there is no room (its minimum is Qt's).
class LessonList : public QListWidget {
public:
    QSize sizeHint() const override { return {QListWidget::sizeHint().width(), maximumHeight()}; }
};
}  // namespace

LessonBrowser::LessonBrowser(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lessonBrowser"));
    list_ = new LessonList;
    list_->setObjectName(QStringLiteral("lessonList"));
    for (const auto& id : listLessons()) {
        auto l = loadLesson(id);
        auto* item = new QListWidgetItem(l ? qs(l->title) : qs(id));
        item->setData(Qt::UserRole, qs(id));
        item->setToolTip(l ? qs(l->summary) : qs(l.error()));
        list_->addItem(item);
    }
    fitList();
    text_ = new QTextBrowser;
    text_->setOpenLinks(false);  // a figure's link opens it at full size; a web link, the browser
    connect(text_, &QTextBrowser::anchorClicked, this, &LessonBrowser::openLink);
    text_->setPlaceholderText(tr("Pick a lesson."));
    scenario_ = new QPushButton(tr("Load scenario"));
    scenario_->setToolTip(tr("Open the lesson's topology, select its CPU and level, set up the what-if run"));
    steps_ = new QPushButton(tr("Run steps"));
    steps_->setToolTip(tr("Run each step through schedscope-cli and show the output under the text"));
    scenario_->setEnabled(false);
    steps_->setEnabled(false);
    status_ = new QLabel;
    status_->setWordWrap(true);
    refresh_ = new QTimer(this);
    refresh_->setSingleShot(true);
    refresh_->setInterval(150);  // step output arrives in bursts: repaint the text at most this often
    connect(refresh_, &QTimer::timeout, this, &LessonBrowser::refreshText);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(scenario_);
    buttons->addWidget(steps_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list_);
    layout->addLayout(buttons);
    layout->addWidget(text_, 1);
    layout->addWidget(status_);

    connect(list_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item && (!lesson_ || qs(lesson_->id) != item->data(Qt::UserRole).toString()))
            showLesson(item->data(Qt::UserRole).toString());
    });
    connect(scenario_, &QPushButton::clicked, this, &LessonBrowser::loadScenario);
    connect(steps_, &QPushButton::clicked, this, [this] { runningSteps() ? stopSteps() : runSteps(); });
}

LessonBrowser::~LessonBrowser() {
    if (process_) {
        process_->disconnect(this);
        process_->kill();
        process_->waitForFinished(1000);
    }
}

QString LessonBrowser::statusText() const { return status_->text(); }

QString LessonBrowser::showLesson(const QString& name, bool renderFigures) {
    auto l = loadLesson(ss(name));
    if (!l) {
        status_->setText(qs(l.error()));
        return qs(l.error());
    }
    stopSteps();
    lesson_ = std::make_unique<Lesson>(std::move(*l));
    output_.clear();
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->data(Qt::UserRole).toString() == qs(lesson_->id)) {
            const QSignalBlocker block(list_);
            list_->setCurrentRow(i);
        }
    scenario_->setEnabled(!lesson_->scenario.empty());
    steps_->setEnabled(!lesson_->steps.empty());
    status_->setText(tr("%n step(s), %1", nullptr, int(lesson_->steps.size())).arg(qs(lesson_->summary)));
    refreshText();
    text_->verticalScrollBar()->setValue(0);
    if (renderFigures) renderMissingFigures();
    return {};
}

void LessonBrowser::mirror(const LessonBrowser& other) {
    if (other.lesson_) {
        showLesson(qs(other.lesson_->id), false);
        output_ = other.output_;
        status_->setText(other.status_->text());
        refreshText();
    }
}

void LessonBrowser::refreshText() {
    if (!lesson_) return;
    const QStringList figurePaths{figureCacheDir() + QLatin1Char('/') + qs(lesson_->id), qs(lesson_->dir)};
    QString md = figureMarkdown(qs(lesson_->text), figurePaths,
                                       renderer_ ? tr("figure being drawn") : tr("figure not drawn"));
    if (!output_.empty()) {
        md += QStringLiteral("\n\n---\n\n## Output of the steps\n");
        for (size_t i = 0; i < output_.size(); ++i) {
            const StepOutput& o = output_[i];
            md += QStringLiteral("\n### Step %1: %2\n\n```\n$ %3\n").arg(i + 1).arg(o.title, o.command) + o.text;
            if (!o.text.endsWith(QLatin1Char('\n'))) md += QLatin1Char('\n');
            if (o.exitCode > 0) md += tr("[exit status %1]\n").arg(o.exitCode);
            md += QStringLiteral("```\n");
            if (!o.checks.isEmpty()) md += tr("\nWhat the text says this step shows:\n\n```\n") + o.checks + QStringLiteral("```\n");
        }
    }
    QScrollBar* bar = text_->verticalScrollBar();
    const bool follow = runningSteps() && bar->value() >= bar->maximum() - 4;
    const int keep = bar->value();
    // clear() also drops the document's cached images, so freshly rendered figures show.
    text_->clear();
    text_->setSearchPaths(figurePaths);
    text_->setMarkdown(md);
    fitImages();
    bar->setValue(follow ? bar->maximum() : keep);
}

void LessonBrowser::fitImages() {
    // Figures are rendered at their own size (1000 px and more); shown at most as wide as the text.
    QTextDocument* doc = text_->document();
    const int maxWidth = std::max(120, text_->viewport()->width() - 2 * int(doc->documentMargin()) - 8);
    const QStringList paths = text_->searchPaths();
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().isImageFormat()) continue;
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            QSize natural;
            for (const QString& dir : paths)
                if (const QImageReader reader(dir + QLatin1Char('/') + image.name()); reader.canRead()) {
                    natural = reader.size();
                    break;
                }
            if (!natural.isValid() || natural.width() <= maxWidth) continue;
            image.setWidth(maxWidth);
            image.setHeight(double(natural.height()) * maxWidth / natural.width());
            QTextCursor cursor(doc);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
}

// The list takes every lesson's row when there is room, but no more than a quarter of the
// browser (at least three rows, scrolled): a short dock (1024x700, tabbed with the trace plots)
// shared its height evenly, and the lesson's text showed three lines under seven titles. Whole
// rows: a quarter of the height showed eight and a half titles, the last cut through.
void LessonBrowser::fitList() {
    const int row = std::max(1, list_->sizeHintForRow(0)), frame = 2 * list_->frameWidth();
    const int rows = std::min(std::max(1, list_->count()), std::max(3, (height() / 4 - frame) / row));
    list_->setMaximumHeight(rows * row + frame);
    if (list_->currentItem()) list_->scrollToItem(list_->currentItem());
}

void LessonBrowser::resizeEvent(QResizeEvent* e) {
    fitList();
    QWidget::resizeEvent(e);
    if (lesson_) refresh_->start();  // refit the figures to the new width, once the resizing settles
}

void LessonBrowser::renderMissingFigures() {
    if (!lesson_ || renderer_) return;
    std::vector<FigureTask> all, missing;
    QString error;
    if (!lessonFigureTasks(qs(lesson_->id), figureCacheDir(), all, error)) {
        status_->setText(error);
        return;
    }
    for (auto& t : all)
        if (!QFileInfo::exists(t.file)) missing.push_back(std::move(t));
    if (missing.empty()) return;
    status_->setText(tr("Rendering %n figure(s)\u2026", nullptr, int(missing.size())));
    renderer_ = new FigureRenderer(std::move(missing), this);
    connect(renderer_, &FigureRenderer::figureDone, this, [this](const QString&, const QString& file, int code, const QString& message) {
        if (code != 0) status_->setText(tr("Figure %1: %2").arg(QFileInfo(file).fileName(), message));
        refreshText();
    });
    connect(renderer_, &FigureRenderer::finished, this, [this](int failures) {
        renderer_->deleteLater();
        renderer_ = nullptr;
        if (failures == 0 && lesson_) status_->setText(qs(lesson_->summary));
        refreshText();  // a figure that failed is no longer "being drawn"
        emit figuresRendered();
    });
    renderer_->start();
    refreshText();  // the missing figures' captions say they are being drawn
}

void LessonBrowser::openLink(const QUrl& url) {
    if (!url.isRelative()) {
        QDesktopServices::openUrl(url);
        return;
    }
    if (!lesson_) return;
    for (const QString& dir : QStringList{figureCacheDir() + QLatin1Char('/') + qs(lesson_->id), qs(lesson_->dir)}) {
        const QString file = dir + QLatin1Char('/') + url.path();
        if (!QFileInfo::exists(file)) continue;
        showFigure(file);
        return;
    }
}

void LessonBrowser::showFigure(const QString& file) {
    const QPixmap figure(file);
    if (figure.isNull()) return;
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("lessonFigureDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QFileInfo(file).fileName());
    auto* image = new QLabel;
    image->setPixmap(figure);
    auto* scroll = new QScrollArea;
    scroll->setWidget(image);
    auto* layout = new QVBoxLayout(dialog);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    // the figure's own size where the screen has room for it, scrolled where it has not
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize();
    dialog->resize(initialWindowSize(figure.size() + QSize(24, 24), available));
    dialog->show();
}

void LessonBrowser::loadScenario() {
    if (lesson_) emit scenarioRequested(*lesson_);
}

QString LessonBrowser::cliProgram() {
    // SCHEDSCOPE_CLI names another binary (tests, or a development build next to an installed GUI).
    const QString forced = qEnvironmentVariable("SCHEDSCOPE_CLI");
    if (!forced.isEmpty()) return forced;
    const QString dir = QCoreApplication::applicationDirPath();
    const QStringList candidates{dir + QStringLiteral("/schedscope-cli"), dir + QStringLiteral("/../cli/schedscope-cli")};
    for (const QString& candidate : candidates)
        if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("schedscope-cli"));
}

void LessonBrowser::runSteps() {
    if (!lesson_ || runningSteps()) return;
    if (cliProgram().isEmpty()) {
        status_->setText(tr("schedscope-cli was not found next to schedscope or in PATH"));
        return;
    }
    output_.clear();
    step_ = 0;
    stepFailures_ = 0;
    claimsHeld_ = claimsFailed_ = 0;
    steps_->setText(tr("Stop"));
    startStep();
}

void LessonBrowser::startStep() {
    if (!lesson_ || step_ >= lesson_->steps.size()) {
        steps_->setText(tr("Run steps"));
        QString done = stepFailures_ ? tr("%n step(s) failed.", nullptr, stepFailures_) : tr("All steps ran.");
        if (claimsHeld_ + claimsFailed_ > 0)
            done += QLatin1Char(' ') + (claimsFailed_ ? tr("%1 of %2 claims of the text do not hold.").arg(claimsFailed_).arg(claimsHeld_ + claimsFailed_)
                                                      : tr("All %1 claims of the text hold.").arg(claimsHeld_));
        status_->setText(done);
        refreshText();
        emit stepsFinished(stepFailures_);
        return;
    }
    const LessonStep& step = lesson_->steps[step_];
    QStringList args;
    for (const auto& w : stepWords(step)) args << qs(w);
    output_.push_back({qs(step.title), qs(stepCommandLine(step)), {}, -2, {}});
    status_->setText(tr("Step %1 of %2: %3").arg(step_ + 1).arg(lesson_->steps.size()).arg(qs(step.title)));
    process_ = new QProcess(this);
    process_->setProcessChannelMode(QProcess::MergedChannels);
    connect(process_, &QProcess::readyRead, this, [this] {
        output_.back().text += QString::fromLocal8Bit(process_->readAll());
        if (!refresh_->isActive()) refresh_->start();
    });
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        output_.back().text += QString::fromLocal8Bit(process_->readAll());
        output_.back().exitCode = status == QProcess::NormalExit ? code : -1;
        const bool failed = output_.back().exitCode != lesson_->steps[step_].exitStatus;
        if (failed) ++stepFailures_;
        process_->deleteLater();
        process_ = nullptr;
        // a step that failed shows nothing its claims could be checked against
        if (!failed && !lesson_->steps[step_].claims.empty()) {
            checkClaims();
            return;
        }
        ++step_;
        refreshText();
        startStep();
    });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;  // crashes arrive through finished()
        output_.back().text = tr("cannot start %1: %2").arg(cliProgram(), process_->errorString());
        output_.back().exitCode = -1;
        process_->deleteLater();
        process_ = nullptr;
        ++stepFailures_;
        step_ = lesson_->steps.size();
        startStep();
    });
    process_->start(cliProgram(), args);
    refreshText();
}

void LessonBrowser::checkClaims() {
    const LessonStep& step = lesson_->steps[step_];
    QStringList args;
    for (const auto& w : stepWords(step)) args << qs(w);
    if (!args.contains(QStringLiteral("--json"))) args << QStringLiteral("--json");
    status_->setText(tr("Step %1 of %2: checking what the text says it shows").arg(step_ + 1).arg(lesson_->steps.size()));
    process_ = new QProcess(this);
    process_->setProcessChannelMode(QProcess::SeparateChannels);  // stderr's notes are no JSON
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        const QByteArray json = process_->readAllStandardOutput();
        process_->deleteLater();
        process_ = nullptr;
        claimsChecked(json, status == QProcess::NormalExit ? code : -1);
    });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        process_->deleteLater();
        process_ = nullptr;
        claimsChecked({}, -1);
    });
    process_->start(cliProgram(), args);
}

void LessonBrowser::claimsChecked(const QByteArray& json, int exitCode) {
    const LessonStep& step = lesson_->steps[step_];
    const auto doc = nlohmann::json::parse(json.constData(), json.constData() + json.size(), nullptr, false);
    QString& lines = output_.back().checks;
    if (doc.is_discarded()) {
        lines = tr("cannot check them: its --json output is not JSON (exit status %1)\n").arg(exitCode);
        claimsFailed_ += int(step.claims.size());
    } else {
        for (const LessonClaim& claim : step.claims) {
            const ClaimCheck c = checkLessonClaim(claim, doc);
            (c.holds ? claimsHeld_ : claimsFailed_)++;
            lines += qs(claimCheckLine(claim, c)) + QLatin1Char('\n');
        }
    }
    ++step_;
    refreshText();
    startStep();
}

void LessonBrowser::stopSteps() {
    if (!process_) return;
    QProcess* p = process_;
    process_ = nullptr;
    p->disconnect(this);
    p->kill();  // the finished signal is ours no more; the process object reaps the child
    connect(p, &QProcess::finished, p, &QObject::deleteLater);
    if (!output_.empty()) {
        output_.back().text += tr("\n[stopped]");
        output_.back().exitCode = -1;
    }
    steps_->setText(tr("Run steps"));
    status_->setText(tr("Stopped."));
    refreshText();
}

}  // namespace schedscope::gui
