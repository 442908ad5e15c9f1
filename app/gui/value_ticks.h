#pragma once
// Ticks of a plot's linear value axis that never overlap: after every layout the axis asks its
// ticker for as many ticks as its length holds with half a label's height between them (at most
// the ticker's usual five). QCustomPlot's default ticker aims at five whatever the length, and
// on the what-if's short migrations plot (90 px tall at 1920x1080, beside a lesson)
// "0 0.5 1 1.5 2 2.5 3" ran into one smear.
class QCPAxis;
class QCustomPlot;

namespace schedscope::gui {

// Hooks `axis` of `plot` (a vertical or horizontal linear axis, its ticker the default or any
// other that honours setTickCount()) for the plot's life.
void keepValueTicksApart(QCustomPlot* plot, QCPAxis* axis);

// The tick count an axis `pixels` long holds with labels `labelPixels` long (their height on a
// vertical axis) and half a label's length between them: 1 to 5.
int ticksThatFit(double pixels, double labelPixels);

}  // namespace schedscope::gui
