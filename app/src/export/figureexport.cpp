// Figure rendering: fresh views on a private document, laid out on the figure's canvas and drawn
// through QWidget::render (vector on SVG and PDF), the sweep plot through QCustomPlot::toPainter,
// the metrics table painted from its model.
#include "export/figureexport.h"

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
#include "views/gridview.h"
#include "views/kernelsweepview.h"
#include "views/l2persistenceview.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"
#include "views/streamsview.h"
#include "views/sweepplot.h"
#include "views/theme.h"
#include "views/tileview.h"
#include "views/transfersview.h"
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

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
using FigurePainter = QCPPainter;
#else
using FigurePainter = QPainter;
#endif

namespace {

/// A view subclass that lets the exporter ask for the layout size directly.
template <class View> class ExportView : public View {
public:
    using View::View;
    QSizeF layoutFor(qreal width) { return this->computeLayout(width); }
};

/// The narrowest layout a view is given before being scaled down: narrower, its text would be
/// clipped or crowded (the views are designed for a window, not a stamp).
qreal minimumLayoutWidth(const QString& view) {
    if (view == QLatin1String("warp")) {
        return 900;
    }
    if (view == QLatin1String("bank") || view == QLatin1String("tile")) {
        return 860;
    }
    if (view == QLatin1String("block")) {
        return 820; // its hint line runs about 800 pixels
    }
    if (view == QLatin1String("grid") || view == QLatin1String("notes")) {
        return 720;
    }
    return 480;
}

/// A chart view's figure (ExperimentView::render: title, charts, summary) in `cell`, laid out at
/// no less than `minimum` and scaled down to fit; the scale. Only the scale without `painter`.
template <class View>
qreal paintExperimentView(QPainter* painter, const QRectF& cell, const QPalette& palette,
                          QSizeF minimum) {
    const qreal fit =
        std::min({1.0, cell.width() / minimum.width(), cell.height() / minimum.height()});
    if (painter != nullptr) {
        View view;
        view.setPalette(palette);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        const QSize size(qRound(cell.width() / fit), qRound(cell.height() / fit));
        painter->save();
        painter->translate(cell.topLeft());
        painter->scale(fit, fit);
        painter->setClipRect(QRectF(QPointF(0, 0), QSizeF(size)));
        view.render(*painter, size);
        painter->restore();
    }
    return fit;
}

/// The application font under the name of the font it resolves to ("DejaVu Sans" rather than
/// the fontconfig alias "Sans Serif"), so an SVG names a font other programs can find.
QFont figureFont() {
    QFont font = QGuiApplication::font();
    font.setFamilies({QFontInfo(font).family(), QStringLiteral("sans-serif")});
    return font;
}

QFont pixelFont(qreal pixels, bool bold = false) {
    QFont font = figureFont();
    font.setPixelSize(std::max(1, qRound(pixels)));
    font.setBold(bold);
    return font;
}

} // namespace

// ---- Rendering ---------------------------------------------------------------------------------

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
    qreal paintTransfers(FigurePainter* painter, const QRectF& cell, const QPalette& palette) const;
    qreal paintMetrics(QPainter* painter, const QRectF& cell, const QPalette& palette) const;
    qreal paintGrid(QPainter* painter, const QRectF& cell, const QPalette& palette) const;
    qreal paintNotes(FigurePainter* painter, const QRectF& cell, const QPalette& palette) const;
    /// The notes view of the session's experiment, filled from its kernel measurements.
    std::unique_ptr<NotesView> notesView(const QPalette& palette) const;
    void paintNote(QPainter& painter, const QRectF& cell, const QPalette& palette,
                   const QString& text) const;
};

