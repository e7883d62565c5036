// The L2 persistence experiment in the app, one unit: measure_l2_persistence's answer
// (docs/protocol.md) read through core's reader into core's points
// (warpscope/experiments/l2_persistence.h: a region size, with or without the window, at a
// hitRatio) as `L2PersistenceResults`; the model of warpscope/l2_persistence_model.h for a device
// with no results (the H100's figures); the summary printed under the chart; and
// L2PersistenceView, the "L2 persistence" tab: the share of the region's reads served by L2 (or
// the L2 hit rate of all sectors, or the time) against the window's size or its hitRatio
// (QCustomPlot), one curve per hitRatio (or per size) with the window and one without, the model
// beside the measured ones: its estimates (no documented rule) dashed, its predictions (the
// window holding the whole region, the notes' rule) as ringed crosses. Hovering a point shows its
// numbers. Without results (a model-only machine, or not run yet) the chart draws the model for
// an H100 and the notes' statement, never an empty chart.
//
// The experiment keeps one more source than the others: l2persistenceresults.cpp (the results'
// look-ups, the model's points and the summary), since view and summary together pass 650 lines.
#pragma once

#include "gpu/experimentresults.h"
#include "views/experimentview.h"

#include <warpscope/experiments/l2_persistence.h>
#include <warpscope/l2_persistence_model.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;

namespace warpscope::app {

/// measure_l2_persistence's result in core's types as the app holds it: the answer it was read
/// from, or the model's points alone.
struct L2PersistenceResults {
    /// Core's traits: resultsFromAnswer<L2PersistenceResults>() and
    /// readRecordedResults<L2PersistenceResults>() (gpu/experimentresults.h) read it.
    using Experiment = experiments::L2PersistenceExperiment;
    experiments::L2PersistenceMeasurement measurement; // points in the probe's order
    /// True for results computed from the model alone (no GPU): nothing measured.
    bool modelOnly = false;
    /// The answer as read, kept whole for the session (empty for model-only results).
    QJsonObject answer;

    /// Window sizes, ascending.
    std::vector<std::int64_t> windowSizes() const;
    /// The point at this size without the window, or with it at this hitRatio (the tuned one
    /// when `tuned`); null when not measured.
    const experiments::L2PersistencePoint* find(std::int64_t windowBytes, bool window,
                                                double hitRatio, bool tuned) const;
    /// What the model's region share at `point` rests on (l2PersistenceBasis with this
    /// set-aside).
    L2ModelBasis modelBasis(const experiments::L2PersistencePoint& point) const;
};

/// Whether the model's region share at `point` is a prediction (the window holds the whole
/// region), not an estimate. The model's L2 hit rate is always an estimate.
inline bool modelRegionPredicted(const experiments::L2PersistencePoint& point) {
    return point.modelRegionHitKind == L2ModelKind::Prediction;
}

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
QString hitRatioLabel(const experiments::L2PersistencePoint& point);

class L2PersistenceView : public ExperimentView {
    Q_OBJECT
public:
    explicit L2PersistenceView(QWidget* parent = nullptr);

    enum class Quantity { RegionHitRate, L2HitRate, Time };
    enum class Axis { WindowSize, HitRatio };

    /// Show these results (nullopt: none, the model for an H100 and the notes' statement).
    void setResults(std::optional<L2PersistenceResults> results);
    const std::optional<L2PersistenceResults>& results() const { return m_results; }
    /// What is drawn: the results, or the model's points.
    const L2PersistenceResults& shown() const { return m_shown; }
    const L2PersistenceSummary& summary() const { return m_summary; }

    void setQuantity(Quantity quantity);
    void setAxis(Axis axis);

    QCustomPlot* chart() const { return m_plot; }
    /// Measured curves and model curves drawn (0 without QCustomPlot).
    int curveCount() const { return m_curves; }
    /// The model's estimate curves (dashed, one per series) and prediction markers (points where
    /// the window holds the whole region: the notes' rule; only for the region's share).
    int modelCurveCount() const { return m_modelCurves; }
    int predictionMarkerCount() const { return m_predictionMarkers; }

    /// The tooltip for the point nearest `pixel` (within 12 pixels), empty when none.
    QString hoverText(const QPointF& pixel) const;
    /// The numbers of one point, as the tooltip shows them.
    static QString pointText(const L2PersistenceResults& results,
                             const experiments::L2PersistencePoint& point);

private:
    void refresh() override;
    void fillChart() override;
    QString chartStateKey() const override;
    double valueOf(const experiments::L2PersistencePoint& point, bool model) const;
    double xOf(const experiments::L2PersistencePoint& point) const;

    std::optional<L2PersistenceResults> m_results;
    L2PersistenceResults m_shown;
    L2PersistenceSummary m_summary;
    Quantity m_quantity = Quantity::RegionHitRate;
    Axis m_axis = Axis::WindowSize;
    QComboBox* m_quantityBox;
    QComboBox* m_axisBox;
    QCustomPlot* m_plot = nullptr;
    int m_curves = 0;
    int m_modelCurves = 0;
    int m_predictionMarkers = 0;
};

} // namespace warpscope::app
