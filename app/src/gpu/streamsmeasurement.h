// Streams and overlap as the app holds them: measure_streams' answer (docs/protocol.md) read into
// runs, one per stream count, each with the timeline of its copies and kernels; the core's model
// (warpscope/streams.h) beside them; and the summary the Streams view prints. Without results
// the same structures carry the model's timeline alone. No widgets here.
#pragma once

#include "warpscope/streams.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace warpscope::app {

struct StreamsOpData {
    int stream = 0;
    StreamOp op = StreamOp::H2d;
    double startMs = 0.0;
    double endMs = 0.0;
    qint64 bytes = 0;
    int channel = -1;
};

struct StreamsRunData {
    int streams = 1;
    double totalMs = 0.0; // median
    double minMs = 0.0;
    double maxMs = 0.0;
    int samples = 0;
    double speedup = 1.0; // the one-stream median over this one
    std::vector<StreamsOpData> timeline;
};

struct StreamsResults {
    QString device;
    int asyncEngineCount = 0;
    qint64 bytes = 0;
    int work = 0;
    int repetitions = 0;
    StreamIssueOrder order = StreamIssueOrder::PerStream;
    QString timelineSource; // "cupti_activity" or "cuda_events"
    QString timelineNote;
    StreamStageTimes stages;
    std::vector<StreamsRunData> runs; // ascending stream counts; the first is 1
    /// The answer as read, kept whole for the session.
    QJsonObject answer;

    const StreamsRunData* run(int streams) const;
};

/// Reads measure_streams' result object. Nullopt with `error` naming what is wrong (and where).
std::optional<StreamsResults> streamsResultsFromJson(const QJsonObject& result, QString* error);

/// Reads a file of recorded results: a result object or a protocol answer line
/// ({"id", "ok", "result"}).
std::optional<StreamsResults> readStreamsResults(const QByteArray& bytes, QString* error);

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

StreamsComparison compareStreams(const StreamsResults* results, int streams);

} // namespace warpscope::app
