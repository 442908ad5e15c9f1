// Widget tests need a QApplication; without a display they use the offscreen platform.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    const QString scratch = QDir::tempPath() + QStringLiteral("/schedscope-gui-tests");
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        QDir().mkpath(scratch + QStringLiteral("/runtime"));
        QFile::setPermissions(scratch + QStringLiteral("/runtime"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", (scratch + QStringLiteral("/runtime")).toLocal8Bit());
    }
    // Recent files and window state must not touch the user's settings.
    if (qEnvironmentVariableIsEmpty("XDG_CONFIG_HOME")) qputenv("XDG_CONFIG_HOME", (scratch + QStringLiteral("/config")).toLocal8Bit());
    // Nor the user's cache (the lesson browser renders figures there).
    if (qEnvironmentVariableIsEmpty("XDG_CACHE_HOME")) qputenv("XDG_CACHE_HOME", (scratch + QStringLiteral("/cache")).toLocal8Bit());
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("schedscope-tests"));
    QApplication::setApplicationName(QStringLiteral("schedscope-tests"));
    return RUN_ALL_TESTS();
}
