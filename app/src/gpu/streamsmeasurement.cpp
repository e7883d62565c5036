// Streams: measure_streams' answer read, and the comparison with the model under the timeline.
#include "gpu/streamsmeasurement.h"

#include "gpu/experimentresults.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>

namespace warpscope::app {

namespace {

constexpr const char* kContext = "StreamsMeasurement";

QString tr(const char* text) {
    return QCoreApplication::translate(kContext, text);
}

} // namespace

const StreamsRunData* StreamsResults::run(int streams) const {
    const auto found = std::ranges::find(runs, streams, &StreamsRunData::streams);
    return found != runs.end() ? &*found : nullptr;
}

std::optional<StreamsResults> streamsResultsFromJson(const QJsonObject& result, QString* error) {
    const auto fail = [&](const QString& message) {
        return refuseResults<StreamsResults>(error, message);
    };
    StreamsResults results;
    results.answer = result;
    results.device = result.value(QStringLiteral("device")).toString();
    double engines = -1.0;
    if (!readFiniteNumber(result, "asyncEngineCount", engines) || engines < 0 || engines > 64) {
        return fail(tr("/asyncEngineCount: the stream results need the device's copy engines"));
    }
    results.asyncEngineCount = static_cast<int>(engines);
    results.bytes = static_cast<qint64>(result.value(QStringLiteral("bytes")).toDouble());
    results.work = result.value(QStringLiteral("work")).toInt();
    results.repetitions = result.value(QStringLiteral("repetitions")).toInt();
    results.order =
        streamIssueOrderFromName(result.value(QStringLiteral("order")).toString().toStdString())
            .value_or(StreamIssueOrder::PerStream);
    results.timelineSource = result.value(QStringLiteral("timelineSource")).toString();
    results.timelineNote = result.value(QStringLiteral("timelineNote")).toString();
    const QJsonObject stages = result.value(QStringLiteral("stages")).toObject();
    if (!readFiniteNumber(stages, "h2dMs", results.stages.h2dMs) ||
        !readFiniteNumber(stages, "kernelMs", results.stages.kernelMs) ||
        !readFiniteNumber(stages, "d2hMs", results.stages.d2hMs) || results.stages.h2dMs < 0 ||
        results.stages.kernelMs < 0 || results.stages.d2hMs < 0) {
        return fail(tr("/stages: the stream results need \"h2dMs\", \"kernelMs\" and \"d2hMs\""));
    }
    const QJsonValue runs = result.value(QStringLiteral("runs"));
    if (!runs.isArray() || runs.toArray().isEmpty()) {
        return fail(tr("the stream results have no \"runs\" array"));
    }
    const QJsonArray list = runs.toArray();
    for (int r = 0; r < list.size(); ++r) {
        const QJsonObject object = list.at(r).toObject();
        StreamsRunData run;
        double streams = 0.0;
        if (!readFiniteNumber(object, "streams", streams) || streams < 1 || streams > 64 ||
            !readFiniteNumber(object, "totalMs", run.totalMs) || run.totalMs <= 0) {
            return fail(tr("/runs/%1: a run needs \"streams\" (1 to 64) and a positive \"totalMs\"")
                            .arg(r));
        }
        run.streams = static_cast<int>(streams);
        readFiniteNumber(object, "minMs", run.minMs);
        readFiniteNumber(object, "maxMs", run.maxMs);
        double samples = 0.0;
        readFiniteNumber(object, "samples", samples);
        run.samples = static_cast<int>(samples);
        const QJsonArray timeline = object.value(QStringLiteral("timeline")).toArray();
        for (int o = 0; o < timeline.size(); ++o) {
            const QJsonObject item = timeline.at(o).toObject();
            StreamsOpData op;
            double stream = -1.0;
            const auto kind =
                streamOpFromName(item.value(QStringLiteral("op")).toString().toStdString());
            if (!kind || !readFiniteNumber(item, "stream", stream) || stream < 0 ||
                stream >= run.streams || !readFiniteNumber(item, "startMs", op.startMs) ||
                !readFiniteNumber(item, "endMs", op.endMs) || op.endMs < op.startMs) {
                return fail(tr("/runs/%1/timeline/%2: an operation needs an \"op\" (h2d, kernel "
                               "or d2h), a \"stream\" below the run's count and \"startMs\" <= "
                               "\"endMs\"")
                                .arg(r)
                                .arg(o));
            }
            op.op = *kind;
            op.stream = static_cast<int>(stream);
            op.bytes = static_cast<qint64>(item.value(QStringLiteral("bytes")).toDouble());
            op.channel = item.value(QStringLiteral("channel")).toInt(-1);
            run.timeline.push_back(op);
        }
        results.runs.push_back(std::move(run));
    }
    std::sort(
        results.runs.begin(), results.runs.end(),
        [](const StreamsRunData& a, const StreamsRunData& b) { return a.streams < b.streams; });
    if (results.runs.front().streams != 1) {
        return fail(tr("/runs: the one-stream run, the baseline of every speed-up, is missing"));
    }
    const double sequential = results.runs.front().totalMs;
    for (StreamsRunData& run : results.runs) {
        run.speedup = sequential / run.totalMs;
    }
    return results;
}

std::optional<StreamsResults> readStreamsResults(const QByteArray& bytes, QString* error) {
    const std::optional<QJsonObject> document = readResultsObject(bytes, kContext, error);
    if (!document) {
        return std::nullopt;
    }
    QJsonObject object = *document;
    if (object.contains(QStringLiteral("result"))) {
        object = object.value(QStringLiteral("result")).toObject();
    }
    return streamsResultsFromJson(object, error);
}

StreamsComparison compareStreams(const StreamsResults* results, int streams) {
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
    if (const StreamsRunData* run = results->run(comparison.streams)) {
        comparison.measuredSpeedup = run->speedup;
        measured = tr("measured %1 ms, a speed-up of %2× over one stream; ")
                       .arg(fixedNumber(run->totalMs, 3), fixedNumber(run->speedup, 2));
    } else {
        measured = tr("not measured at this count; ");
    }
    comparison.text =
        tr("%1 stream(s) on %2 (asyncEngineCount %3): %4the model predicts %5 ms, %6× (at most "
           "%7× with many streams), from the one-stream stages H2D %8 ms, kernel %9 ms, D2H %10 "
           "ms. %11 %12")
            .arg(comparison.streams)
            .arg(results->device.isEmpty() ? tr("an unnamed GPU") : results->device)
            .arg(results->asyncEngineCount)
            .arg(measured, fixedNumber(comparison.predicted.totalMs, 3),
                 fixedNumber(comparison.predicted.speedup, 2), fixedNumber(comparison.limit, 2),
                 fixedNumber(comparison.stages.h2dMs, 3),
                 fixedNumber(comparison.stages.kernelMs, 3),
                 fixedNumber(comparison.stages.d2hMs, 3), model, notes);
    return comparison;
}

} // namespace warpscope::app
