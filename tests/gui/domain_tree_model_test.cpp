// DomainTreeModel under QAbstractItemModelTester, over real topologies: an hwloc synthetic one
// and a sysfs snapshot from the oracle fixtures.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QStringList>

#include "domain_tree_model.h"
#include "gui_test_util.h"
#include "support/fixtures.h"

namespace schedscope::gui {
namespace {

// Collects the tester's complaints (it reports through qWarning in Warning mode).
QStringList* g_failures = nullptr;
void captureWarnings(QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (g_failures && type != QtDebugMsg && type != QtInfoMsg) g_failures->append(msg);
}

struct WarningCapture {
    QStringList failures;
    QtMessageHandler previous;
    WarningCapture() {
        g_failures = &failures;
        previous = qInstallMessageHandler(captureWarnings);
    }
    ~WarningCapture() {
        qInstallMessageHandler(previous);
        g_failures = nullptr;
    }
};

SessionPtr oracleSession(const std::string& name, Arch arch) {
    const std::string root = schedscope::test::extractFixture("oracle/" + name + "/sysfs.tar.xz");
    TopologySpec spec;
    spec.kind = TopologySpec::Kind::SysfsRoot;
    spec.value = root;
    spec.arch = arch;
    spec.archGiven = true;
    return test::loadNow(spec);
}

TEST(DomainTreeModel, PassesTheModelTesterThroughResets) {
    WarningCapture capture;
    DomainTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);

    auto synthetic = test::loadNow(test::syntheticSpec());
    ASSERT_TRUE(synthetic);
    model.setSession(synthetic);
    auto kunpeng = oracleSession("arm64-kunpeng-1s2n-4cl-dt", Arch::Arm64);
    ASSERT_TRUE(kunpeng);
    model.setSession(kunpeng);
    auto smt = oracleSession("x86-2s8c2t", Arch::X86_64);
    ASSERT_TRUE(smt);
    model.setSession(smt);
    model.setSession(nullptr);
    model.setSession(synthetic);
    EXPECT_TRUE(capture.failures.isEmpty()) << capture.failures.join(QLatin1Char('\n')).toStdString();
}

TEST(DomainTreeModel, WalksEveryIndexConsistently) {
    DomainTreeModel model;
    model.setSession(test::loadNow(test::syntheticSpec()));
    int visited = 0;
    auto walk = [&](const QModelIndex& parent, auto&& self) -> void {
        for (int r = 0; r < model.rowCount(parent); ++r) {
            for (int c = 0; c < model.columnCount(parent); ++c) {
                const QModelIndex i = model.index(r, c, parent);
                ASSERT_TRUE(i.isValid());
                ASSERT_EQ(model.parent(i), parent);
                ++visited;
            }
            self(model.index(r, 0, parent), self);
        }
    };
    walk(QModelIndex(), walk);
    // 64 CPUs x (1 + 4 domains + 2+4+2+4 groups) rows, all columns.
    EXPECT_EQ(visited, 64 * (1 + 4 + 12) * DomainTreeModel::ColumnCount);
}

TEST(DomainTreeModel, ShowsLevelsSpansGroupsAndParameters) {
    DomainTreeModel model;
    model.setSession(test::loadNow(test::syntheticSpec()));
    ASSERT_EQ(model.rowCount(), 64);
    const QModelIndex cpu0 = model.index(0, 0);
    EXPECT_EQ(cpu0.data().toString(), QStringLiteral("CPU 0"));
    ASSERT_EQ(model.rowCount(cpu0), 4);
    QStringList levels;
    for (int r = 0; r < 4; ++r) levels << model.index(r, 0, cpu0).data().toString();
    EXPECT_EQ(levels, (QStringList{QStringLiteral("SMT"), QStringLiteral("MC"), QStringLiteral("NODE (distance 10)"),
                                   QStringLiteral("NUMA (distance 20)")}));
    const QModelIndex mc = model.index(1, 0, cpu0);
    EXPECT_EQ(model.index(1, DomainTreeModel::SpanColumn, cpu0).data().toString(), QStringLiteral("0-7"));
    EXPECT_EQ(model.index(1, DomainTreeModel::GroupsColumn, cpu0).data().toInt(), 4);
    EXPECT_EQ(model.index(1, DomainTreeModel::ImbalanceColumn, cpu0).data().toInt(), 117);
    EXPECT_TRUE(model.index(1, DomainTreeModel::FlagsColumn, cpu0).data().toString().contains(QStringLiteral("SHARE_LLC")));
    // what sets a level apart leads; the balance flags every level has follow
    EXPECT_EQ(model.index(0, DomainTreeModel::FlagsColumn, cpu0).data().toString(),
              QStringLiteral("SHARE_CPUCAPACITY SHARE_LLC PREFER_SIBLING BALANCE_NEWIDLE BALANCE_EXEC BALANCE_FORK WAKE_AFFINE"));
    EXPECT_TRUE(model.index(3, DomainTreeModel::FlagsColumn, cpu0).data().toString().startsWith(QStringLiteral("SERIALIZE")))
        << model.index(3, DomainTreeModel::FlagsColumn, cpu0).data().toString().toStdString();
    EXPECT_TRUE(model.index(1, DomainTreeModel::FlagsColumn, cpu0).data(Qt::ToolTipRole).toString().contains(
        QStringLiteral("SD_SHARE_LLC")));
    ASSERT_EQ(model.rowCount(mc), 4);
    EXPECT_EQ(model.index(0, 0, mc).data().toString(), QStringLiteral("group 0 (local)"));
    EXPECT_EQ(model.index(2, DomainTreeModel::SpanColumn, mc).data().toString(), QStringLiteral("4-5"));
    // a span a narrow column cuts is whole in its tooltip
    EXPECT_EQ(model.index(2, DomainTreeModel::SpanColumn, mc).data(Qt::ToolTipRole).toString(), QStringLiteral("4-5"));
    EXPECT_EQ(model.index(2, DomainTreeModel::CapacityColumn, mc).data().toUInt(), 2048u);
    // Roles used to keep the views in step.
    EXPECT_EQ(model.index(2, 0, mc).data(DomainTreeModel::CpuRole).toInt(), 0);
    EXPECT_EQ(model.index(2, 0, mc).data(DomainTreeModel::GroupIndexRole).toInt(), 2);
    const int mcLevel = mc.data(DomainTreeModel::TopologyLevelRole).toInt();
    EXPECT_EQ(model.domainIndex(0, mcLevel), mc);
    EXPECT_EQ(model.domainIndex(37, mcLevel).data(DomainTreeModel::CpuRole).toInt(), 37);
    EXPECT_FALSE(model.domainIndex(0, 99).isValid());
    EXPECT_FALSE(model.cpuIndex(64).isValid());
}

TEST(DomainTreeModel, EmptyWithoutASession) {
    DomainTreeModel model;
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_FALSE(model.index(0, 0).isValid());
    EXPECT_EQ(model.columnCount(), DomainTreeModel::ColumnCount);
    EXPECT_EQ(model.headerData(DomainTreeModel::ImbalanceColumn, Qt::Horizontal).toString(), QStringLiteral("imbalance_pct"));
}

}  // namespace
}  // namespace schedscope::gui