FigureRenderer::FigureRenderer(const Session& session) : d(std::make_unique<Private>()) {
    d->measurements.takeFromSession(session);
    if (auto it = session.viewSettings.find(kNotesExperimentSetting);
        it != session.viewSettings.end() && findNotesExperiment(it->second) != nullptr) {
        d->notesExperiment = it->second;
    }
    if (auto it = session.viewSettings.find(kSweepKernelPresetSetting);
        it != session.viewSettings.end() && findKernelPreset(it->second) != nullptr) {
        d->sweepKernelPreset = QString::fromStdString(it->second);
    }
    if (auto it = session.viewSettings.find(kKernelMeasurementsSetting);
        it != session.viewSettings.end()) {
        const QJsonDocument json = QJsonDocument::fromJson(QByteArray::fromStdString(it->second));
        if (json.isArray()) {
            d->kernelMeasurements.takeJson(json.array());
        }
    }
    if (auto error = d->document.loadSession(session)) {
        d->error = QString::fromStdString(error->describe());
    } else if (!d->document.evaluation()) {
        d->error = d->document.error() ? QString::fromStdString(d->document.error()->describe())
                                       : QStringLiteral("the pattern cannot be evaluated");
    }
}

FigureRenderer::~FigureRenderer() = default;

std::optional<QString> FigureRenderer::error() const {
    return d->error;
}

QString FigureRenderer::patternTitle() const {
    return d->document.shownTitle();
}

QString FigureRenderer::patternCaption() const {
    return QString::fromStdString(d->document.current().caption);
}

std::string FigureRenderer::notesExperiment() const {
    return d->notesExperiment;
}

bool FigureRenderer::isSharedMemory() const {
    return d->document.evaluation() && d->document.evaluation()->modern.shared.has_value();
}

void FigureRenderer::Private::paint(FigurePainter& painter, const FigureSpec& spec) const {
    const QPalette palette = figurePalette(spec.theme);
    const ViewColors colors = ViewColors::fromPalette(palette);
    const QSizeF canvas = spec.size.canvas;
    painter.fillRect(QRectF(QPointF(0, 0), canvas), colors.background);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);

    const qreal unit = std::min(canvas.width(), canvas.height());
    const qreal margin = std::clamp(unit * 0.035, 12.0, 32.0);
    const qreal gap = margin * 0.75;
    QRectF content(margin, margin, canvas.width() - 2 * margin, canvas.height() - 2 * margin);

    if (!spec.title.isEmpty()) {
        const QFont font = pixelFont(std::clamp(unit * 0.045, 16.0, 36.0), true);
        painter.setFont(font);
        painter.setPen(colors.text);
        const QRectF bounds = painter.boundingRect(
            QRectF(content.left(), content.top(), content.width(), canvas.height()),
            Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, spec.title);
        painter.drawText(QRectF(content.left(), content.top(), content.width(), bounds.height()),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, spec.title);
        content.setTop(content.top() + bounds.height() + gap);
    }
    if (!spec.caption.isEmpty()) {
        const QFont font = pixelFont(std::clamp(unit * 0.03, 12.0, 24.0));
        painter.setFont(font);
        painter.setPen(colors.mutedText);
        const QRectF bounds =
            painter.boundingRect(QRectF(content.left(), 0, content.width(), canvas.height()),
                                 Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, spec.caption);
        const QRectF box(content.left(), content.bottom() - bounds.height(), content.width(),
                         bounds.height());
        painter.drawText(box, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, spec.caption);
        content.setBottom(box.top() - gap);
    }

    // Side by side or stacked, whichever draws the smallest view larger; the diagrams get twice
    // the room of the metrics table.
    const auto cellsFor = [&](bool stacked) {
        qreal total = 0;
        for (const QString& view : spec.views) {
            total += view == QLatin1String("metrics") ? 1.0 : 2.0;
        }
        const qreal length =
            (stacked ? content.height() : content.width()) -
            gap * static_cast<qreal>(std::max<qsizetype>(0, spec.views.size() - 1));
        std::vector<QRectF> cells;
        qreal at = stacked ? content.top() : content.left();
        for (const QString& view : spec.views) {
            const qreal share =
                length * (view == QLatin1String("metrics") ? 1.0 : 2.0) / std::max(1.0, total);
            cells.push_back(stacked ? QRectF(content.left(), at, content.width(), share)
                                    : QRectF(at, content.top(), share, content.height()));
            at += share + gap;
        }
        return cells;
    };
    const auto smallestScale = [&](const std::vector<QRectF>& cells) {
        qreal smallest = 1e9;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            smallest = std::min(smallest, paintView(nullptr, spec.views[static_cast<qsizetype>(i)],
                                                    cells[i], spec, palette));
        }
        return smallest;
    };
    std::vector<QRectF> cells = cellsFor(false);
    if (spec.views.size() > 1) {
        const std::vector<QRectF> stacked = cellsFor(true);
        if (smallestScale(stacked) > smallestScale(cells) * 1.05) {
            cells = stacked;
        }
    }
    for (std::size_t i = 0; i < cells.size(); ++i) {
        paintView(&painter, spec.views[static_cast<qsizetype>(i)], cells[i], spec, palette);
    }
}

