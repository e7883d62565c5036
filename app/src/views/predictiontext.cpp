// Text forms of the predictions.
#include "views/predictiontext.h"

#include "views/viewpainting.h"

#include <QCoreApplication>

namespace warpscope::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("warpscope", text);
}

} // namespace

QString percentText(double fraction) {
    return QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 1);
}

QString describeAccess(const WarpAccess& access) {
    if (access.kind.op == AccessOp::CopyAsync) {
        return tr("Async copy global → shared (cp.async, LDGSTS), %1 B per lane, %2 of 32 lanes "
                  "active")
            .arg(access.kind.widthBytes)
            .arg(access.activeLaneCount());
    }
    const bool global = access.kind.space == MemorySpace::Global;
    const bool load = access.kind.op == AccessOp::Load;
    QString what = global ? (load ? tr("Global load") : tr("Global store"))
                          : (load ? tr("Shared load") : tr("Shared store"));
    if (global && load && access.kind.cache != CachePath::Default) {
        what += QStringLiteral(" (.%1)").arg(QString::fromLatin1(toString(access.kind.cache)));
    }
    return tr("%1, %2 B per lane, %3 of 32 lanes active")
        .arg(what)
        .arg(access.kind.widthBytes)
        .arg(access.activeLaneCount());
}

QString modernSummary(const Evaluation& evaluation) {
    const ModernPrediction& modern = evaluation.modern;
    if (modern.global) {
        const GlobalPrediction& g = *modern.global;
        QString text = tr("Modern model (cc 7.0+): %1 request(s) · %2 sector(s) in %3 line(s) · %4 "
                          "moved for %5 requested · %6 efficiency")
                           .arg(g.requests)
                           .arg(g.sectors)
                           .arg(g.lines)
                           .arg(formatBytes(g.bytesMoved))
                           .arg(formatBytes(g.uniqueBytesRequested))
                           .arg(percentText(g.efficiency));
        if (modern.kind.op == AccessOp::CopyAsync && modern.shared) {
            const SharedPrediction& s = *modern.shared;
            text += tr(" · shared side, written one global line at a time: %1 wavefront(s), "
                       "ideal %2 · %3 bank conflict(s)")
                        .arg(s.wavefronts)
                        .arg(s.idealWavefronts)
                        .arg(s.bankConflicts);
        }
        return text;
    }
    if (modern.shared) {
        const SharedPrediction& s = *modern.shared;
        return tr("Modern model (cc 7.0+): %1 wavefront(s), ideal %2 · %3 bank conflict(s)")
            .arg(s.wavefronts)
            .arg(s.idealWavefronts)
            .arg(s.bankConflicts);
    }
    return tr("Modern model: no prediction");
}

QString textbookRuleText(TextbookRule rule) {
    switch (rule) {
    case TextbookRule::CachedLoad:
        return tr("cached load, 128-byte transactions");
    case TextbookRule::UncachedLoad:
        return tr("uncached load, 32-byte segments");
    case TextbookRule::Store:
        return tr("store, 1-, 2- or 4-segment transactions");
    case TextbookRule::SharedMemory:
        return tr("shared memory, bank passes");
    }
    return {};
}

QString textbookSummary(const Evaluation& evaluation) {
    const TextbookPrediction& t = evaluation.textbook;
    if (t.rule == TextbookRule::SharedMemory) {
        return tr("Textbook model (Fermi/Kepler, %1-byte banks): %2-way bank conflict, %3 pass(es)")
            .arg(t.bankWidthBytes)
            .arg(t.bankConflictDegree)
            .arg(t.transactions.size());
    }
    return tr("Textbook model (Fermi/Kepler), %1: %2 transaction(s) · %3 moved · %4 efficiency")
        .arg(textbookRuleText(t.rule))
        .arg(t.transactions.size())
        .arg(formatBytes(t.bytesMoved))
        .arg(percentText(t.efficiency));
}

} // namespace warpscope::app
