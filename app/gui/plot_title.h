#pragma once
// A plot's title that fits the plot: after every layout it takes its font a point or two
// smaller, then cuts the end with an ellipsis (a title's end, such as a file name, matters
// least), in the width the plot leaves beside its other columns (a colour scale). Cut at both
// sides by a column too narrow, a title read as a glitch. Its element belongs to the plot.
#include <QMetaObject>
#include <QString>

class QCustomPlot;
class QCPTextElement;

namespace schedscope::gui {

class PlotTitle {
public:
    // Adds the title as a new first row of `plot`'s layout, in bold at `pointSize` when it fits.
    explicit PlotTitle(QCustomPlot* plot, int pointSize = 10);
    PlotTitle(const PlotTitle&) = delete;  // its layout hook points here
    PlotTitle& operator=(const PlotTitle&) = delete;
    ~PlotTitle();
    void setText(const QString& text);
    QString text() const { return text_; }  // whole, as set
    QString shown() const;                  // as drawn: smaller and elided to fit
    // Fits the title to the plot's width now; after a change, lays the plot out again.
    void fit();

private:
    QCustomPlot* plot_;
    QCPTextElement* element_;  // owned by the plot's layout
    QString text_;
    int pointSize_;
    QMetaObject::Connection refit_;  // the plot's afterLayout -> fit(): cut when this goes first
};

}  // namespace schedscope::gui
