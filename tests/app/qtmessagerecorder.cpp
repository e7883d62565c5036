// The recording message handler. A few messages of the offscreen platform plugin are not about
// the app (the plugin simply lacks the feature) and are not recorded; they are listed below.
#include "qtmessagerecorder.h"

#include <QMutex>
#include <QMutexLocker>

#include <cstdio>

namespace warpscope::app::test {

namespace {

QMutex mutex;
QStringList warnings;
QtMessageHandler previousHandler = nullptr;

bool isPlatformPluginLimitation(const QString& message) {
    // qoffscreen: QPlatformWindow's defaults for features the offscreen plugin does not have.
    return message == QLatin1String("This plugin does not support propagateSizeHints()") ||
           message == QLatin1String("This plugin does not support raise()") ||
           message == QLatin1String("This plugin does not support grabbing the keyboard") ||
           message.startsWith(QLatin1String("This plugin does not support setParent"));
}

void record(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type != QtDebugMsg && type != QtInfoMsg && !isPlatformPluginLimitation(message)) {
        QMutexLocker lock(&mutex);
        warnings << QStringLiteral("%1:%2: %3")
                        .arg(QString::fromUtf8(context.file ? context.file : "?"))
                        .arg(context.line)
                        .arg(message);
    }
    if (previousHandler != nullptr) {
        previousHandler(type, context, message);
    }
}

} // namespace

void installQtMessageRecorder() {
    previousHandler = qInstallMessageHandler(record);
}

QStringList recordedQtWarnings() {
    QMutexLocker lock(&mutex);
    return warnings;
}

void clearRecordedQtWarnings() {
    QMutexLocker lock(&mutex);
    warnings.clear();
}

} // namespace warpscope::app::test
