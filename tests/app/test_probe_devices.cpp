// The chosen GPU reaches the probe for every op that takes one: the op table in core
// (warpscope/protocol/ops.h) says which ops take a "device", and this test runs each of them
// through ProbeClient with GPU 1 chosen, recording the request lines on their way into the fake
// probe. An op added to the table with a device and no runner here fails the test, so the app
// cannot forget to send the device again (it once measured transfers and streams on GPU 0).
#include "probefixture.h"

#include "gpu/probeclient.h"

#include <warpscope/experiments/experiments.h>
#include <warpscope/protocol/ops.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

namespace warpscope::app::test {
namespace {

constexpr int kDevicesWaitMs = 30000;

/// WARPSCOPE_FAKE_DEVICES for the probes started while it lives.
class FakeProbeDevices {
public:
    explicit FakeProbeDevices(const char* count) { qputenv("WARPSCOPE_FAKE_DEVICES", count); }
    ~FakeProbeDevices() { qunsetenv("WARPSCOPE_FAKE_DEVICES"); }
    FakeProbeDevices(const FakeProbeDevices&) = delete;
    FakeProbeDevices& operator=(const FakeProbeDevices&) = delete;
};

QString shellQuoted(const QString& text) {
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

/// Every request line the probe read, in order.
std::vector<QJsonObject> requestsIn(const QString& path) {
    std::vector<QJsonObject> requests;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return requests;
    }
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (!line.trimmed().isEmpty()) {
            requests.push_back(QJsonDocument::fromJson(line).object());
        }
    }
    return requests;
}

TEST(ProbeDevices, EveryOpThatTakesADeviceSendsTheChosenOne) {
    REQUIRE_FAKE_PROBE();
    FakeProbeDevices two("2");
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString log = dir.filePath(QStringLiteral("requests.jsonl"));

    ProbeClient client;
    // The probe's stdin passes through tee on its way: the log holds what the probe read.
    client.setCommand(
        QStringLiteral("/bin/sh"),
        {QStringLiteral("-c"),
         QStringLiteral("tee -a %1 | %2").arg(shellQuoted(log), shellQuoted(fakeProbe()))});
    client.start();
    ASSERT_TRUE(QTest::qWaitFor([&] { return client.state() == ProbeClient::State::Ready; },
                                kDevicesWaitMs));
    client.setDevice(1);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return client.state() == ProbeClient::State::Ready && client.gpu().index == 1; },
        kDevicesWaitMs));

    std::set<int> answered;
    const auto note = [&](int job) { answered.insert(job); };
    QObject::connect(&client, &ProbeClient::measured,
                     [&](int job, const ProbeMeasurement&) { note(job); });
    QObject::connect(&client, &ProbeClient::swept,
                     [&](int job, const std::vector<ProbeMeasurement>&) { note(job); });
    QObject::connect(&client, &ProbeClient::kernelSourceReady,
                     [&](int job, const QString&) { note(job); });
    QObject::connect(&client, &ProbeClient::kernelMeasured,
                     [&](int job, const std::vector<KernelMeasurement>&) { note(job); });
    QObject::connect(&client, &ProbeClient::experimentMeasured,
                     [&](int job, const QString&, const QJsonObject&) { note(job); });
    QObject::connect(&client, &ProbeClient::jobFailed,
                     [&](int job, const ProbeFailure&) { note(job); });

    const Preset& preset = requirePreset("stride-2");
    const NamedPattern pattern(preset.title, preset.caption, preset.pattern);
    // How the app asks for each op. device_info is the client's own request (setDevice above).
    std::map<protocol::ProbeOp, std::function<int()>> runners{
        {protocol::ProbeOp::Measure, [&] { return client.measure(pattern, {}); }},
        {protocol::ProbeOp::Sweep,
         [&] {
             return client.sweep({pattern, pattern}, {});
         }},
        {protocol::ProbeOp::KernelSource, [&] { return client.kernelSource(pattern); }},
        {protocol::ProbeOp::MeasureKernel,
         [&] { return client.measureKernel(QJsonObject{}, {}, KernelMeasureOptions{}); }},
    };
    std::set<std::string> expected;
    std::set<int> jobs;
    for (const protocol::OpInfo& row : protocol::probeOps()) {
        if (!row.takesDevice) {
            continue;
        }
        if (row.op == protocol::ProbeOp::Experiment) {
            // Every experiment, through the one call its tab makes (core's experiments table);
            // its request's op is the experiment's opName.
            for (const experiments::Experiment& experiment : experiments::experiments()) {
                expected.insert(std::string(experiment.opName));
                jobs.insert(client.measureExperiment(experiment.key, {}));
            }
            continue;
        }
        expected.insert(std::string(row.name));
        if (row.op == protocol::ProbeOp::DeviceInfo) {
            continue;
        }
        const auto runner = runners.find(row.op);
        if (runner == runners.end()) {
            ADD_FAILURE() << "the op " << row.name
                          << " takes a device: add how the app sends it to this test";
            continue;
        }
        jobs.insert(runner->second());
    }
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return std::all_of(jobs.begin(), jobs.end(),
                               [&](int job) { return answered.count(job) > 0; });
        },
        kDevicesWaitMs))
        << answered.size() << " of " << jobs.size() << " jobs answered";

    std::map<std::string, std::set<int>> devicesByOp; // -1: no "device" (device 0)
    for (const QJsonObject& request : requestsIn(log)) {
        const std::string op = request.value(QStringLiteral("op")).toString().toStdString();
        const QJsonValue device = request.value(QStringLiteral("device"));
        devicesByOp[op].insert(device.isUndefined() ? -1 : device.toInt(-2));
        const protocol::OpInfo* row = protocol::findOp(op);
        ASSERT_NE(row, nullptr) << op;
        if (!row->takesDevice) {
            EXPECT_TRUE(device.isUndefined()) << op << " takes no device but was sent one";
        }
    }
    for (const std::string& op : expected) {
        const auto sent = devicesByOp.find(op);
        ASSERT_NE(sent, devicesByOp.end()) << op << " never reached the probe";
        if (op == "device_info") {
            EXPECT_TRUE(sent->second.count(1)) << "device_info was never asked for GPU 1";
        } else {
            EXPECT_EQ(sent->second, std::set<int>{1}) << op << " did not carry the chosen GPU 1";
        }
    }
}

} // namespace
} // namespace warpscope::app::test
