// MainWindow's layout on a first start and after View ▸ Reset Layout: the window fills the screen
// it opens on, and the Pattern and Metrics docks are as wide as their content needs (the longest
// Nsight Compute metric name with its values), so a newcomer sees every number without dragging a
// splitter; when the window grows (maximised), the docks take what they still lack before the
// centre takes the rest.
#include "shell/mainwindow.h"

#include "panels/metricspanel.h"

#include <QDockWidget>
#include <QGuiApplication>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QShowEvent>
#include <QTimer>

#include <algorithm>

namespace warpscope::app {

namespace {

/// The share of a wide window the Metrics dock may take at most (a third of a narrower one); the
/// Pattern dock takes at most a quarter.
constexpr int kMetricsShareNumerator = 2;
constexpr int kMetricsShareDenominator = 5;
constexpr int kWideWindow = 1600;

} // namespace

void MainWindow::fitToScreen() {
    QScreen* where = screen() != nullptr ? screen() : QGuiApplication::primaryScreen();
    if (where == nullptr) {
        return;
    }
    const QRect available = where->availableGeometry();
    // The frame the window manager adds is not known before the window is shown: leave room for
    // a usual one so the whole window, title bar included, is on the screen.
    const QSize frame(frameGeometry().size() - geometry().size());
    const QSize size = available.size() - frame.expandedTo(QSize(0, 0));
    resize(size.boundedTo(available.size()));
    move(available.topLeft());
}

void MainWindow::fitDocksToContent() {
    const int total = width();
    if (total <= 0) {
        return;
    }
    QList<QDockWidget*> docks;
    QList<int> widths;
    const int dockFrame = m_metricsDock->width() - m_metricsDock->widget()->width();
    if (!m_metricsDock->isFloating() && m_metricsDock->isVisible()) {
        const int wanted = m_metrics->preferredWidth() + std::max(dockFrame, 0);
        // On a laptop's screen a third, so that the views keep room; two fifths from 1600 px.
        const int most = total < kWideWindow
                             ? total / 3
                             : total * kMetricsShareNumerator / kMetricsShareDenominator;
        docks << m_metricsDock;
        widths << std::max(m_metricsDock->width(), std::min(wanted, most));
    }
    if (!m_editorDock->isFloating() && m_editorDock->isVisible()) {
        auto* scroll = qobject_cast<QScrollArea*>(m_editorDock->widget());
        const int content = scroll != nullptr && scroll->widget() != nullptr
                                ? scroll->widget()->sizeHint().width()
                                : m_editorDock->widget()->sizeHint().width();
        const int wanted = std::max(content, m_editorDock->widget()->minimumWidth());
        docks << m_editorDock;
        widths << std::max(m_editorDock->width(), std::min(wanted, total / 4));
    }
    if (!docks.isEmpty()) {
        resizeDocks(docks, widths, Qt::Horizontal);
    }
}

void MainWindow::resetLayout() {
    restoreState(m_defaultDockState);
    for (QDockWidget* dock : {m_editorDock, m_metricsDock, m_lanesDock}) {
        dock->setFloating(false);
        dock->show();
    }
    // From the built widths, not the ones the user dragged to: the default state knows no
    // widths (it is taken before the first show), so the docks are fitted again, once the
    // restored arrangement has been laid out.
    fitDocksToContent();
    QTimer::singleShot(0, this, [this] { fitDocksToContent(); });
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_fitDocksWhenShown && !event->spontaneous()) {
        m_fitDocksWhenShown = false;
        fitDocksToContent();
        // Once more after the first layout pass, when the docks know their real frames.
        QTimer::singleShot(0, this, [this] { fitDocksToContent(); });
    }
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    // Maximised or made wider: the docks first take what their content still lacks (never
    // shrinking what the user chose); QMainWindow alone would give every new pixel to the centre.
    if (isVisible() && event->oldSize().isValid() &&
        event->size().width() > event->oldSize().width()) {
        QTimer::singleShot(0, this, [this] { fitDocksToContent(); });
    }
}

} // namespace warpscope::app
