// PatternDocument: holds the session, evaluates the current pattern after every change and keeps
// the last valid evaluation while the text is wrong.
#include "document/patterndocument.h"

#include "document/patterneditcommand.h"

#include <QCoreApplication>
#include <QStringList>
#include <QUndoStack>

#include <utility>

namespace warpscope::app {

namespace {

// Session view-setting keys the document itself owns (the textbook model's options).
constexpr const char* kBankModeKey = "textbook.bankModeBytes";
constexpr const char* kDefaultLoadsCachedKey = "textbook.defaultLoadsCached";
// Which access of the current entry's kernel the editor shows.
constexpr const char* kSelectedAccessKey = "kernel.selectedAccess";

NamedPattern defaultPattern() {
    NamedPattern named;
    named.title = "Coalesced 4-byte load";
    named.caption = "Lane i reads the i-th 4-byte word: one request, 4 sectors in one line.";
    PatternSource source;
    source.addressExpression = "4 * gid";
    named.pattern.source = source;
    return named;
}

/// What heads a pattern that is no longer its preset's: what the editor shows now (the address
/// expression and the parameters' values, or that the addresses are typed one by one).
std::string editedTitle(const Pattern& pattern) {
    if (!pattern.source) {
        return QCoreApplication::translate("PatternDocument", "Edited: addresses typed per lane")
            .toStdString();
    }
    QString text = QString::fromStdString(pattern.source->addressExpression);
    QStringList values;
    for (const Parameter& parameter : pattern.source->parameters) {
        values << QStringLiteral("%1 = %2")
                      .arg(QString::fromStdString(parameter.name))
                      .arg(parameter.value);
    }
    if (!values.isEmpty()) {
        text += QStringLiteral(", ") + values.join(QStringLiteral(", "));
    }
    return QCoreApplication::translate("PatternDocument", "Edited: %1").arg(text).toStdString();
}

/// `after`'s title and caption for an edit of `before`: the preset's own while the pattern is the
/// preset's, else computed from the pattern (a preset's words never outlive its pattern).
void refreshHeading(NamedPattern& after, const NamedPattern& before, const QString& presetId) {
    if (after.kernel) {
        return; // a kernel's title names the kernel, and its access labels name the accesses
    }
    const Preset* preset = presetId.isEmpty() ? nullptr : findPreset(presetId.toStdString());
    if (preset != nullptr && after.pattern == preset->pattern) {
        after.title = preset->title; // back to the preset's pattern: its own words are true again
        after.caption = preset->caption;
        return;
    }
    // The preset's words describe the preset's pattern ("offset 11 ... straddles two lines"),
    // so they go once the pattern differs; a title computed from an earlier edit follows the
    // pattern too. A title the user's session gave is kept.
    const NamedPattern start = defaultPattern(); // a new session's words describe its pattern too
    const bool startWords = before.title == start.title && before.caption == start.caption;
    if (preset != nullptr || startWords || before.title == editedTitle(before.pattern)) {
        after.title = editedTitle(after.pattern);
        after.caption.clear();
    }
}

} // namespace

QString modelChoiceName(ModelChoice model) {
    return model == ModelChoice::Modern ? QStringLiteral("modern") : QStringLiteral("textbook");
}

PatternDocument::PatternDocument(QObject* parent)
    : QObject(parent), m_undoStack(new QUndoStack(this)) {
    m_entries.push_back(SessionEntry{defaultPattern(), {}});
    m_undoStack->setClean();
    connect(m_undoStack, &QUndoStack::cleanChanged, this, [this] { touch(); });
    reevaluate();
}

PatternDocument::~PatternDocument() = default;

const NamedPattern& PatternDocument::current() const {
    return m_entries[static_cast<std::size_t>(m_currentEntry)].pattern;
}

bool PatternDocument::isModified() const {
    return m_settingsModified || !m_undoStack->isClean();
}

void PatternDocument::touch() {
    ++m_changeCounter;
    const bool modified = isModified();
    if (modified != m_lastModified) {
        m_lastModified = modified;
        emit modifiedChanged(modified);
    }
}

void PatternDocument::editPattern(const Pattern& pattern, const QString& description, int mergeId) {
    if (pattern == current().pattern) {
        return;
    }
    NamedPattern after = current();
    after.pattern = pattern;
    if (current().kernel) {
        after = foldIntoKernel(pattern);
    }
    refreshHeading(after, current(), m_presetId);
    const int select = after.kernel ? m_selectedAccess : 0;
    m_undoStack->push(new PatternEditCommand(this, m_currentEntry, current(), m_presetId, after,
                                             m_presetId, description, mergeId, m_selectedAccess,
                                             select));
}

void PatternDocument::loadPreset(const Preset& preset, const std::optional<Kernel>& kernel) {
    NamedPattern after{preset.title, preset.caption, preset.pattern, kernel};
    const QString id = QString::fromStdString(preset.id);
    if (after == current() && id == m_presetId && m_selectedAccess == 0) {
        return;
    }
    m_undoStack->push(new PatternEditCommand(
        this, m_currentEntry, current(), m_presetId, after, id, tr("Load preset %1").arg(id),
        static_cast<int>(EditMerge::None), m_selectedAccess, 0));
}

void PatternDocument::setLaneAddress(int lane, std::optional<std::int64_t> address) {
    if (lane < 0 || lane >= kWarpSize || !m_evaluation) {
        return;
    }
    Pattern pattern = current().pattern;
    // The addresses the pattern resolves to now (the last valid picture, which is what the table
    // shows), with the typed lane changed.
    pattern.addresses = m_evaluation->access.addresses;
    pattern.source.reset();
    pattern.addresses[static_cast<std::size_t>(lane)] = address;
    if (pattern.kind.space == MemorySpace::Local) {
        // The table shows local addresses interleaved; a pattern lists the threads' own offsets
        // (resolve() interleaves them), so each goes back to its offset (the lane's place in the
        // interleaved word is its own, whatever was typed).
        for (auto& each : pattern.addresses) {
            if (each) {
                each = localThreadOffset(*each);
            }
        }
    }
    editPattern(pattern, tr("Set lane %1's address").arg(lane));
}

void PatternDocument::applyPattern(int entry, const NamedPattern& pattern, const QString& presetId,
                                   int selectedAccess) {
    if (entry < 0 || entry >= entryCount()) {
        return;
    }
    m_entries[static_cast<std::size_t>(entry)].pattern = pattern;
    m_currentEntry = entry;
    m_selectedAccess = pattern.kernel ? selectedAccess : 0;
    m_presetId = presetId;
    touch();
    emit patternChanged();
    reevaluate();
}

void PatternDocument::setModel(ModelChoice model) {
    if (model == m_model) {
        return;
    }
    m_model = model;
    m_settingsModified = true;
    touch();
    emit modelChanged();
}

void PatternDocument::setTextbookOptions(const TextbookOptions& options) {
    if (options.bankMode == m_textbookOptions.bankMode &&
        options.defaultLoadsCached == m_textbookOptions.defaultLoadsCached) {
        return;
    }
    m_textbookOptions = options;
    m_settingsModified = true;
    touch();
    reevaluate();
}

void PatternDocument::setCurrentEntry(int index) {
    if (index < 0 || index >= entryCount() || index == m_currentEntry) {
        return;
    }
    m_currentEntry = index;
    m_selectedAccess = 0;
    m_presetId.clear();
    m_settingsModified = true;
    touch();
    emit patternChanged();
    reevaluate();
}

void PatternDocument::reevaluate() {
    // A kernel is checked whole first: a buffer's size, the launch or another access can be
    // wrong while the selected access is fine, and the error then names that place.
    if (const auto& kernel = current().kernel) {
        if (auto resolved = resolveKernel(*kernel); !resolved) {
            m_error = resolved.error();
            emit errorChanged();
            return;
        }
    }
    auto result = evaluatePattern(current().pattern, m_textbookOptions);
    if (result) {
        m_evaluation = std::move(result).value();
        const bool hadError = m_error.has_value();
        m_error.reset();
        if (hadError) {
            emit errorChanged();
        }
        emit evaluationChanged();
        return;
    }
    // Keep the last valid picture; only the error changes.
    m_error = result.error();
    emit errorChanged();
}

Session PatternDocument::toSession(const std::map<std::string, std::string>& viewSettings) const {
    Session session;
    session.entries = m_entries;
    session.currentEntry = m_currentEntry;
    session.model = modelChoiceName(m_model).toStdString();
    session.viewSettings = m_viewSettings;
    for (const auto& [key, value] : viewSettings) {
        session.viewSettings[key] = value;
    }
    // Built as std::string values and inserted whole: assigning a literal to a map element trips
    // a false -Wrestrict in GCC 12 at -O3.
    std::string bankMode(1, m_textbookOptions.bankMode == SharedBankMode::EightByte ? '8' : '4');
    std::string cached =
        m_textbookOptions.defaultLoadsCached ? std::string("true") : std::string("false");
    session.viewSettings.insert_or_assign(kBankModeKey, std::move(bankMode));
    session.viewSettings.insert_or_assign(kDefaultLoadsCachedKey, std::move(cached));
    if (current().kernel) {
        session.viewSettings.insert_or_assign(kSelectedAccessKey, std::to_string(m_selectedAccess));
    } else {
        session.viewSettings.erase(kSelectedAccessKey);
    }
    return session;
}

std::optional<Error> PatternDocument::loadSession(const Session& session) {
    auto refuse = [](std::string message, std::string where) {
        return Error{ErrorCode::FileFormat, std::move(message), 0, std::move(where)};
    };
    if (session.entries.empty()) {
        return refuse("the session holds no pattern", "/entries");
    }
    if (session.currentEntry < 0 ||
        session.currentEntry >= static_cast<int>(session.entries.size())) {
        return refuse("current entry " + std::to_string(session.currentEntry) +
                          " is not one of the session's " + std::to_string(session.entries.size()) +
                          " patterns",
                      "/currentEntry");
    }
    ModelChoice model = ModelChoice::Modern;
    if (session.model == "textbook") {
        model = ModelChoice::Textbook;
    } else if (session.model != "modern") {
        return refuse("model must be \"modern\" or \"textbook\", not \"" + session.model + "\"",
                      "/model");
    }
    TextbookOptions options;
    if (auto it = session.viewSettings.find(kBankModeKey); it != session.viewSettings.end()) {
        if (it->second != "4" && it->second != "8") {
            return refuse("the textbook bank width must be 4 or 8 bytes, not " + it->second,
                          std::string("/viewSettings/") + kBankModeKey);
        }
        options.bankMode = it->second == "8" ? SharedBankMode::EightByte : SharedBankMode::FourByte;
    }
    if (auto it = session.viewSettings.find(kDefaultLoadsCachedKey);
        it != session.viewSettings.end()) {
        if (it->second != "true" && it->second != "false") {
            return refuse("expected true or false, not " + it->second,
                          std::string("/viewSettings/") + kDefaultLoadsCachedKey);
        }
        options.defaultLoadsCached = it->second == "true";
    }

    // The selected access of a kernel (0 when absent or not one of its accesses: the file's
    // pattern is then what the views show until another access is chosen).
    int selected = 0;
    const NamedPattern& currentPattern =
        session.entries[static_cast<std::size_t>(session.currentEntry)].pattern;
    if (auto it = session.viewSettings.find(kSelectedAccessKey);
        it != session.viewSettings.end() && currentPattern.kernel) {
        const int count = static_cast<int>(currentPattern.kernel->accesses.size());
        bool ok = false;
        const int index = QString::fromStdString(it->second).toInt(&ok);
        if (ok && index >= 0 && index < count) {
            selected = index;
        }
    }

    m_entries = session.entries;
    m_currentEntry = session.currentEntry;
    m_selectedAccess = selected;
    m_presetId.clear();
    m_model = model;
    m_textbookOptions = options;
    m_viewSettings = session.viewSettings;
    m_error.reset();
    m_evaluation.reset();
    m_undoStack->clear();
    m_undoStack->setClean();
    m_settingsModified = false;
    touch();
    emit modelChanged();
    emit patternChanged();
    reevaluate();
    if (m_error) {
        // Nothing valid to keep from before: the views show the error and an empty picture.
        emit evaluationChanged();
    }
    return std::nullopt;
}

void PatternDocument::markModified() {
    m_settingsModified = true;
    touch();
}

void PatternDocument::markSaved() {
    m_undoStack->setClean();
    m_settingsModified = false;
    touch();
}

} // namespace warpscope::app
