// A probe on another machine, played without a network: tests/probe/fake_remote.sh is called as
// ssh is (HOST COMMAND...) and runs the fake probe here, with as much latency, as many lost lines
// and as old a protocol as asked. The probe command is split as a shell splits it; each way a
// remote start goes wrong (a missing binary, a login prompt, a refused login, a dropped link,
// another protocol version, a lost answer) gets a message of its own and the session stays as it
// was.
#include "probefixture.h"
#include "windowfixture.h"

#include "gpu/gpurunner.h"
#include "gpu/probeclient.h"
#include "gpu/probecommand.h"
#include "gpu/probeconnection.h"
#include "gpu/probemeasurement.h"
#include "panels/messagebar.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>

namespace warpscope::app::test {
namespace {

constexpr int kRemoteWaitMs = 20000;

QStringList list(std::initializer_list<const char*> words) {
    QStringList out;
    for (const char* word : words) {
        out.append(QString::fromUtf8(word));
    }
    return out;
}

QStringList split(const QString& line) {
    auto words = splitShellWords(line);
    EXPECT_TRUE(std::holds_alternative<QStringList>(words))
        << qPrintable(std::get<ShellSplitError>(words).message);
    return std::holds_alternative<QStringList>(words) ? std::get<QStringList>(words)
                                                      : QStringList();
}

TEST(ProbeCommandSplit, QuotesAndBackslashesAsAPosixShell) {
    EXPECT_EQ(split(QStringLiteral("ssh gpu-host warpscope-probe")),
              (list({"ssh", "gpu-host", "warpscope-probe"})));
    EXPECT_EQ(split(QStringLiteral("sh -c 'exec /opt/w s/warpscope-probe'")),
              (list({"sh", "-c", "exec /opt/w s/warpscope-probe"})));
    // Single quotes keep backslashes and double quotes; double quotes keep single quotes.
    EXPECT_EQ(split(QStringLiteral(R"(a 'b\ "c"' "d 'e' \"f\" \$g \x")")),
              (list({"a", R"(b\ "c")", R"(d 'e' "f" $g \x)"})));
    // Backslashes outside quotes; quoted pieces join one word; '' is an empty word.
    EXPECT_EQ(split(QStringLiteral(R"(my\ probe x'y'"z" '' \'q)")),
              (list({"my probe", "xyz", "", "'q"})));
    // A backslash before a newline joins the lines; blanks and tabs separate.
    EXPECT_EQ(split(QStringLiteral("ssh \\\n\tgpu   probe")), (list({"ssh", "gpu", "probe"})));
    // Nothing is expanded.
    EXPECT_EQ(split(QStringLiteral("ssh $HOST ~/probe *")),
              (list({"ssh", "$HOST", "~/probe", "*"})));
}

TEST(ProbeCommandSplit, UnterminatedQuotesAndATrailingBackslashNameTheirColumn) {
    const auto single = splitShellWords(QStringLiteral("sh -c 'exec probe"));
    ASSERT_TRUE(std::holds_alternative<ShellSplitError>(single));
    EXPECT_EQ(std::get<ShellSplitError>(single).column, 7);
    EXPECT_TRUE(std::get<ShellSplitError>(single).message.contains(QStringLiteral("single quote")));
    const auto dbl = splitShellWords(QStringLiteral(R"(ssh "gpu)"));
    ASSERT_TRUE(std::holds_alternative<ShellSplitError>(dbl));
    EXPECT_EQ(std::get<ShellSplitError>(dbl).column, 5);
    const auto backslash = splitShellWords(QStringLiteral("ssh gpu\\"));
    ASSERT_TRUE(std::holds_alternative<ShellSplitError>(backslash));
    EXPECT_EQ(std::get<ShellSplitError>(backslash).column, 8);

    const ProbeCommand command =
        ProbeCommand::fromLine(QStringLiteral("sh -c 'exec probe"), QStringLiteral("default"));
    EXPECT_TRUE(command.program.isEmpty());
    EXPECT_TRUE(command.error.contains(QStringLiteral("column 7"))) << qPrintable(command.error);
    EXPECT_TRUE(command.error.contains(QStringLiteral("one argument per line")));
}

TEST(ProbeCommandSplit, JoinedWordsSplitBackTheSame) {
    const QStringList words = list({"sh", "-c", "exec '/a b'/probe \"x\" $y \\z", "", "it's"});
    EXPECT_EQ(split(shellJoin(words)), words);
    const ProbeCommand argv = ProbeCommand::fromArguments(
        list({"ssh", "", "-o", "BatchMode=yes", "gpu host", "warpscope-probe"}), QString());
    EXPECT_EQ(argv.program, QStringLiteral("ssh"));
    EXPECT_EQ(argv.arguments, (list({"-o", "BatchMode=yes", "gpu host", "warpscope-probe"})));
    EXPECT_EQ(ProbeCommand::fromLine(argv.display(), QString()), argv);
    EXPECT_EQ(ProbeCommand::fromLine(QStringLiteral("  "), QStringLiteral("/bin/probe")).program,
              QStringLiteral("/bin/probe"));
}

TEST(ProbeConnection, TheTimeoutGrowsByTwoRoundTrips) {
    EXPECT_EQ(effectiveTimeoutMs(60000, 5), 60010);
    EXPECT_EQ(effectiveTimeoutMs(1000, 800), 2600);
    EXPECT_EQ(effectiveTimeoutMs(1000, -1), 1000); // not measured yet
}

TEST(ProbeConnection, ExitsAreToldApart) {
    const QString command = QStringLiteral("ssh gpu warpscope-probe");
    auto missing =
        diagnoseExit(127, false, "bash: warpscope-probe: command not found\n", false, command);
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->code, QStringLiteral("probe_missing"));
    EXPECT_TRUE(missing->final);
    auto refused =
        diagnoseExit(255, false, "u@gpu: Permission denied (publickey).\n", false, command);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code, QStringLiteral("probe_login"));
    EXPECT_TRUE(refused->message.contains(QStringLiteral("BatchMode=yes")));
    auto dropped =
        diagnoseExit(255, false, "client_loop: send disconnect: Broken pipe\n", true, command);
    ASSERT_TRUE(dropped);
    EXPECT_EQ(dropped->code, QStringLiteral("probe_link_dropped"));
    EXPECT_FALSE(dropped->final);                            // started again
    EXPECT_FALSE(diagnoseExit(1, false, "", true, command)); // a plain exit, said elsewhere
    auto unreachable =
        diagnoseExit(255, false, "ssh: Could not resolve hostname gpu: Name or service not known\n",
                     false, command);
    ASSERT_TRUE(unreachable);
    EXPECT_EQ(unreachable->code, QStringLiteral("probe_unreachable"));
    EXPECT_TRUE(
        diagnoseAuthPrompt("Enter passphrase for key '/home/u/.ssh/id_ed25519': ", command));
    EXPECT_FALSE(diagnoseAuthPrompt("Warning: Permanently added 'gpu' to known hosts.\n", command));
    const ProbeDiagnosis mismatch =
        protocolMismatch(2, 1, QStringLiteral("0.9.0"), QStringLiteral("0.4.0"), command);
    EXPECT_TRUE(mismatch.message.contains(QStringLiteral("protocol version 2")));
    EXPECT_TRUE(mismatch.message.contains(QStringLiteral("protocol version 1")));
    EXPECT_TRUE(mismatch.message.contains(QStringLiteral("0.9.0")));
    EXPECT_TRUE(mismatch.message.contains(QStringLiteral("update warpscope here")));
    EXPECT_TRUE(protocolMismatch(0, 1, {}, {}, command)
                    .message.contains(QStringLiteral("update warpscope-probe on the GPU machine")));
    EXPECT_TRUE(buildMismatchNote(QStringLiteral("0.3.0"), QStringLiteral("0.4.0"))
                    .contains(QStringLiteral("0.3.0")));
    EXPECT_TRUE(buildMismatchNote(QStringLiteral("0.4.0"), QStringLiteral("0.4.0")).isEmpty());
}

/// The fake remote wrapper copied into a folder whose name has a space and a quote, so that a
/// command naming it must be quoted.
class Remote {
public:
    Remote() {
        EXPECT_TRUE(m_dir.isValid());
        m_folder = m_dir.filePath(QStringLiteral("lab server's tools"));
        EXPECT_TRUE(QDir().mkpath(m_folder));
        m_script = m_folder + QStringLiteral("/fake ssh.sh");
        QFile::remove(m_script);
        EXPECT_TRUE(QFile::copy(QStringLiteral(WARPSCOPE_FAKE_REMOTE_PATH), m_script));
    }
    /// `sh '<script>' OPTIONS fakehost '<fake probe>'`, quoted as a user would type it.
    QString command(const QString& options = {}) const {
        return QStringLiteral("sh %1 %2 fakehost %3")
            .arg(shellQuote(m_script), options, shellQuote(fakeProbe()));
    }

private:
    QTemporaryDir m_dir;
    QString m_folder;
    QString m_script;
};

/// A client with `line` as its probe command, waiting for its start to settle.
struct Client {
    explicit Client(const QString& line, int timeoutMs = 15000) {
        client.setCommand(ProbeCommand::fromLine(line, ProbeClient::defaultProgram()));
        client.setTimeoutMs(timeoutMs);
        QObject::connect(&client, &ProbeClient::startupChanged,
                         [this] { steps.append(client.stateText()); });
        QObject::connect(&client, &ProbeClient::jobFailed,
                         [this](int, const ProbeFailure& f) { failures.push_back(f); });
        QObject::connect(&client, &ProbeClient::measured,
                         [this](int, const ProbeMeasurement&) { ++measured; });
    }
    bool settle() {
        client.start();
        return QTest::qWaitFor([&] { return client.state() != ProbeClient::State::Starting; },
                               kRemoteWaitMs);
    }
    ProbeClient client;
    QStringList steps;
    std::vector<ProbeFailure> failures;
    int measured = 0;
};

NamedPattern stride2() {
    const Preset& preset = requirePreset("stride-2");
    return NamedPattern(preset.title, preset.caption, preset.pattern);
}

TEST(RemoteProbe, ShCDashCWithSingleQuotesStartsTheProbe) {
    REQUIRE_FAKE_PROBE();
    Client c(QStringLiteral("sh -c 'exec %1'").arg(fakeProbe()));
    ASSERT_TRUE(c.settle());
    ASSERT_EQ(c.client.state(), ProbeClient::State::Ready)
        << qPrintable(c.client.stateFailure() ? c.client.stateFailure()->message : QString());
    c.client.measure(stride2(), ProbeMeasureOptions{});
    ASSERT_TRUE(QTest::qWaitFor([&] { return c.measured == 1; }, kRemoteWaitMs));
}

TEST(RemoteProbe, AnUnterminatedQuoteFailsTheStartWithItsColumn) {
    Client c(QStringLiteral("sh -c 'exec warpscope-probe"));
    ASSERT_TRUE(c.settle());
    EXPECT_EQ(c.client.state(), ProbeClient::State::Failed);
    ASSERT_TRUE(c.client.stateFailure());
    EXPECT_EQ(c.client.stateFailure()->code, QStringLiteral("probe_command"));
    EXPECT_TRUE(c.client.stateFailure()->message.contains(QStringLiteral("column 7")));
}

TEST(RemoteProbe, AQuotedSshLikeWrapperWithLatencyShowsEachStepAndItsTime) {
    REQUIRE_FAKE_PROBE();
    Remote remote;
    // Each answer comes back 0.6 s late, longer than the 0.4 s timeout: only the measured round
    // trip keeps the measurement from counting as a hung probe.
    Client c(remote.command(QStringLiteral("-o BatchMode=yes --latency 0.6")), 400);
    ASSERT_TRUE(c.settle());
    ASSERT_EQ(c.client.state(), ProbeClient::State::Ready)
        << qPrintable(c.client.stateFailure() ? c.client.stateFailure()->message : QString());
    // connecting -> connected (version check) -> version checked -> ready, each with its time.
    ASSERT_GE(c.steps.size(), 4) << qPrintable(c.steps.join(QStringLiteral(" | ")));
    EXPECT_TRUE(c.steps[0].contains(QStringLiteral("connecting"))) << qPrintable(c.steps[0]);
    EXPECT_TRUE(c.steps[1].contains(QStringLiteral("checking the version")))
        << qPrintable(c.steps[1]);
    EXPECT_TRUE(c.steps[2].contains(QStringLiteral("asking for the GPU")))
        << qPrintable(c.steps[2]);
    const QString ready = c.client.stateText();
    EXPECT_TRUE(ready.contains(QStringLiteral("connect ")) &&
                ready.contains(QStringLiteral("version check")) &&
                ready.contains(QStringLiteral(", GPU ")))
        << qPrintable(ready);
    EXPECT_GE(c.client.startup().roundTripMs(), 500);
    c.client.measure(stride2(), ProbeMeasureOptions{});
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return c.measured == 1 || !c.failures.empty(); }, kRemoteWaitMs));
    EXPECT_EQ(c.measured, 1) << qPrintable(c.failures.empty() ? QString()
                                                              : c.failures.front().message);
}

