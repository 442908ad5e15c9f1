#pragma once
// DomainControls: the toolbar that rebuilds the domains (CLS and NODE toggles, kernel profile,
// what-if cpusets: CPUs to isolate, root partitions) and picks the domain level the topology
// view highlights.
#include <QToolBar>

#include "session.h"

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace schedscope::gui {

class DomainControls : public QToolBar {
    Q_OBJECT
public:
    explicit DomainControls(QWidget* parent = nullptr);

    DomainChoices choices() const;
    void setChoices(const DomainChoices& c);     // no signal
    void setSession(const SessionPtr& session);  // refills the level list

public slots:
    void setLevel(int topologyLevel);  // no signal

signals:
    void choicesChanged(const schedscope::gui::DomainChoices& choices);
    void levelPicked(int topologyLevel);

private:
    void fitProfileBox();  // the profile box no narrower than its widest entry

    QCheckBox* cls_;
    QCheckBox* node_;
    QComboBox* profile_;
    QLineEdit* isolate_;
    QLineEdit* partitions_;
    QLineEdit* distances_;
    QComboBox* level_;
    // the profile the loader chose for the shown input (DomainChoices::profileFromInput), while
    // the box still shows it: empty when the user picked the one shown
    QString profileFromInput_;
};

}  // namespace schedscope::gui
