// TransfersView, the "Transfers" tab: bandwidth against size on log axes (QCustomPlot), one curve
// per mode of measure_transfers (pageable and pinned copies, both directions at once, sumArrays
// over device, zero-copy and managed memory), with labelled reference lines for this device's
// measured copy bandwidth and the notes' 144 GB/s and 8 GB/s (Figure 4-3). Hovering a point
// shows its numbers. A summary computed from the numbers sits under the chart. Without results
// (a model-only machine, or not run yet) the chart shows the notes' lines and says why, never an
// empty chart.
#pragma once

#include "gpu/transfersmeasurement.h"
#include "views/experimentview.h"

#include <optional>

class QCustomPlot;

namespace warpscope::app {

class TransfersView : public ExperimentView {
    Q_OBJECT
public:
    explicit TransfersView(QWidget* parent = nullptr);

    /// Show these results (nullopt: none, the notes' figures alone).
    void setResults(std::optional<TransferResults> results);
    const std::optional<TransferResults>& results() const { return m_results; }
    const TransferSummary& summary() const { return m_summary; }

    /// The chart (null in builds without QCustomPlot).
    QCustomPlot* chart() const { return m_plot; }
    /// Measured curves and reference lines drawn (0 without QCustomPlot).
    int curveCount() const { return m_curves; }
    int referenceLineCount() const { return m_references; }

    /// The tooltip text for the measured point nearest `pixel` in the chart (within 12 pixels),
    /// empty when there is none.
    QString hoverText(const QPointF& pixel) const;
    /// The numbers of one point, as the tooltip shows them.
    static QString pointText(const experiments::TransferCurve& curve,
                             const experiments::TransferPoint& point);

private:
    void refresh() override;
    void fillChart() override;
    QString chartStateKey() const override;

    std::optional<TransferResults> m_results;
    TransferSummary m_summary;
    QCustomPlot* m_plot = nullptr;
    int m_curves = 0;
    int m_references = 0;
};

} // namespace warpscope::app
