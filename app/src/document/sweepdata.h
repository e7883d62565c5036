// SweepData: both models evaluated over a range of one parameter's values (the notes' offset
// experiment is a sweep of "offset" from 0 to 128). Computed through the core for each value; no
// QCustomPlot here, so tests and the benchmark can use it without the plot.
#pragma once

#include "document/evaluation.h"

#include <QString>
#include <QVector>

namespace warpscope::app {

struct SweepData {
    bool global = true;
    QString parameter;
    QVector<double> values; // x
    // Global memory.
    QVector<double> modernSectors;
    QVector<double> modernEfficiencyPercent;
    QVector<double> textbookTransactions;
    QVector<double> textbookEfficiencyPercent;
    // Shared memory.
    QVector<double> modernWavefronts;
    QVector<double> modernBankConflicts;
    QVector<double> textbookConflictDegree;
    /// Values the pattern is not valid for (e.g. misaligned), skipped in the series.
    int invalidCount = 0;
    QString firstInvalid;
};

/// At most this many points; wider ranges are sampled with a larger step.
inline constexpr int kMaxSweepPoints = 2048;

/// `pattern` with parameter `parameterIndex` set to `value`: one point of a sweep. The declared
/// range is widened to hold the value (a sweep may leave a slider's bounds, and a pattern whose
/// value lies outside its range is not a valid pattern file, which the probe reads).
Pattern sweepPoint(const Pattern& pattern, int parameterIndex, std::int64_t value);

/// Sweep parameter `parameterIndex` of `pattern` (which must carry a source) from `from` to `to`
/// inclusive.
SweepData computeSweep(const Pattern& pattern, const TextbookOptions& options, int parameterIndex,
                       std::int64_t from, std::int64_t to);

} // namespace warpscope::app
