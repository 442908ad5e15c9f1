#include "view_export.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

namespace schedscope::gui {
namespace {

QString suffixOf(const QString& path) { return QFileInfo(path).suffix().toLower(); }

QString paintToFile(const PaintFunction& paint, const QSize& size, const QString& path, const QString& title) {
    const QString suffix = suffixOf(path);
    const QRectF rect(QPointF(0, 0), QSizeF(size));
    if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            paint(p, rect);
        }
        if (!image.save(path, "PNG")) return QCoreApplication::translate("ViewExport", "%1: cannot write the PNG file").arg(path);
        return {};
    }
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(rect);
        svg.setTitle(title);
        svg.setDescription(QCoreApplication::translate("ViewExport", "exported by schedscope"));
        QPainter p;
        if (!p.begin(&svg)) return QCoreApplication::translate("ViewExport", "%1: cannot write the SVG file").arg(path);
        paint(p, rect);
        p.end();
        return {};
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(path);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("schedscope"));
        // One page exactly the picture's size, at 96 dpi so the view's pixel metrics carry over.
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        if (!p.begin(&pdf)) return QCoreApplication::translate("ViewExport", "%1: cannot write the PDF file").arg(path);
        paint(p, rect);
        p.end();
        return {};
    }
    return QCoreApplication::translate("ViewExport", "%1: unknown export format '%2' (use .png, .svg or .pdf)").arg(path, suffix);
}

}  // namespace

QString exportPicture(const PaintFunction& paint, const QSize& size, const QString& path, const QString& title) {
    if (size.isEmpty()) return QCoreApplication::translate("ViewExport", "%1: the view has no size to export").arg(path);
    return paintToFile(paint, size, path, title);
}

QString exportWidget(QWidget* widget, const QString& path, const QString& title) {
    return exportPicture([widget](QPainter& p, const QRectF&) { widget->render(&p); }, widget->size(), path, title);
}

QString exportFileFilter() {
    return QCoreApplication::translate("ViewExport", "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

bool isExportSuffix(const QString& path) {
    const QString s = suffixOf(path);
    return s == QLatin1String("png") || s == QLatin1String("svg") || s == QLatin1String("pdf");
}

}  // namespace schedscope::gui
