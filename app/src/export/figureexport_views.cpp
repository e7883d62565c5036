// Figure rendering, view by view: each exported view drawn as large as fits in its cell (the
// layout that places the cells, and the output formats, are in figureexport.cpp).
#include "export/figureexport_private.h"

#include "gpu/kernelmeasurement.h"
#include "gpu/notesexperiment.h"
#include "gpu/probemeasurement.h"

#include "document/evaluation.h"
#include "document/gridcomputation.h"
#include "document/patterndocument.h"
#include "export/figurefit.h"
#include "export/tikzexport.h"
#include "export/tiletikz.h"
#include "panels/metricstablemodel.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/experimentview.h"
#include "views/gridview.h"
#include "views/kernelsweepview.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"
#include "views/sweepplot.h"
#include "views/theme.h"
#include "views/tileview.h"
#include "views/viewkind.h"
#include "views/warpview.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextOption>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <cmath>

namespace warpscope::app {

namespace {

using figure_export::ExportView;
using figure_export::figureFont;
using figure_export::pixelFont;

/// The narrowest layout a view is given before being scaled down: narrower, its text would be
/// clipped or crowded (the views are designed for a window, not a stamp).
qreal minimumLayoutWidth(const QString& view) {
    switch (viewKindFromName(view).value_or(ViewKind::Figure)) {
    case ViewKind::Warp:
        return 900;
    case ViewKind::Bank:
    case ViewKind::Tile:
        return 860;
    case ViewKind::Block:
        return 820; // its hint line runs about 800 pixels
    case ViewKind::Grid:
    case ViewKind::Notes:
        return 720;
    case ViewKind::Sweep:
    case ViewKind::Metrics:
    case ViewKind::Figure:
        break;
    }
    return 480;
}

} // namespace

qreal FigureRenderer::Private::paintView(FigurePainter* painter, const QString& view,
                                         const QRectF& cell, const FigureSpec& spec,
                                         const QPalette& palette) const {
    if (cell.width() < 8 || cell.height() < 8) {
        return 0;
    }
    if (const AppExperiment* experiment = findAppExperiment(view)) {
        return paintExperiment(painter, *experiment, cell, spec, palette);
    }
    const std::optional<ViewKind> kind = viewKindFromName(view);
    if (!kind) {
        return 0;
    }
    switch (*kind) {
    case ViewKind::Warp:
        return paintZoomable<ExportView<WarpView>>(painter, view, cell, spec, palette);
    case ViewKind::Bank:
        return paintZoomable<ExportView<BankView>>(painter, view, cell, spec, palette);
    case ViewKind::Block:
        return paintZoomable<ExportView<BlockView>>(painter, view, cell, spec, palette);
    case ViewKind::Tile:
        return paintZoomable<ExportView<TileView>>(painter, view, cell, spec, palette);
    case ViewKind::Sweep:
        return paintSweep(painter, cell, palette);
    case ViewKind::Metrics:
        return paintMetrics(painter, cell, palette);
    case ViewKind::Grid:
        return paintGrid(painter, cell, palette);
    case ViewKind::Notes:
        return paintNotes(painter, cell, palette);
    case ViewKind::Figure:
        break; // composed of the others, never one cell
    }
    return 0;
}

qreal FigureRenderer::Private::paintGrid(QPainter* painter, const QRectF& cell,
                                         const QPalette& palette) const {
    // Laid out at no less than 720 x 420 (the histogram's labels need the room), scaled down.
    const qreal width = std::max(cell.width(), minimumLayoutWidth(viewKindName(ViewKind::Grid)));
    const qreal height = std::max(cell.height(), 420.0);
    const qreal scale = std::min(cell.width() / width, cell.height() / height);
    if (painter == nullptr) {
        return scale;
    }
    GridRequest request;
    request.pattern = document.pattern();
    auto result = GridComputation::compute(request);
    if (!result) {
        paintNote(*painter, cell, palette, QString::fromStdString(result.error().describe()));
        return scale;
    }
    GridView widget(&document);
    widget.setPalette(palette);
    widget.setFont(figureFont());
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(qRound(width), qRound(height));
    widget.setVectorCells(true);
    widget.showResult(result.value());
    painter->save();
    painter->translate(cell.left() + (cell.width() - width * scale) / 2,
                       cell.top() + (cell.height() - height * scale) / 2);
    painter->scale(scale, scale);
    widget.render(painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter->restore();
    return scale;
}

std::unique_ptr<NotesView> FigureRenderer::Private::notesView(const QPalette& palette) const {
    auto view = std::make_unique<NotesView>(&kernelMeasurements);
    view->setAttribute(Qt::WA_DontShowOnScreen);
    view->setPalette(palette);
    view->setFont(figureFont());
    if (!notesExperiment.empty()) {
        view->setExperiment(notesExperiment);
    }
    const NotesComparison& comparison = view->comparison();
    view->setGpuStatus(
        comparison.measuredRows > 0
            ? QCoreApplication::translate("warpscope", "This GPU: %1 (%2 of %3 rows measured).")
                  .arg(comparison.measuredGpu)
                  .arg(comparison.measuredRows)
                  .arg(comparison.rows.size())
            : QCoreApplication::translate("warpscope",
                                          "No measurement of this GPU in the session: the "
                                          "notes' bars only."));
    return view;
}

qreal FigureRenderer::Private::paintNotes(FigurePainter* painter, const QRectF& cell,
                                          const QPalette& palette) const {
    const qreal width = std::max(cell.width(), minimumLayoutWidth(viewKindName(ViewKind::Notes)));
    const qreal height = std::max(cell.height(), 405.0);
    const qreal scale = std::min(cell.width() / width, cell.height() / height);
    if (painter == nullptr) {
        return scale;
    }
    const auto view = notesView(palette);
    painter->save();
    painter->translate(cell.left() + (cell.width() - width * scale) / 2,
                       cell.top() + (cell.height() - height * scale) / 2);
    painter->scale(scale, scale);
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    view->renderFigure(*painter, QSize(qRound(width), qRound(height)), true);
#else
    view->renderFigure(*painter, QSize(qRound(width), qRound(height)), false);
#endif
    painter->restore();
    return scale;
}

template <class View>
qreal FigureRenderer::Private::paintZoomable(QPainter* painter, const QString& view,
                                             const QRectF& cell, const FigureSpec& spec,
                                             const QPalette& palette) const {
    View widget(&document, &highlight);
    if constexpr (std::is_same_v<View, ExportView<WarpView>>) {
        widget.setShowTextbook(spec.showTextbook);
    }
    if constexpr (std::is_same_v<View, ExportView<TileView>>) {
        if (tmaLoad) {
            widget.setTmaLoad(tmaLoad);
        }
    }
    if constexpr (std::is_same_v<View, ExportView<WarpView>> ||
                  std::is_same_v<View, ExportView<BankView>>) {
        if (const auto& evaluation = document.evaluation()) {
            widget.setMeasurementMark(
                measurementMark(evaluation->modern, measurements.find(evaluation->pattern)));
        }
    }
    widget.setPalette(palette);
    widget.setFont(figureFont());
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    // The layout width that shows the view largest in the cell: the full cell width, or a
    // narrower (taller) layout scaled up when the cell has height to spare; never narrower than
    // the view's minimum, and scaled up at most to twice the screen size.
    const qreal cellWidth = std::floor(cell.width());
    qreal layoutWidth = std::max(cellWidth, minimumLayoutWidth(view));
    qreal bestScale = 0;
    for (qreal candidate = layoutWidth; candidate >= minimumLayoutWidth(view) * 0.999;
         candidate *= 0.9) {
        const QSizeF needed = widget.layoutFor(std::floor(candidate));
        const qreal width = std::max(std::floor(candidate), needed.width());
        const qreal scale =
            std::min({2.0, cell.width() / width, cell.height() / std::max(1.0, needed.height())});
        if (scale > bestScale * 1.01) {
            bestScale = scale;
            layoutWidth = std::floor(candidate);
        }
        if (candidate <= minimumLayoutWidth(view)) {
            break;
        }
    }
    QSizeF needed = widget.layoutFor(layoutWidth);
    if constexpr (std::is_same_v<View, ExportView<WarpView>> ||
                  std::is_same_v<View, ExportView<BankView>>) {
        needed =
            fitDrawingToCell(widget, layoutWidth, needed, cell, static_cast<int>(spec.views.size()),
                             [&] { return widget.layoutFor(layoutWidth); });
    }
    // Fitted to the cell: the height it was laid out for (resizing it shorter would lay it out
    // again, tighter).
    const int height = widget.fitsHeight()
                           ? widget.height()
                           : std::max(1, static_cast<int>(std::ceil(needed.height())));
    layoutWidth = std::max(layoutWidth, std::ceil(needed.width()));
    const qreal scale =
        std::min({2.0, cell.width() / layoutWidth, cell.height() / static_cast<qreal>(height)});
    if (painter == nullptr) {
        return scale;
    }
    widget.resize(qRound(layoutWidth), height);
    if constexpr (std::is_same_v<View, ExportView<BlockView>>) {
        widget.recomputeWarps();
    }
    widget.layoutFor(layoutWidth);
    const qreal drawnWidth = layoutWidth * scale;
    const qreal drawnHeight = height * scale;
    painter->save();
    painter->translate(cell.left() + (cell.width() - drawnWidth) / 2,
                       cell.top() + (cell.height() - drawnHeight) / 2);
    painter->scale(scale, scale);
    widget.render(painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter->restore();
    return scale;
}

void FigureRenderer::Private::paintNote(QPainter& painter, const QRectF& cell,
                                        const QPalette& palette, const QString& text) const {
    const ViewColors colors = ViewColors::fromPalette(palette);
    painter.save();
    painter.setFont(pixelFont(14));
    painter.setPen(colors.mutedText);
    painter.drawText(cell, Qt::AlignCenter | Qt::TextWordWrap, text);
    painter.restore();
}

qreal FigureRenderer::Private::paintSweep(FigurePainter* painter, const QRectF& cell,
                                          const QPalette& palette) const {
    const qreal minWidth = 480;
    const qreal minHeight = 300;
    const qreal fit = std::min({1.0, cell.width() / minWidth, cell.height() / minHeight});
    if (painter == nullptr) {
        return fit;
    }
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    // A plot fills the cell, laid out at no less than minWidth x minHeight and scaled down.
    const auto paintPlot = [&](QCustomPlot* plot) {
        const qreal width = cell.width() / fit;
        const qreal height = cell.height() / fit;
        painter->save();
        painter->translate(cell.topLeft());
        painter->scale(fit, fit);
        painter->setClipRect(QRectF(0, 0, width, height));
        plot->toPainter(painter, qRound(width), qRound(height));
        painter->restore();
    };
    SweepPlot sweep(&document);
    sweep.setPalette(palette);
    sweep.setAttribute(Qt::WA_DontShowOnScreen);
    sweep.refresh();
    if (!sweepKernelPreset.isEmpty()) {
        // A kernel preset's sweep is its whole kernel's: the grid model at every point, computed
        // here before drawing (the window computes it on a worker and shows progress meanwhile).
        sweep.attachKernelSweep(&kernelMeasurements);
        sweep.setKernelPreset(sweepKernelPreset);
        KernelSweepView* kernelView = sweep.kernelSweepView();
        auto* kernelPlot = kernelView->findChild<QCustomPlot*>();
        if (!sweep.kernelMode() || !kernelView->computeModelNow() || kernelPlot == nullptr) {
            paintNote(*painter, cell, palette,
                      QCoreApplication::translate("warpscope", "No sweep: %1")
                          .arg(kernelView->statusLabel()->text()));
            return fit;
        }
        paintPlot(kernelPlot);
        return fit;
    }
    if (sweep.data().values.isEmpty() || sweep.graphCount() == 0) {
        paintNote(*painter, cell, palette,
                  sweep.data().values.isEmpty()
                      ? QCoreApplication::translate(
                            "warpscope", "No sweep: the pattern has no parameter to vary.")
                      : QCoreApplication::translate(
                            "warpscope", "No sweep: the access sweep counts global and shared "
                                         "accesses; export a kernel preset for its whole "
                                         "kernel's sweep."));
        return fit;
    }
    auto* plot = sweep.findChild<QCustomPlot*>();
    if (plot == nullptr) {
        return fit;
    }
    paintPlot(plot);
#else
    paintNote(*painter, cell, palette,
              QCoreApplication::translate("warpscope",
                                          "This build has no sweep plot (QCustomPlot missing)."));
#endif
    return fit;
}

qreal FigureRenderer::Private::paintExperiment(QPainter* painter, const AppExperiment& experiment,
                                               const QRectF& cell, const FigureSpec& spec,
                                               const QPalette& palette) const {
    const QSizeF minimum = experiment.figureLayoutSize;
    const qreal fit =
        std::min({1.0, cell.width() / minimum.width(), cell.height() / minimum.height()});
    if (painter != nullptr) {
        const std::unique_ptr<ExperimentView> view(experiment.createView(nullptr));
        if (const auto results = spec.experimentResults.find(experiment.tableKey());
            results != spec.experimentResults.end()) {
            experiment.setResults(view.get(), results->second);
        }
        view->setPalette(palette);
        view->setAttribute(Qt::WA_DontShowOnScreen);
        const QSize size(qRound(cell.width() / fit), qRound(cell.height() / fit));
        painter->save();
        painter->translate(cell.topLeft());
        painter->scale(fit, fit);
        painter->setClipRect(QRectF(QPointF(0, 0), QSizeF(size)));
        view->render(*painter, size);
        painter->restore();
    }
    return fit;
}

qreal FigureRenderer::Private::paintMetrics(QPainter* painter, const QRectF& cell,
                                            const QPalette& palette) const {
    const ViewColors colors = ViewColors::fromPalette(palette);
    MetricsTableModel model(&document);
    model.setMeasurementStore(&measurements);
    const int rows = model.rowCount();
    int columns = model.columnCount();
    // Leave out the Measured column while it holds nothing but "no measurement".
    bool measured = false;
    for (int r = 0; r < rows; ++r) {
        const QString value =
            model.data(model.index(r, MetricsTableModel::MeasuredColumn)).toString();
        measured =
            measured || (!value.isEmpty() && value != MetricsTableModel::noMeasurementText());
    }
    if (!measured && columns == MetricsTableModel::ColumnCount) {
        columns = MetricsTableModel::MeasuredColumn;
    }
    if (rows == 0 || columns == 0) {
        return 1;
    }
    // Natural size at 15 px text, then scaled to fit the cell.
    const QFont font = pixelFont(15);
    const QFont bold = pixelFont(15, true);
    const QFontMetricsF metrics(font);
    const QFontMetricsF boldMetrics(bold);
    const qreal padX = 10;
    const qreal rowHeight = metrics.height() + 10;
    std::vector<qreal> widths(static_cast<std::size_t>(columns), 0);
    auto text = [&](int row, int column) {
        return model.data(model.index(row, column)).toString();
    };
    for (int c = 0; c < columns; ++c) {
        qreal w = boldMetrics.horizontalAdvance(
            model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        for (int r = 0; r < rows; ++r) {
            w = std::max(w, (c == 0 ? boldMetrics : metrics).horizontalAdvance(text(r, c)));
        }
        widths[static_cast<std::size_t>(c)] = w + 2 * padX;
    }
    qreal tableWidth = 0;
    for (qreal w : widths) {
        tableWidth += w;
    }
    const qreal tableHeight = rowHeight * (rows + 1);
    const qreal scale = std::min({1.0, cell.width() / tableWidth, cell.height() / tableHeight});
    if (painter == nullptr) {
        return scale;
    }
    painter->save();
    painter->translate(cell.left() + (cell.width() - tableWidth * scale) / 2,
                       cell.top() + (cell.height() - tableHeight * scale) / 2);
    painter->scale(scale, scale);
    qreal y = 0;
    for (int r = -1; r < rows; ++r) {
        qreal x = 0;
        if (r >= 0 && r % 2 == 1) {
            painter->fillRect(QRectF(0, y, tableWidth, rowHeight), colors.surface);
        }
        for (int c = 0; c < columns; ++c) {
            const qreal w = widths[static_cast<std::size_t>(c)];
            const QString s = r < 0
                                  ? model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()
                                  : text(r, c);
            QColor pen = colors.text;
            QFont cellFont = r < 0 ? bold : font;
            if (r >= 0 && c == MetricsTableModel::MeasuredColumn) {
                // A measured value that differs from the model is bold in the warning colour, as
                // in the window; the rest of the column stays quiet.
                const bool differs =
                    model.data(model.index(r, c), Qt::FontRole).value<QFont>().bold();
                pen = differs ? colors.warning : colors.mutedText;
                cellFont.setBold(differs);
            }
            painter->setFont(cellFont);
            painter->setPen(pen);
            painter->drawText(QRectF(x + padX, y, w - 2 * padX, rowHeight),
                              Qt::AlignVCenter | (c == 0 ? Qt::AlignLeft : Qt::AlignRight), s);
            x += w;
        }
        y += rowHeight;
        painter->setPen(QPen(r < 0 ? colors.frame : colors.grid, r < 0 ? 1.5 : 0.75));
        painter->drawLine(QPointF(0, y), QPointF(tableWidth, y));
    }
    painter->restore();
    return scale;
}

} // namespace warpscope::app