qreal FigureRenderer::Private::paintView(FigurePainter* painter, const QString& view,
                                         const QRectF& cell, const FigureSpec& spec,
                                         const QPalette& palette) const {
    if (cell.width() < 8 || cell.height() < 8) {
        return 0;
    }
    if (view == QLatin1String("warp")) {
        return paintZoomable<ExportView<WarpView>>(painter, view, cell, spec, palette);
    }
    if (view == QLatin1String("bank")) {
        return paintZoomable<ExportView<BankView>>(painter, view, cell, spec, palette);
    }
    if (view == QLatin1String("block")) {
        return paintZoomable<ExportView<BlockView>>(painter, view, cell, spec, palette);
    }
    if (view == QLatin1String("tile")) {
        return paintZoomable<ExportView<TileView>>(painter, view, cell, spec, palette);
    }
    if (view == QLatin1String("sweep")) {
        return paintSweep(painter, cell, palette);
    }
    if (view == QLatin1String("metrics")) {
        return paintMetrics(painter, cell, palette);
    }
    if (view == QLatin1String("transfers")) { // a deck's slide: the notes' figures
        return paintTransfers(painter, cell, palette);
    }
    if (view == QLatin1String("l2-persistence")) { // a deck's slide: the model
        // 960 wide: the legend's eight entries in two columns; at 640 one column of eight rows
        // left the curves a strip.
        return paintExperimentView<L2PersistenceView>(painter, cell, palette, QSizeF(960, 600));
    }
    if (view == QLatin1String("streams")) { // a deck's slide: the model's timeline
        return paintExperimentView<StreamsView>(painter, cell, palette, QSizeF(960, 640));
    }
    if (view == QLatin1String("grid")) {
        return paintGrid(painter, cell, palette);
    }
    if (view == QLatin1String("notes")) {
        return paintNotes(painter, cell, palette);
    }
    return 0;
}

