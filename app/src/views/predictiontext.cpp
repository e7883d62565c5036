// Text forms of the predictions.
#include "views/predictiontext.h"

#include "views/viewpainting.h"

#include <warpscope/matrix_access.h>

#include <QCoreApplication>

#include <cstring>
#include <utility>

namespace warpscope::app {

namespace {

QString trPrediction(const char* text) {
    return QCoreApplication::translate("warpscope", text);
}

} // namespace

QString percentText(double fraction) {
    return QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 1);
}

QString describeAccess(const WarpAccess& access) {
    if (access.kind.op == AccessOp::CopyAsync) {
        return trPrediction(
                   "Async copy global → shared (cp.async, LDGSTS), %1 B per lane, %2 of 32 lanes "
                   "active")
            .arg(access.kind.widthBytes)
            .arg(access.activeLaneCount());
    }
    if (isMatrixAccess(access.kind)) {
        // ldmatrix / stmatrix: each of 8 x matrices lanes gives one 16-byte row's address.
        return trPrediction("%1.x%2%3, a 16-byte row address from each of %4 lanes")
            .arg(QString::fromLatin1(opName(access.kind)))
            .arg(access.kind.matrices)
            .arg(access.kind.transpose ? QStringLiteral(".trans") : QString())
            .arg(access.activeLaneCount());
    }
    const bool global = access.kind.space == MemorySpace::Global;
    const bool load = access.kind.op == AccessOp::Load;
    QString what = global ? (load ? trPrediction("Global load") : trPrediction("Global store"))
                          : (load ? trPrediction("Shared load") : trPrediction("Shared store"));
    if (access.kind.space == MemorySpace::Constant) {
        what = trPrediction("Constant load");
    } else if (access.kind.space == MemorySpace::Local) {
        what = load ? trPrediction("Local load") : trPrediction("Local store");
    } else if (access.kind.space == MemorySpace::Texture) {
        what = trPrediction("Texture read");
    }
    if (global && load && access.kind.cache != CachePath::Default) {
        what += QStringLiteral(" (.%1)").arg(QString::fromLatin1(toString(access.kind.cache)));
    }
    return trPrediction("%1, %2 B per lane, %3 of 32 lanes active")
        .arg(what)
        .arg(access.kind.widthBytes)
        .arg(access.activeLaneCount());
}

/// A global access's counts, as the modern model's and the local memory's summaries say them.
QString globalCountsText(const GlobalPrediction& g) {
    return trPrediction("%1 request(s) · %2 sector(s) in %3 line(s)")
        .arg(g.requests)
        .arg(g.sectors)
        .arg(g.lines);
}

/// A shared access's counts, as the modern model's and cp.async's shared side say them.
QString wavefrontCountsText(const SharedPrediction& s) {
    return trPrediction("%1 wavefront(s), ideal %2 · %3 bank conflict(s)")
        .arg(s.wavefronts)
        .arg(s.idealWavefronts)
        .arg(s.bankConflicts);
}

