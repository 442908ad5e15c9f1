#pragma once
// The texts a view paints, as it paints them: a paint device whose engine keeps every drawText
// (the string after any eliding, its font and where it starts) and draws nothing. A test then
// checks what a reader sees (a label cut with an ellipsis, a legend's spacing) without OCR.
#include <QFont>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <climits>
#include <QPointF>
#include <QString>
#include <QTextItem>
#include <algorithm>
#include <qcustomplot.h>
#include <vector>

namespace schedscope::gui::test {

struct PaintedText {
    QString text;
    QFont font;
    QPointF at;  // the baseline's start, in device coordinates
};

class TextRecorder : public QPaintDevice {
public:
    explicit TextRecorder(QSize size) : size_(size) {}
    QPaintEngine* paintEngine() const override { return &engine_; }
    const std::vector<PaintedText>& texts() const { return engine_.texts; }

protected:
    int metric(PaintDeviceMetric m) const override {
        switch (m) {
        case PdmWidth: return size_.width();
        case PdmHeight: return size_.height();
        case PdmWidthMM: return size_.width() * 254 / 960;  // 96 dpi
        case PdmHeightMM: return size_.height() * 254 / 960;
        case PdmDpiX: case PdmDpiY: case PdmPhysicalDpiX: case PdmPhysicalDpiY: return 96;
        case PdmDepth: return 32;
        case PdmNumColors: return INT_MAX;
        case PdmDevicePixelRatio: return 1;
        case PdmDevicePixelRatioScaled: return int(devicePixelRatioFScale());
        default: return 0;
        }
    }

private:
    struct Engine : QPaintEngine {
        Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
        bool begin(QPaintDevice*) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState& state) override {
            if (state.state() & DirtyTransform) transform = state.transform();
        }
        void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
        void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {}
        void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
        void drawPath(const QPainterPath&) override {}
        void drawRects(const QRectF*, int) override {}
        void drawLines(const QLineF*, int) override {}
        void drawEllipse(const QRectF&) override {}
        void drawPoints(const QPointF*, int) override {}
        void drawTextItem(const QPointF& p, const QTextItem& item) override {
            texts.push_back({item.text(), item.font(), transform.map(p)});
        }
        Type type() const override { return QPaintEngine::User; }
        QTransform transform;
        std::vector<PaintedText> texts;
    };
    QSize size_;
    mutable Engine engine_;
};

// The baselines (y, top to bottom) and height of the numbers `plot` paints wholly left of its
// axis rect (its y axis's tick labels) when drawn `size` big.
struct AxisNumbers {
    std::vector<double> baselines;
    double labelHeight = 0;
};
inline AxisNumbers leftAxisNumbers(QCustomPlot* plot, QSize size) {
    TextRecorder recorder(size);
    {
        QCPPainter p(&recorder);
        plot->toPainter(&p, size.width(), size.height());
    }
    AxisNumbers out;
    for (const auto& t : recorder.texts()) {
        bool number = false;
        t.text.toDouble(&number);
        // (ending left of the axis rect: the x axis's first number stands across its edge)
        if (!number || t.at.x() + QFontMetricsF(t.font).horizontalAdvance(t.text) > plot->axisRect()->left() + 1) continue;
        out.baselines.push_back(t.at.y());
        out.labelHeight = QFontMetricsF(t.font).height();
    }
    std::sort(out.baselines.begin(), out.baselines.end());
    return out;
}

}  // namespace schedscope::gui::test
