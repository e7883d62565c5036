// PatternDocument: the session being explored (its patterns, the current one, the model and the
// textbook options), the last valid Evaluation of the current pattern, its error if the text is
// wrong now, and the undo stack of pattern edits. Every view and editor reads from here; every
// edit goes through here, so every edit redraws at once and can be undone.
#pragma once

#include "document/evaluation.h"

#include <warpscope/file_format.h>
#include <warpscope/kernel.h>
#include <warpscope/model.h>
#include <warpscope/preset.h>

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

class QUndoStack;

namespace warpscope::app {

/// Which model the views put first.
enum class ModelChoice { Modern, Textbook };

QString modelChoiceName(ModelChoice model); // "modern", "textbook": the session file's words

/// Merge ids for QUndoCommand::mergeWith: consecutive edits of the same kind become one step
/// (typing in one field, dragging one slider).
enum class EditMerge : int {
    None = -1,
    AddressExpression = 1,
    ActiveExpression = 2,
    BlockShape = 3,
    WarpIndex = 4,
    GridShape = 5,
    BlockIndex = 6,
    AccessLabel = 7,
    SharedAddressExpression = 8,
    FirstParameter = 1000,   // + index of the parameter
    FirstBufferName = 2000,  // + index of the buffer
    FirstBufferSize = 3000,  // + index of the buffer
    FirstLaunchField = 4000, // + 0..2 grid x, y, z, 3..5 block x, y, z
};

/// The first access of `kernel` that addresses buffer `buffer`, or -1.
int accessUsingBuffer(const Kernel& kernel, int buffer);

class PatternDocument : public QObject {
    Q_OBJECT
public:
    explicit PatternDocument(QObject* parent = nullptr);
    ~PatternDocument() override;

    // ---- What is being edited -----------------------------------------------------------------
    const NamedPattern& current() const;
    const Pattern& pattern() const { return current().pattern; }
    int currentEntryIndex() const { return m_currentEntry; }
    int entryCount() const { return static_cast<int>(m_entries.size()); }
    const std::vector<SessionEntry>& entries() const { return m_entries; }
    /// The preset the current pattern was loaded from, or empty.
    QString presetId() const { return m_presetId; }

    // ---- Kernels (patterndocument_kernel.cpp) -------------------------------------------------
    /// The current entry's whole kernel, or empty for a plain pattern (a one-access kernel in
    /// all but name). When set, pattern() is access selectedAccess() of it, at the block index and
    /// warp the editor chose.
    const std::optional<Kernel>& kernel() const { return current().kernel; }
    int accessCount() const;
    /// The entry's title as the views head their picture: for a kernel, with the selected
    /// access's name ("NaiveCol, 2048 x 2048: store out").
    QString shownTitle() const;
    /// Which access of the kernel the editor edits and the warp, bank and block views show.
    int selectedAccess() const { return m_selectedAccess; }
    /// Show access `index` (not an edit: nothing to undo); ignored outside the kernel.
    void selectAccess(int index);
    /// Replace the current entry's kernel (one undo step; consecutive edits with the same merge
    /// id merge). `select`, when given, becomes the selected access. A plain pattern becomes a
    /// kernel.
    void editKernel(const Kernel& kernel, const QString& description,
                    int mergeId = static_cast<int>(EditMerge::None),
                    std::optional<int> select = std::nullopt);
    /// The kernel the current entry is, or would become on its first kernel edit (the plain
    /// pattern's one-access kernel, with a buffer "data" as large as the grid touches).
    Result<Kernel> kernelOrPatternKernel() const;
    // Structural edits of the access list and the buffers; each is one undo step and returns
    // false (changing nothing) where it cannot apply (an index out of range, the last access,
    // 64 accesses already, an explicit-address pattern).
    bool addAccess();
    bool removeAccess(int index);
    bool duplicateAccess(int index);
    bool moveAccess(int index, int delta);
    bool addBuffer();
    /// Refused (false) while a global access addresses the buffer: nothing is lost.
    bool removeBuffer(int index);
    // Field edits of the kernel. Each returns why it was refused (an invalid or taken name, an
    // empty expression: the kernel is unchanged), or nothing. A size or launch expression that
    // does not evaluate is kept, and error() names its place ("/buffers/1/bytes").
    std::optional<QString> renameBuffer(int index, const QString& name);
    std::optional<QString> setBufferSize(int index, const QString& expression);
    /// `field` 0..2: grid x, y, z; 3..5: block x, y, z. A plain pattern becomes a kernel.
    std::optional<QString> setLaunchField(int field, const QString& expression);
    void setAccessLabel(const QString& label);
    void setAccessBuffer(const QString& buffer);

