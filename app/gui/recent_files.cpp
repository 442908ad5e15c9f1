#include "recent_files.h"

#include <QSettings>

namespace schedscope::gui {
namespace {
const QString kKey = QStringLiteral("recentFiles");
}

QStringList RecentFiles::list() { return QSettings().value(kKey).toStringList(); }

void RecentFiles::add(const QString& path) {
    QStringList l = list();
    l.removeAll(path);
    l.prepend(path);
    while (l.size() > kMax) l.removeLast();
    QSettings().setValue(kKey, l);
}

void RecentFiles::remove(const QString& path) {
    QStringList l = list();
    l.removeAll(path);
    QSettings().setValue(kKey, l);
}

void RecentFiles::clear() { QSettings().remove(kKey); }

}  // namespace schedscope::gui
