// What the probe experiments' results (Transfers, Streams) read and write alike: a recorded file's
// JSON object, a finite number from it, and numbers in the C locale for the texts beside the
// charts. No widgets here.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace warpscope::app {

/// `value` with `decimals` digits after the point in the C locale, whatever the user's ("0.52").
QString fixedNumber(double value, int decimals);

/// `object`'s `key` into `out` when it is a finite number; false, `out` untouched, otherwise.
bool readFiniteNumber(const QJsonObject& object, const char* key, double& out);

/// A reader's refusal: `message` in `*error` (when `error` is not null), and no results.
template <class Results>
std::optional<Results> refuseResults(QString* error, const QString& message) {
    if (error != nullptr) {
        *error = message;
    }
    return std::nullopt;
}

/// The JSON object `bytes` hold (a recorded answer or result). Nullopt with `error` saying why
/// (not JSON, with the parser's reason and the byte; or not an object), translated in `context`.
std::optional<QJsonObject> readResultsObject(const QByteArray& bytes, const char* context,
                                             QString* error);

} // namespace warpscope::app
