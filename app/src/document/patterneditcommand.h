// PatternEditCommand: one undoable change of a session entry's pattern. Consecutive commands with
// the same merge id (typing in one field, dragging one slider) merge into one step.
#pragma once

#include <warpscope/file_format.h>

#include <QString>
#include <QUndoCommand>

namespace warpscope::app {

class PatternDocument;

class PatternEditCommand : public QUndoCommand {
public:
    PatternEditCommand(PatternDocument* document, int entry, NamedPattern before,
                       QString presetBefore, NamedPattern after, QString presetAfter,
                       const QString& description, int mergeId, int selectedBefore = 0,
                       int selectedAfter = 0);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    PatternDocument* m_document;
    int m_entry;
    NamedPattern m_before;
    QString m_presetBefore;
    NamedPattern m_after;
    QString m_presetAfter;
    int m_mergeId;
    // The kernel access selected before and after (0 for plain patterns).
    int m_selectedBefore;
    int m_selectedAfter;
};

} // namespace warpscope::app
