// measureSessionEntry(): a ProbeClient started for one request, waited for on the event loop.
#include "gpu/sessionmeasurement.h"

#include "gpu/eventwait.h"
#include "gpu/probeclient.h"

#include <QObject>

#include <algorithm>

namespace warpscope::app {

std::optional<QString> measureSessionEntry(Session& session,
                                           const std::optional<QString>& command) {
    if (session.entries.empty()) {
        return QObject::tr("the session has no pattern to measure");
    }
    SessionEntry& entry = session.entries[static_cast<std::size_t>(
        std::clamp<int>(session.currentEntry, 0, static_cast<int>(session.entries.size()) - 1))];
    ProbeClient client;
    client.setCommand(
        ProbeCommand::fromLine(command.value_or(QString()), ProbeClient::defaultProgram()));
    std::optional<ProbeMeasurement> result;
    std::optional<QString> failure;
    const int job = client.measure(entry.pattern, ProbeMeasureOptions{});
    QObject::connect(&client, &ProbeClient::measured,
                     [&](int id, const ProbeMeasurement& m) { result = id == job ? m : result; });
    QObject::connect(&client, &ProbeClient::jobFailed, [&](int id, const ProbeFailure& f) {
        if (id == job) {
            failure = f.message + QStringLiteral(" (") + f.code + QStringLiteral(")");
        }
    });
    if (!waitForEvents([&] { return result.has_value() || failure.has_value(); }, 120000)) {
        return QObject::tr("no answer from the probe within two minutes");
    }
    if (failure) {
        return failure;
    }
    entry.measurements = {result->toRecorded()};
    return std::nullopt;
}

} // namespace warpscope::app
