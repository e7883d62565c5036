// GridView and large grids: the question before computing one above askAboveThreadAccesses(),
// Compute and Cancel (Esc), and the buttons and shortcut that follow the state.
#include "views/gridview.h"

#include "document/patterndocument.h"
#include "views/hugegridquestion.h"

#include <QPushButton>
#include <QSettings>
#include <QShortcut>

#include <algorithm>

namespace warpscope::app {

void GridView::setAskAboveThreadAccesses(std::int64_t threadAccesses) {
    m_askAbove = std::max<std::int64_t>(0, threadAccesses);
}

namespace {

const QString kAskAboveKey = QStringLiteral("grid/askAboveThreadAccesses");

} // namespace

void GridView::keepAskAboveInSettings() {
    bool ok = false;
    const qlonglong saved =
        QSettings().value(kAskAboveKey, static_cast<qlonglong>(kDefaultAskAbove)).toLongLong(&ok);
    setAskAboveThreadAccesses(ok && saved >= 0 ? saved : kDefaultAskAbove);
    connect(this, &GridView::askAboveChanged, this,
            [](qint64 threadAccesses) { QSettings().setValue(kAskAboveKey, threadAccesses); });
}

HugeGridQuestion* GridView::question() const {
    return m_question.data();
}

void GridView::onConfirmationNeeded(int job, const GridResult& estimate) {
    if (job != m_computation->latestJob()) {
        return; // superseded
    }
    m_progressPermille = -1;
    hideShownResult();
    m_status =
        tr("Not computed: %1, above the size warpscope asks about before computing a "
           "grid (%2 thread-accesses). Compute starts it.")
            .arg(HugeGridQuestion::workText(estimate), HugeGridQuestion::grouped(m_askAbove));
    m_askedRequest = m_requested;
    if (!m_question) {
        m_question = new HugeGridQuestion(this);
        connect(m_question, &QDialog::finished, this, &GridView::onQuestionFinished);
    }
    m_question->setEstimate(estimate, m_askAbove);
    updateControls();
    if (isVisible()) {
        m_question->open();
    }
    emit confirmationAsked();
}

void GridView::onQuestionFinished(int answer) {
    HugeGridQuestion* question = m_question.data();
    if (question == nullptr) {
        return;
    }
    const std::int64_t asked = question->estimate().estimate.threadAccesses;
    const bool raise = question->raiseAskLimit();
    question->deleteLater();
    m_question.clear();
    const GridRequest current = requestFor(*m_document);
    if (!(current == m_askedRequest)) {
        recompute(); // the grid changed meanwhile: the question was about another one
        return;
    }
    if (answer == QDialog::Accepted) {
        if (raise && asked > m_askAbove) {
            m_askAbove = asked;
            emit askAboveChanged(static_cast<qint64>(asked));
        }
        m_confirmed = current;
        recompute();
        return;
    }
    m_declined = current;
    updateControls();
}

void GridView::cancelComputation() {
    if (!isComputing()) {
        return;
    }
    if (m_waitingForAhead) {
        m_ahead->cancel();
        m_aheadJob = 0;
        m_waitingForAhead = false;
    }
    m_computation->cancel();
    m_progressPermille = -1;
    m_declined = m_requested;
    hideShownResult();
    m_status = tr("Cancelled: the grid was not computed. Compute starts it again.");
    updateControls();
}

void GridView::computeAnyway() {
    m_declined.reset();
    m_confirmed = requestFor(*m_document);
    recompute();
}

void GridView::updateControls() {
    const bool computing = isComputing();
    const bool waiting = !computing && !m_result && (m_declined || m_question);
    m_escape->setEnabled(computing);
    m_cancelButton->setVisible(computing);
    m_computeButton->setVisible(waiting);
    // Below the message in the heat map's area (paintEvent writes it there).
    const QRect area = heatMapRect();
    const QPoint at(area.left() + scaled(12), area.top() + scaled(84));
    for (QPushButton* button : {m_cancelButton, m_computeButton}) {
        button->adjustSize();
        button->move(at);
    }
    update();
}

} // namespace warpscope::app
