#pragma once
// Progress from a worker thread to the GUI thread, at a pace a status bar can show: every stage
// (a report with text) and the last step always arrive, in order and before the work's result;
// steps in between at most every 40 ms. QFuture's own progress drops steps by timing alone: a
// fast load showed none of its stages, and a watcher connected after the worker had started
// missed the first ones (a flaky test, and a status bar stuck on the wrong stage).
//
// One relay per piece of work: made on the GUI thread, `report()` called by the worker, and
// `reported` delivered queued on the GUI thread. Delete it (deleteLater) once the work's result
// has arrived: every report was queued before the result.
#include <QElapsedTimer>
#include <QObject>
#include <QString>

namespace schedscope::gui {

class ProgressRelay : public QObject {
    Q_OBJECT
public:
    ProgressRelay(int maximum, QObject* parent);

    // From the worker. A report with text starts a stage, which later steps keep showing.
    void report(int value, const QString& stage = {});

signals:
    void reported(int value, const QString& stage);

private:
    int maximum_;
    QString stage_;
    int lastSent_ = -1;
    QElapsedTimer sinceSent_;
};

}  // namespace schedscope::gui
