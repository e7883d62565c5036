// Streams: measure_streams' answer read, and the comparison with the model under the timeline.
#include "gpu/streamsmeasurement.h"

#include <QCoreApplication>

#include <algorithm>

namespace warpscope::app {

namespace {

constexpr const char* kContext = "StreamsMeasurement";

QString tr(const char* text) {
    return QCoreApplication::translate(kContext, text);
}

} // namespace

std::optional<StreamsResults> streamsResultsFromJson(const QJsonObject& result, QString* error) {
    return readThroughCore<StreamsResults>(result, experiments::streamsMeasurementFromJsonText,
                                           error);
}

std::optional<StreamsResults> readStreamsResults(const QByteArray& bytes, QString* error) {
    // Not a record of runs: the result has "runs" of its own.
    const std::optional<QJsonObject> object =
        recordedResultObject(bytes, kContext, RunsRecord::Ignore, error);
    if (!object) {
        return std::nullopt;
    }
    return streamsResultsFromJson(*object, error);
}

StreamsComparison compareStreams(const StreamsResults* held, int streams) {
    const experiments::StreamsMeasurement* results = held ? &held->measurement : nullptr;
    StreamsComparison comparison;
    comparison.streams = std::clamp(streams, 1, 64);
    comparison.modelOnly = results == nullptr;
    comparison.asyncEngineCount = results ? results->asyncEngineCount : kStreamsModelEngines;
    comparison.stages = results ? results->stages : streamsExampleStages();
    const StreamIssueOrder order = results ? results->order : StreamIssueOrder::PerStream;
    comparison.predicted =
        predictStreams(comparison.stages, comparison.streams, comparison.asyncEngineCount, order);
    comparison.limit = streamSpeedupLimit(comparison.stages, comparison.asyncEngineCount);
    const QString notes = QString::fromUtf8(streamsNotesStatement());
    const QString model =
        QString::fromStdString(streamsModelStatement(comparison.asyncEngineCount));
    if (results == nullptr) {
        comparison.text =
            tr("Model only (no measurement here): a device with %1 copy engines, copy in, kernel "
               "and copy out of 1 ms each. Over %2 stream(s) the model predicts %3 ms, a "
               "speed-up of %4× over one stream (at most %5× with many). %6 %7")
                .arg(comparison.asyncEngineCount)
                .arg(comparison.streams)
                .arg(fixedNumber(comparison.predicted.totalMs, 2),
                     fixedNumber(comparison.predicted.speedup, 2), fixedNumber(comparison.limit, 2),
                     model, notes);
        return comparison;
    }
    QString measured;
    if (const experiments::StreamsRun* run = results->run(comparison.streams)) {
        comparison.measuredSpeedup = results->speedup(*run);
        measured =
            tr("measured %1 ms, a speed-up of %2× over one stream; ")
                .arg(fixedNumber(run->totalMs, 3), fixedNumber(*comparison.measuredSpeedup, 2));
    } else {
        measured = tr("not measured at this count; ");
    }
    comparison.text =
        tr("%1 stream(s) on %2 (asyncEngineCount %3): %4the model predicts %5 ms, %6× (at most "
           "%7× with many streams), from the one-stream stages H2D %8 ms, kernel %9 ms, D2H %10 "
           "ms. %11 %12")
            .arg(comparison.streams)
            .arg(results->deviceName.empty() ? tr("an unnamed GPU") : qString(results->deviceName))
            .arg(results->asyncEngineCount)
            .arg(measured, fixedNumber(comparison.predicted.totalMs, 3),
                 fixedNumber(comparison.predicted.speedup, 2), fixedNumber(comparison.limit, 2),
                 fixedNumber(comparison.stages.h2dMs, 3),
                 fixedNumber(comparison.stages.kernelMs, 3),
                 fixedNumber(comparison.stages.d2hMs, 3), model, notes);
    return comparison;
}

} // namespace warpscope::app
