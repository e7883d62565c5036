// SourcePanel (in the Trace dock): the source file of the chosen traced instruction with its line
// highlighted and scrolled into view, when the program was built with -lineinfo. A file that is
// not on this machine is said so, with its recorded path, and a "Locate…" button lets the user
// point at it; the folder found stands in for the recorded one for the trace's other files.
#pragma once

#include <QHash>
#include <QString>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace warpscope::app {

class SourcePanel : public QWidget {
    Q_OBJECT
public:
    explicit SourcePanel(QWidget* parent = nullptr);

    /// Show `file` at `line` (1-based). `traceFolder` is also searched for the file's name (a
    /// trace copied together with its sources). An empty `file` says there is no line info.
    void showSource(const QString& file, qint64 line, const QString& traceFolder);
    /// The user located the recorded file at `path`: show it, and look for the trace's other
    /// files of the same recorded folder in `path`'s folder from now on. False (with the
    /// message shown) when `path` cannot be read.
    bool locate(const QString& path);

    /// The file shown, or empty when none is.
    QString shownPath() const { return m_shownPath; }
    /// The highlighted line (1-based), 0 when none.
    qint64 highlightedLine() const { return m_shownPath.isEmpty() ? 0 : m_line; }
    QLabel* statusLabel() const { return m_status; }
    QPlainTextEdit* text() const { return m_text; }
    QPushButton* locateButton() const { return m_locate; }

private:
    QString resolve(const QString& file, const QString& traceFolder) const;
    bool load(const QString& path);
    void locateWithDialog();

    QLabel* m_status = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QPushButton* m_locate = nullptr;
    QString m_file; // as recorded
    qint64 m_line = 0;
    QString m_traceFolder;
    QString m_shownPath;
    /// Recorded folder -> the folder the user located its files in.
    QHash<QString, QString> m_located;
};

} // namespace warpscope::app
