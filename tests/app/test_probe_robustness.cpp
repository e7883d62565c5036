// The app against a broken or hostile probe (its answers may come from another machine, through
// ssh): garbage, truncated and huge lines, answers to requests never sent, a probe that dies.
// The window must survive, the message bar must name the problem, and the session, its undo
// history and its measurements must stay as they were. The probes are small shell scripts.
#include "windowfixture.h"

#include "gpu/gpurunner.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "panels/messagebar.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUndoStack>

#include <optional>
#include <vector>

namespace warpscope::app::test {
namespace {

constexpr int kRobustnessWaitMs = 20000;

// Reads the client's requests (compact JSON, "id" first) and answers hello and device_info, in
// the wrong order; what it does on a measure request is the test's `onMeasure`.
constexpr const char* kScriptHead = R"(#!/bin/sh
hello=
while IFS= read -r line; do
    id=$(printf '%s\n' "$line" | sed -n 's/^{"id":\([0-9]*\).*/\1/p')
    case "$line" in
    *'"op":"hello"'*) hello=$id ;;
    *'"op":"device_info"'*)
        printf '{"id":%s,"ok":true,"result":{"name":"Hostile GPU","computeCapability":"9.0","driverVersion":"13.0","smCount":1,"countersAvailable":true}}\n' "$id"
        printf '{"id":%s,"ok":true,"result":{"protocol":1,"probe":"hostile"}}\n' "$hello" ;;
    *'"op":"measure"'*)
)";
constexpr const char* kScriptTail = R"(
        ;;
    esac
done
)";

/// Writes the script into `dir` and returns the probe command that runs it.
QString writeProbe(const QTemporaryDir& dir, const char* onMeasure) {
    const QString path = dir.filePath(QStringLiteral("hostile-probe.sh"));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(kScriptHead);
    file.write(onMeasure);
    file.write(kScriptTail);
    file.close();
    return QStringLiteral("sh ") + path;
}

std::unique_ptr<MainWindow> windowWithProbeCommand(const QString& command) {
    MainWindowOptions options = quietOptions();
    options.probeCommand = command;
    options.probeTimeoutMs = 15000;
    auto window = std::make_unique<MainWindow>(options);
    window->resize(1600, 1000);
    window->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    return window;
}

TEST(ProbeRobustness, GarbageTruncatedHugeAndStrayLinesThenDeathLeaveTheSessionAlone) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString probe = writeProbe(dir, R"(
        echo 'garbage: this is not JSON'
        printf '\001\377\376 binary\n'
        printf '{"id":%s,"ok":true,"result":{"coun\n' "$id"
        head -c 3000000 /dev/zero | tr '\000' 'x'; echo
        printf '{"id":%s,"ok":true,"result":{"counters":{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum":99}}}\n' $((id + 1000))
        printf '{"id":0,"progress":{"done":1,"total":1}}\n'
        printf '{"id":%s,"ok":tr' "$id"
        echo 'hostile probe gives up' >&2
        exit 1)");
    auto window = windowWithProbeCommand(probe);
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("readsegment-offset-11")));
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    QApplication::processEvents();
    const Session before = window->currentSession();
    const int undoSteps = window->document()->undoStack()->count();
    const int undoIndex = window->document()->undoStack()->index();

    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return window->messageBar()->text().contains(QStringLiteral("exited with status 1"));
        },
        kRobustnessWaitMs))
        << qPrintable(window->messageBar()->text());
    // Whatever the client does next (start it again, or give up after three stops), it settles.
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return !window->gpuRunner()->isMeasuring(); }, kRobustnessWaitMs));
    // The count of stray lines is in the message once the client has read all of them: waited
    // for as that, not for a fixed time.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return window->messageBar()->text().contains(
                QStringLiteral("5 lines that were no answer to its requests"));
        },
        kRobustnessWaitMs))
        << qPrintable(window->messageBar()->text());

    const QString message = window->messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("exited with status 1"))) << qPrintable(message);
    // Garbage, binary, truncated, huge, and an answer to a request never sent: five lines. (The
    // progress line of id 0 may be a late answer to an earlier request: ignored, not counted.)
    EXPECT_TRUE(message.contains(QStringLiteral("5 lines that were no answer to its requests")))
        << qPrintable(message);
    // Nothing it wrote became a measurement; the session and its undo history are as they were.
    EXPECT_EQ(window->measurements()->size(), 0);
    EXPECT_EQ(window->measurements()->find(window->document()->pattern()), nullptr);
    EXPECT_EQ(window->currentSession(), before);
    EXPECT_EQ(window->document()->undoStack()->count(), undoSteps);
    EXPECT_EQ(window->document()->undoStack()->index(), undoIndex);
    // And the window still works.
    window->document()->undoStack()->undo();
    EXPECT_EQ(window->document()->evaluation()->modern.global->sectors, 5);
}

