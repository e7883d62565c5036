// HugeGridQuestion: the estimate of a large grid and whether to compute it.
#include "views/hugegridquestion.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace warpscope::app {

HugeGridQuestion::HugeGridQuestion(QWidget* parent)
    : QDialog(parent), m_text(new QLabel(this)),
      m_raise(new QCheckBox(tr("Don't ask again for grids up to this size"), this)) {
    setObjectName(QStringLiteral("hugeGridQuestion"));
    setWindowTitle(tr("Compute a large grid?"));
    setWindowModality(Qt::WindowModal);
    m_text->setTextFormat(Qt::PlainText); // numbers and kernel sizes only, never markup
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setMinimumWidth(460);
    auto* buttons = new QDialogButtonBox(this);
    m_compute = buttons->addButton(tr("Compute"), QDialogButtonBox::AcceptRole);
    m_skip = buttons->addButton(tr("Don't compute"), QDialogButtonBox::RejectRole);
    m_compute->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(m_raise);
    layout->addWidget(buttons);
}

QString HugeGridQuestion::grouped(std::int64_t value) {
    QLocale locale;
    locale.setNumberOptions(QLocale::DefaultNumberOptions);
    return locale.toString(static_cast<qlonglong>(value));
}

QString HugeGridQuestion::workText(const GridResult& estimate) {
    const QString accesses =
        estimate.accessCount == 1 ? tr("1 access") : tr("%1 accesses").arg(estimate.accessCount);
    return tr("%1 blocks × %2 threads × %3 = %4 thread-accesses")
        .arg(grouped(estimate.grid.count()), grouped(estimate.block.count()), accesses,
             grouped(estimate.estimate.threadAccesses));
}

void HugeGridQuestion::setEstimate(const GridResult& estimate,
                                   std::int64_t askAboveThreadAccesses) {
    m_estimate = estimate;
    const std::int64_t mib = (estimate.estimate.memoryBytes + (1 << 20) - 1) >> 20;
    m_text->setText(
        tr("This grid is above the size warpscope asks about before computing one (%1 "
           "thread-accesses).\n\n"
           "The grid model would evaluate %2,\nand its footprint needs at least %3 MiB of "
           "memory.\n\nWhile it computes, the Grid tab shows its progress; Esc or Cancel stops "
           "it.")
            .arg(grouped(askAboveThreadAccesses), workText(estimate), grouped(mib)));
    adjustSize();
}

bool HugeGridQuestion::raiseAskLimit() const {
    return m_raise->isChecked();
}

QString HugeGridQuestion::text() const {
    return m_text->text();
}

} // namespace warpscope::app
