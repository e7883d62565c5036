// Figure rendering: fresh views on a private document, laid out on the figure's canvas and drawn
// through QWidget::render (vector on SVG and PDF), the sweep plot through QCustomPlot::toPainter,
// the metrics table painted from its model.
#include "export/figureexport.h"

#include "export/figureexport_private.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/notesexperiment.h"
#include "gpu/probemeasurement.h"

#include "document/evaluation.h"
#include "document/gridcomputation.h"
#include "document/patterndocument.h"
#include "export/tikzexport.h"
#include "export/tiletikz.h"
#include "panels/metricstablemodel.h"
#include "views/bankview.h"
#include "views/blockview.h"
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

using figure_export::pixelFont;

} // namespace

// ---- Rendering ---------------------------------------------------------------------------------

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
    d->tmaLoad = session.tmaLoad;
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
            total += view == viewKindName(ViewKind::Metrics) ? 1.0 : 2.0;
        }
        const qreal length =
            (stacked ? content.height() : content.width()) -
            gap * static_cast<qreal>(std::max<qsizetype>(0, spec.views.size() - 1));
        std::vector<QRectF> cells;
        qreal at = stacked ? content.top() : content.left();
        for (const QString& view : spec.views) {
            const qreal share = length * (view == viewKindName(ViewKind::Metrics) ? 1.0 : 2.0) /
                                std::max(1.0, total);
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
        if (spec.views.contains(viewKindName(ViewKind::Notes)) &&
            !spec.views.contains(viewKindName(ViewKind::Warp)) &&
            !spec.views.contains(viewKindName(ViewKind::Bank))) {
            const auto view = d->notesView(figurePalette(spec.theme));
            bytes = notesTikz(view->comparison(), options).toUtf8();
            break;
        }
        if (spec.views == QStringList{viewKindName(ViewKind::Tile)}) {
            bytes = tileTikzFor(d->document, d->highlight, options, d->tmaLoad).toUtf8();
            break;
        }
        const Evaluation& evaluation = *d->document.evaluation();
        const bool shared = evaluation.modern.shared.has_value();
        QString tex;
        if (spec.views.contains(viewKindName(ViewKind::Bank)) && shared) {
            tex = bankTikz(evaluation, options);
        } else if (spec.views.contains(viewKindName(ViewKind::Warp)) && !shared) {
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
