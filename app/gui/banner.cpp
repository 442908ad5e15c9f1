#include "banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace schedscope::gui {

Banner::Banner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("banner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    label_ = new QLabel(this);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setTextFormat(Qt::PlainText);
    label_->setWordWrap(false);
    label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    action_ = new QPushButton(this);
    action_->hide();
    connect(action_, &QPushButton::clicked, this, [this] {
        auto f = onAction_;
        hide();
        if (f) f();
    });
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 2, 2, 2);
    layout->addWidget(label_, 1);
    layout->addWidget(action_);
    layout->addWidget(close);
    hide();
}

void Banner::showMessage(const QString& text, bool error) {
    error_ = error;
    onAction_ = {};
    action_->hide();
    label_->setText(text);
    label_->setToolTip(text);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, error ? QColor(0xfd, 0xe2, 0xe1) : QColor(0xe3, 0xef, 0xfb));
    pal.setColor(QPalette::WindowText, error ? QColor(0x8a, 0x10, 0x10) : QColor(0x10, 0x3a, 0x6a));
    setPalette(pal);
    label_->setPalette(pal);
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

QString Banner::text() const { return label_->text(); }

}  // namespace schedscope::gui
