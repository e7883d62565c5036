// KernelSourceDialog ("Show Kernel", Ctrl+K): the CUDA source warpscope-probe generates for the
// pattern's expression, read-only and copyable, or the reason there is none. Non-modal: it
// follows the window's requests and never blocks editing.
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace warpscope::app {

class KernelSourceDialog : public QDialog {
    Q_OBJECT
public:
    explicit KernelSourceDialog(QWidget* parent = nullptr);

    void showWaiting(const QString& patternTitle);
    void showSource(const QString& source);
    void showProblem(const QString& why);

    QString source() const;
    QPlainTextEdit* editor() const { return m_text; }
    QLabel* statusLabel() const { return m_status; }

private:
    QLabel* m_status;
    QPlainTextEdit* m_text;
    QPushButton* m_copy;
};

} // namespace warpscope::app
