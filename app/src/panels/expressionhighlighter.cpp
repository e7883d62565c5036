// ExpressionHighlighter: a small hand-written scanner over the pattern language's tokens (see
// core/include/warpscope/expression.h for the language).
#include "panels/expressionhighlighter.h"

#include <warpscope/expression.h>

#include <QTextCharFormat>

namespace warpscope::app {

namespace {

bool isIdentifierStart(QChar c) {
    return c.isLetter() || c == QLatin1Char('_');
}
bool isIdentifierPart(QChar c) {
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

} // namespace

ExpressionHighlighter::ExpressionHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document) {}

void ExpressionHighlighter::setParameterNames(const QStringList& names) {
    if (names == m_parameters) {
        return;
    }
    m_parameters = names;
    rehighlight();
}

void ExpressionHighlighter::setErrorColumn(int column) {
    if (column == m_errorColumn) {
        return;
    }
    m_errorColumn = column;
    rehighlight();
}

void ExpressionHighlighter::setDark(bool dark) {
    if (dark == m_dark) {
        return;
    }
    m_dark = dark;
    rehighlight();
}

void ExpressionHighlighter::highlightBlock(const QString& text) {
    // Okabe-Ito hues, darker or lighter to read well on the theme's base colour.
    const QColor number = m_dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x5A, 0x8C);
    const QColor builtin = m_dark ? QColor(0x3C, 0xC8, 0x9A) : QColor(0x00, 0x7A, 0x58);
    const QColor parameter = m_dark ? QColor(0xF0, 0xB4, 0x40) : QColor(0xA0, 0x50, 0x00);
    const QColor function = m_dark ? QColor(0xE0, 0x9A, 0xC4) : QColor(0x9A, 0x3C, 0x78);
    const QColor unknown = m_dark ? QColor(0xFF, 0x7A, 0x3D) : QColor(0xC0, 0x40, 0x00);

    QTextCharFormat numberFormat;
    numberFormat.setForeground(number);
    QTextCharFormat builtinFormat;
    builtinFormat.setForeground(builtin);
    builtinFormat.setFontWeight(QFont::Bold);
    QTextCharFormat parameterFormat;
    parameterFormat.setForeground(parameter);
    parameterFormat.setFontItalic(true);
    QTextCharFormat functionFormat;
    functionFormat.setForeground(function);
    QTextCharFormat unknownFormat;
    unknownFormat.setForeground(unknown);

    const auto& builtins = builtinNames();
    const int n = static_cast<int>(text.size());
    int i = 0;
    while (i < n) {
        const QChar c = text.at(i);
        if (c.isDigit()) {
            int j = i + 1;
            while (j < n && (text.at(j).isLetterOrNumber())) {
                ++j; // decimal, 0x hex, suffix-free
            }
            setFormat(i, j - i, numberFormat);
            i = j;
            continue;
        }
        if (isIdentifierStart(c)) {
            int j = i + 1;
            while (j < n && isIdentifierPart(text.at(j))) {
                ++j;
            }
            // Built-in names may carry a component: tid.x, bdim.y ...
            int k = j;
            if (k + 1 < n && text.at(k) == QLatin1Char('.') && isIdentifierStart(text.at(k + 1))) {
                k += 2;
                while (k < n && isIdentifierPart(text.at(k))) {
                    ++k;
                }
            }
            const QString dotted = text.mid(i, k - i);
            const QString word = text.mid(i, j - i);
            bool isBuiltin = false;
            for (const std::string& name : builtins) {
                if (dotted == QString::fromStdString(name)) {
                    isBuiltin = true;
                    j = k;
                    break;
                }
                if (word == QString::fromStdString(name)) {
                    isBuiltin = true;
                }
            }
            if (isBuiltin) {
                setFormat(i, j - i, builtinFormat);
            } else if (m_parameters.contains(word)) {
                setFormat(i, j - i, parameterFormat);
            } else if (word == QLatin1String("min") || word == QLatin1String("max") ||
                       word == QLatin1String("abs") || word == QLatin1String("swizzle")) {
                setFormat(i, j - i, functionFormat);
            } else {
                setFormat(i, j - i, unknownFormat);
            }
            i = j;
            continue;
        }
        ++i;
    }

    if (m_errorColumn > 0) {
        // Underline the character the error points at (or the end of the text).
        const int at = std::min(m_errorColumn - 1, std::max(0, n - 1));
        QTextCharFormat error = format(at);
        error.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        error.setUnderlineColor(unknown);
        const int length = n == 0 ? 0 : std::max(1, std::min(n - at, 1));
        setFormat(at, length, error);
    }
}

} // namespace warpscope::app
