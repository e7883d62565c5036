// PatternEditCommand: applies the before or after pattern through the document.
#include "document/patterneditcommand.h"

#include "document/patterndocument.h"

#include <utility>

namespace warpscope::app {

PatternEditCommand::PatternEditCommand(PatternDocument* document, int entry, NamedPattern before,
                                       QString presetBefore, NamedPattern after,
                                       QString presetAfter, const QString& description, int mergeId)
    : QUndoCommand(description), m_document(document), m_entry(entry), m_before(std::move(before)),
      m_presetBefore(std::move(presetBefore)), m_after(std::move(after)),
      m_presetAfter(std::move(presetAfter)), m_mergeId(mergeId) {}

void PatternEditCommand::undo() {
    m_document->applyPattern(m_entry, m_before, m_presetBefore);
}

void PatternEditCommand::redo() {
    m_document->applyPattern(m_entry, m_after, m_presetAfter);
}

bool PatternEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const PatternEditCommand*>(other);
    if (next == nullptr || next->m_mergeId != m_mergeId || next->m_entry != m_entry) {
        return false;
    }
    m_after = next->m_after;
    m_presetAfter = next->m_presetAfter;
    // Dragging a slider back to where it started leaves nothing to undo.
    setObsolete(m_after == m_before && m_presetAfter == m_presetBefore);
    return true;
}

} // namespace warpscope::app
