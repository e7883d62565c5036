// ExpressionEdit: a one-line, monospace, syntax-highlighted field for an expression of the pattern
// language, with an inline marker (a wavy underline and a caret) at the column an error points to.
#pragma once

#include <QPlainTextEdit>

namespace warpscope::app {

class ExpressionHighlighter;

class ExpressionEdit : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit ExpressionEdit(QWidget* parent = nullptr);

    QString text() const;
    /// Replace the text without emitting textEdited (used when the document changes, on undo).
    void setTextSilently(const QString& text);
    void setParameterNames(const QStringList& names);
    /// 1-based column of an error, 0 for none.
    void setErrorColumn(int column);
    int errorColumn() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user changed the text.
    void textEdited(const QString& text);

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void insertFromMimeData(const QMimeData* source) override;

private:
    ExpressionHighlighter* m_highlighter;
    bool m_silent = false;
};

} // namespace warpscope::app
