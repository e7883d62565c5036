// The Trace dock's source panel: the traced instruction's source line in its file.
#include "panels/sourcepanel.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace warpscope::app {

namespace {

/// Source files larger than this are not shown (a generated file, or not a source file).
constexpr qint64 kMaxSourceBytes = 8 << 20;
/// How far up from the trace's folder a moved checkout is looked for.
constexpr int kMaxParentsSearched = 6;

} // namespace

SourcePanel::SourcePanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sourcePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("sourceStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_status, 1);
    m_locate = new QPushButton(tr("Locate…"), this);
    m_locate->setToolTip(tr("Choose where this source file is on this machine"));
    m_locate->hide();
    row->addWidget(m_locate);
    layout->addLayout(row);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("sourceText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_text, 1);
    connect(m_locate, &QPushButton::clicked, this, &SourcePanel::locateWithDialog);
    showSource({}, 0, {});
}

QString SourcePanel::resolve(const QString& file, const QString& traceFolder) const {
    const QFileInfo recorded(file);
    if (recorded.isFile()) {
        return recorded.absoluteFilePath();
    }
    const QString folder = recorded.path();
    if (const auto found = m_located.constFind(folder); found != m_located.constEnd()) {
        const QFileInfo there(QDir(found.value()).filePath(recorded.fileName()));
        if (there.isFile()) {
            return there.absoluteFilePath();
        }
    }
    if (traceFolder.isEmpty()) {
        return {};
    }
    const QFileInfo beside(QDir(traceFolder).filePath(recorded.fileName()));
    if (beside.isFile()) {
        return beside.absoluteFilePath();
    }
    // The same checkout elsewhere: the recorded path's last parts ("scripts/gpu/x.cu") under
    // the trace's folder or one of its parents (a trace kept in the repository it traced).
    const QStringList parts =
        QDir::fromNativeSeparators(file).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QDir ancestor(traceFolder);
    for (int up = 0; up < kMaxParentsSearched; ++up) {
        for (int keep = 2; keep <= std::min<int>(static_cast<int>(parts.size()), 6); ++keep) {
            const QString tail = parts.mid(parts.size() - keep).join(QLatin1Char('/'));
            const QFileInfo candidate(ancestor.filePath(tail));
            if (candidate.isFile()) {
                return candidate.absoluteFilePath();
            }
        }
        if (!ancestor.cdUp()) {
            break;
        }
    }
    return {};
}

void SourcePanel::showSource(const QString& file, qint64 line, const QString& traceFolder) {
    m_file = file;
    m_line = line;
    m_traceFolder = traceFolder;
    m_shownPath.clear();
    m_locate->hide();
    if (file.isEmpty()) {
        m_text->clear();
        m_text->setPlaceholderText(tr("This instruction has no source line: build the program "
                                      "with -lineinfo (nvcc) to see its source here."));
        m_status->setText(tr("No line info"));
        return;
    }
    const QString path = resolve(file, traceFolder);
    if (path.isEmpty() || !load(path)) {
        m_text->clear();
        m_text->setPlaceholderText(
            tr("The trace names %1, line %2, which is not on this machine. Use Locate… to "
               "choose where it is.")
                .arg(QDir::toNativeSeparators(file))
                .arg(line));
        m_status->setText(tr("%1 is not on this machine (line %2)")
                              .arg(QDir::toNativeSeparators(file))
                              .arg(line));
        m_locate->show();
    }
}

bool SourcePanel::load(const QString& path) {
    QFile source(path);
    if (source.size() > kMaxSourceBytes || !source.open(QIODevice::ReadOnly)) {
        return false;
    }
    m_text->setPlainText(QString::fromUtf8(source.readAll()));
    m_shownPath = path;
    QList<QTextEdit::ExtraSelection> selections;
    const QTextBlock block = m_text->document()->findBlockByNumber(static_cast<int>(m_line - 1));
    if (block.isValid()) {
        QTextEdit::ExtraSelection selection;
        QColor marked = palette().color(QPalette::Highlight);
        marked.setAlpha(80); // the text stays readable in either theme
        selection.format.setBackground(marked);
        selection.format.setProperty(QTextFormat::FullWidthSelection, true);
        selection.cursor = QTextCursor(block);
        selections << selection;
        m_text->setTextCursor(QTextCursor(block));
        m_text->centerCursor();
        // Again once laid out: a panel not yet shown has no height to centre in.
        QTimer::singleShot(0, m_text, [text = m_text] { text->centerCursor(); });
        m_status->setText(tr("%1, line %2").arg(QDir::toNativeSeparators(path)).arg(m_line));
    } else {
        m_status->setText(tr("%1 has %2 lines; the trace names line %3 (the file changed since "
                             "the program was built?)")
                              .arg(QDir::toNativeSeparators(path))
                              .arg(m_text->document()->blockCount())
                              .arg(m_line));
    }
    m_text->setExtraSelections(selections);
    return true;
}

bool SourcePanel::locate(const QString& path) {
    if (m_file.isEmpty()) {
        return false;
    }
    if (!load(path)) {
        m_status->setText(
            tr("%1 cannot be read; choose the source file %2 names.")
                .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(m_file)));
        m_locate->show();
        return false;
    }
    m_located.insert(QFileInfo(m_file).path(), QFileInfo(path).absolutePath());
    m_locate->hide();
    return true;
}

void SourcePanel::locateWithDialog() {
    const QString name = QFileInfo(m_file).fileName();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Locate %1").arg(name), m_traceFolder, tr("%1 (%1);;All files (*)").arg(name));
    if (!path.isEmpty()) {
        locate(path);
    }
}

} // namespace warpscope::app
