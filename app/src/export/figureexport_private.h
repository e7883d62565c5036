// Internal to the figure export: the renderer's private state and the helpers that its layout
// (figureexport.cpp) and its per-view painting (figureexport_views.cpp) share.
#pragma once

#include "export/figureexport.h"

#include "gpu/kernelmeasurement.h"
#include "gpu/probemeasurement.h"

#include "document/patterndocument.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"

#include <warpscope/tma_layout.h>

#include <QFont>
#include <QFontInfo>
#include <QGuiApplication>
#include <QPainter>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

namespace warpscope::app {

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
using FigurePainter = QCPPainter;
#else
using FigurePainter = QPainter;
#endif

namespace figure_export {

/// A view subclass that lets the exporter ask for the layout size directly.
template <class View> class ExportView : public View {
public:
    using View::View;
    QSizeF layoutFor(qreal width) { return this->computeLayout(width); }
};

/// The application font under the name of the font it resolves to ("DejaVu Sans" rather than
/// the fontconfig alias "Sans Serif"), so an SVG names a font other programs can find.
inline QFont figureFont() {
    QFont font = QGuiApplication::font();
    font.setFamilies({QFontInfo(font).family(), QStringLiteral("sans-serif")});
    return font;
}

inline QFont pixelFont(qreal pixels, bool bold = false) {
    QFont font = figureFont();
    font.setPixelSize(std::max(1, qRound(pixels)));
    font.setBold(bold);
    return font;
}

} // namespace figure_export

struct FigureRenderer::Private {
    // The views take non-const pointers; drawing changes neither.
    mutable PatternDocument document;
    mutable LaneHighlight highlight;
    // The session's recorded measurements: figures show the GPU's verdict as the window does.
    mutable MeasurementStore measurements;
    // The notes tab of the session: its experiment and kernel measurements.
    mutable KernelMeasurementStore kernelMeasurements;
    std::string notesExperiment;
    // The kernel preset the sweep view sweeps as a whole kernel (its grid model), empty for the
    // current access's sweep.
    QString sweepKernelPreset;
    // The session's TMA load for the tile view; none leaves the view following the pattern's
    // preset, as the window's Tile tab does.
    std::optional<TmaTileLoad> tmaLoad;
    std::optional<QString> error;

    void paint(FigurePainter& painter, const FigureSpec& spec) const;
    // Each draws `view` as large as fits in `cell` and returns the scale it is drawn at; with a
    // null painter it only returns the scale (to choose between arrangements).
    qreal paintView(FigurePainter* painter, const QString& view, const QRectF& cell,
                    const FigureSpec& spec, const QPalette& palette) const;
    template <class View>
    qreal paintZoomable(QPainter* painter, const QString& view, const QRectF& cell,
                        const FigureSpec& spec, const QPalette& palette) const;
    qreal paintSweep(FigurePainter* painter, const QRectF& cell, const QPalette& palette) const;
    /// An experiment's chart view (ExperimentView::render: title, charts, summary) in `cell`,
    /// with the results the spec carries for it (none: what the view shows without results),
    /// laid out at no less than its registry row's figureLayoutSize and scaled down to fit; the
    /// scale. Only the scale without `painter`.
    qreal paintExperiment(QPainter* painter, const AppExperiment& experiment, const QRectF& cell,
                          const FigureSpec& spec, const QPalette& palette) const;
    qreal paintMetrics(QPainter* painter, const QRectF& cell, const QPalette& palette) const;
    qreal paintGrid(QPainter* painter, const QRectF& cell, const QPalette& palette) const;
    qreal paintNotes(FigurePainter* painter, const QRectF& cell, const QPalette& palette) const;
    /// The notes view of the session's experiment, filled from its kernel measurements.
    std::unique_ptr<NotesView> notesView(const QPalette& palette) const;
    void paintNote(QPainter& painter, const QRectF& cell, const QPalette& palette,
                   const QString& text) const;
};

} // namespace warpscope::app
