// L2PersistenceView, the "L2 persistence" tab: the share of the region's reads served by L2 (or the
// L2 hit rate of all sectors, or the time) against the window's size or its hitRatio (QCustomPlot),
// one curve per hitRatio (or per size) with the window and one without, the model beside the
// measured ones: its estimates (no documented rule) dashed, its predictions (the window holding
// the whole region, the notes' rule) as ringed crosses. Hovering a point shows its numbers. A
// summary computed from the numbers sits under the chart. Without results (a model-only machine, or
// not run yet) the chart draws the model for an H100 and the notes' statement, never an empty
// chart.
#pragma once

#include "gpu/l2persistencemeasurement.h"
#include "views/experimentview.h"

#include <optional>

class QComboBox;
class QCustomPlot;

namespace warpscope::app {

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
