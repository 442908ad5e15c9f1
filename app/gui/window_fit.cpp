#include "window_fit.h"

#include <algorithm>

namespace schedscope::gui {

QSize initialWindowSize(const QSize& preferred, const QSize& available, const QMargins& frame) {
    if (available.isEmpty()) return preferred;
    const QSize room = available.shrunkBy(frame).expandedTo(QSize(1, 1));
    return preferred.boundedTo(room);
}

QRect fitWindowOnScreen(const QRect& window, const QRect& available, const QMargins& frame) {
    if (available.isEmpty()) return window;
    QRect framed = QRect(window.topLeft(), initialWindowSize(window.size(), available.size(), frame)).marginsAdded(frame);
    // the frame fits now (unless the frame alone is wider than the screen): the left edges (and
    // top edges) that keep it on screen are a range
    framed.moveLeft(std::clamp(framed.left(), available.left(), std::max(available.left(), available.right() - framed.width() + 1)));
    framed.moveTop(std::clamp(framed.top(), available.top(), std::max(available.top(), available.bottom() - framed.height() + 1)));
    return framed.marginsRemoved(frame);
}

}  // namespace schedscope::gui
