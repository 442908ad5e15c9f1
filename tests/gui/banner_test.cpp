// The banner in the window, as a reader sees it: a long notice wraps onto more lines, so that all
// of it (the remedy is often at the end) is inside the strip; it was one line cut mid-word at
// 1400 px ("...where the kernel a").
#include <gtest/gtest.h>

#include <QFontMetricsF>
#include <QPainter>
#include <QRegularExpression>
#include <QTest>

#include "banner.h"
#include "main_window.h"
#include "painted_text.h"

namespace schedscope::gui {
namespace {

QString withoutSpaces(QString s) {
    s.remove(QRegularExpression(QStringLiteral("\\s")));
    return s;
}

TEST(BannerInTheWindow, ALongNoticeWrapsAndIsReadWhole) {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const QString notice = QStringLiteral(
        "tc-tsc.dat: its trace clock x86-tsc does not count nanoseconds: the timeline's times are its counts, "
        "and what-if replay needs real times (record with a ns clock, e.g. trace-cmd record -C local, or with "
        "--tsc2nsec where the kernel allows it; schedscope-cli record does both)");
    Banner* banner = window.banner();
    banner->setNotices(Banner::Topic::Trace, notice);
    QTest::qWait(50);  // the layout settles the strip's height for the wrapped text
    ASSERT_TRUE(banner->isVisible());

    test::TextRecorder recorder(banner->size());
    banner->render(&recorder);
    QString painted;
    int lines = 0;
    for (const auto& t : recorder.texts()) {
        if (t.text == QStringLiteral("\u2715")) continue;  // the close button
        const double right = t.at.x() + QFontMetricsF(t.font).horizontalAdvance(t.text);
        EXPECT_LE(right, banner->width()) << t.text.toStdString();
        const double descent = QFontMetricsF(t.font).descent();
        EXPECT_LE(t.at.y() + descent, banner->height()) << t.text.toStdString();
        painted += t.text;
        ++lines;
    }
    EXPECT_GE(lines, 2);
    EXPECT_EQ(withoutSpaces(painted), withoutSpaces(notice));
}

}  // namespace
}  // namespace schedscope::gui
