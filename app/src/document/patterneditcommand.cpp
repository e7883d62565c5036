// PatternEditCommand: applies the before or after pattern through the document.
#include "document/patterneditcommand.h"

#include "document/patterndocument.h"

#include <utility>

namespace warpscope::app {

PatternEditCommand::PatternEditCommand(PatternDocument* document, int entry, NamedPattern before,
                                       QString presetBefore, NamedPattern after,
                                       QString presetAfter, const QString& description, int mergeId,
                                       int selectedBefore, int selectedAfter)
    : QUndoCommand(description), m_document(document), m_entry(entry), m_before(std::move(before)),
      m_presetBefore(std::move(presetBefore)), m_after(std::move(after)),
      m_presetAfter(std::move(presetAfter)), m_mergeId(mergeId), m_selectedBefore(selectedBefore),
      m_selectedAfter(selectedAfter) {}

void PatternEditCommand::undo() {
    m_document->applyPattern(m_entry, m_before, m_presetBefore, m_selectedBefore);
}

void PatternEditCommand::redo() {
    m_document->applyPattern(m_entry, m_after, m_presetAfter, m_selectedAfter);
}

bool PatternEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const PatternEditCommand*>(other);
    // Typing in the same field of another access of a kernel is another step.
    if (next == nullptr || next->m_mergeId != m_mergeId || next->m_entry != m_entry ||
        next->m_selectedBefore != m_selectedAfter) {
        return false;
    }
    m_after = next->m_after;
    m_presetAfter = next->m_presetAfter;
    m_selectedAfter = next->m_selectedAfter;
    // The step is named by where it ends: typing 3 then 2 is "Set offset to 32", not "to 3".
    setText(next->text());
    // Dragging a slider back to where it started leaves nothing to undo.
    setObsolete(m_after == m_before && m_presetAfter == m_presetBefore &&
                m_selectedAfter == m_selectedBefore);
    return true;
}

} // namespace warpscope::app
