#pragma once
// std::string <-> QString at the boundary between the Qt-free core and the widgets.
#include <QString>
#include <QStringList>
#include <string>
#include <vector>

namespace schedscope::gui {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline std::string ss(const QString& s) { return s.toStdString(); }
inline QStringList qsList(const std::vector<std::string>& v) {
    QStringList out;
    out.reserve(static_cast<qsizetype>(v.size()));
    for (const auto& s : v) out << qs(s);
    return out;
}

}  // namespace schedscope::gui
