// The Streams experiment in the app, one unit: measure_streams' answer (docs/protocol.md) read
// through core's reader into core's runs (warpscope/experiments/streams.h) as `StreamsResults`,
// one per stream count with the timeline of its copies and kernels; the comparison with core's
// model (warpscope/streams.h) and its sentences; and StreamsView, the "Streams" tab: the notes'
// staged copy-and-kernel experiment as a timeline (QCustomPlot), one row per copy engine and one
// for compute, a bar per copy or kernel coloured by its stream, for the stream count the selector
// picks; the model's timeline for the same count in rows beneath the measured ones; and the
// speed-up over one stream against the stream count, measured beside predicted. Hovering a bar or
// a point shows its numbers. Without results (a model-only machine, or not run yet) the view
// draws the model's timeline and states the notes' rule, never an empty chart.
#pragma once

#include "gpu/experimentresults.h"
#include "views/experimentview.h"

#include <warpscope/experiments/streams.h>
#include <warpscope/streams.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

class QSpinBox;
class QCustomPlot;

namespace warpscope::app {

/// measure_streams' result in core's types, and the answer it was read from; read by
/// resultsFromAnswer<StreamsResults>() and readRecordedResults<StreamsResults>()
/// (gpu/experimentresults.h) through core's reader.
using StreamsResults = ExperimentResults<experiments::StreamsExperiment>;

/// What the model says for a stream count: over the measured stages and engines when there are
/// results, else over the model's example (equal 1 ms stages, two copy engines).
struct StreamsComparison {
    int streams = 1;
    int asyncEngineCount = 2;
    StreamStageTimes stages;
    StreamPrediction predicted;
    std::optional<double> measuredSpeedup; // none without results for this count
    double limit = 1.0;                    // streamSpeedupLimit
    bool modelOnly = true;
    /// The sentences under the timeline.
    QString text;
};

/// The engine count the model assumes without a GPU (the common case since Fermi's Tesla parts).
inline constexpr int kStreamsModelEngines = 2;

/// The comparison over `results`, or over the model's example when null.
StreamsComparison compareStreams(const StreamsResults* results, int streams);

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
