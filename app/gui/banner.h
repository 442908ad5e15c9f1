#pragma once
// Banner: a one-line message strip under the menu bar for load errors and notices. It never
// replaces what is open; the close button hides it.
#include <QFrame>

class QLabel;

namespace schedscope::gui {

class Banner : public QFrame {
    Q_OBJECT
public:
    explicit Banner(QWidget* parent = nullptr);
    void showError(const QString& text);
    void showNotice(const QString& text);
    QString text() const;
    bool isError() const { return error_; }

private:
    void showMessage(const QString& text, bool error);
    QLabel* label_;
    bool error_ = false;
};

}  // namespace schedscope::gui
