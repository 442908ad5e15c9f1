// The CPUs' numbers in the topology picture: every CPU's where each box holds it, else every
// step-th CPU's, across the whole machine, never overlapping, and the view says which.
#include <gtest/gtest.h>

#include <QPainter>

#include "cpu_labels.h"
#include "gui_test_util.h"
#include "painted_text.h"
#include "topology_layout.h"
#include "topology_view.h"

namespace schedscope::gui {
namespace {

struct PaintedNumbers {
    std::vector<int> cpus;      // the numbers painted, as CPU ids
    std::vector<QRectF> rects;  // where
    QStringList texts;          // everything painted
};

PaintedNumbers paintTopology(const TopologyView& view, QSize size) {
    test::TextRecorder recorder(size);
    {
        QPainter p(&recorder);
        view.paintTo(p, QRectF(QPointF(0, 0), QSizeF(size)));
    }
    PaintedNumbers out;
    for (const auto& t : recorder.texts()) {
        out.texts << t.text;
        bool number = false;
        const int cpu = t.text.toInt(&number);
        if (!number) continue;
        const QFontMetricsF fm(t.font);
        out.cpus.push_back(cpu);
        out.rects.emplace_back(t.at.x(), t.at.y() - fm.ascent(), fm.horizontalAdvance(t.text), fm.height());
    }
    return out;
}

// 4096 CPUs (16 packages of 128 two-thread cores) at 1350x880: the numbers of
// CPUs 0-99 were the only ones short enough for their boxes, and the other 3996 were blank.
TEST(CpuLabels, AMachineOf4096CpusIsNumberedAcrossWithoutOverlaps) {
    const SessionPtr session = test::loadNow(test::syntheticSpec("pack:16 core:128 pu:2"));
    ASSERT_TRUE(session);
    ASSERT_EQ(session->topology->onlineCount(), 4096);
    TopologyView view;
    view.setSession(session);
    view.resize(1350, 880);
    const PaintedNumbers painted = paintTopology(view, view.size());
    ASSERT_GE(painted.cpus.size(), 2u) << painted.texts.join(QStringLiteral(" | ")).toStdString();
    // evenly: 0, step, 2*step... up to the last CPUs
    const int step = painted.cpus[1] - painted.cpus[0];
    EXPECT_EQ(painted.cpus.front(), 0);
    EXPECT_GT(step, 1);
    for (size_t i = 0; i < painted.cpus.size(); ++i) EXPECT_EQ(painted.cpus[i], int(i) * step);
    EXPECT_GT(painted.cpus.back(), 4096 - 2 * step) << "numbered only up to " << painted.cpus.back();
    for (size_t i = 0; i < painted.rects.size(); ++i)
        for (size_t j = i + 1; j < painted.rects.size(); ++j)
            ASSERT_FALSE(painted.rects[i].intersects(painted.rects[j])) << painted.cpus[i] << " overlaps " << painted.cpus[j];
    // and the view says which CPUs have their number, where a reader sees it
    const QString note = view.cpuLabelNote();
    EXPECT_EQ(note, QStringLiteral("CPUs numbered 0, %1, %2\u2026: no room for each number; hover a CPU for its own").arg(step).arg(2 * step));
    bool shown = false;  // whole, or elided to the legend's room
    for (const QString& t : painted.texts)
        shown = shown || t == note || (t.size() > 20 && t.endsWith(QChar(0x2026)) && note.startsWith(t.chopped(1)));
    EXPECT_TRUE(shown) << painted.texts.join(QStringLiteral(" | ")).toStdString();
}

// A machine whose boxes hold their numbers has all of them and nothing to say; one too small
// for any number says so rather than showing blank boxes.
TEST(CpuLabels, EveryCpuWhenThereIsRoomAndNoneSaidWhenThereIsNot) {
    const SessionPtr session = test::loadNow(test::syntheticSpec());  // 64 CPUs
    ASSERT_TRUE(session);
    TopologyView view;
    view.setSession(session);
    view.resize(1000, 700);
    const PaintedNumbers painted = paintTopology(view, view.size());
    QStringList cpuTexts;  // "CPU 7", each in its box
    for (const QString& t : painted.texts)
        if (t.startsWith(QStringLiteral("CPU ")) && t.count(QLatin1Char(' ')) == 1)
            cpuTexts << t;
    EXPECT_EQ(cpuTexts.size(), 64) << painted.texts.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(painted.cpus.empty());
    EXPECT_TRUE(view.cpuLabelNote().isEmpty()) << view.cpuLabelNote().toStdString();

    auto t = loadHwlocSynthetic("pack:16 core:128 pu:2", Arch::X86_64);
    ASSERT_TRUE(t) << t.error();
    TopologyLayout tiny = TopologyLayout::build(*t);
    tiny.layout(QRectF(0, 0, 160, 100), 14, 7);
    const CpuLabels labels = fitCpuLabels(tiny, QFont());
    EXPECT_EQ(labels.step, 0);
    EXPECT_TRUE(labels.labels.empty());
    EXPECT_EQ(labels.note(), QStringLiteral("CPUs too small to number: hover a CPU for its number"));
}

}  // namespace
}  // namespace schedscope::gui
