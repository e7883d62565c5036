// HugeGridQuestion: what the grid view asks before it computes a grid larger than the size the
// user set (GridView::askAboveThreadAccesses): the core's estimate (blocks x threads x accesses =
// thread-accesses, and the footprint's memory), and Compute or Don't compute. Window-modal and
// opened with open(), so the window goes on painting; the view reads the answer from finished().
#pragma once

#include "document/gridcomputation.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QPushButton;

namespace warpscope::app {

class HugeGridQuestion : public QDialog {
    Q_OBJECT
public:
    explicit HugeGridQuestion(QWidget* parent = nullptr);

    /// Show `estimate`'s numbers (a newer estimate replaces the text while the question is open).
    void setEstimate(const GridResult& estimate, std::int64_t askAboveThreadAccesses);
    /// The estimate the question is about.
    const GridResult& estimate() const { return m_estimate; }
    /// Whether the user ticked "don't ask again for grids up to this size".
    bool raiseAskLimit() const;
    /// The question's text (tests).
    QString text() const;
    QPushButton* computeButton() const { return m_compute; }
    QPushButton* skipButton() const { return m_skip; }

    /// "1,234,567" in the user's locale.
    static QString grouped(std::int64_t value);
    /// "2,147,483,647 blocks × 256 threads × 1 access = 549,755,813,632 thread-accesses".
    static QString workText(const GridResult& estimate);

private:
    GridResult m_estimate;
    QLabel* m_text;
    QCheckBox* m_raise;
    QPushButton* m_compute;
    QPushButton* m_skip;
};

} // namespace warpscope::app
