#pragma once
// Banner: the message strip under the menu bar. One row for a message (a load error, a notice,
// an offer with its button) and below it a row per open thing's standing notices (what the
// open topology's input set aside, what the open trace's reader found wrong). A message never
// replaces a standing notice: a failed open leaves the open trace and what the banner said of
// it. Standing notices change only when their owner shows something else. The close button
// hides the strip and drops the message; the notices show again when they change.
#include <QFrame>
#include <functional>

class QLabel;
class QPushButton;

namespace schedscope::gui {

class Banner : public QFrame {
    Q_OBJECT
public:
    // Whose standing notices: each open thing keeps its own row.
    enum class Topic { Topology, Trace };

    explicit Banner(QWidget* parent = nullptr);
    void showError(const QString& text);
    void showNotice(const QString& text);
    // A notice with one button that runs `action` (and drops the message).
    void showNotice(const QString& text, const QString& actionText, std::function<void()> action);
    // Drops the message row; the standing notices stay.
    void clearMessage();
    // The standing notices of `topic`: what applies to the one open now. "" drops them.
    void setNotices(Topic topic, const QString& text);
    QString notices(Topic topic) const;

    QPushButton* actionButton() const { return action_; }
    QString message() const;  // the message row ("" when none)
    // All the banner says: the message, then each topic's notices, a line each.
    QString text() const;
    bool isError() const { return error_ && !message().isEmpty(); }

private:
    void showMessage(const QString& text, bool error);
    // rows with text shown, the rest hidden; the strip hidden when no row has any
    void updateRows();
    QLabel* label_;
    QPushButton* action_;
    QLabel* notices_[2];  // by Topic
    std::function<void()> onAction_;
    bool error_ = false;
};

}  // namespace schedscope::gui
