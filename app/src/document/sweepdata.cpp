// computeSweep: one resolve() and two predictions per value.
#include "document/sweepdata.h"

#include <algorithm>

namespace warpscope::app {

Pattern sweepPoint(const Pattern& pattern, int parameterIndex, std::int64_t value) {
    Pattern point = pattern;
    // Copied whole and assigned back: a reference kept into the optional trips a false
    // -Wmaybe-uninitialized in GCC 12 at -O3.
    PatternSource source = *pattern.source;
    Parameter& p = source.parameters[static_cast<std::size_t>(parameterIndex)];
    p.value = value;
    p.minimum = std::min(p.minimum, value);
    p.maximum = std::max(p.maximum, value);
    point.source = std::move(source);
    return point;
}

SweepData computeSweep(const Pattern& pattern, const TextbookOptions& options, int parameterIndex,
                       std::int64_t from, std::int64_t to) {
    SweepData data;
    data.global = pattern.kind.space == MemorySpace::Global;
    if (!pattern.source || parameterIndex < 0 ||
        parameterIndex >= static_cast<int>(pattern.source->parameters.size())) {
        return data;
    }
    if (from > to) {
        std::swap(from, to);
    }
    data.parameter = QString::fromStdString(
        pattern.source->parameters[static_cast<std::size_t>(parameterIndex)].name);
    // Steps of at least 1, chosen so the sweep has at most kMaxSweepPoints values. The span is
    // computed in unsigned arithmetic so extreme ranges do not overflow.
    const auto span = static_cast<std::uint64_t>(to) - static_cast<std::uint64_t>(from);
    const std::uint64_t step = std::max<std::uint64_t>(
        1, span / (kMaxSweepPoints - 1) + (span % (kMaxSweepPoints - 1) != 0 ? 1 : 0));
    for (std::uint64_t offset = 0; offset <= span; offset += step) {
        const auto value = static_cast<std::int64_t>(static_cast<std::uint64_t>(from) + offset);
        // A copy per value: cheap next to resolve().
        auto result = evaluatePattern(sweepPoint(pattern, parameterIndex, value), options);
        if (!result) {
            if (data.invalidCount++ == 0) {
                data.firstInvalid = QStringLiteral("%1 = %2: %3")
                                        .arg(data.parameter)
                                        .arg(value)
                                        .arg(QString::fromStdString(result.error().describe()));
            }
        } else {
            const auto x = static_cast<double>(value);
            const Evaluation& e = result.value();
            data.values.push_back(x);
            if (e.modern.global) {
                data.modernSectors.push_back(e.modern.global->sectors);
                data.modernEfficiencyPercent.push_back(e.modern.global->efficiency * 100.0);
                data.textbookTransactions.push_back(
                    static_cast<double>(e.textbook.transactions.size()));
                data.textbookEfficiencyPercent.push_back(e.textbook.efficiency * 100.0);
            } else if (e.modern.shared) {
                data.modernWavefronts.push_back(e.modern.shared->wavefronts);
                data.modernBankConflicts.push_back(e.modern.shared->bankConflicts);
                data.textbookConflictDegree.push_back(e.textbook.bankConflictDegree);
            }
        }
        if (span - offset < step) {
            break; // the next step would pass `to` (and could wrap around)
        }
    }
    return data;
}

} // namespace warpscope::app
