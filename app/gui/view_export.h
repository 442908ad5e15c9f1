#pragma once
// Exports a view as PNG (raster), SVG (QSvgGenerator) or PDF (QPdfWriter), chosen by the file
// suffix. Vector formats replay the view's QPainter calls, so they stay sharp.
#include <QSize>
#include <QString>
#include <functional>

class QPainter;
class QRectF;
class QWidget;

namespace schedscope::gui {

// Paints a picture of `size` pixels into a painter; views that paint themselves provide this.
using PaintFunction = std::function<void(QPainter&, const QRectF&)>;

// Returns an empty string on success, else a one-line error naming the file.
QString exportPicture(const PaintFunction& paint, const QSize& size, const QString& path, const QString& title);
// For widgets without their own paint function (tree views): renders the widget.
QString exportWidget(QWidget* widget, const QString& path, const QString& title);

// The file dialog filter for the three formats, and the suffix check used by both exports.
QString exportFileFilter();
bool isExportSuffix(const QString& path);

}  // namespace schedscope::gui