TEST(ProbeRobustness, AnAnswerWithNeitherResultNorErrorIsABadAnswer) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString probe = writeProbe(dir, R"(
        printf '{"id":%s,"ok":true,"result":[1,2,3]}\n' "$id")");
    auto window = windowWithProbeCommand(probe);
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("readsegment-offset-11")));
    QApplication::processEvents();
    const Session before = window->currentSession();
    const int undoSteps = window->document()->undoStack()->count();

    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->messageBar()->text().contains(QStringLiteral("neither a result")); },
        kRobustnessWaitMs))
        << qPrintable(window->messageBar()->text());
    EXPECT_FALSE(window->gpuRunner()->isMeasuring());
    EXPECT_EQ(window->probeClient()->state(), ProbeClient::State::Ready);
    EXPECT_EQ(window->measurements()->size(), 0);
    EXPECT_EQ(window->currentSession(), before);
    EXPECT_EQ(window->document()->undoStack()->count(), undoSteps);
}

TEST(ProbeRobustness, AnErrorWithAnEmptyOrMissingCodeStillHasACodeAndAMessage) {
    // Found by fuzz-probe-answers: an error whose "code" is "" reached the app with no code.
    for (const char* line :
         {R"({"id":5,"ok":false,"error":{"code":"","message":"illegal address"}})",
          R"({"id":5,"ok":false,"error":{"code":7}})", R"({"id":5,"ok":false,"error":{}})"}) {
        const ProbeAnswerLine answer = ProbeAnswerLine::read(QByteArray(line));
        EXPECT_EQ(answer.kind, ProbeAnswerLine::Kind::Answer) << line;
        EXPECT_FALSE(answer.ok) << line;
        EXPECT_EQ(answer.failure.code, QStringLiteral("internal")) << line;
        EXPECT_FALSE(answer.failure.message.isEmpty()) << line;
    }
}

TEST(ProbeRobustness, AKernelAnswerCoreCannotReadFailsTheJobNamingTheField) {
    // measure_kernel's answer is read by core's guarded reader: a sweep whose second
    // measurement has a median that is no number fails the job, naming the field, and no
    // measurement of it reaches the app (before, the QJson reader took it for "not timed").
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("kernel-probe.sh"));
    QFile script(path);
    ASSERT_TRUE(script.open(QIODevice::WriteOnly));
    script.write(R"(#!/bin/sh
while IFS= read -r line; do
    id=$(printf '%s\n' "$line" | sed -n 's/.*[{,]"id":\([0-9]*\).*/\1/p')
    case "$line" in
    *'"op":"hello"'*) printf '{"id":%s,"ok":true,"result":{"protocol":1,"probe":"hostile"}}\n' "$id" ;;
    *'"op":"device_info"'*)
        printf '{"id":%s,"ok":true,"result":{"name":"Hostile GPU","computeCapability":"9.0","smCount":1}}\n' "$id" ;;
    *'"op":"measure_kernel"'*)
        printf '{"id":%s,"ok":true,"result":{"measurements":[{"kernel":"k","timing":{"kernelMs":{"median":0.5}}},{"kernel":"k","timing":{"kernelMs":{"median":"fast"}}}]}}\n' "$id" ;;
    esac
done
)");
    script.close();
    ProbeClient client;
    client.setCommand(QStringLiteral("/bin/sh"), {path});
    client.start();
    ASSERT_TRUE(QTest::qWaitFor([&] { return client.state() == ProbeClient::State::Ready; },
                                kRobustnessWaitMs));
    std::optional<ProbeFailure> failure;
    int measured = 0;
    QObject::connect(&client, &ProbeClient::jobFailed,
                     [&](int, const ProbeFailure& f) { failure = f; });
    QObject::connect(&client, &ProbeClient::kernelMeasured,
                     [&](int, const std::vector<KernelMeasurement>&) { ++measured; });
    client.measureKernel(QJsonObject{}, {{{"n", 1}}, {{"n", 2}}}, KernelMeasureOptions{});
    ASSERT_TRUE(QTest::qWaitFor([&] { return failure.has_value(); }, kRobustnessWaitMs));
    EXPECT_EQ(failure->code, QStringLiteral("bad_answer"));
    EXPECT_TRUE(failure->message.contains(QStringLiteral("/measurements/1/timing/kernelMs/median")))
        << qPrintable(failure->message);
    EXPECT_TRUE(failure->message.contains(QStringLiteral("must be a number")))
        << qPrintable(failure->message);
    EXPECT_EQ(measured, 0);
    EXPECT_EQ(client.state(), ProbeClient::State::Ready);
}

} // namespace
} // namespace warpscope::app::test
