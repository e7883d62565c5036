// ExpressionEdit: QPlainTextEdit held to one line (Enter and pasted newlines are refused).
#include "panels/expressionedit.h"

#include "panels/expressionhighlighter.h"
#include "views/theme.h"

#include <QFontDatabase>
#include <QKeyEvent>
#include <QMimeData>
#include <QPainter>
#include <QTextBlock>

namespace warpscope::app {

ExpressionEdit::ExpressionEdit(QWidget* parent)
    : QPlainTextEdit(parent), m_highlighter(new ExpressionHighlighter(document())) {
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(std::max(mono.pointSizeF(), font().pointSizeF()));
    setFont(mono);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setWordWrapMode(QTextOption::NoWrap);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setTabChangesFocus(true);
    // Undo and redo belong to the document (one history for every pattern edit), not to the
    // field's own text history.
    setUndoRedoEnabled(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    document()->setDocumentMargin(3);
    m_highlighter->setDark(ViewColors::fromPalette(palette()).dark);
    connect(this, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_silent) {
            emit textEdited(text());
        }
    });
}

QString ExpressionEdit::text() const {
    return toPlainText();
}

void ExpressionEdit::setTextSilently(const QString& text) {
    if (text == toPlainText()) {
        return;
    }
    m_silent = true;
    const int position = textCursor().position();
    setPlainText(text);
    QTextCursor cursor = textCursor();
    cursor.setPosition(std::min(position, static_cast<int>(text.size())));
    setTextCursor(cursor);
    m_silent = false;
}

void ExpressionEdit::setParameterNames(const QStringList& names) {
    m_silent = true;
    m_highlighter->setParameterNames(names);
    m_silent = false;
}

void ExpressionEdit::setErrorColumn(int column) {
    m_silent = true; // rehighlighting does not change the text, but be safe
    m_highlighter->setErrorColumn(column);
    m_silent = false;
    viewport()->update();
}

int ExpressionEdit::errorColumn() const {
    return m_highlighter->errorColumn();
}

QSize ExpressionEdit::sizeHint() const {
    const int height = fontMetrics().height() + 2 * static_cast<int>(document()->documentMargin()) +
                       2 * frameWidth() + 8;
    return QSize(320, height);
}

QSize ExpressionEdit::minimumSizeHint() const {
    return QSize(120, sizeHint().height());
}

bool ExpressionEdit::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        const QKeySequence pressed(key->keyCombination());
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
            pressed == QKeySequence(QStringLiteral("Ctrl+Shift+Z")) ||
            pressed == QKeySequence(QStringLiteral("Ctrl+Y"))) {
            event->ignore(); // let the window's Undo and Redo actions have it
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

void ExpressionEdit::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        event->ignore(); // one line only; let a dialog's default button have it
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void ExpressionEdit::insertFromMimeData(const QMimeData* source) {
    if (source->hasText()) {
        QString text = source->text();
        text.replace(QLatin1Char('\n'), QLatin1Char(' '))
            .replace(QLatin1Char('\r'), QLatin1Char(' '));
        insertPlainText(text);
    }
}

void ExpressionEdit::paintEvent(QPaintEvent* event) {
    QPlainTextEdit::paintEvent(event);
    const int column = m_highlighter->errorColumn();
    if (column <= 0) {
        return;
    }
    // A caret under the column the error points at.
    QTextCursor cursor(document());
    cursor.setPosition(std::min(column - 1, static_cast<int>(toPlainText().size())));
    const QRect at = cursorRect(cursor);
    QPainter painter(viewport());
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(ViewColors::fromPalette(palette()).warning);
    const qreal x = at.left() + fontMetrics().horizontalAdvance(QLatin1Char('m')) / 2.0;
    const qreal y = at.bottom() + 1;
    const QPointF tri[3] = {QPointF(x, y - 3), QPointF(x + 4, y + 3), QPointF(x - 4, y + 3)};
    painter.drawPolygon(tri, 3);
}

void ExpressionEdit::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        m_silent = true;
        m_highlighter->setDark(ViewColors::fromPalette(palette()).dark);
        m_silent = false;
    }
    QPlainTextEdit::changeEvent(event);
}

} // namespace warpscope::app
