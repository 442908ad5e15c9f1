#include "banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace schedscope::gui {
namespace {
const QColor kErrorFill(0xfd, 0xe2, 0xe1), kErrorText(0x8a, 0x10, 0x10);
const QColor kNoticeFill(0xe3, 0xef, 0xfb), kNoticeText(0x10, 0x3a, 0x6a);

QLabel* newRow(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setTextFormat(Qt::PlainText);
    // Wrapped, not cut: a notice's remedy is often at its end, and a strip cut at the window's
    // edge hid it mid-word. Ignored across so a long row never widens the window; the policy is
    // set first because word wrap adds height-for-width to it, which makes the strip grow.
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    label->setWordWrap(true);
    label->hide();
    return label;
}

void paint(QWidget* w, const QColor& fill, const QColor& text) {
    QPalette pal = w->palette();
    pal.setColor(QPalette::Window, fill);
    pal.setColor(QPalette::WindowText, text);
    w->setPalette(pal);
}
}  // namespace

Banner::Banner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("banner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    paint(this, kNoticeFill, kNoticeText);
    label_ = newRow(this);
    for (QLabel*& row : notices_) row = newRow(this);
    action_ = new QPushButton(this);
    action_->hide();
    connect(action_, &QPushButton::clicked, this, [this] {
        auto f = onAction_;
        clearMessage();
        if (f) f();
    });
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    connect(close, &QToolButton::clicked, this, [this] {
        clearMessage();
        hide();
    });
    auto* rows = new QVBoxLayout;
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(1);
    rows->addWidget(label_);
    for (QLabel* row : notices_) rows->addWidget(row);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 2, 2, 2);
    layout->addLayout(rows, 1);
    layout->addWidget(action_, 0, Qt::AlignTop);
    layout->addWidget(close, 0, Qt::AlignTop);
    hide();
}

void Banner::showMessage(const QString& text, bool error) {
    error_ = error;
    onAction_ = {};
    action_->hide();
    label_->setText(text);
    label_->setToolTip(text);
    // the strip takes the message's colours; a notice row under an error keeps the notice's
    paint(this, error ? kErrorFill : kNoticeFill, error ? kErrorText : kNoticeText);
    for (QLabel* row : notices_) paint(row, kNoticeFill, kNoticeText);
    for (QLabel* row : notices_) row->setAutoFillBackground(error);
    updateRows();
    show();
}

void Banner::showError(const QString& text) { showMessage(text, true); }
void Banner::showNotice(const QString& text) { showMessage(text, false); }
void Banner::showNotice(const QString& text, const QString& actionText, std::function<void()> action) {
    showMessage(text, false);
    onAction_ = std::move(action);
    action_->setText(actionText);
    action_->show();
}

void Banner::clearMessage() {
    onAction_ = {};
    action_->hide();
    label_->clear();
    error_ = false;
    paint(this, kNoticeFill, kNoticeText);
    for (QLabel* row : notices_) row->setAutoFillBackground(false);
    updateRows();
}

void Banner::setNotices(Topic topic, const QString& text) {
    QLabel* row = notices_[int(topic)];
    if (row->text() == text) return;  // unchanged: a strip the user closed stays closed
    row->setText(text);
    row->setToolTip(text);
    updateRows();
    if (!text.isEmpty()) show();
}

QString Banner::notices(Topic topic) const { return notices_[int(topic)]->text(); }

void Banner::updateRows() {
    bool any = false;
    for (QLabel* row : {label_, notices_[0], notices_[1]}) {
        row->setVisible(!row->text().isEmpty());
        any = any || !row->text().isEmpty();
    }
    if (!any) hide();
}

QString Banner::message() const { return label_->text(); }

QString Banner::text() const {
    QStringList lines;
    for (const QLabel* row : {label_, notices_[0], notices_[1]})
        if (!row->text().isEmpty()) lines << row->text();
    return lines.join(QLatin1Char('\n'));
}

}  // namespace schedscope::gui
