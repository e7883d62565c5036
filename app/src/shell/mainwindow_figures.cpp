// MainWindow's figures: File ▸ Export Figure… (the dialog, then the file) and Edit ▸ Copy Figure
// (the current view on the clipboard for slides), each reported in the message bar.
#include "shell/mainwindow.h"

#include "export/figureexport.h"
#include "export/figureexportdialog.h"
#include "panels/messagebar.h"
#include "views/experimentview.h"
#include "views/gridview.h"
#include "views/notesview.h"
#include "views/viewkind.h"
#include "views/warpview.h"

#include <QClipboard>
#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QGuiApplication>
#include <QMimeData>
#include <QTabWidget>

namespace warpscope::app {

namespace {

/// The figure view of the tab shown: the grid and notes tabs have figures of their own, and an
/// experiment's tab its chart (named by the experiment's key).
QString figureViewOf(const QTabWidget* tabs, const QWidget* grid, const QWidget* notes,
                     const std::vector<ExperimentTab*>& experiments, const QString& pattern) {
    for (const ExperimentTab* tab : experiments) {
        if (tabs->currentWidget() == tab->view()) {
            return tab->experiment().key();
        }
    }
    if (tabs->currentWidget() == grid) {
        return viewKindName(ViewKind::Grid);
    }
    if (tabs->currentWidget() == notes) {
        return viewKindName(ViewKind::Notes);
    }
    return pattern;
}

/// The results each experiment's chart is drawn from: its tab's.
ExperimentResultsByKey experimentResultsOf(const std::vector<ExperimentTab*>& experiments) {
    ExperimentResultsByKey results;
    for (const ExperimentTab* tab : experiments) {
        results[std::string(tab->experiment().tableKey())] = tab->results();
    }
    return results;
}

} // namespace

void MainWindow::exportFigureWithDialog() {
    FigureExportDialog dialog(
        currentSession(),
        figureViewOf(m_tabs, m_gridView, m_notesView, m_experimentTabs, viewName(currentView())),
        m_options.useSettings, this, experimentResultsOf(m_experimentTabs));
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    QString error;
    const QString written = dialog.exportToFile(&error);
    if (!error.isEmpty()) {
        m_messageBar->showMessage(MessageBar::Level::Error, error);
    } else if (!written.isEmpty()) {
        m_messageBar->showMessage(
            MessageBar::Level::Info,
            tr("Figure exported to %1.").arg(QDir::toNativeSeparators(written)));
    }
}

void MainWindow::copyFigureToClipboard() {
    const FigureRenderer renderer(currentSession());
    FigureSpec spec;
    spec.views = {
        figureViewOf(m_tabs, m_gridView, m_notesView, m_experimentTabs, viewName(currentView()))};
    spec.experimentResults = experimentResultsOf(m_experimentTabs);
    spec.showTextbook = m_warpView->showsTextbook();
    QString error;
    const QByteArray svg = renderer.render(spec, FigureFormat::Svg, &error);
    if (svg.isEmpty()) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("Cannot copy the figure: %1").arg(error));
        return;
    }
    auto* mime = new QMimeData;
    mime->setImageData(renderer.renderImage(spec));
    mime->setData(QStringLiteral("image/svg+xml"), svg);
    QGuiApplication::clipboard()->setMimeData(mime);
    m_messageBar->showMessage(
        MessageBar::Level::Info,
        tr("Copied the %1 view as a figure (PNG and SVG) for slides.").arg(spec.views.front()));
}

} // namespace warpscope::app
