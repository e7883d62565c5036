// The L2 persistence window as the app holds it: measure_l2_persistence's answer (docs/protocol.md)
// read into points (a region size, with or without the window, at a hitRatio), the model of
// warpscope/l2_persistence_model.h for a device with no results (the H100's figures), and the
// summary the L2 persistence view prints under its chart, computed from the numbers. No widgets.
#pragma once

#include "warpscope/l2_persistence_model.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace warpscope::app {

struct L2PointData {
    qint64 windowBytes = 0;
    bool window = false;
    double hitRatio = 0.0; // 0 without the window
    bool tuned = false;    // min(1, set-aside / window)
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    int samples = 0;
    double bandwidthGBs = 0.0;
    bool countersMeasured = false;
    double hitRatePct = 0.0;    // lts__t_sector_hit_rate.pct
    double regionHitPct = 0.0;  // derived: the region's reads alone
    double dramReadBytes = 0.0; // dram__bytes_read.sum
    double modelHitRatePct = 0.0;
    double modelRegionHitPct = 0.0;
    /// What the model's region share rests on (l2PersistenceModel's basis, computed from the
    /// point and the set-aside): a prediction only for WholeRegionPersists. The model's L2 hit
    /// rate is always an estimate.
    L2ModelBasis modelBasis = L2ModelBasis::NoWindow;
    bool modelRegionPredicted() const { return modelBasis == L2ModelBasis::WholeRegionPersists; }
};

struct L2PersistenceResults {
    QString device;
    qint64 l2Bytes = 0;
    qint64 persistingL2MaxBytes = 0;
    qint64 maxWindowBytes = 0;
    qint64 setAsideBytes = 0;
    qint64 streamBytes = 0;
    int streamPerRegion = 4;
    int repetitions = 0;
    bool countersMeasured = false;
    QString countersUnavailableReason;
    QString capped;
    std::vector<L2PointData> points; // in the probe's order: per size, none then hitRatios
    /// True for results computed from the model alone (no GPU): nothing measured.
    bool modelOnly = false;
    /// The answer as read, kept whole for the session (empty for model-only results).
    QJsonObject answer;

    /// Window sizes, ascending.
    std::vector<qint64> windowSizes() const;
    /// The point at this size without the window, or with it at this hitRatio (the tuned one
    /// when `tuned`); null when not measured.
    const L2PointData* find(qint64 windowBytes, bool window, double hitRatio, bool tuned) const;
};

/// Reads measure_l2_persistence's result object. Nullopt with `error` naming what is wrong.
std::optional<L2PersistenceResults> l2PersistenceResultsFromJson(const QJsonObject& result,
                                                                 QString* error);

/// Reads a file of recorded results: a result object or a protocol answer line
/// ({"id", "ok", "result"}).
std::optional<L2PersistenceResults> readL2PersistenceResults(const QByteArray& bytes,
                                                             QString* error);

/// The model's points for the probe's default sweep on a device of these figures (the H100's
/// when called with no arguments: L2 50 MiB, 31.25 MiB persisting at most, as recorded in
/// tests/data/l2_persistence_h100.json), marked modelOnly: what a machine without a GPU draws.
L2PersistenceResults modelL2Persistence(qint64 l2Bytes = qint64{50} << 20,
                                        qint64 setAsideBytes = 32768000, int streamPerRegion = 4);

struct L2PersistenceSummary {
    /// The largest size measured with and without the window at hitRatio 1 and the tuned one.
    qint64 atBytes = 0;
    std::optional<double> noWindowRegionHit;  // % at atBytes
    std::optional<double> fullRatioRegionHit; // hitRatio 1
    std::optional<double> tunedRegionHit;     // tuned hitRatio
    std::optional<double> tunedSpeedup;       // no-window time / tuned time
    std::optional<double> largestModelGapPct; // max |measured - model| region hit, points
    /// The same, split by the kind of the model's number: where it predicts (the window holds
    /// the whole region) and where it only estimates (no documented rule).
    std::optional<double> largestPredictionGapPct;
    std::optional<double> largestEstimateGapPct;
    int predictedPoints = 0; // points whose region share the model predicts
    QString text;
    /// The model's whole statement with the notes' passages (the summary's tooltip).
    QString details;
};

L2PersistenceSummary summarizeL2Persistence(const L2PersistenceResults& results);

/// "2 MiB", "30 MiB", "1 GiB".
QString formatL2Bytes(qint64 bytes);
/// "none", "0.500", "0.469 (tuned)".
QString hitRatioLabel(const L2PointData& point);

} // namespace warpscope::app