TEST(RemoteProbe, AnotherProtocolVersionNamesBothAndWhatToUpdate) {
    REQUIRE_FAKE_PROBE();
    Remote remote;
    Client c(remote.command(QStringLiteral("--protocol 2 --probe-version 9.9.9")));
    const int job = c.client.measure(stride2(), ProbeMeasureOptions{});
    (void)job;
    ASSERT_TRUE(QTest::qWaitFor([&] { return c.client.state() == ProbeClient::State::Failed; },
                                kRemoteWaitMs));
    const QString message = c.client.stateFailure()->message;
    EXPECT_EQ(c.client.stateFailure()->code, QStringLiteral("protocol_mismatch"));
    EXPECT_TRUE(message.contains(QStringLiteral("protocol version 2"))) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("protocol version 1"))) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("9.9.9"))) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("update"))) << qPrintable(message);
    ASSERT_EQ(c.failures.size(), 1u); // the waiting job failed with the same message
    EXPECT_EQ(c.failures[0].message, message);
}

TEST(RemoteProbe, AMissingRemoteBinarySaysToInstallItOrGiveItsPath) {
    REQUIRE_FAKE_PROBE();
    Remote remote;
    Client c(remote.command(QStringLiteral("--missing")));
    ASSERT_TRUE(c.settle());
    EXPECT_EQ(c.client.state(), ProbeClient::State::Failed);
    EXPECT_EQ(c.client.stateFailure()->code, QStringLiteral("probe_missing"));
    EXPECT_TRUE(c.client.stateFailure()->message.contains(QStringLiteral("full path")))
        << qPrintable(c.client.stateFailure()->message);
    EXPECT_EQ(c.client.restartCount(), 0); // a restart cannot help: not tried
    // The same through a shell that cannot find the program.
    Client sh(QStringLiteral("sh -c 'exec /nonexistent/warpscope-probe'"));
    ASSERT_TRUE(sh.settle());
    EXPECT_EQ(sh.client.stateFailure()->code, QStringLiteral("probe_missing"));
}

