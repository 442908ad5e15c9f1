#pragma once
// Helpers shared by the widget tests.
#include <QImage>
#include <QSet>
#include <QSignalSpy>
#include <QString>

#include "main_window.h"
#include "session_loader.h"
#include "topology/hwloc_loader.h"

namespace schedscope::gui::test {

inline const std::string kSynthetic = "pack:2 numa:2 l3:2 core:4 pu:2";  // 64 CPUs, 4 nodes

inline TopologySpec syntheticSpec(const std::string& s = kSynthetic) {
    TopologySpec spec;
    spec.kind = TopologySpec::Kind::Synthetic;
    spec.value = s;
    spec.arch = Arch::X86_64;
    spec.archGiven = true;
    return spec;
}

// Loads synchronously through the same worker function the GUI uses.
inline SessionPtr loadNow(const TopologySpec& spec, const DomainChoices& choices = {}) {
    auto out = loadSession(spec, choices);
    return out.session;
}

// At least this many distinct colours (distinctColours()): a view drew its picture, not a blank.
inline constexpr int kManyColours = 40;

inline int distinctColours(const QImage& image) {
    QSet<QRgb> seen;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) seen.insert(img.pixel(x, y));
    return int(seen.size());
}

// With SCHEDSCOPE_TEST_SHOTS=DIR set, tests save the pictures they check there for a human
// to look at.
inline void keepShot(const QImage& image, const QString& name) {
    const QString dir = qEnvironmentVariable("SCHEDSCOPE_TEST_SHOTS");
    if (!dir.isEmpty()) image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

// Waits until the window's loader has delivered (success or failure) for the latest request.
inline bool waitIdle(MainWindow& w, int ms = 60'000) {
    if (!w.loader()->busy()) return true;
    QSignalSpy spy(w.loader(), &SessionLoader::idle);
    return spy.wait(ms);
}

}  // namespace schedscope::gui::test
