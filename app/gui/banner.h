#pragma once
// Banner: a one-line message strip under the menu bar for load errors and notices. It never
// replaces what is open; the close button hides it.
#include <QFrame>
#include <functional>

class QLabel;
class QPushButton;

namespace schedscope::gui {

class Banner : public QFrame {
    Q_OBJECT
public:
    explicit Banner(QWidget* parent = nullptr);
    void showError(const QString& text);
    void showNotice(const QString& text);
    // A notice with one button that runs `action` (and hides the banner).
    void showNotice(const QString& text, const QString& actionText, std::function<void()> action);
    QPushButton* actionButton() const { return action_; }
    QString text() const;
    bool isError() const { return error_; }

private:
    void showMessage(const QString& text, bool error);
    QLabel* label_;
    QPushButton* action_;
    std::function<void()> onAction_;
    bool error_ = false;
};

}  // namespace schedscope::gui
