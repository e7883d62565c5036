// MainWindow's files: presets, sessions opened, saved and started afresh, the question before
// unsaved changes are lost, and the offer to restore what autosave kept after a crash.
#include "shell/mainwindow.h"

#include "views/experimentview.h"
#include "views/tilepanel.h"
#include "views/tileview.h"

#include "document/autosaver.h"
#include "document/patterndocument.h"
#include "document/recentfiles.h"
#include "document/sessionfile.h"
#include "document/tracedocument.h"
#include "gpu/probemeasurement.h"
#include "panels/messagebar.h"
#include "panels/patterneditor.h"
#include "panels/presetpicker.h"

#include <warpscope/preset.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QStatusBar>
#include <QUndoStack>

namespace warpscope::app {

namespace {

QString sessionFilter() {
    return QCoreApplication::translate("warpscope", "warpscope sessions (*.%1);;All files (*)")
        .arg(QString::fromLatin1(kSessionSuffix));
}

/// Open reads kernel files (the CLI's, docs/file-formats.md) and traces too.
QString openFilter() {
    return QCoreApplication::translate(
               "warpscope",
               "Sessions, kernel files and traces (*.%1 *.json *.%2);;warpscope sessions (*.%1);;"
               "Kernel files (*.json);;warpscope traces (*.%2);;All files (*)")
        .arg(QString::fromLatin1(kSessionSuffix), QString::fromLatin1(kTraceSuffix));
}

/// The Tile tab's view (the tab is found by its object name, "tilePanel").
TileView* tileViewOf(const QWidget& window) {
    const auto* panel = window.findChild<TilePanel*>(QStringLiteral("tilePanel"));
    return panel != nullptr ? panel->tileView() : nullptr;
}

/// The session's TMA load in the Tile tab. A session without one leaves the tab as loading its
/// pattern left it (a preset's own load, or none).
void restoreTmaLoad(const QWidget& window, const Session& session) {
    if (TileView* view = tileViewOf(window); view != nullptr && session.tmaLoad) {
        view->setTmaLoad(session.tmaLoad);
    }
}

} // namespace

Session MainWindow::currentSession() const {
    Session session = m_document->toSession(viewSettings());
    m_measurements->fillSession(session);
    for (const ExperimentTab* tab : m_experimentTabs) {
        tab->addResults(session);
    }
    if (const TileView* view = tileViewOf(*this)) {
        session.tmaLoad = view->tmaLoad();
    }
    return session;
}

void MainWindow::markStartupState() {
    m_document->undoStack()->clear();
    m_document->markSaved();
    if (m_autosaver && !m_autosaver->hasRecoveryFile()) {
        m_autosaver->discard();
    }
}

bool MainWindow::loadPresetById(const QString& id) {
    if (ExperimentTab* tab = findExperimentTab(id)) {
        m_tabs->setCurrentWidget(tab->view()); // an experiment's tab: no pattern to load
        return true;
    }
    if (id.startsWith(QLatin1String(kNotesExperimentPrefix))) {
        return showNotesExperiment(id.mid(static_cast<int>(qstrlen(kNotesExperimentPrefix))));
    }
    if (id.startsWith(QLatin1String(kKernelPresetPrefix))) {
        return showKernelPreset(id.mid(static_cast<int>(qstrlen(kKernelPresetPrefix))));
    }
    const Preset* preset = findPreset(id.toStdString());
    if (preset == nullptr) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("There is no built-in preset \"%1\" (%n preset(s) in this build).", "",
               static_cast<int>(builtinPresets().size()))
                .arg(id));
        m_editor->presetPicker()->setCurrentPresetId(m_document->presetId());
        return false;
    }
    m_document->loadPreset(*preset);
    return true;
}

void MainWindow::stepPreset(int delta) {
    const auto& presets = builtinPresets();
    if (presets.empty()) {
        return;
    }
    int index = -1;
    for (std::size_t i = 0; i < presets.size(); ++i) {
        if (QString::fromStdString(presets[i].id) == m_document->presetId()) {
            index = static_cast<int>(i);
        }
    }
    const int count = static_cast<int>(presets.size());
    index = index < 0 ? (delta > 0 ? 0 : count - 1) : ((index + delta) % count + count) % count;
    m_document->loadPreset(presets[static_cast<std::size_t>(index)]);
}

