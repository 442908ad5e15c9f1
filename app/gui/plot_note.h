#pragma once
// A note written across a plot's empty axes ("No migrations recorded: ...", "No runs yet: press
// Run"): boxed in the middle of the axis rect and word-wrapped to its width after every layout,
// so a narrow plot shows it whole rather than cut at both sides. Its item belongs to the plot:
// a plot that calls clearItems() deletes it.
#include <QMetaObject>
#include <QString>

class QCustomPlot;
class QCPItemText;

namespace schedscope::gui {

class PlotNote {
public:
    explicit PlotNote(QCustomPlot* plot);
    PlotNote(const PlotNote&) = delete;  // its item's layout hook points here
    PlotNote& operator=(const PlotNote&) = delete;
    ~PlotNote();
    // "" hides it. Lines break at '\n' and wherever the axis rect is too narrow.
    void setText(const QString& text);
    QString text() const { return text_; }  // as set, before wrapping
    bool visible() const { return !text_.isEmpty(); }
    // Rewraps to the axis rect's width (after a layout); the plot is not replotted.
    void fit();

private:
    QCustomPlot* plot_;
    QCPItemText* item_;  // owned by the plot
    QString text_;
    QMetaObject::Connection refit_;  // the plot's afterLayout -> fit(): cut when this goes first
};

}  // namespace schedscope::gui
