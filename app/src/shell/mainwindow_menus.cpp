// MainWindow's menus and actions: File, Edit, View, GPU and Help, every action with its keys
// (listed in m_shortcutActions), and the two Help windows, which are generated from those actions.
#include "shell/mainwindow.h"

#include "document/kernelfile.h"
#include "document/patterndocument.h"
#include "document/recentfiles.h"
#include "gpu/gpurunner.h"
#include "gpu/probeclient.h"
#include "panels/expressionedit.h"
#include "panels/messagebar.h"
#include "panels/patterneditor.h"
#include "shell/perinstructionoption.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/gridview.h"
#include "views/kernelsweepview.h"
#include "views/notesview.h"
#include "views/sweepplot.h"
#include "views/warpview.h"

#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>
#include <vector>

namespace warpscope::app {

void MainWindow::createMenus() {
    auto add = [this](QMenu* menu, const QString& text, const QKeySequence& key, auto slot) {
        QAction* action = menu->addAction(text);
        if (!key.isEmpty()) {
            action->setShortcut(key);
            m_shortcutActions << action;
        }
        connect(action, &QAction::triggered, this, slot);
        return action;
    };

    QMenu* file = menuBar()->addMenu(tr("&File"));
    add(file, tr("&New Session"), QKeySequence::New, [this] { newSession(); });
    add(file, tr("&Open…"), QKeySequence::Open, [this] { openWithDialog(); });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, [this] { m_recent->populate(m_recentMenu); });
    m_recent->populate(m_recentMenu);
    add(file, tr("Open &Trace…"), QKeySequence(tr("Ctrl+Shift+O")),
        [this] { openTraceWithDialog(); });
    add(file, tr("Open &Deck for Lecture Mode…"), QKeySequence(), [this] { openDeckWithDialog(); });
    add(file, tr("Open &Measurements…"), QKeySequence(), [this] {
        openMeasurementsWithDialog();
    })->setObjectName(QStringLiteral("openMeasurementsAction"));
    file->addSeparator();
    add(file, tr("&Save"), QKeySequence::Save, [this] { save(); });
    add(file, tr("Save &As…"), QKeySequence(tr("Ctrl+Shift+S")), [this] { saveAsWithDialog(); });
    file->addSeparator();
    add(file, tr("&Export Figure…"), QKeySequence(tr("Ctrl+Shift+E")),
        [this] { exportFigureWithDialog(); });
    // The open entry as the CLI's kernel file: `warpscope-cli analyze-kernel FILE` reads it.
    add(file, tr("Export &Kernel File…"), QKeySequence(), [this] {
        auto kernel = m_document->kernelOrPatternKernel();
        if (!kernel) {
            m_messageBar->showMessage(MessageBar::Level::Error,
                                      tr("No kernel to export: %1")
                                          .arg(QString::fromStdString(kernel.error().describe())));
            return;
        }
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export Kernel File"), QString(),
                                         tr("warpscope kernel files (*.json);;All files (*)"));
        if (path.isEmpty()) {
            return;
        }
        if (auto error = writeKernelFile(path, kernel.value())) {
            m_messageBar->showMessage(
                MessageBar::Level::Error,
                tr("Cannot export the kernel: %1").arg(QString::fromStdString(error->describe())));
            return;
        }
        statusBar()->showMessage(
            tr("Exported the kernel to %1 (warpscope-cli analyze-kernel reads it)")
                .arg(QDir::toNativeSeparators(path)),
            5000);
    })->setObjectName(QStringLiteral("exportKernelFileAction"));
    file->addSeparator();
    add(file, tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});
    edit->addAction(undo);
    edit->addAction(redo);
    m_shortcutActions << undo << redo;
    edit->addSeparator();
    add(edit, tr("Edit the &Address Expression"), QKeySequence(tr("Ctrl+E")), [this] {
        m_editor->addressEdit()->setFocus();
        m_editor->addressEdit()->selectAll();
    });
    add(edit, tr("Copy &Figure"), QKeySequence(tr("Ctrl+Shift+C")),
        [this] { copyFigureToClipboard(); });
    add(edit, tr("&Next Preset"), QKeySequence(tr("Ctrl+]")), [this] { stepPreset(1); });
    add(edit, tr("&Previous Preset"), QKeySequence(tr("Ctrl+[")), [this] { stepPreset(-1); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    add(view, tr("&Warp View"), QKeySequence(tr("Ctrl+1")), [this] { showView(View::Warp); });
    add(view, tr("&Bank View"), QKeySequence(tr("Ctrl+2")), [this] { showView(View::Bank); });
    add(view, tr("B&lock View"), QKeySequence(tr("Ctrl+3")), [this] { showView(View::Block); });
    add(view, tr("&Sweep Plot"), QKeySequence(tr("Ctrl+4")), [this] { showView(View::Sweep); });
    add(view, tr("&Grid View"), QKeySequence(tr("Ctrl+5")),
        [this] { m_tabs->setCurrentWidget(m_gridView); });
    add(view, tr("&Notes vs This GPU"), QKeySequence(tr("Ctrl+6")),
        [this] { m_tabs->setCurrentWidget(m_notesView); });
    view->addSeparator();
    auto zoomTarget = [this]() -> ZoomableView* {
        switch (currentView()) {
        case View::Bank:
            return m_bankView;
        case View::Block:
            return m_blockView;
        case View::Warp:
            return m_warpView;
        case View::Sweep:
            return nullptr;
        }
        return nullptr;
    };
    QAction* zoomIn = add(view, tr("Zoom &In"), QKeySequence::ZoomIn, [zoomTarget] {
        if (ZoomableView* v = zoomTarget()) {
            v->zoomIn();
        }
    });
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    add(view, tr("Zoom &Out"), QKeySequence::ZoomOut, [zoomTarget] {
        if (ZoomableView* v = zoomTarget()) {
            v->zoomOut();
        }
    });
    QAction* fit = add(view, tr("&Fit to Window"), QKeySequence(tr("F")), [zoomTarget] {
        if (ZoomableView* v = zoomTarget()) {
            v->fitToWindow();
        }
    });
    fit->setShortcuts({QKeySequence(tr("F")), QKeySequence(tr("Ctrl+0"))});
    m_textbookOutlines = view->addAction(tr("&Textbook Transactions in the Warp View"));
    m_textbookOutlines->setCheckable(true);
    m_textbookOutlines->setChecked(m_warpView->showsTextbook());
    m_textbookOutlines->setShortcut(QKeySequence(tr("Ctrl+T")));
    m_shortcutActions << m_textbookOutlines;
    auto* outlinesBox = findChild<QCheckBox*>(QStringLiteral("textbookOutlinesBox"));
    connect(m_textbookOutlines, &QAction::toggled, this, [this, outlinesBox](bool on) {
        m_warpView->setShowTextbook(on);
        if (outlinesBox) {
            outlinesBox->setChecked(on);
        }
    });
    if (outlinesBox) {
        connect(outlinesBox, &QCheckBox::toggled, m_textbookOutlines, &QAction::setChecked);
    }
    view->addSeparator();
    QMenu* themes = view->addMenu(tr("T&heme"));
    auto* themeGroup = new QActionGroup(this);
    m_lightTheme = themes->addAction(tr("&Light"));
    m_darkTheme = themes->addAction(tr("&Dark"));
    for (QAction* a : {m_lightTheme, m_darkTheme}) {
        a->setCheckable(true);
        themeGroup->addAction(a);
    }
    m_lightTheme->setChecked(true);
    connect(m_lightTheme, &QAction::triggered, this, [this] { setTheme(Theme::Light); });
    connect(m_darkTheme, &QAction::triggered, this, [this] { setTheme(Theme::Dark); });
    add(view, tr("Toggle &Dark Theme"), QKeySequence(tr("Ctrl+Shift+D")),
        [this] { setTheme(m_theme == Theme::Dark ? Theme::Light : Theme::Dark); });
    add(view, tr("&Lecture Mode"), QKeySequence(tr("F11")), [this] { startLecture(); });
    view->addSeparator();
    QMenu* panels = view->addMenu(tr("&Panels"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        panels->addAction(dock->toggleViewAction());
    }
    add(view, tr("&Reset Layout"), QKeySequence(), [this] {
        resetLayout();
    })->setObjectName(QStringLiteral("resetLayoutAction"));

    QMenu* gpu = menuBar()->addMenu(tr("GP&U"));
    add(gpu, tr("&Run on the GPU"), QKeySequence(tr("F5")), [this] {
        runOnGpu();
    })->setObjectName(QStringLiteral("runOnGpuAction"));
    m_autoRunAction = gpu->addAction(tr("&Auto-Run After Each Edit"));
    m_autoRunAction->setObjectName(QStringLiteral("autoRunAction"));
    m_autoRunAction->setCheckable(true);
    m_autoRunAction->setShortcut(QKeySequence(tr("Ctrl+F5")));
    m_shortcutActions << m_autoRunAction;
    connect(m_autoRunAction, &QAction::toggled, this, [this](bool on) {
        m_gpu->setAutoRun(on);
        if (m_options.useSettings) {
            QSettings().setValue(QStringLiteral("probe/autoRun"), on);
        }
    });
    addPerInstructionOption(gpu, this, m_options.useSettings);
    add(gpu, tr("Run the &Sweep on the GPU"), QKeySequence(tr("Shift+F5")), [this] {
        runSweepOnGpu();
    })->setObjectName(QStringLiteral("runSweepOnGpuAction"));
    add(gpu, tr("&Cancel the GPU Sweep"), QKeySequence(tr("Ctrl+Shift+F5")), [this] {
        if (m_sweepPlot->kernelMode()) {
            m_sweepPlot->kernelSweepView()->cancelButton()->click();
        } else {
            m_gpu->cancelSweep();
        }
    });
    gpu->addSeparator();
    add(gpu, tr("Show &Kernel…"), QKeySequence(tr("Ctrl+K")), [this] { showKernelSource(); });
    gpu->addSeparator();
    add(gpu, tr("R&estart the Probe"), QKeySequence(), [this] {
        m_probe->restart();
        m_messageBar->dismiss();
    });
    add(gpu, tr("Probe &Settings…"), QKeySequence(), [this] { editProbeSettings(); });
    createDeviceMenu(gpu);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, [this] { showShortcuts(); });
    add(help, tr("User &Guide"), QKeySequence(), [this] {
        openUserGuide();
    })->setObjectName(QStringLiteral("userGuideAction"));
    add(help, tr("&About warpscope"), QKeySequence(), [this] { showAbout(); });
}

void MainWindow::showShortcuts() {
    // Generated from the actions themselves, so it cannot drift from what the keys do.
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard Shortcuts"));
    // Lecture mode's keys are not actions of this window: listed after them.
    const std::vector<std::pair<QString, QString>> lectureKeys = {
        {tr("Lecture mode: next slide"), tr("Right, Down, PgDown, N, click")},
        {tr("Lecture mode: previous slide"), tr("Left, Up, PgUp, P")},
        {tr("Lecture mode: first, last slide"), tr("Home, End")},
        {tr("Lecture mode: show the next transaction or wavefront"), tr("Space")},
        {tr("Lecture mode: step back"), tr("Backspace, Shift+Space, right click")},
        {tr("Lecture mode: show all"), tr("Return")},
        {tr("Lecture mode: leave"), tr("Esc, F11")},
    };
    auto* table = new QTableWidget(
        static_cast<int>(m_shortcutActions.size() + static_cast<qsizetype>(lectureKeys.size())), 2,
        dialog);
    table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    int row = 0;
    for (QAction* action : m_shortcutActions) {
        QString text = action->text();
        text.remove(QLatin1Char('&'));
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts()) {
            keys << key.toString(QKeySequence::NativeText);
        }
        table->setItem(row, 0, new QTableWidgetItem(text));
        table->setItem(row, 1, new QTableWidgetItem(keys.join(QStringLiteral(", "))));
        ++row;
    }
    for (const auto& [text, keys] : lectureKeys) {
        table->setItem(row, 0, new QTableWidgetItem(text));
        table->setItem(row, 1, new QTableWidgetItem(keys));
        ++row;
    }
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setWordWrap(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    // As wide as both columns' longest text (the Keys column was cut off at a fixed 480 px).
    table->resizeColumnsToContents();
    const QMargins margins = layout->contentsMargins();
    const int needed = table->horizontalHeader()->length() + 2 * table->frameWidth() +
                       table->verticalScrollBar()->sizeHint().width() + margins.left() +
                       margins.right() + 8;
    dialog->resize(std::max(480, needed), 520);
    dialog->show(); // not modal: the window stays usable
}

void MainWindow::showAbout() {
    m_messageBar->showMessage(
        MessageBar::Level::Info,
        tr("warpscope %1 — draws one CUDA warp's memory accesses over 128-byte lines, 32-byte "
           "sectors and 32 banks, with the modern (cc 7.0+) and textbook (Fermi/Kepler) models. %2")
            .arg(QCoreApplication::applicationVersion(), gpuStatusText()));
}

} // namespace warpscope::app