bool MainWindow::openSession(const QString& path) {
    if (isTraceFile(path)) { // File ▸ Open and Open Recent take a trace too (suffix or magic)
        return openTrace(path);
    }
    bool kernelFile = false;
    auto session = readSessionFile(path, &kernelFile);
    if (!session) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("Cannot open %1: %2")
                                      .arg(QFileInfo(path).fileName(),
                                           QString::fromStdString(session.error().describe())));
        return false;
    }
    if (auto error = m_document->loadSession(session.value())) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot open %1: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(error->describe())));
        return false;
    }
    m_measurements->takeFromSession(session.value());
    m_messageBar->dismiss(); // before the view settings, which may have something to say
    applyViewSettings(session.value().viewSettings);
    applyExperimentResults(session.value());
    restoreTmaLoad(*this, session.value());
    m_document->markSaved(); // applying the view settings is not a change
    m_recent->add(QFileInfo(path).absoluteFilePath());
    if (kernelFile) {
        // Save writes a session, never over the kernel file (File > Export Kernel File writes
        // that form).
        m_currentFile.clear();
        m_document->markModified();
        updateTitle();
        statusBar()->showMessage(
            tr("Opened the kernel file %1; Save writes a new session, File > Export Kernel File "
               "a kernel file")
                .arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())),
            6000);
        return true;
    }
    m_currentFile = QFileInfo(path).absoluteFilePath();
    updateTitle();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_currentFile)), 4000);
    return true;
}

bool MainWindow::saveSession(const QString& path) {
    QString target = path;
    if (QFileInfo(target).suffix().isEmpty()) {
        target += QLatin1Char('.') + QString::fromLatin1(kSessionSuffix);
    }
    if (auto error = writeSessionFile(target, currentSession())) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot save: %1").arg(QString::fromStdString(error->describe())));
        return false;
    }
    m_document->markSaved();
    m_currentFile = QFileInfo(target).absoluteFilePath();
    m_recent->add(m_currentFile);
    if (m_autosaver) {
        m_autosaver->discard();
    }
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_currentFile)), 4000);
    return true;
}

bool MainWindow::save() {
    if (m_currentFile.isEmpty()) {
        return saveAsWithDialog();
    }
    return saveSession(m_currentFile);
}

bool MainWindow::saveAsWithDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save Session"), m_currentFile, sessionFilter());
    return !path.isEmpty() && saveSession(path);
}

void MainWindow::openWithDialog() {
    if (!maybeDiscard()) {
        return;
    }
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Session, Kernel File or Trace"),
                                     QFileInfo(m_currentFile).absolutePath(), openFilter());
    if (!path.isEmpty()) {
        openSession(path);
    }
}

void MainWindow::newSession() {
    if (!maybeDiscard()) {
        return;
    }
    Session fresh;
    fresh.entries.push_back(SessionEntry{PatternDocument().current(), {}});
    m_document->loadSession(fresh);
    const auto& presets = builtinPresets();
    if (!presets.empty()) {
        m_document->loadPreset(presets.front());
    }
    markStartupState();
    m_currentFile.clear();
    updateTitle();
}

bool MainWindow::maybeDiscard() {
    if (!m_options.confirmDiscard || !m_document->isModified()) {
        return true;
    }
    const auto answer = QMessageBox::question(
        this, tr("Unsaved Changes"), tr("The session has unsaved changes. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) {
        return save();
    }
    return answer == QMessageBox::Discard;
}

void MainWindow::offerRecovery() {
    if (!m_autosaver || !m_autosaver->hasRecoveryFile()) {
        return;
    }
    const QString path = m_autosaver->filePath();
    m_messageBar->showMessage(
        MessageBar::Level::Warning,
        tr("warpscope did not close cleanly last time. Restore the session autosaved at %1?")
            .arg(QLocale().toString(m_autosaver->recoveryTime(), QLocale::ShortFormat)),
        {{tr("Restore"),
          [this, path] {
              auto session = readSessionFile(path);
              std::optional<Error> error;
              if (!session) {
                  error = session.error();
              } else {
                  error = m_document->loadSession(session.value());
              }
              if (error) {
                  m_messageBar->showMessage(MessageBar::Level::Error,
                                            tr("The autosaved session cannot be restored: %1")
                                                .arg(QString::fromStdString(error->describe())));
                  return;
              }
              m_measurements->takeFromSession(session.value());
              applyViewSettings(session.value().viewSettings);
              applyExperimentResults(session.value());
              restoreTmaLoad(*this, session.value());
              m_currentFile.clear();
              m_autosaver->discard();
              m_document->markModified(); // it lives in no file yet
              updateTitle();
          }},
         {tr("Discard"), [this] { m_autosaver->discard(); }}});
}

} // namespace warpscope::app
