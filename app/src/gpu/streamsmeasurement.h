// Streams and overlap as the app holds them: measure_streams' answer (docs/protocol.md) read
// through core's reader into core's runs (warpscope/experiments/streams.h), one per stream count,
// each with the timeline of its copies and kernels; the core's model (warpscope/streams.h) beside
// them; and the summary the Streams view prints. No widgets here.
#pragma once

#include "gpu/experimentresults.h"

#include <warpscope/experiments/streams.h>
#include <warpscope/streams.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace warpscope::app {

/// measure_streams' result in core's types, and the answer it was read from.
using StreamsResults = ExperimentResults<experiments::StreamsMeasurement>;

/// Reads measure_streams' result object through core's reader. Nullopt with `error` naming what is
/// wrong and where (its JSON pointer).
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

/// The comparison over `results`, or over the model's example when null.
StreamsComparison compareStreams(const StreamsResults* results, int streams);

} // namespace warpscope::app
