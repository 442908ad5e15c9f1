#include "domain_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <set>

#include "domains/domain_builder.h"
#include "qt_convert.h"

namespace schedscope::gui {

DomainControls::DomainControls(QWidget* parent) : QToolBar(tr("Domains"), parent) {
    setObjectName(QStringLiteral("domainControls"));
    cls_ = new QCheckBox(tr("CLS"), this);
    cls_->setToolTip(tr("Build the cluster level (CONFIG_SCHED_CLUSTER, kernels 5.16+)"));
    node_ = new QCheckBox(tr("NODE"), this);
    node_->setToolTip(tr("Build the NUMA identity NODE level (kernels 4.15+)"));
    profile_ = new QComboBox(this);
    profile_->setObjectName(QStringLiteral("profile"));
    profile_->setToolTip(tr("Kernel version whose rules and names are used"));
    // grows with the entry added for a kernel between the named profiles ("linux-6.18.44"):
    // sized once at first show, the box cut its name off
    profile_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const auto& p : kernelProfiles()) profile_->addItem(qs(p.name), qs(p.name));
    profile_->setCurrentIndex(profile_->findData(qs(defaultProfile().name)));
    fitProfileBox();
    // the what-if text fields: named for tests, with an example and a width for a few entries
    auto cpuListField = [this](const QString& name, const QString& example, const QString& tip, int width) {
        auto* field = new QLineEdit(this);
        field->setObjectName(name);
        field->setPlaceholderText(example);
        field->setToolTip(tip);
        field->setMaximumWidth(width);
        return field;
    };
    isolate_ = cpuListField(QStringLiteral("isolate"), tr("e.g. 2-3"),
                            tr("CPUs to leave without sched domains, as isolcpus=domain or an isolated cpuset partition "
                               "would (added to the input's)"),
                            110);
    partitions_ = cpuListField(QStringLiteral("partitions"), tr("e.g. 8-15; 0-1"),
                               tr("cpuset root partitions, each built as a root domain of its own (CPU lists separated "
                                  "by ';'; in place of the input's)"),
                               160);
    distances_ = cpuListField(QStringLiteral("distances"), tr("e.g. 10,20;20,10"),
                              tr("A NUMA distance table (SLIT) in place of the input's: a row per node in node-id order, "
                                 "rows separated by ';' (as --numa-distances)"),
                              170);
    level_ = new QComboBox(this);
    level_->setToolTip(tr("Domain level highlighted in the topology view"));
    level_->setMinimumContentsLength(14);
    level_->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    addWidget(cls_);
    addWidget(node_);
    addSeparator();
    addWidget(new QLabel(tr(" Profile "), this));
    addWidget(profile_);
    addSeparator();
    addWidget(new QLabel(tr(" Isolate "), this));
    addWidget(isolate_);
    addWidget(new QLabel(tr(" Partitions "), this));
    addWidget(partitions_);
    addWidget(new QLabel(tr(" Distances "), this));
    addWidget(distances_);
    addSeparator();
    addWidget(new QLabel(tr(" Level "), this));
    addWidget(level_);

    setChoices(DomainChoices{});
    auto changed = [this] { emit choicesChanged(choices()); };
    connect(cls_, &QCheckBox::toggled, this, changed);
    connect(node_, &QCheckBox::toggled, this, changed);
    // a profile the user picks is a pick, even the one the loader had chosen
    connect(profile_, &QComboBox::currentIndexChanged, this, [this, changed] {
        profileFromInput_.clear();
        changed();
    });
    // a rebuild when the user is done typing, not on every key
    for (QLineEdit* edit : {isolate_, partitions_, distances_})
        connect(edit, &QLineEdit::editingFinished, this, [this, edit, changed] {
            if (edit->isModified()) {
                edit->setModified(false);
                changed();
            }
        });
    connect(level_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) emit levelPicked(level_->itemData(i).toInt());
    });
}

