// The probe experiments' shared reading and number formatting (experimentresults.h).
#include "gpu/experimentresults.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>
#include <QLocale>

namespace warpscope::app {

QString fixedNumber(double value, int decimals) {
    return QLocale::c().toString(value, 'f', decimals);
}

std::optional<QJsonObject> recordedResultObject(const QByteArray& bytes, const char* context,
                                                RunsRecord runsRecord, QString* error) {
    const auto tr = [context](const char* text) {
        return QCoreApplication::translate(context, text);
    };
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes.trimmed(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return refuseResults<QJsonObject>(
            error,
            tr("not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
    }
    if (!document.isObject()) {
        return refuseResults<QJsonObject>(error, tr("not a JSON object"));
    }
    const QJsonObject object = document.object();
    if (object.contains(QStringLiteral("result")) || object.contains(QStringLiteral("ok"))) {
        if (!object.value(QStringLiteral("ok")).toBool(true)) {
            return refuseResults<QJsonObject>(error, tr("the probe answered an error: %1")
                                                         .arg(object.value(QStringLiteral("error"))
                                                                  .toObject()
                                                                  .value(QStringLiteral("message"))
                                                                  .toString()));
        }
        const QJsonValue result = object.value(QStringLiteral("result"));
        if (!result.isObject()) {
            return refuseResults<QJsonObject>(
                error, tr("/result: the answer's \"result\" must be a JSON object"));
        }
        return result.toObject();
    }
    if (runsRecord == RunsRecord::Read && object.value(QStringLiteral("runs")).isArray()) {
        const QJsonArray runs = object.value(QStringLiteral("runs")).toArray();
        if (runs.isEmpty()) {
            return refuseResults<QJsonObject>(error,
                                              tr("the record holds no run (\"runs\" is empty)"));
        }
        if (!runs.first().isObject()) {
            return refuseResults<QJsonObject>(error, tr("/runs/0: a run must be a JSON object"));
        }
        return runs.first().toObject();
    }
    return object;
}

} // namespace warpscope::app
