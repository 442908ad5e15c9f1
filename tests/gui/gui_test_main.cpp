// Widget tests need a QApplication; without a display they use the offscreen platform.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QTemporaryDir>
#include <cstdio>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        const QString runtime = QDir::tempPath() + QStringLiteral("/schedscope-gui-tests/runtime");
        QDir().mkpath(runtime);
        QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", runtime.toLocal8Bit());
    }
    // Settings (recent files, window state) and the cache (lesson figures rendered on demand)
    // are this process's own, whatever the environment says: they never touch the user's, and
    // tests running at once (ctest -j, two build trees) never read each other's recent files
    // or half-written figures. The binaries the tests start inherit them.
    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/schedscope-gui-test-XXXXXX"));
    if (!scratch.isValid()) {
        std::fprintf(stderr, "gui_tests: cannot create a scratch directory in %s\n", qPrintable(QDir::tempPath()));
        return 1;
    }
    qputenv("XDG_CONFIG_HOME", scratch.filePath(QStringLiteral("config")).toLocal8Bit());
    qputenv("XDG_CACHE_HOME", scratch.filePath(QStringLiteral("cache")).toLocal8Bit());
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("schedscope-tests"));
    QApplication::setApplicationName(QStringLiteral("schedscope-tests"));
    return RUN_ALL_TESTS();
}
