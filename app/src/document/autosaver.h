// Autosaver: writes the session every few seconds while it has unsaved changes to a file under
// QStandardPaths::AppDataLocation, removes it on a clean exit, and so finds it at the next start
// after a crash. A lock file keeps a second running instance from taking over the first one's
// autosave.
#pragma once

#include <warpscope/file_format.h>

#include <QDateTime>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QLockFile;
class QTimer;

namespace warpscope::app {

class Autosaver : public QObject {
    Q_OBJECT
public:
    /// `directory` empty: QStandardPaths::AppDataLocation. `snapshot` gives the session to save
    /// and `changeCounter` a number that changes with every edit.
    Autosaver(QString directory, int intervalMs, std::function<Session()> snapshot,
              std::function<quint64()> changeCounter, QObject* parent = nullptr);
    ~Autosaver() override;

    /// False when another instance holds the autosave lock (this one then never autosaves).
    bool isActive() const { return m_active; }
    QString filePath() const;
    /// An autosave left by a run that did not exit cleanly, found at construction.
    bool hasRecoveryFile() const { return m_recoveryFound; }
    QDateTime recoveryTime() const { return m_recoveryTime; }

    /// Write now if anything changed since the last autosave; returns false on a write error.
    bool saveNow();
    /// The session was saved by the user or the app is closing cleanly: nothing to recover.
    void discard();

signals:
    void failed(const QString& message);

private:
    QString m_directory;
    std::function<Session()> m_snapshot;
    std::function<quint64()> m_changeCounter;
    quint64 m_savedCounter = 0;
    QTimer* m_timer;
    std::unique_ptr<QLockFile> m_lock;
    bool m_active = false;
    bool m_recoveryFound = false;
    QDateTime m_recoveryTime;
};

} // namespace warpscope::app
