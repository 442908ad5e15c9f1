// Each widget-test process keeps its settings (the recent files list, window state) to itself:
// with ctest -j two tests that open files ran at once, and one read the other's recent file
// where it expected its own. A child of this binary (SettingsIsolationChild.*, not listed to
// ctest) writes a recent file; this process must not see it, and must not share its file.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QProcess>
#include <QSettings>

#include "recent_files.h"

namespace schedscope::gui {
namespace {

const char* const kChildVariable = "SCHEDSCOPE_SETTINGS_CHILD";

TEST(SettingsIsolation, AnotherTestProcessNeitherSharesNorChangesOurSettings) {
    RecentFiles::clear();
    RecentFiles::add(QStringLiteral("/ours.xml"));
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();  // our XDG_CONFIG_HOME included
    env.insert(QString::fromLatin1(kChildVariable), QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--gtest_filter=SettingsIsolationChild.*")});
    ASSERT_TRUE(child.waitForFinished(60'000)) << child.errorString().toStdString();
    const QString out = QString::fromLocal8Bit(child.readAllStandardOutput());
    ASSERT_EQ(child.exitCode(), 0) << out.toStdString();
    const QString marker = QStringLiteral("settings file: ");
    const qsizetype at = out.indexOf(marker);
    ASSERT_GE(at, 0) << "the child did not run: " << out.toStdString();
    const QString childFile = out.mid(at + marker.size()).section(QLatin1Char('\n'), 0, 0);
    EXPECT_NE(childFile.toStdString(), QSettings().fileName().toStdString());
    EXPECT_EQ(RecentFiles::list().join(QLatin1Char(' ')).toStdString(), "/ours.xml");
}

// Runs only as the child above.
TEST(SettingsIsolationChild, WritesARecentFile) {
    if (qEnvironmentVariableIsEmpty(kChildVariable)) GTEST_SKIP() << "run by SettingsIsolation.*";
    RecentFiles::add(QStringLiteral("/theirs.xml"));
    std::printf("settings file: %s\n", qPrintable(QSettings().fileName()));
}

}  // namespace
}  // namespace schedscope::gui
