// ExpressionHighlighter: colours the pattern language in the expression fields (numbers,
// built-in names, the user's parameters, functions, operators) and underlines the column an
// error points at with a wavy line. Emphasis also uses weight and italics, not colour alone.
#pragma once

#include <QStringList>
#include <QSyntaxHighlighter>

namespace warpscope::app {

class ExpressionHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit ExpressionHighlighter(QTextDocument* document);

    void setParameterNames(const QStringList& names);
    /// 1-based column to mark, 0 for none.
    void setErrorColumn(int column);
    int errorColumn() const { return m_errorColumn; }
    void setDark(bool dark);

protected:
    void highlightBlock(const QString& text) override;

private:
    QStringList m_parameters;
    int m_errorColumn = 0;
    bool m_dark = false;
};

} // namespace warpscope::app
