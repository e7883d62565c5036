// RecentFiles: a short list under the "recentFiles" settings key.
#include "document/recentfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace warpscope::app {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(bool useSettings, QObject* parent)
    : QObject(parent), m_useSettings(useSettings) {
    if (m_useSettings) {
        m_files = QSettings().value(kKey).toStringList();
    }
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_files.removeAll(absolute);
    m_files.prepend(absolute);
    while (m_files.size() > kMaxFiles) {
        m_files.removeLast();
    }
    store();
}

void RecentFiles::remove(const QString& path) {
    m_files.removeAll(QFileInfo(path).absoluteFilePath());
    store();
}

void RecentFiles::clear() {
    m_files.clear();
    store();
}

void RecentFiles::store() {
    if (m_useSettings) {
        QSettings().setValue(kKey, m_files);
    }
}

void RecentFiles::populate(QMenu* menu) {
    menu->clear();
    int number = 1;
    for (const QString& file : m_files) {
        const QString label =
            QStringLiteral("&%1 %2").arg(number % 10).arg(QDir::toNativeSeparators(file));
        QAction* action = menu->addAction(label);
        action->setEnabled(QFileInfo::exists(file));
        connect(action, &QAction::triggered, this, [this, file] { emit openRequested(file); });
        ++number;
    }
    if (m_files.isEmpty()) {
        menu->addAction(tr("(no recent sessions)"))->setEnabled(false);
    } else {
        menu->addSeparator();
        connect(menu->addAction(tr("Clear the list")), &QAction::triggered, this,
                &RecentFiles::clear);
    }
}

} // namespace warpscope::app