QString modernSummary(const Evaluation& evaluation) {
    const ModernPrediction& modern = evaluation.modern;
    if (modern.texture && modern.global) {
        // The notes: a cache tuned for 2-D locality, not coherent with writes in the same kernel.
        return trPrediction(
                   "Texture (pitched 2-D): %1 request(s) · %2 sector(s), per quad of lanes · as "
                   "global loads: %3 sector(s) · not coherent with writes in the kernel")
            .arg(modern.texture->requests)
            .arg(modern.texture->sectors)
            .arg(modern.global->sectors);
    }
    if (modern.global && modern.kind.space == MemorySpace::Local) {
        // The notes: off-chip, as slow as global memory; interleaved so that consecutive
        // threads' same element sit side by side.
        return trPrediction(
                   "Local memory (off-chip, interleaved: word w of lane l at w x 128 + l x 4): %1")
            .arg(globalCountsText(*modern.global));
    }
    if (modern.global) {
        const GlobalPrediction& g = *modern.global;
        QString text =
            trPrediction("Modern model (cc 7.0+): %1 · %2 moved for %3 requested · %4 efficiency")
                .arg(globalCountsText(g), formatBytes(g.bytesMoved),
                     formatBytes(g.uniqueBytesRequested), percentText(g.efficiency));
        if (modern.kind.op == AccessOp::CopyAsync && modern.shared) {
            text += trPrediction(" · shared side, written one global line at a time: %1")
                        .arg(wavefrontCountsText(*modern.shared));
        }
        return text;
    }
    if (modern.shared) {
        return trPrediction("Modern model (cc 7.0+): %1").arg(wavefrontCountsText(*modern.shared));
    }
    if (modern.constant) {
        const ConstantPrediction& c = *modern.constant;
        return trPrediction(
                   "Modern model (cc 7.0+): %1 distinct address(es), served one after another: "
                   "%2 constant-cache request(s) for %3 LDC instruction(s) · %4 beyond a broadcast")
            .arg(c.distinctAddresses)
            .arg(c.cacheRequests)
            .arg(c.requests)
            .arg(c.extraRequests);
    }
    return trPrediction("Modern model: no prediction");
}

QString textbookRuleText(TextbookRule rule) {
    switch (rule) {
    case TextbookRule::CachedLoad:
        return trPrediction("cached load, 128-byte transactions");
    case TextbookRule::UncachedLoad:
        return trPrediction("uncached load, 32-byte segments");
    case TextbookRule::Store:
        return trPrediction("store, 1-, 2- or 4-segment transactions");
    case TextbookRule::SharedMemory:
        return trPrediction("shared memory, bank passes");
    case TextbookRule::ConstantCache:
        return trPrediction("constant cache, one pass per distinct address");
    }
    return {};
}

QString textbookSummary(const Evaluation& evaluation) {
    const TextbookPrediction& t = evaluation.textbook;
    if (t.rule == TextbookRule::ConstantCache) {
        return trPrediction(
                   "The best-practice notes: constant memory is best when a warp reads few "
                   "distinct "
                   "locations; one location is as fast as a register. Rounds here: %1, one per "
                   "distinct address")
            .arg(t.transactions.size());
    }
    if (!t.notInNotes.empty()) { // ldmatrix, stmatrix: no textbook counts to show
        return trPrediction("Textbook model (Fermi/Kepler): %1")
            .arg(QString::fromStdString(t.notInNotes));
    }
    if (t.rule == TextbookRule::SharedMemory) {
        return trPrediction("Textbook model (Fermi/Kepler, %1-byte banks): %2-way bank conflict, "
                            "%3 pass(es)")
            .arg(t.bankWidthBytes)
            .arg(t.bankConflictDegree)
            .arg(t.transactions.size());
    }
    return trPrediction(
               "Textbook model (Fermi/Kepler), %1: %2 transaction(s) · %3 moved · %4 efficiency")
        .arg(textbookRuleText(t.rule))
        .arg(t.transactions.size())
        .arg(formatBytes(t.bytesMoved))
        .arg(percentText(t.efficiency));
}

QString describeError(const Error& error) {
    QString text = QString::fromStdString(error.describe());
    // Longest first: "sharedAddressExpression" contains "AddressExpression".
    const std::pair<const char*, const char*> fields[] = {
        {"sharedAddressExpression",
         QT_TRANSLATE_NOOP("warpscope", "the shared address expression")},
        {"activeExpression", QT_TRANSLATE_NOOP("warpscope", "the active-lane expression")},
        {"addressExpression", QT_TRANSLATE_NOOP("warpscope", "the address expression")},
    };
    for (const auto& [field, words] : fields) {
        if (text.startsWith(QLatin1String(field))) {
            text.replace(0, static_cast<qsizetype>(std::strlen(field)), trPrediction(words));
            break;
        }
    }
    return text;
}

} // namespace warpscope::app