qreal FigureRenderer::Private::paintGrid(QPainter* painter, const QRectF& cell,
                                         const QPalette& palette) const {
    // Laid out at no less than 720 x 420 (the histogram's labels need the room), scaled down.
    const qreal width = std::max(cell.width(), minimumLayoutWidth(QStringLiteral("grid")));
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
    const qreal width = std::max(cell.width(), minimumLayoutWidth(QStringLiteral("notes")));
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

qreal FigureRenderer::Private::paintTransfers(FigurePainter* painter, const QRectF& cell,
                                              const QPalette& palette) const {
    return paintExperimentView<TransfersView>(painter, cell, palette, QSizeF(640, 400));
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

QImage FigureRenderer::renderImage(const FigureSpec& spec) const {
    const QSize pixels = spec.size.pixelSize(spec.dpi);
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        // Painted at the default 96 DPI so point-sized fonts keep their screen size; the canvas is
        // scaled onto the pixels.
        FigurePainter painter(&image);
        painter.scale(pixels.width() / spec.size.canvas.width(),
                      pixels.height() / spec.size.canvas.height());
        d->paint(painter, spec);
    }
    const int dotsPerMeter = qRound(spec.dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    return image.convertToFormat(QImage::Format_RGB32);
}

QByteArray FigureRenderer::render(const FigureSpec& spec, FigureFormat format,
                                  QString* error) const {
    if (d->error) {
        if (error != nullptr) {
            *error = *d->error;
        }
        return {};
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QString title = spec.title.isEmpty() ? patternTitle() : spec.title;
    switch (format) {
    case FigureFormat::Png: {
        const QImage image = renderImage(spec);
        if (!image.save(&buffer, "PNG")) {
            if (error != nullptr) {
                *error = QStringLiteral("the PNG encoder failed");
            }
            return {};
        }
        break;
    }
    case FigureFormat::Svg: {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setResolution(qRound(kScreenDpi));
        generator.setSize(spec.size.canvas.toSize());
        generator.setViewBox(QRectF(QPointF(0, 0), spec.size.canvas));
        // QSvgGenerator writes the title into <title> as it is: escape it here, the one place
        // user text reaches the SVG's markup (the drawn texts are escaped by Qt's paint engine).
        generator.setTitle(title.toHtmlEscaped());
        generator.setDescription(QStringLiteral("warpscope figure"));
        {
            FigurePainter painter(&generator);
            d->paint(painter, spec);
        }
        // The page's physical size: QSvgGenerator derives it from the canvas at 96 DPI.
        static const QRegularExpression sizeAttributes(
            QStringLiteral("<svg width=\"[^\"]*\" height=\"[^\"]*\""));
        bytes.replace(
            sizeAttributes.match(QString::fromUtf8(bytes.left(4096))).captured(0).toUtf8(),
            QStringLiteral("<svg width=\"%1in\" height=\"%2in\"")
                .arg(spec.size.pageInches.width(), 0, 'f', 4)
                .arg(spec.size.pageInches.height(), 0, 'f', 4)
                .toUtf8());
        break;
    }
    case FigureFormat::Pdf: {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("warpscope"));
        writer.setTitle(title);
        writer.setResolution(qRound(kScreenDpi));
        writer.setPageLayout(QPageLayout(QPageSize(spec.size.pageInches, QPageSize::Inch),
                                         QPageLayout::Portrait, QMarginsF()));
        {
            FigurePainter painter(&writer);
            const qreal scale =
                spec.size.pageInches.width() * kScreenDpi / spec.size.canvas.width();
            painter.scale(scale, scale);
            d->paint(painter, spec);
        }
        break;
    }
    case FigureFormat::Tex: {
        TikzOptions options;
        options.title = spec.title;
        options.caption = spec.caption;
        options.standalone = spec.tikzStandalone;
        if (spec.views.contains(QStringLiteral("notes")) &&
            !spec.views.contains(QStringLiteral("warp")) &&
            !spec.views.contains(QStringLiteral("bank"))) {
            const auto view = d->notesView(figurePalette(spec.theme));
            bytes = notesTikz(view->comparison(), options).toUtf8();
            break;
        }
        if (spec.views == QStringList{QStringLiteral("tile")}) {
            bytes = tileTikzFor(d->document, d->highlight, options).toUtf8();
            break;
        }
        const Evaluation& evaluation = *d->document.evaluation();
        const bool shared = evaluation.modern.shared.has_value();
        QString tex;
        if (spec.views.contains(QStringLiteral("bank")) && shared) {
            tex = bankTikz(evaluation, options);
        } else if (spec.views.contains(QStringLiteral("warp")) && !shared) {
            tex = warpTikz(evaluation, options);
        } else {
            tex = diagramTikz(evaluation, options);
        }
        bytes = tex.toUtf8();
        break;
    }
    }
    return bytes;
}

std::optional<QString> writeFigure(const FigureRenderer& renderer, const FigureSpec& spec,
                                   const QString& path) {
    const auto format = figureFormatFromName(path);
    if (!format || QFileInfo(path).suffix().isEmpty()) {
        return QStringLiteral("cannot tell the format of %1: name it .svg, .pdf, .png or .tex")
            .arg(path);
    }
    QString error;
    const QByteArray bytes = renderer.render(spec, *format, &error);
    if (bytes.isEmpty()) {
        return QStringLiteral("cannot draw %1: %2").arg(path, error);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return QStringLiteral("cannot write %1: %2")
            .arg(QDir::toNativeSeparators(path), file.errorString());
    }
    file.write(bytes);
    if (!file.commit()) {
        return QStringLiteral("cannot write %1: %2")
            .arg(QDir::toNativeSeparators(path), file.errorString());
    }
    return std::nullopt;
}

} // namespace warpscope::app
