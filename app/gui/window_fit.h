#pragma once
// Where the main window opens: the size it prefers, or the geometry it had when it was last
// closed, fitted to the room its screen has. Plain geometry, so it is tested without a screen.
#include <QMargins>
#include <QRect>
#include <QSize>

namespace schedscope::gui {

// The window's size (without its frame): `preferred` shrunk, each side on its own, so that it
// and its `frame` (the window manager's title bar and borders) fit in `available`
// (QScreen::availableGeometry()'s size: the screen without the desktop's panels). An empty
// `available` (no screen known) leaves it.
QSize initialWindowSize(const QSize& preferred, const QSize& available, const QMargins& frame = {});

// A geometry (without its frame) restored from an earlier session, saved on a bigger screen or
// on a monitor that is gone: its size by initialWindowSize(), then moved the least so that all
// of it, frame included, lies on `available`. An empty `available` leaves it.
QRect fitWindowOnScreen(const QRect& window, const QRect& available, const QMargins& frame = {});

}  // namespace schedscope::gui
