// StreamsView, the "Streams" tab: the notes' staged copy-and-kernel experiment as a timeline
// (QCustomPlot), one row per copy engine and one for compute, a bar per copy or kernel coloured by
// its stream, for the stream count the selector picks; the model's timeline for the same count in
// rows beneath the measured ones; and the speed-up over one stream against the stream count,
// measured beside predicted. Hovering a bar or a point shows its numbers. Without results (a
// model-only machine, or not run yet) the view draws the model's timeline and states the notes'
// rule, never an empty chart.
#pragma once

#include "gpu/streamsmeasurement.h"
#include "views/experimentview.h"

#include <optional>

class QSpinBox;
class QCustomPlot;

namespace warpscope::app {

class StreamsView : public ExperimentView {
    Q_OBJECT
public:
    explicit StreamsView(QWidget* parent = nullptr);

    void setResults(std::optional<StreamsResults> results);
    const std::optional<StreamsResults>& results() const { return m_results; }
    /// The stream count whose timeline is drawn (the selector's value).
    void setStreamCount(int streams);
    int streamCount() const;
    const StreamsComparison& comparison() const { return m_comparison; }

    QSpinBox* streamSelector() const { return m_streams; }
    QCustomPlot* timelineChart() const { return m_timeline; }
    QCustomPlot* speedupChart() const { return m_speedup; }

    /// One drawn bar: its row (0 at the top), its span and what hovering it says.
    struct Bar {
        int row = 0;
        bool measured = true; // false: the model's
        int stream = 0;
        StreamOp op = StreamOp::H2d;
        double startMs = 0.0;
        double endMs = 0.0;
        QString text;
    };
    const std::vector<Bar>& bars() const { return m_bars; }
    /// The rows' names, top to bottom.
    const QStringList& rowNames() const { return m_rowNames; }

    /// The tooltip for `pixel` in the timeline (a bar under it) or in the speed-up chart (a point
    /// within 12 pixels); empty when nothing is there.
    QString timelineHoverText(const QPointF& pixel) const;
    QString speedupHoverText(const QPointF& pixel) const;

private:
    void refresh() override;
    void fillChart() override;
    QString chartStateKey() const override;
    void fillTimeline();
    void fillSpeedup();

    std::optional<StreamsResults> m_results;
    StreamsComparison m_comparison;
    std::vector<Bar> m_bars;
    QStringList m_rowNames;
    QSpinBox* m_streams;
    QCustomPlot* m_timeline = nullptr;
    QCustomPlot* m_speedup = nullptr;
};

} // namespace warpscope::app
