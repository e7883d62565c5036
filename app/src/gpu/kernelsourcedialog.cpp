// KernelSourceDialog: a read-only source view with a Copy button.
#include "gpu/kernelsourcedialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace warpscope::app {

KernelSourceDialog::KernelSourceDialog(QWidget* parent)
    : QDialog(parent), m_status(new QLabel(this)), m_text(new QPlainTextEdit(this)),
      m_copy(new QPushButton(tr("&Copy"), this)) {
    setObjectName(QStringLiteral("kernelSourceDialog"));
    setWindowTitle(tr("Generated Kernel"));
    auto* layout = new QVBoxLayout(this);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText); // a compile error quoting the kernel's text
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setObjectName(QStringLiteral("kernelSourceText"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_copy, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_text->toPlainText()); });
    layout->addWidget(m_status);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(820, 620);
}

void KernelSourceDialog::showWaiting(const QString& patternTitle) {
    m_status->setText(
        tr("Asking warpscope-probe for the kernel it generates for “%1”…").arg(patternTitle));
    m_text->clear();
    m_copy->setEnabled(false);
}

void KernelSourceDialog::showSource(const QString& source) {
    m_status->setText(tr("The grid kernel warpscope-probe compiles with NVRTC for this pattern's "
                         "expression (Run measures the single-warp replay; the grid run uses "
                         "this)."));
    m_text->setPlainText(source);
    m_copy->setEnabled(true);
}

void KernelSourceDialog::showProblem(const QString& why) {
    m_status->setText(why);
    m_text->clear();
    m_copy->setEnabled(false);
}

QString KernelSourceDialog::source() const {
    return m_text->toPlainText();
}

} // namespace warpscope::app