TEST(RemoteProbe, APasswordPromptStopsAtOnceAndAdvisesBatchMode) {
    REQUIRE_FAKE_PROBE();
    Remote remote;
    Client c(remote.command(QStringLiteral("--ask-password")), 60000);
    QElapsedTimer clock;
    clock.start();
    ASSERT_TRUE(c.settle());
    EXPECT_LT(clock.elapsed(), 10000); // never waits for the timeout, let alone forever
    EXPECT_EQ(c.client.state(), ProbeClient::State::Failed);
    EXPECT_EQ(c.client.stateFailure()->code, QStringLiteral("probe_login"));
    EXPECT_TRUE(c.client.stateFailure()->message.contains(QStringLiteral("BatchMode=yes")))
        << qPrintable(c.client.stateFailure()->message);

    Client refused(remote.command(QStringLiteral("--refuse-login")));
    ASSERT_TRUE(refused.settle());
    EXPECT_EQ(refused.client.stateFailure()->code, QStringLiteral("probe_login"));
    EXPECT_TRUE(
        refused.client.stateFailure()->message.contains(QStringLiteral("Permission denied")));
}

TEST(RemoteProbe, AProbeThatPrintsNothingIsAnsweredWithTheLoginAdvice) {
    // Reads a terminal it does not have (or any silent command): no answer to hello.
    Client c(QStringLiteral("sh -c 'read -r password </dev/tty; sleep 600'"));
    c.client.setConnectTimeoutMs(500);
    ASSERT_TRUE(c.settle());
    EXPECT_EQ(c.client.state(), ProbeClient::State::Failed);
    EXPECT_EQ(c.client.stateFailure()->code, QStringLiteral("probe_silent"));
    EXPECT_TRUE(c.client.stateFailure()->message.contains(QStringLiteral("BatchMode=yes")));
}

