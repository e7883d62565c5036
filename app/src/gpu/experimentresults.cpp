// The probe experiments' shared reading and number formatting (experimentresults.h).
#include "gpu/experimentresults.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>
#include <QLocale>

#include <cmath>

namespace warpscope::app {

QString fixedNumber(double value, int decimals) {
    return QLocale::c().toString(value, 'f', decimals);
}

bool readFiniteNumber(const QJsonObject& object, const char* key, double& out) {
    const QJsonValue value = object.value(QLatin1String(key));
    if (!value.isDouble() || !std::isfinite(value.toDouble())) {
        return false;
    }
    out = value.toDouble();
    return true;
}

std::optional<QJsonObject> readResultsObject(const QByteArray& bytes, const char* context,
                                             QString* error) {
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes.trimmed(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        if (error != nullptr) {
            *error = parseError.error != QJsonParseError::NoError
                         ? QCoreApplication::translate(context, "not JSON (%1 at byte %2)")
                               .arg(parseError.errorString())
                               .arg(parseError.offset)
                         : QCoreApplication::translate(context, "not a JSON object");
        }
        return std::nullopt;
    }
    return document.object();
}

} // namespace warpscope::app
