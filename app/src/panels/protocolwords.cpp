// sayProtocolCodesInWords(): the probe's codes and the app's own names for a probe that cannot
// be reached, each with its words.
#include "panels/protocolwords.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

namespace warpscope::app {

namespace {

/// The probe's error codes (docs/protocol.md) and the app's own names for a probe that cannot be
/// reached, each with the words a user reads instead.
struct CodeWords {
    const char* code;
    const char* words;
};
constexpr CodeWords kCodeWords[] = {
    {"no_driver", QT_TRANSLATE_NOOP("warpscope", "no NVIDIA driver")},
    {"no_device", QT_TRANSLATE_NOOP("warpscope", "no CUDA device")},
    {"driver_too_old", QT_TRANSLATE_NOOP("warpscope", "a driver too old for the probe")},
    {"bad_request", QT_TRANSLATE_NOOP("warpscope", "a request the probe could not read")},
    {"pattern_refused", QT_TRANSLATE_NOOP("warpscope", "a pattern refused before launch")},
    {"counters_not_permitted", QT_TRANSLATE_NOOP("warpscope", "hardware counters not permitted")},
    {"counters_busy", QT_TRANSLATE_NOOP("warpscope", "hardware counters in use by another tool")},
    {"counters_unavailable", QT_TRANSLATE_NOOP("warpscope", "hardware counters unavailable")},
    {"compile_error", QT_TRANSLATE_NOOP("warpscope", "a kernel that did not compile")},
    {"kernel_fault", QT_TRANSLATE_NOOP("warpscope", "a kernel that faulted")},
    {"out_of_memory", QT_TRANSLATE_NOOP("warpscope", "not enough device memory")},
    {"probe_missing", QT_TRANSLATE_NOOP("warpscope", "warpscope-probe not found")},
    {"probe_command", QT_TRANSLATE_NOOP("warpscope", "a probe command that cannot run")},
    {"probe_stopped", QT_TRANSLATE_NOOP("warpscope", "warpscope-probe stopped")},
    {"probe_login", QT_TRANSLATE_NOOP("warpscope", "a remote login that failed")},
    {"probe_unreachable", QT_TRANSLATE_NOOP("warpscope", "a GPU host that cannot be reached")},
    {"probe_link_dropped", QT_TRANSLATE_NOOP("warpscope", "a dropped connection to the probe")},
    {"probe_silent", QT_TRANSLATE_NOOP("warpscope", "a probe that did not answer")},
    {"protocol_mismatch", QT_TRANSLATE_NOOP("warpscope", "a probe of another version")},
    {"bad_answer", QT_TRANSLATE_NOOP("warpscope", "an answer the app could not read")},
};
// One-word codes read as plain words in a sentence: they are left out only in parentheses.
constexpr const char* kPlainWordCodes[] = {"timeout", "cancelled", "internal"};

} // namespace

QString sayProtocolCodesInWords(const QString& text) {
    QString out = text;
    QStringList codes;
    for (const CodeWords& entry : kCodeWords) {
        codes << QString::fromLatin1(entry.code);
    }
    for (const char* code : kPlainWordCodes) {
        codes << QString::fromLatin1(code);
    }
    // "... cannot be loaded (no_driver)." : the sentence says it; the code goes.
    static const QRegularExpression parenthesised(
        QStringLiteral("\\s*\\((%1)\\)").arg(codes.join(QLatin1Char('|'))));
    out.remove(parenthesised);
    // "answered the error compile_error": the code in words.
    for (const CodeWords& entry : kCodeWords) {
        const QRegularExpression bare(
            QStringLiteral("\\b%1\\b").arg(QString::fromLatin1(entry.code)));
        out.replace(bare, QCoreApplication::translate("warpscope", entry.words));
    }
    return out;
}

} // namespace warpscope::app
