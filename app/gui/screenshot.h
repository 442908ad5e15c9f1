#pragma once
// `schedscope --screenshot OUT.png [--view NAME] [--size WxH] [inputs]`: open the inputs in an
// unmapped window, wait for the load (and a lesson's what-if run), write the picture and
// return the exit code. ScreenshotJob is the same thing without a nested event loop, for the
// lesson browser's figures rendered while the application runs.
#include <QObject>
#include <QTimer>
#include <memory>

#include "launch_options.h"

namespace schedscope::gui {

class MainWindow;

class ScreenshotJob : public QObject {
    Q_OBJECT
public:
    explicit ScreenshotJob(LaunchOptions options, QObject* parent = nullptr);
    ~ScreenshotJob() override;
    void start();
    const LaunchOptions& options() const { return options_; }

signals:
    // exitCode as runScreenshot returns it; message: empty, or one line saying what went wrong.
    void finished(int exitCode, const QString& message);

private:
    bool busy() const;  // a load, what-if run, figure rendering or trace load is under way
    void check();
    void complete();

    LaunchOptions options_;
    std::unique_ptr<MainWindow> window_;
    QTimer timeout_;
    QTimer settle_;
    bool completing_ = false;
};

// Needs a QApplication. Returns 0 on success, 1 when the load failed (the image is still
// written, showing the error banner) or the file could not be written.
int runScreenshot(const LaunchOptions& options);

}  // namespace schedscope::gui