    /// The last valid evaluation (kept while the current text is wrong); empty only when no
    /// pattern has ever been valid.
    const std::optional<Evaluation>& evaluation() const { return m_evaluation; }
    /// Why the current pattern cannot be evaluated, or empty when it can.
    const std::optional<Error>& error() const { return m_error; }

    ModelChoice model() const { return m_model; }
    const TextbookOptions& textbookOptions() const { return m_textbookOptions; }

    QUndoStack* undoStack() const { return m_undoStack; }
    /// True when something changed since the session was loaded or saved.
    bool isModified() const;
    /// Increases with every change; the autosaver compares it.
    quint64 changeCounter() const { return m_changeCounter; }

    // ---- Edits (undoable) ---------------------------------------------------------------------
    /// Replace the current pattern. Consecutive edits with the same merge id become one undo step.
    void editPattern(const Pattern& pattern, const QString& description,
                     int mergeId = static_cast<int>(EditMerge::None));
    /// Load a built-in preset into the current entry (title and caption included); with a
    /// kernel, the entry becomes that kernel (its first access selected).
    void loadPreset(const Preset& preset, const std::optional<Kernel>& kernel = std::nullopt);
    /// Type one lane's address: the pattern becomes an explicit list of the 32 addresses it
    /// resolves to now, with this lane changed (std::nullopt makes the lane inactive).
    void setLaneAddress(int lane, std::optional<std::int64_t> address);

    // ---- Settings that change what is predicted (not pattern edits, not undone) --------------
    void setModel(ModelChoice model);
    void setTextbookOptions(const TextbookOptions& options);
    void setCurrentEntry(int index);

    // ---- Sessions ------------------------------------------------------------------------------
    /// The session as it would be saved; `viewSettings` are the window's (merged over the ones
    /// loaded, so keys this version does not know survive a round trip).
    Session toSession(const std::map<std::string, std::string>& viewSettings = {}) const;
    /// Replace everything with `session`; clears the undo stack. Refuses an empty or
    /// inconsistent session with an Error and changes nothing then.
    std::optional<Error> loadSession(const Session& session);
    const std::map<std::string, std::string>& loadedViewSettings() const { return m_viewSettings; }
    void markSaved();
    /// The session does not live in any file yet (a restored autosave): treat it as unsaved.
    void markModified();

    /// Used by PatternEditCommand: set the pattern of `entry` without pushing a command.
    void applyPattern(int entry, const NamedPattern& pattern, const QString& presetId,
                      int selectedAccess = 0);

signals:
    /// The pattern, its title or the current entry changed (editors resynchronise).
    void patternChanged();
    /// A new valid evaluation is available (views redraw).
    void evaluationChanged();
    /// The error state changed (set, cleared, or a different error).
    void errorChanged();
    void modelChanged();
    void modifiedChanged(bool modified);

private:
    void reevaluate();
    void touch();
    /// `pattern`'s edit folded into the current kernel (the selected access, the parameters, a
    /// changed block or grid shape); the entry stops being a kernel for explicit addresses.
    NamedPattern foldIntoKernel(const Pattern& pattern) const;
    /// Access `access` of `kernel` as the views show it, at `where`'s block index and warp (as
    /// written, in `where`'s launch, when the kernel does not resolve: its error is shown).
    static Pattern accessPattern(const Kernel& kernel, int access, const Pattern& where);
    void pushKernel(NamedPattern after, const QString& description, int mergeId, int select);

    std::vector<SessionEntry> m_entries;
    int m_currentEntry = 0;
    int m_selectedAccess = 0;
    QString m_presetId;
    std::optional<Evaluation> m_evaluation;
    std::optional<Error> m_error;
    ModelChoice m_model = ModelChoice::Modern;
    TextbookOptions m_textbookOptions;
    std::map<std::string, std::string> m_viewSettings;
    QUndoStack* m_undoStack = nullptr;
    bool m_settingsModified = false;
    bool m_lastModified = false;
    quint64 m_changeCounter = 0;
};

} // namespace warpscope::app
