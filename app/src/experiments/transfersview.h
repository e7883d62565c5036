// The Transfers experiment in the app, one unit: measure_transfers' answer (docs/protocol.md) read
// through core's reader into core's curves (warpscope/experiments/transfers.h) as
// `TransferResults`, the notes' own figures (Figure 4-3: device memory at 144 GB/s, the PCIe Gen2
// bus at 8 GB/s), the summary printed under the chart, computed from the numbers, and
// TransfersView, the "Transfers" tab: bandwidth against size on log axes (QCustomPlot), one curve
// per mode (pageable and pinned copies, both directions at once, sumArrays over device, zero-copy
// and managed memory), with labelled reference lines for this device's measured copy bandwidth and
// the notes' 144 GB/s and 8 GB/s. Hovering a point shows its numbers. Without results (a
// model-only machine, or not run yet) the chart shows the notes' lines and says why, never an
// empty chart.
#pragma once

#include "gpu/experimentresults.h"
#include "views/experimentview.h"

#include <warpscope/experiments/transfers.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

class QCustomPlot;

namespace warpscope::app {

/// measure_transfers' result in core's types, and the answer it was read from.
/// Read by resultsFromAnswer<TransferResults>() and readRecordedResults<TransferResults>()
/// (gpu/experimentresults.h) through core's reader.
using TransferResults = ExperimentResults<experiments::TransfersExperiment>;

/// A recorded file may also be what the transfers' summary script records ({"runs": [...]}:
/// the first run is read).
template <>
inline constexpr RunsRecord kRecordedRuns<experiments::TransfersExperiment> = RunsRecord::Read;

/// The course notes' figures (Figure 4-3, their Fermi-era machine).
struct NotesTransferFigures {
    static constexpr double deviceMemoryGBs = 144.0; // GDDR5, theoretical
    static constexpr double pcieGBs = 8.0;           // PCIe Gen2 between CPU and GPU
};

struct TransferSummary {
    qint64 atBytes = 0; // the size the ratios are taken at (the largest measured by all)
    std::optional<double> pinnedOverPageable;    // H2D pinned / H2D pageable bandwidth
    std::optional<double> zeroCopyShareOfPinned; // sum_zerocopy / H2D pinned, 0..1+
    std::optional<double> deviceOverLink;        // device copy bandwidth / H2D pinned
    double linkGBs = 0.0;                        // H2D pinned at atBytes
    /// The sentences under the chart. Without results: the notes' figures and what Run does.
    QString text;
};

/// The summary of `results`, or of the notes alone when `results` is null.
TransferSummary summarizeTransfers(const TransferResults* results);

/// "4 KiB", "256 MiB", "1 GiB".
QString formatTransferBytes(qint64 bytes);

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
