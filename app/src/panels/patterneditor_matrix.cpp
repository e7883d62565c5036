// PatternEditor's ldmatrix and stmatrix fields: the matrix count (.x1, .x2, .x4) and .trans, and
// the edit that makes an access one of them. A matrix access lists its row addresses (the PTX
// ISA's ldmatrix: lanes 8i to 8i+7 give the 16-byte rows of matrix i), so the expression form,
// which gives every lane an element address, is refused with the reason.
#include "panels/patterneditor.h"

#include "document/patterndocument.h"

#include <warpscope/matrix_access.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace warpscope::app {

void PatternEditor::syncMatrixFields() {
    const AccessKind& kind = m_document->pattern().kind;
    const bool matrix = isMatrixAccess(kind);
    {
        const QSignalBlocker blocker(m_matrices);
        const int index = m_matrices->findData(matrix ? kind.matrices : 4);
        if (index >= 0) {
            m_matrices->setCurrentIndex(index);
        }
    }
    {
        const QSignalBlocker blocker(m_transpose);
        m_transpose->setChecked(matrix && kind.transpose);
    }
    if (auto* form = qobject_cast<QFormLayout*>(m_matrices->parentWidget()->layout())) {
        form->setRowVisible(m_matrices, matrix);
        form->setRowVisible(m_transpose, matrix);
    }
    // A matrix row is 16 bytes in shared memory: the width and the space follow the op.
    m_width->setEnabled(!matrix);
    m_space->setEnabled(!matrix);
}

void PatternEditor::editMatrixKind(AccessOp op) {
    const QString opText =
        op == AccessOp::Store ? QStringLiteral("stmatrix") : QStringLiteral("ldmatrix");
    Pattern pattern = m_document->pattern();
    if (pattern.source) {
        m_kindError->setText(
            QStringLiteral("⚠ ") +
            tr("An %1 cannot be written as an address expression: each of its lanes gives the "
               "shared-memory address of one 16-byte row of an 8×8 matrix (lanes 8i to 8i+7 "
               "give the rows of matrix i), not the address of its own element, so an "
               "expression of lane, gid and the parameters does not describe it. Open one of the "
               "presets under \"Shared memory: ldmatrix, TMA and swizzles\", or type the row "
               "addresses into the lane table first (that makes the pattern a list of 32 "
               "addresses) and then choose %1.")
                .arg(opText));
        m_kindError->show();
        syncFromDocument(); // the boxes go back to what the document holds
        return;
    }
    m_kindError->clear();
    m_kindError->hide();
    const int matrices = m_matrices->currentData().toInt();
    pattern.kind.space = MemorySpace::Shared;
    pattern.kind.op = op;
    pattern.kind.widthBytes = kMatrixRowBytes;
    pattern.kind.cache = CachePath::Default;
    pattern.kind.matrices = matrices;
    pattern.kind.transpose = m_transpose->isChecked();
    // The row lanes keep their addresses; a row lane without one gets the row after the previous
    // lane's, and the lanes beyond the last matrix are off (validateMatrix requires both).
    const std::uint32_t rowLanes = matrixRowLanes(matrices);
    std::int64_t next = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        auto& address = pattern.addresses[static_cast<std::size_t>(lane)];
        if (((rowLanes >> lane) & 1u) == 0) {
            address.reset();
            continue;
        }
        if (!address) {
            address = next;
        }
        next = *address + kMatrixRowBytes;
    }
    m_document->editPattern(
        pattern, tr("Make the access %1.x%2%3")
                     .arg(opText)
                     .arg(matrices)
                     .arg(pattern.kind.transpose ? QStringLiteral(".trans") : QString()));
}

} // namespace warpscope::app
