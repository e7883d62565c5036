// Autosaver: timer, lock file and the autosave file itself.
#include "document/autosaver.h"

#include "document/sessionfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <QTimer>

#include <utility>

namespace warpscope::app {

Autosaver::Autosaver(QString directory, int intervalMs, std::function<Session()> snapshot,
                     std::function<quint64()> changeCounter, QObject* parent)
    : QObject(parent), m_directory(std::move(directory)), m_snapshot(std::move(snapshot)),
      m_changeCounter(std::move(changeCounter)), m_timer(new QTimer(this)) {
    if (m_directory.isEmpty()) {
        m_directory = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    }
    m_savedCounter = m_changeCounter();
    if (m_directory.isEmpty() || !QDir().mkpath(m_directory)) {
        return;
    }
    m_lock = std::make_unique<QLockFile>(m_directory + QStringLiteral("/autosave.lock"));
    // A lock left by a crashed instance is stale (its process is gone) and tryLock removes it.
    if (!m_lock->tryLock(0)) {
        m_lock.reset();
        return;
    }
    m_active = true;
    const QFileInfo info(filePath());
    if (info.exists()) {
        m_recoveryFound = true;
        m_recoveryTime = info.lastModified();
    }
    m_timer->setInterval(intervalMs);
    connect(m_timer, &QTimer::timeout, this, &Autosaver::saveNow);
    m_timer->start();
}

Autosaver::~Autosaver() = default;

QString Autosaver::filePath() const {
    return m_directory + QStringLiteral("/autosave.") + QString::fromLatin1(kSessionSuffix);
}

bool Autosaver::saveNow() {
    if (!m_active) {
        return false;
    }
    if (m_recoveryFound) {
        return true; // never overwrite what a crashed run left until the user has decided
    }
    const quint64 counter = m_changeCounter();
    if (counter == m_savedCounter) {
        return true;
    }
    if (auto error = writeSessionFile(filePath(), m_snapshot())) {
        emit failed(QString::fromStdString(error->describe()));
        return false;
    }
    m_savedCounter = counter;
    return true;
}

void Autosaver::discard() {
    if (!m_active) {
        return;
    }
    QFile::remove(filePath());
    m_savedCounter = m_changeCounter();
    m_recoveryFound = false;
}

} // namespace warpscope::app
