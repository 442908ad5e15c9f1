// The builder's domains against a kernel's own: the running one's (debugfs) or another
// machine's from its saved sched_verbose log. Both read on a worker (debugfs can stall, a
// 4096-CPU log is hundreds of MiB) and show the differences in one dialog.
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "banner.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "main_window.h"
#include "qt_convert.h"
#include "session_loader.h"

namespace schedscope::gui {
namespace {

struct DiffResult {
    QString error;
    QStringList differences;
    QStringList notes;  // what is no difference but needs saying (a log's IRQ-time capacities)
};

}  // namespace

void MainWindow::diffAgainstKernel() {
    if (!session_) {
        banner_->showError(tr("Diff against the running kernel: nothing is open"));
        bannerIsLoadError_ = false;
        return;
    }
    const auto& spec = session_->spec;
    const bool local = spec.kind == TopologySpec::Kind::Local ||
                       (spec.kind == TopologySpec::Kind::SysfsRoot && QFileInfo(qs(spec.value)).canonicalFilePath() == QLatin1String("/"));
    if (!local) {
        banner_->showError(tr("Diff against the running kernel is unavailable: the open topology is %1, not this machine "
                              "(File \u25b8 Open this machine)").arg(qs(spec.describe())));
        bannerIsLoadError_ = false;
        return;
    }
    showKernelDiff(tr("the running kernel"), [] { return readKernelDomains("/"); });
}

void MainWindow::diffAgainstKernelLog(const QString& path) {
    if (!session_) {
        banner_->showError(tr("Diff against a kernel log: nothing is open"));
        bannerIsLoadError_ = false;
        return;
    }
    // any topology: the log is of the machine the open topology describes, as the user says
    showKernelDiff(tr("the kernel log %1").arg(QFileInfo(path).fileName()),
                   [file = path.toStdString()] { return readKernelLog(file); });
}

void MainWindow::chooseKernelLogToDiff() {
    const QString path = QFileDialog::getOpenFileName(this, tr("A kernel log with its sched_verbose lines (dmesg)"), QString(),
                                                      tr("Kernel logs (*.txt *.log dmesg*);;All files (*)"));
    if (!path.isEmpty()) diffAgainstKernelLog(path);
}

void MainWindow::showKernelDiff(const QString& kernel, std::function<Result<DomainTree>()> read) {
    auto* watcher = new QFutureWatcher<DiffResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, kernel] {
        watcher->deleteLater();
        const DiffResult r = watcher->result();
        if (!r.error.isEmpty()) {
            banner_->showError(tr("Diff against %1 is unavailable: %2").arg(kernel, r.error));
            bannerIsLoadError_ = false;
            return;
        }
        auto* dlg = new QDialog(this);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        dlg->setWindowTitle(tr("Built domains vs %1").arg(kernel));
        auto* text = new QPlainTextEdit(dlg);
        text->setObjectName(QStringLiteral("differences"));
        text->setReadOnly(true);
        text->setPlainText(r.differences.isEmpty() ? tr("Identical: the builder matches %1 on every CPU.").arg(kernel)
                                                   : r.differences.join(QLatin1Char('\n')));
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dlg);
        connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
        auto* layout = new QVBoxLayout(dlg);
        layout->addWidget(new QLabel(tr("%n difference(s)", nullptr, int(r.differences.size())), dlg));
        if (!r.notes.isEmpty()) {
            auto* notes = new QLabel(tr("Note: %1.").arg(r.notes.join(QStringLiteral("; "))), dlg);
            notes->setObjectName(QStringLiteral("diffNotes"));
            notes->setWordWrap(true);
            layout->addWidget(notes);
        }
        layout->addWidget(text);
        layout->addWidget(buttons);
        dlg->resize(720, 420);
        dlg->show();
    });
    watcher->setFuture(QtConcurrent::run([tree = session_->tree, read = std::move(read)]() -> DiffResult {
        auto kernelTree = read();
        if (!kernelTree) return {qs(kernelTree.error()), {}};
        std::vector<std::string> notes;
        auto differences = diffDomainTrees(*tree, *kernelTree, &notes);
        return {{}, qsList(differences), qsList(notes)};
    }));
}

}  // namespace schedscope::gui
