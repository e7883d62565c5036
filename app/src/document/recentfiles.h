// RecentFiles: the most recently opened or saved sessions, kept in QSettings and shown as the
// File > Open Recent menu.
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace warpscope::app {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    /// `useSettings` false keeps the list in memory only (tests).
    explicit RecentFiles(bool useSettings, QObject* parent = nullptr);

    QStringList files() const { return m_files; }
    void add(const QString& path);
    void remove(const QString& path);
    void clear();
    /// Fill `menu` with the files; choosing one emits openRequested.
    void populate(QMenu* menu);

    static constexpr int kMaxFiles = 10;

signals:
    void openRequested(const QString& path);

private:
    void store();

    bool m_useSettings;
    QStringList m_files;
};

} // namespace warpscope::app