/// Runs the current pattern once and checks that the message names `expected`, that no
/// measurement arrived and that the session and its undo history are as they were.
void runAndExpectSessionIntact(MainWindow& window, const QString& expected) {
    ASSERT_TRUE(window.loadPresetById(QStringLiteral("readsegment-offset-11")));
    ASSERT_TRUE(window.loadPresetById(QStringLiteral("stride-2")));
    QApplication::processEvents();
    const Session before = window.currentSession();
    const int undoSteps = window.document()->undoStack()->count();
    window.runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.messageBar()->text().contains(expected); },
                                kRemoteWaitMs))
        << qPrintable(window.messageBar()->text());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window.gpuRunner()->isMeasuring(); }, kRemoteWaitMs));
    EXPECT_EQ(window.measurements()->size(), 0);
    EXPECT_EQ(window.currentSession(), before);
    EXPECT_EQ(window.document()->undoStack()->count(), undoSteps);
}

TEST(RemoteProbe, ADroppedLinkSaysSoAndLeavesTheSessionAlone) {
    REQUIRE_FAKE_PROBE();
    Remote remote;
    // hello and device_info come back; the link drops instead of the measurement.
    auto window = windowWithProbe(remote.command(QStringLiteral("--drop-link 3")), 15000);
    runAndExpectSessionIntact(*window, QStringLiteral("link to the GPU machine dropped"));
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("closed by remote host")))
        << qPrintable(window->messageBar()->text());
}

TEST(RemoteProbe, ALostAnswerTimesOutAndLeavesTheSessionAlone) {
    REQUIRE_FAKE_PROBE();
    Remote remote;
    // The measurement's answer (the third line back) is lost on the way.
    auto window = windowWithProbe(remote.command(QStringLiteral("--drop-line 3")), 700);
    runAndExpectSessionIntact(*window, QStringLiteral("did not answer"));
}

} // namespace
} // namespace warpscope::app::test
