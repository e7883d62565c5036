// Every error code of the probe protocol's table (docs/protocol.md, "Errors";
// core/include/warpscope/protocol/errors.h), as the app shows it: the fake probe answers a Run
// with that code, and the message bar says what the user sees for it. Then a fatal kernel fault:
// the probe answers it and exits, the app starts it again, says so, and the next Run is answered.
#include "gpu/gpurunner.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "panels/messagebar.h"
#include "panels/protocolwords.h"
#include "probefixture.h"
#include "windowfixture.h"

#include <warpscope/protocol/errors.h>

#include <gtest/gtest.h>

#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <vector>

namespace warpscope::app::test {
namespace {

constexpr int kErrorsWaitMs = 30000;

/// Every code of the protocol's table, by its wire name.
std::vector<QString> everyCode() {
    using protocol::ProbeErrorCode;
    std::vector<QString> codes;
    for (int i = static_cast<int>(ProbeErrorCode::BadRequest);
         i <= static_cast<int>(ProbeErrorCode::OutOfMemory); ++i) {
        codes.push_back(
            QString::fromLatin1(protocol::probeErrorCodeName(static_cast<ProbeErrorCode>(i))));
    }
    return codes;
}

/// What the message bar must say when a Run is answered with `code` (the fake's message is
/// "CODE from the fake probe"): the no-GPU codes and the two that need the user to understand
/// what happened get the app's own framing, every other code its message as it is; the bar says
/// any protocol code in it in words (sayProtocolCodesInWords()).
QString expectedText(const QString& code) {
    const QString message = code + QStringLiteral(" from the fake probe");
    if (code == QLatin1String("no_driver") || code == QLatin1String("no_device") ||
        code == QLatin1String("driver_too_old")) {
        return sayProtocolCodesInWords(QStringLiteral("No GPU measurement: %1").arg(message));
    }
    if (code == QLatin1String("pattern_refused")) {
        return sayProtocolCodesInWords(
            QStringLiteral("The GPU run was refused, nothing was launched: ") + message);
    }
    if (code == QLatin1String("counters_not_permitted")) {
        return sayProtocolCodesInWords(
            QStringLiteral("Hardware counters are not permitted for this user: ") + message);
    }
    return sayProtocolCodesInWords(message);
}

TEST(ProbeErrors, EveryCodeInTheProtocolTableIsShownToTheUser) {
    REQUIRE_FAKE_PROBE();
    const std::vector<QString> codes = everyCode();
    ASSERT_EQ(codes.size(), 14u) << "the protocol's table changed: add its codes here";
    for (const QString& code : codes) {
        SCOPED_TRACE(code.toStdString());
        const QByteArray script = "error:" + code.toLatin1();
        FakeScript fake(script.constData());
        auto window = windowWithProbe(fakeProbe());
        QStringList shown;
        QObject::connect(window->messageBar(), &MessageBar::messageShown,
                         [&](const QString& text) { shown << text; });
        ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
        window->runOnGpu();
        const QString expected = expectedText(code);
        const bool seen = QTest::qWaitFor(
            [&] {
                return shown.filter(expected).size() > 0 && !window->gpuRunner()->isMeasuring();
            },
            kErrorsWaitMs);
        EXPECT_TRUE(seen) << "expected \"" << qPrintable(expected)
                          << "\"; shown: " << qPrintable(shown.join(QStringLiteral(" | ")));
        // The protocol's code itself (for scripts and logs) never reaches the bar; the one-word
        // codes (timeout, cancelled, internal) read as plain words.
        if (code.contains(QLatin1Char('_'))) {
            EXPECT_TRUE(shown.filter(code).isEmpty())
                << qPrintable(shown.join(QStringLiteral(" | ")));
        }
        // Nothing became a measurement, and no error made the app restart the probe (none of
        // these is fatal).
        EXPECT_EQ(window->measurements()->find(window->document()->pattern()), nullptr);
        EXPECT_EQ(window->probeClient()->restartCount(), 0);
    }
}

TEST(ProbeErrors, AFatalKernelFaultRestartsTheProbeAndTheNextRunIsAnswered) {
    REQUIRE_FAKE_PROBE();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    qputenv("WARPSCOPE_FAKE_PROBE_ONCE", (dir.path() + QStringLiteral("/faulted")).toLocal8Bit());
    FakeScript fake("fatal_once");
    auto window = windowWithProbe(fakeProbe());
    QStringList shown;
    QObject::connect(window->messageBar(), &MessageBar::messageShown,
                     [&](const QString& text) { shown << text; });
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    window->runOnGpu();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return window->probeClient()->restartCount() == 1; }, kErrorsWaitMs))
        << qPrintable(shown.join(QStringLiteral(" | ")));
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return window->probeClient()->state() == ProbeClient::State::Ready; },
                        kErrorsWaitMs));
    const qint64 restartedPid = window->probeClient()->processId();
    EXPECT_NE(restartedPid, 0);
    // The user is told what happened (the fault's own words) and that the probe was started
    // again with nothing of theirs lost.
    const QString all = shown.join(QStringLiteral(" | "));
    EXPECT_TRUE(all.contains(QStringLiteral("illegal memory access"))) << qPrintable(all);
    EXPECT_TRUE(all.contains(QStringLiteral("started again"))) << qPrintable(all);
    EXPECT_TRUE(all.contains(QStringLiteral("unchanged"))) << qPrintable(all);
    EXPECT_EQ(window->measurements()->find(window->document()->pattern()), nullptr);

    // The next Run goes to the new process and is answered.
    window->runOnGpu();
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
        kErrorsWaitMs))
        << qPrintable(shown.join(QStringLiteral(" | ")));
    EXPECT_EQ(window->probeClient()->processId(), restartedPid);
    EXPECT_EQ(window->probeClient()->restartCount(), 1);
    qunsetenv("WARPSCOPE_FAKE_PROBE_ONCE");
}

} // namespace
} // namespace warpscope::app::test
