// runLectureScript(): key presses as QKeyEvents, captures with QWidget::grab().
#include "lecture/lecturescript.h"

#include "lecture/lecturegeometry.h"
#include "lecture/lecturewindow.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QKeySequence>
#include <QPixmap>
#include <QPointer>
#include <QSaveFile>
#include <QWindow>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace warpscope::app {

namespace {

constexpr auto kCapturePrefix = QLatin1String("capture:");
constexpr auto kGeometryPrefix = QLatin1String("geometry:");
// How long a capture or a report waits for the slide's background work (a grid's heat map).
constexpr int kViewsWaitMs = 30000;

QStringList scriptSteps(const QString& script) {
    QStringList steps;
    for (const QString& step : script.split(QLatin1Char(','))) {
        if (!step.trimmed().isEmpty()) {
            steps << step.trimmed();
        }
    }
    return steps;
}

/// The one key combination `step` names, or nothing.
std::optional<QKeyCombination> keyOf(const QString& step) {
    const QKeySequence sequence = QKeySequence::fromString(step, QKeySequence::PortableText);
    if (sequence.count() != 1 || sequence[0].key() == Qt::Key_unknown) {
        return std::nullopt;
    }
    return sequence[0];
}

/// Let the window settle: pending layouts, relayouts and paints.
void settle(int milliseconds) {
    const QDeadlineTimer deadline(milliseconds);
    while (!deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
}

void printState(const LectureWindow& window, const QString& step) {
    std::printf("lecture: %s -> slide %d/%d \"%s\" · revealed %d/%d\n", qPrintable(step),
                window.slideIndex() + 1, window.slideCount(), qPrintable(window.titleText()),
                window.revealedSteps(), window.stepCount());
    std::fflush(stdout);
}

/// Write the slide's layout (lectureGeometry()) to `path`; print its problems. 1 when the file
/// cannot be written, else 0: judging the layout is the caller's (scripts/lecture-check.sh).
int writeGeometry(const LectureWindow& window, const QString& path) {
    waitForSlideViews(window, kViewsWaitMs);
    settle(100);
    const QJsonObject report = lectureGeometry(window);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(report).toJson(QJsonDocument::Indented)) < 0 || !file.commit()) {
        std::fprintf(stderr, "warpscope: cannot write the slide's geometry to %s: %s\n",
                     qPrintable(path), qPrintable(file.errorString()));
        return 1;
    }
    const QStringList problems = lectureGeometryProblems(report);
    std::printf("lecture: wrote the geometry of slide %d to %s: %s\n", window.slideIndex() + 1,
                qPrintable(path),
                problems.isEmpty()
                    ? "nothing clipped"
                    : qPrintable(QStringLiteral("%1 problem(s)").arg(problems.size())));
    for (const QString& problem : problems) {
        std::printf("lecture:   slide %d: %s\n", window.slideIndex() + 1, qPrintable(problem));
    }
    std::fflush(stdout);
    return 0;
}

} // namespace

QString checkLectureScript(const QString& script) {
    const QStringList steps = scriptSteps(script);
    if (steps.isEmpty()) {
        return QApplication::translate("warpscope", "--lecture-script has no steps.");
    }
    for (const QString& step : steps) {
        if (step.startsWith(kCapturePrefix) || step.startsWith(kGeometryPrefix)) {
            const QString prefix = step.section(QLatin1Char(':'), 0, 0);
            if (step.size() == prefix.size() + 1) {
                return QApplication::translate("warpscope",
                                               "--lecture-script: \"%1:\" needs a file name.")
                    .arg(prefix);
            }
        } else if (!keyOf(step)) {
            return QApplication::translate(
                       "warpscope",
                       "--lecture-script: \"%1\" is not a key (Right, PgDown, Space, "
                       "Shift+Space, Backspace, Home, End, Return, Esc, ...) nor capture:FILE "
                       "or geometry:FILE.")
                .arg(step);
        }
    }
    return {};
}

int runLectureScript(LectureWindow* lecture, const QString& script) {
    // Escape closes the window, and the one that opened it may delete it then.
    const QPointer<LectureWindow> guard(lecture);
    LectureWindow& window = *lecture;
    const QDeadlineTimer exposed(5000);
    while (!exposed.hasExpired() &&
           !(window.windowHandle() != nullptr && window.windowHandle()->isExposed())) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    settle(300);
    printState(window, QStringLiteral("start"));
    int status = 0;
    for (const QString& step : scriptSteps(script)) {
        if (step.startsWith(kGeometryPrefix)) {
            status = std::max(status, writeGeometry(window, step.mid(kGeometryPrefix.size())));
            continue;
        }
        if (step.startsWith(kCapturePrefix)) {
            const QString path = step.mid(kCapturePrefix.size());
            waitForSlideViews(window, kViewsWaitMs);
            settle(100);
            const QPixmap pixmap = window.grab();
            if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
                std::fprintf(stderr, "warpscope: cannot write the capture to %s\n",
                             qPrintable(path));
                status = 1;
            } else {
                std::printf("lecture: saved %dx%d capture of slide %d to %s\n", pixmap.width(),
                            pixmap.height(), window.slideIndex() + 1, qPrintable(path));
            }
            continue;
        }
        const QKeyCombination key = *keyOf(step);
        // As the window system would deliver it: to the focused widget of the lecture window.
        QWidget* target = window.focusWidget() != nullptr ? window.focusWidget() : &window;
        QKeyEvent press(QEvent::KeyPress, key.key(), key.keyboardModifiers());
        QKeyEvent release(QEvent::KeyRelease, key.key(), key.keyboardModifiers());
        QApplication::sendEvent(target, &press);
        if (guard.isNull() || !window.isVisible()) {
            std::printf("lecture: %s -> left lecture mode\n", qPrintable(step));
            break;
        }
        QApplication::sendEvent(target, &release);
        settle(50);
        printState(window, step);
    }
    return status;
}

} // namespace warpscope::app
