// GridView: the heat map of a whole grid and the grid model's histogram: its requests, results
// and the warp selected by a click (gridview_paint.cpp draws it, gridview_question.cpp asks
// about large grids and cancels).
#include "views/gridview.h"

#include "document/patterndocument.h"
#include "views/hugegridquestion.h"
#include "views/viewpainting.h"

#include <QMouseEvent>
#include <QPushButton>
#include <QShortcut>

#include <algorithm>
#include <utility>

namespace warpscope::app {

GridView::GridView(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_computation(new GridComputation(this)),
      m_ahead(new GridComputation(this)), m_cancelButton(new QPushButton(tr("Cancel (Esc)"), this)),
      m_computeButton(new QPushButton(tr("Compute"), this)),
      m_escape(new QShortcut(QKeySequence(Qt::Key_Escape), this)) {
    setObjectName(QStringLiteral("gridView"));
    setMinimumSize(400, 300);
    setMouseTracking(true); // hover tells the block and warp under the pointer
    m_cancelButton->setObjectName(QStringLiteral("gridCancel"));
    m_computeButton->setObjectName(QStringLiteral("gridCompute"));
    m_cancelButton->hide();
    m_computeButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &GridView::cancelComputation);
    connect(m_computeButton, &QPushButton::clicked, this, &GridView::computeAnyway);
    // Esc stops a grid under way wherever the focus is in the window (the editor, most
    // likely); enabled only while one is, so Esc keeps its other uses otherwise.
    m_escape->setContext(Qt::WindowShortcut);
    m_escape->setEnabled(false);
    connect(m_escape, &QShortcut::activated, this, &GridView::cancelComputation);
    m_hideShownTimer.setSingleShot(true);
    m_hideShownTimer.setInterval(150);
    connect(&m_hideShownTimer, &QTimer::timeout, this, [this] {
        if (isComputing() && !(m_shownRequest && *m_shownRequest == m_requested)) {
            hideShownResult();
        }
    });
    connect(m_computation, &GridComputation::confirmationNeeded, this,
            &GridView::onConfirmationNeeded);
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
    // Ahead of time, a grid that would be asked about is not computed: the view asks when it
    // gets there.
    connect(m_ahead, &GridComputation::confirmationNeeded, this,
            [this](int job, const GridResult&) {
                if (job == m_aheadJob) {
                    m_aheadJob = 0;
                    if (std::exchange(m_waitingForAhead, false)) {
                        recompute();
                    }
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
        hideShownResult();
        updateControls();
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
            m_hideShownTimer.start();
            update();
        }
        return;
    }
    if (m_question && m_askedRequest == request) {
        if (isVisible() && !m_question->isVisible()) {
            m_question->open(); // asked while the view was hidden
        }
        return; // asked already: the answer decides
    }
    if (m_question) {
        m_question->disconnect(this); // about a grid no longer current
        m_question->close();
        m_question->deleteLater();
        m_question.clear();
    }
    if (m_declined && *m_declined == request) {
        updateControls(); // not computed, as the user chose; Compute starts it
        return;
    }
    m_declined.reset();
    GridLimits limits;
    const bool confirmed = m_confirmed && *m_confirmed == request;
    limits.askAboveThreadAccesses = confirmed ? 0 : m_askAbove;
    m_waitingForAhead = false;
    m_progressPermille = 0;
    ++m_computationsRequested;
    m_requested = request;
    m_computation->request(std::move(request), limits);
    if (confirmed && !(m_shownRequest && *m_shownRequest == m_requested)) {
        hideShownResult(); // a large grid: its progress, not the previous one, from now on
    } else {
        m_hideShownTimer.start();
    }
    updateControls();
    update();
}

void GridView::showAdopted() {
    m_hideShownTimer.stop();
    m_shownRequest = m_adopted->request;
    m_result = m_adopted->result;
    m_image = m_adopted->image;
    m_status = m_adopted->status;
    m_progressPermille = -1;
    m_showingAdopted = true;
    updateControls();
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
    GridLimits limits;
    limits.askAboveThreadAccesses = m_askAbove; // a grid to ask about is asked about when shown
    m_aheadJob = m_ahead->request(request, limits);
}

bool GridView::isPrepared(const GridRequest& request) const {
    return m_adopted && m_adopted->request == request;
}

bool GridView::showsResultFor(const GridRequest& request) const {
    return m_result && m_progressPermille < 0 && m_shownRequest == request;
}

void GridView::clearResult() {
    hideShownResult();
    m_status.clear();
}

void GridView::onResult(int, const GridResult& result) {
    showResult(result);
    m_shownRequest = m_requested;
    emit computed();
}

void GridView::showResult(const GridResult& result) {
    m_hideShownTimer.stop();
    m_shownRequest.reset(); // computed elsewhere
    m_result = result;
    m_showingAdopted = false;
    m_progressPermille = -1;
    m_status = statusFor(result);
    rebuildImage();
    updateControls();
    update();
}

void GridView::hideShownResult() {
    m_hideShownTimer.stop();
    m_shownRequest.reset();
    m_result.reset();
    m_image = QImage();
    m_showingAdopted = false;
    m_hover.reset();
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

void GridView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint point = event->position().toPoint();
    const std::optional<QPoint> hover =
        warpAt(point) ? std::optional<QPoint>(point) : std::optional<QPoint>();
    if (hover != m_hover) {
        m_hover = hover;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void GridView::leaveEvent(QEvent* event) {
    if (m_hover) {
        m_hover.reset();
        update();
    }
    QWidget::leaveEvent(event);
}

bool GridView::event(QEvent* event) {
    if (handleToolTipEvent(this, event, [this](const QPoint& at) { return hoverText(at); })) {
        return true;
    }
    return QWidget::event(event);
}

void GridView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateControls();
}

void GridView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    m_debounce.start(); // edits made while hidden were not computed
}

} // namespace warpscope::app