DomainChoices DomainControls::choices() const {
    DomainChoices c;
    c.cls = cls_->isChecked();
    c.node = node_->isChecked();
    const QString p = profile_->currentData().toString();
    c.profile = p == qs(defaultProfile().name) ? std::string{} : ss(p);
    c.profileFromInput = !profileFromInput_.isEmpty() && p == profileFromInput_;
    c.isolate = ss(isolate_->text().trimmed());
    c.partitions = ss(partitions_->text().trimmed());
    c.distances = ss(distances_->text().trimmed());
    return c;
}

void DomainControls::setChoices(const DomainChoices& c) {
    const QSignalBlocker b1(cls_), b2(node_), b3(profile_);
    cls_->setChecked(c.cls);
    node_->setChecked(c.node);
    isolate_->setText(qs(c.isolate));
    partitions_->setText(qs(c.partitions));
    distances_->setText(qs(c.distances));
    // a kernel between the named profiles (a trace from 6.11, this machine's 5.18) gets an entry
    // of its own, named after its last change ("linux-6.10"): the box shows what the domains are
    // built under
    const KernelProfile* p = findProfile(c.profile.empty() ? defaultProfile().name : c.profile);
    const QString name = p ? qs(p->name) : QString();
    int i = profile_->findData(name);
    if (i < 0 && p) {
        profile_->addItem(name, name);
        i = profile_->count() - 1;
        profile_->setItemData(i, qs(p->description), Qt::ToolTipRole);
        fitProfileBox();
    }
    if (i >= 0) profile_->setCurrentIndex(i);
    profileFromInput_ = c.profileFromInput ? name : QString();
}

// A narrow window's toolbar squeezes its widgets to their minimum size, and the box's minimum
// is its longest entry when first asked (QComboBox keeps it when entries are added): at 800 px
// "linux-6.18.33" showed as "linux-6.18.3", another version. Its minimum is its widest entry; what
// does not fit goes behind the toolbar's extension button, whole.
void DomainControls::fitProfileBox() {
    profile_->setMinimumWidth(profile_->sizeHint().width());
}

void DomainControls::setSession(const SessionPtr& session) {
    const QSignalBlocker block(level_);
    const int keep = level_->currentData().isValid() ? level_->currentData().toInt() : -1;
    level_->clear();
    cls_->setEnabled(true);
    node_->setEnabled(true);
    cls_->setToolTip(tr("Build the cluster level (CONFIG_SCHED_CLUSTER, kernels 5.16+)"));
    node_->setToolTip(tr("Build the NUMA identity NODE level (kernels 4.15+)"));
    if (!session || !session->tree) return;
    // a level this arch or kernel never builds: the box stays as the user left it, greyed out
    const DomainTree& tree = *session->tree;
    const KernelProfile& kernel = tree.profile ? *tree.profile : defaultProfile();
    for (auto [box, level] : {std::pair{cls_, "CLS"}, {node_, "NODE"}}) {
        const std::string why = levelNeverBuilt(level, tree.arch, kernel);
        if (why.empty()) continue;
        box->setEnabled(false);
        box->setToolTip(qs(why));
    }
    std::set<int> present;  // levels some CPU still has after pruning
    for (const auto& c : session->tree->cpus)
        for (const auto& d : c.domains) present.insert(d.topologyLevel);
    const auto& levels = session->tree->levels;
    for (int l : present) {
        if (l < 0 || l >= int(levels.size())) continue;
        const auto& info = levels[size_t(l)];
        QString name = qs(info.name);
        if (info.numaLevel >= 0 && info.numaDistance > 0) name += tr(" (distance %1)").arg(info.numaDistance);
        level_->addItem(name, l);
    }
    const int i = level_->findData(keep);
    level_->setCurrentIndex(i >= 0 ? i : 0);
}

void DomainControls::setLevel(int topologyLevel) {
    const QSignalBlocker block(level_);
    const int i = level_->findData(topologyLevel);
    if (i >= 0) level_->setCurrentIndex(i);
}

}  // namespace schedscope::gui
