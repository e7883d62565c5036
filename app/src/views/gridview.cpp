// GridView: the heat map of a whole grid and the grid model's histogram.
#include "views/gridview.h"

#include "document/patterndocument.h"
#include "views/theme.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <array>
#include <utility>

namespace warpscope::app {

namespace {

constexpr int kMargin = 12;
constexpr int kHeaderHeight = 40;
constexpr int kHistogramWidth = 260;
/// The line height the sizes above are for (the app's type, 12–13 px). Type at least a quarter
/// larger (a lecture slide at 4K: 26 px) scales them, so the histogram's rows and labels do not
/// run into one another; a desktop's slightly larger type leaves them as they are.
constexpr qreal kReferenceLineHeight = 16.0;
constexpr qreal kLeastScale = 1.25;

/// Blue (one sector or wavefront, ideal) through sky blue and orange to vermillion (32, a lane
/// each): Okabe-Ito colours on a fixed scale, so that a uniform grid of 4-sector warps is not
/// drawn as badly as one of 32 and two kernels' maps compare; inactive warps light grey.
QRgb heatRgb(int value, int maxValue) {
    if (value < 0) {
        return qRgb(200, 200, 200);
    }
    static constexpr std::array<std::array<int, 3>, 4> kStops = {
        {{0, 114, 178}, {86, 180, 233}, {230, 159, 0}, {213, 94, 0}}};
    const int top = std::max(32, maxValue);
    const double t = std::clamp((value - 1.0) / (top - 1), 0.0, 1.0) * (kStops.size() - 1);
    const auto segment = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
    const double f = t - static_cast<double>(segment);
    const auto& a = kStops[segment];
    const auto& b = kStops[segment + 1];
    return qRgb(static_cast<int>(a[0] + f * (b[0] - a[0])),
                static_cast<int>(a[1] + f * (b[1] - a[1])),
                static_cast<int>(a[2] + f * (b[2] - a[2])));
}

} // namespace

QColor GridView::heatColour(int value, int maxValue) {
    return QColor(heatRgb(value, maxValue));
}

GridView::GridView(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_computation(new GridComputation(this)),
      m_ahead(new GridComputation(this)) {
    setObjectName(QStringLiteral("gridView"));
    setMinimumSize(400, 300);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(30);
    connect(&m_debounce, &QTimer::timeout, this, &GridView::recompute);
    connect(m_document, &PatternDocument::evaluationChanged, this, [this] {
        if (isVisible()) {
            m_debounce.start();
        }
    });
    connect(m_computation, &GridComputation::resultReady, this, &GridView::onResult);
    connect(m_ahead, &GridComputation::resultReady, this, [this](int job, const GridResult& r) {
        if (job != m_aheadJob) {
            return;
        }
        m_aheadJob = 0;
        m_adopted = Adopted{m_aheadRequest, r, heatMapImage(r), statusFor(r)};
        m_showingAdopted = false;
        if (std::exchange(m_waitingForAhead, false)) {
            showAdopted();
        }
    });
    connect(m_ahead, &GridComputation::failed, this, [this](int job, const QString&) {
        if (job == m_aheadJob) {
            m_aheadJob = 0;
            if (std::exchange(m_waitingForAhead, false)) {
                recompute(); // the view's own computation says what failed
            }
        }
    });
    connect(m_ahead, &GridComputation::progress, this, [this](int job, int done, int) {
        if (job == m_aheadJob && m_waitingForAhead) {
            m_progressPermille = done;
            update();
        }
    });
    connect(m_computation, &GridComputation::failed, this, [this](int, const QString& message) {
        m_status = message;
        m_progressPermille = -1;
        m_result.reset();
        m_shownRequest.reset();
        m_showingAdopted = false;
        m_image = QImage();
        update();
        emit computed();
    });
    connect(m_computation, &GridComputation::progress, this, [this](int job, int done, int) {
        if (job == m_computation->latestJob()) {
            m_progressPermille = done;
            update();
        }
    });
}

GridRequest GridView::requestFor(const PatternDocument& document) {
    // The document's kernel and its selected access; a plain pattern's one-access kernel is made
    // on the worker, since sizing its buffer walks the whole grid.
    GridRequest request;
    if (document.kernel()) {
        request.kernel = *document.kernel();
        request.access = document.selectedAccess();
    } else {
        request.pattern = document.pattern();
        request.access = 0;
    }
    return request;
}

void GridView::recompute() {
    GridRequest request = requestFor(*m_document);
    if (m_adopted && m_adopted->request == request) {
        // Computed ahead: shown now, and nothing under way may replace it.
        m_debounce.stop();
        m_computation->cancel();
        m_waitingForAhead = false;
        if (!m_showingAdopted || m_progressPermille >= 0) {
            showAdopted();
        }
        return;
    }
    if (m_aheadJob != 0 && m_aheadRequest == request) {
        // Under way ahead: wait for it rather than compute it twice.
        m_debounce.stop();
        m_computation->cancel();
        if (!m_waitingForAhead) {
            m_waitingForAhead = true;
            m_progressPermille = 0;
            update();
        }
        return;
    }
    m_waitingForAhead = false;
    m_progressPermille = 0;
    ++m_computationsRequested;
    m_requested = request;
    m_computation->request(std::move(request));
    update();
}

void GridView::showAdopted() {
    m_shownRequest = m_adopted->request;
    m_result = m_adopted->result;
    m_image = m_adopted->image;
    m_status = m_adopted->status;
    m_progressPermille = -1;
    m_showingAdopted = true;
    update();
    emit computed();
}

void GridView::prepare(const GridRequest& request) {
    if ((m_adopted && m_adopted->request == request) ||
        (m_aheadJob != 0 && m_aheadRequest == request)) {
        return; // computed, or under way
    }
    m_waitingForAhead = false;
    m_aheadRequest = request;
    m_aheadJob = m_ahead->request(request);
}

bool GridView::isPrepared(const GridRequest& request) const {
    return m_adopted && m_adopted->request == request;
}

bool GridView::showsResultFor(const GridRequest& request) const {
    return m_result && m_progressPermille < 0 && m_shownRequest == request;
}

void GridView::clearResult() {
    m_shownRequest.reset();
    m_result.reset();
    m_image = QImage();
    m_status.clear();
    m_showingAdopted = false;
    update();
}

void GridView::onResult(int, const GridResult& result) {
    showResult(result);
    m_shownRequest = m_requested;
    emit computed();
}

void GridView::showResult(const GridResult& result) {
    m_shownRequest.reset(); // computed elsewhere
    m_result = result;
    m_showingAdopted = false;
    m_progressPermille = -1;
    m_status = statusFor(result);
    rebuildImage();
    update();
}

QString GridView::statusFor(const GridResult& result) {
    const QString unit = result.shared     ? tr("wavefronts")
                         : result.constant ? tr("distinct addresses (constant-cache requests)")
                                           : tr("sectors per request");
    QString status =
        tr("%1 warps in %2 × %3 × %4 blocks; %5")
            .arg(result.totalWarps)
            .arg(result.grid.x)
            .arg(result.grid.y)
            .arg(result.grid.z)
            .arg(result.representative ? tr("the heat map shows a representative region: blocks "
                                            "(0..%1, 0..%2, 0), %3 warps")
                                             .arg(result.shownBlocksX - 1)
                                             .arg(result.shownBlocksY - 1)
                                             .arg(result.values.size())
                                       : tr("every warp shown"));
    status += tr("; colour: %1").arg(unit);
    return status;
}

std::vector<GridView::Run> GridView::heatMapRuns() const {
    std::vector<Run> runs;
    if (!m_result) {
        return runs;
    }
    const GridResult& r = *m_result;
    const int width = static_cast<int>(r.shownBlocksX * r.warpsPerBlock);
    const int height = static_cast<int>(r.shownBlocksY);
    for (int y = 0; y < height; ++y) {
        const int* values = r.values.data() + static_cast<std::size_t>(y) * width;
        for (int x = 0; x < width; ++x) {
            if (x > 0 && values[x] == values[x - 1]) {
                ++runs.back().count;
            } else {
                runs.push_back(Run{y, x, 1, values[x]});
            }
        }
    }
    return runs;
}

void GridView::rebuildImage() {
    if (m_result) {
        m_image = heatMapImage(*m_result);
    }
}

QImage GridView::heatMapImage(const GridResult& r) {
    const int width = static_cast<int>(r.shownBlocksX * r.warpsPerBlock);
    const int height = static_cast<int>(r.shownBlocksY);
    QImage image(std::max(1, width), std::max(1, height), QImage::Format_RGB32);
    // One colour per value (values are small counts), looked up per warp.
    std::vector<QRgb> colours(static_cast<std::size_t>(std::max(0, r.maxValue)) + 2);
    for (std::size_t v = 0; v < colours.size(); ++v) {
        colours[v] = heatRgb(static_cast<int>(v) - 1, r.maxValue);
    }
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        const int* values = r.values.data() + static_cast<std::size_t>(y) * width;
        for (int x = 0; x < width; ++x) {
            line[x] = colours[static_cast<std::size_t>(std::max(-1, values[x]) + 1)];
        }
    }
    return image;
}

int GridView::scaled(int pixels) const {
    const qreal scale = QFontMetricsF(font()).height() / kReferenceLineHeight;
    return scale < kLeastScale ? pixels : qRound(pixels * scale);
}

QRect GridView::heatMapRect() const {
    return QRect(scaled(kMargin), scaled(kHeaderHeight),
                 std::max(10, width() - 3 * scaled(kMargin) - scaled(kHistogramWidth)),
                 std::max(10, height() - scaled(kHeaderHeight) - scaled(kMargin)));
}

std::optional<std::pair<std::int64_t, std::int64_t>> GridView::warpAt(QPoint point) const {
    if (!m_result || m_image.isNull()) {
        return std::nullopt;
    }
    const QRect area = heatMapRect();
    if (!area.contains(point)) {
        return std::nullopt;
    }
    const GridResult& r = *m_result;
    const std::int64_t column =
        (point.x() - area.left()) * m_image.width() / std::max(1, area.width());
    const std::int64_t row =
        (point.y() - area.top()) * m_image.height() / std::max(1, area.height());
    const std::int64_t blockX = column / r.warpsPerBlock;
    const std::int64_t warp = column % r.warpsPerBlock;
    if (blockX >= r.shownBlocksX || row >= r.shownBlocksY) {
        return std::nullopt;
    }
    return std::make_pair(row * r.grid.x + blockX, warp);
}

void GridView::selectWarp(std::int64_t blockLinear, std::int64_t warpInBlock) {
    Pattern pattern = m_document->pattern();
    if (!pattern.source || !m_result) {
        return;
    }
    const Dim3 grid = m_result->grid;
    pattern.source->blockIdx = Dim3{blockLinear % grid.x, (blockLinear / grid.x) % grid.y,
                                    blockLinear / (grid.x * grid.y)};
    pattern.source->warpIndex = warpInBlock;
    m_document->editPattern(pattern, tr("Select warp %1 of block (%2, %3)")
                                         .arg(warpInBlock)
                                         .arg(pattern.source->blockIdx.x)
                                         .arg(pattern.source->blockIdx.y));
}

void GridView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        if (const auto warp = warpAt(event->position().toPoint())) {
            selectWarp(warp->first, warp->second);
            update();
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

void GridView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    m_debounce.start(); // edits made while hidden were not computed
}

void GridView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    painter.setPen(colors.text);
    QString header = m_status;
    if (m_progressPermille >= 0) {
        header = tr("Computing the grid… %1 %").arg(m_progressPermille / 10);
    }
    painter.drawText(
        QRect(scaled(kMargin), scaled(4), width() - 2 * scaled(kMargin), scaled(kHeaderHeight - 6)),
        Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, header);
    const QRect area = heatMapRect();
    if (!m_image.isNull()) {
        std::vector<Run> runs;
        if (m_vectorCells) {
            runs = heatMapRuns();
        }
        if (!runs.empty() && runs.size() <= static_cast<std::size_t>(kMaxVectorRuns)) {
            const double cellW = static_cast<double>(area.width()) / m_image.width();
            const double cellH = static_cast<double>(area.height()) / m_image.height();
            painter.save();
            painter.setRenderHint(QPainter::Antialiasing, false);
            for (const Run& run : runs) {
                painter.fillRect(QRectF(area.left() + run.first * cellW,
                                        area.top() + run.row * cellH, run.count * cellW, cellH),
                                 heatColour(run.value, m_result->maxValue));
            }
            painter.restore();
        } else {
            painter.drawImage(area, m_image);
        }
        // The selected warp, outlined.
        const auto& source = m_document->pattern().source;
        if (source && m_result && source->blockIdx.z == 0 &&
            source->blockIdx.x < m_result->shownBlocksX &&
            source->blockIdx.y < m_result->shownBlocksY) {
            const double cellW = static_cast<double>(area.width()) / m_image.width();
            const double cellH = static_cast<double>(area.height()) / m_image.height();
            const double x =
                area.left() +
                (source->blockIdx.x * m_result->warpsPerBlock + source->warpIndex) * cellW;
            const double y = area.top() + source->blockIdx.y * cellH;
            painter.setPen(QPen(colors.highlight, 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(x, y, std::max(3.0, cellW), std::max(3.0, cellH)));
        }
    }
    painter.setPen(colors.frame);
    painter.drawRect(area.adjusted(0, 0, -1, -1));

    // The grid model's histogram: warps per count, over the whole grid.
    const QRect hist(area.right() + scaled(kMargin), area.top(), scaled(kHistogramWidth),
                     std::min(area.height(), scaled(34 * 14 + 20)));
    painter.setPen(colors.text);
    if (!m_result) {
        return;
    }
    const auto& counts = m_result->prediction.histogram;
    std::int64_t most = 1;
    int last = 1;
    for (int k = 0; k < kHistogramBuckets; ++k) {
        most = std::max(most, counts[static_cast<std::size_t>(k)]);
        if (counts[static_cast<std::size_t>(k)] > 0) {
            last = std::max(last, k);
        }
    }
    painter.drawText(QRect(hist.left(), hist.top(), hist.width(), scaled(18)), Qt::AlignLeft,
                     m_result->shared     ? tr("warps by wavefronts (grid model)")
                     : m_result->constant ? tr("warps by distinct addresses (grid model)")
                                          : tr("warps by sectors/request (grid model)"));
    const int rowHeight =
        std::max(scaled(8), std::min(scaled(14), (hist.height() - scaled(20)) / (last + 1)));
    for (int k = 0; k <= last; ++k) {
        const int y = hist.top() + scaled(20) + k * rowHeight;
        const std::int64_t n = counts[static_cast<std::size_t>(k)];
        painter.setPen(colors.mutedText);
        painter.drawText(QRect(hist.left(), y, scaled(24), rowHeight),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(k));
        const int barWidth = static_cast<int>((hist.width() - scaled(110)) * n / most);
        painter.fillRect(QRect(hist.left() + scaled(30), y + 1, barWidth, rowHeight - 2),
                         heatColour(k == 0 ? -1 : k, m_result->maxValue));
        if (n > 0) {
            painter.setPen(colors.text);
            painter.drawText(QRect(hist.left() + scaled(34) + barWidth, y, scaled(80), rowHeight),
                             Qt::AlignLeft | Qt::AlignVCenter, QString::number(n));
        }
    }
}

} // namespace warpscope::app
