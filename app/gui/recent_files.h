#pragma once
// Recently opened topology files (hwloc XML exports and sysfs snapshot directories) in QSettings.
#include <QStringList>

namespace schedscope::gui {

class RecentFiles {
public:
    static constexpr int kMax = 8;
    static QStringList list();
    static void add(const QString& path);  // moves it to the front
    static void remove(const QString& path);
    static void clear();
};

}  // namespace schedscope::gui
