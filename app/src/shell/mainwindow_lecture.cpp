// MainWindow's lecture mode: the deck opened (the last one, a chosen file or the course deck), the
// slide it was left at, and the way back to the window.
#include "shell/mainwindow.h"

#include "lecture/lecturewindow.h"
#include "panels/messagebar.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace warpscope::app {

LectureWindow* MainWindow::startLecture(const QString& deckPath, QSize size) {
    QString path = deckPath.isEmpty() ? m_deckPath : deckPath;
    if (path.isEmpty()) {
        path = builtinDeckPath();
    } else if (!path.startsWith(QLatin1String(":/"))) {
        path = QFileInfo(path).absoluteFilePath();
    }
    auto deck = loadDeckFile(path);
    if (!deck) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot open the deck %1: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(deck.error().describe())));
        return nullptr;
    }
    if (m_lecture) {
        m_lecture->close();
    }
    int slide = 0;
    if (m_options.useSettings && QSettings().value(QStringLiteral("lecture/deck")) == path) {
        slide = QSettings().value(QStringLiteral("lecture/slide")).toInt();
    }
    auto* lecture = new LectureWindow(std::move(deck).value(), this);
    lecture->setAttribute(Qt::WA_DeleteOnClose);
    for (const ExperimentTab* tab : m_experimentTabs) {
        lecture->setExperimentResults(tab->experiment().tableKey(), tab->results());
    }
    lecture->setKernelMeasurements(m_kernelMeasurements); // the notes slides' GPU bars
    lecture->setSlide(slide);
    connect(lecture, &LectureWindow::finished, this, [this, path](int last) {
        if (m_options.useSettings) {
            QSettings settings;
            settings.setValue(QStringLiteral("lecture/deck"), path);
            settings.setValue(QStringLiteral("lecture/slide"), last);
        }
        raise();
        activateWindow();
    });
    m_lecture = lecture;
    m_deckPath = path;
    lecture->present(size);
    return lecture;
}

LectureWindow* MainWindow::lectureWindow() const {
    return qobject_cast<LectureWindow*>(m_lecture.data());
}

void MainWindow::openDeckWithDialog() {
    const QString start = m_deckPath.startsWith(QLatin1String(":/"))
                              ? QString()
                              : QFileInfo(m_deckPath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Deck"), start, tr("warpscope decks (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        startLecture(path);
    }
}

} // namespace warpscope::app
