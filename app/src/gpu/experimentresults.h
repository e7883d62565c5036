// What the probe experiments' results (Transfers, Streams, L2 persistence) share in the app: the
// recorded file's result object (a result object, a protocol answer line or a runs record), the
// two readers every experiment's results are read by (the probe's answer and a recorded file),
// generic over core's traits (warpscope/experiments/: experiments::TransfersExperiment's
// measurementFromJsonText), and numbers in the C locale for the texts beside the charts. No
// widgets here.
#pragma once

#include "gpu/probemeasurement.h"

#include <warpscope/result.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <string>
#include <utility>

namespace warpscope::app {

/// `value` with `decimals` digits after the point in the C locale, whatever the user's ("0.52").
QString fixedNumber(double value, int decimals);

/// A string of core's types, for the views' texts.
inline QString qString(const std::string& text) {
    return QString::fromStdString(text);
}

/// A reader's refusal: `message` in `*error` (when `error` is not null), and no results.
template <class Results>
std::optional<Results> refuseResults(QString* error, const QString& message) {
    if (error != nullptr) {
        *error = message;
    }
    return std::nullopt;
}

/// Whether a recorded file may be a record of runs ({"runs": [...]}, as the transfers' summary
/// script writes them), whose first run is read. Not for a result that has "runs" of its own.
enum class RunsRecord { Read, Ignore };

/// The result object a recorded file holds: the object itself, the "result" of a protocol answer
/// line ({"id", "ok", "result"}; an error answer is refused with the probe's message), or with
/// RunsRecord::Read the first of a record's "runs". Nullopt with `error` saying why (not JSON,
/// with the parser's reason and the byte; not an object; no run), translated in `context`.
std::optional<QJsonObject> recordedResultObject(const QByteArray& bytes, const char* context,
                                                RunsRecord runs, QString* error);

/// Whether an experiment's recorded files may be a record of runs; RunsRecord::Read where the
/// experiment's scripts write one (specialized beside its view, experiments/fooview.h).
template <class Experiment> inline constexpr RunsRecord kRecordedRuns = RunsRecord::Ignore;

/// An experiment's results as the app keeps them: core's measurement and the answer it was read
/// from, whole, for the session. `Experiment` is core's traits (experiments::TransfersExperiment:
/// its key, Measurement and reader).
template <class Traits> struct ExperimentResults {
    using Experiment = Traits;
    typename Traits::Measurement measurement;
    QJsonObject answer;
};

/// `result` read by core's reader `read` (text -> Result<Measurement>) into `Results`; nullopt
/// with `error` set to the reader's message, which names the field's JSON pointer.
template <class Results, class Read>
std::optional<Results> readThroughCore(const QJsonObject& result, Read read, QString* error) {
    auto measured = read(compactJsonText(result));
    if (!measured) {
        return refuseResults<Results>(error, qString(measured.error().describe()));
    }
    Results results;
    results.measurement = std::move(measured).value();
    results.answer = result;
    return results;
}

/// The probe's result object read into `Results` (an experiment's results: `Results::Experiment`
/// is core's traits) by the experiment's reader in core; nullopt with `error` naming the field's
/// JSON pointer.
template <class Results>
std::optional<Results> resultsFromAnswer(const QJsonObject& result, QString* error) {
    return readThroughCore<Results>(result, &Results::Experiment::measurementFromJsonText, error);
}

/// A recorded file read into `Results`: a result object, a protocol answer line
/// ({"id", "ok", "result"}), or, where the experiment writes them, a record of runs (the first).
template <class Results>
std::optional<Results> readRecordedResults(const QByteArray& bytes, QString* error) {
    const std::optional<QJsonObject> object = recordedResultObject(
        bytes, "ExperimentResults", kRecordedRuns<typename Results::Experiment>, error);
    if (!object) {
        return std::nullopt;
    }
    return resultsFromAnswer<Results>(*object, error);
}

} // namespace warpscope::app
