// The remote probe's start and its failures, told apart by exit status and stderr.
#include "gpu/probeconnection.h"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace warpscope::app {

namespace {

QString seconds(qint64 ms) {
    return QObject::tr("%1 s").arg(static_cast<double>(ms) / 1000.0, 0, 'f', 1);
}

/// The last non-blank lines of stderr, for a message (short).
QString lastWords(const QByteArray& stderrText) {
    QStringList lines;
    for (const QByteArray& line : stderrText.split('\n')) {
        const QString text = QString::fromUtf8(line).trimmed();
        if (!text.isEmpty() && !text.startsWith(QStringLiteral("unreadable line on stdout")) &&
            !text.startsWith(QStringLiteral("a line for request"))) {
            lines.append(text);
        }
    }
    while (lines.size() > 2) {
        lines.removeFirst();
    }
    return lines.join(QStringLiteral(" / ")).left(300);
}

bool says(const QByteArray& stderrText, const char* pattern) {
    return QString::fromUtf8(stderrText)
        .contains(QRegularExpression(QString::fromLatin1(pattern),
                                     QRegularExpression::CaseInsensitiveOption));
}

const char* kBatchModeAdvice =
    "warpscope cannot type a password for the probe command. Log in with a key that needs no "
    "typing (ssh-keygen, ssh-copy-id gpu-host, an ssh-agent), accept the host key once in a "
    "terminal, and start the probe with ssh -o BatchMode=yes so that ssh fails at once instead "
    "of asking";

} // namespace

QString ProbeStartup::stepText() const {
    if (connectedMs < 0) {
        return QObject::tr("connecting…");
    }
    if (versionMs < 0) {
        return QObject::tr("connected in %1; checking the version…").arg(seconds(connectedMs));
    }
    if (readyMs < 0) {
        return QObject::tr("connected in %1, version checked; asking for the GPU…")
            .arg(seconds(connectedMs));
    }
    return QObject::tr("ready: %1").arg(timesText());
}

QString ProbeStartup::timesText() const {
    if (readyMs < 0 || connectedMs < 0 || versionMs < 0) {
        return {};
    }
    return QObject::tr("connect %1, version check %2, GPU %3")
        .arg(seconds(connectedMs), seconds(versionMs - connectedMs), seconds(readyMs - versionMs));
}

int effectiveTimeoutMs(int timeoutMs, qint64 roundTripMs) {
    const qint64 extra = std::clamp<qint64>(roundTripMs, 0, 600000);
    return static_cast<int>(std::min<qint64>(timeoutMs + 2 * extra, 24LL * 3600 * 1000));
}

std::optional<ProbeDiagnosis> diagnoseAuthPrompt(const QByteArray& stderrText,
                                                 const QString& command) {
    if (says(stderrText, R"(password[^\n]*:|passphrase[^\n]*:|verification code|enter pin|)"
                         R"(continue connecting \(yes/no)")) {
        return ProbeDiagnosis{
            QStringLiteral("probe_login"),
            QObject::tr("The probe command \"%1\" asks for a login (it said: %2). %3.")
                .arg(command, lastWords(stderrText), QObject::tr(kBatchModeAdvice)),
            true};
    }
    return std::nullopt;
}

std::optional<ProbeDiagnosis> diagnoseExit(int exitCode, bool crashed, const QByteArray& stderrText,
                                           bool answered, const QString& command) {
    const QString said = lastWords(stderrText);
    const QString saidPart = said.isEmpty() ? QString() : QObject::tr(" (it said: %1)").arg(said);
    if (crashed) {
        return std::nullopt;
    }
    if (!answered) {
        if (auto prompt = diagnoseAuthPrompt(stderrText, command)) {
            return prompt;
        }
        if (says(stderrText, R"(permission denied \(|host key verification failed|)"
                             R"(authentication failed|too many authentication failures)")) {
            return ProbeDiagnosis{QStringLiteral("probe_login"),
                                  QObject::tr("The probe command \"%1\" could not log in%2. %3.")
                                      .arg(command, saidPart, QObject::tr(kBatchModeAdvice)),
                                  true};
        }
        if (exitCode == 127 || says(stderrText, R"(not found|no such file or directory)")) {
            return ProbeDiagnosis{
                QStringLiteral("probe_missing"),
                QObject::tr("The probe command \"%1\" ran, but warpscope-probe was not found "
                            "where it looked%2. Install warpscope-probe on the GPU machine (it is "
                            "built where the CUDA toolkit is), or write its full path in the "
                            "command (ssh gpu-host /opt/warpscope/bin/warpscope-probe); a remote "
                            "shell that is not a login shell may not have it on its PATH.")
                    .arg(command, saidPart),
                true};
        }
        if (exitCode == 255 &&
            says(stderrText, R"(could not resolve|connection refused|connection timed out|)"
                             R"(no route to host|network is unreachable)")) {
            return ProbeDiagnosis{
                QStringLiteral("probe_unreachable"),
                QObject::tr("The probe command \"%1\" could not reach the GPU machine%2. Check "
                            "the host name and the network (ssh gpu-host true in a terminal).")
                    .arg(command, saidPart),
                true};
        }
        return std::nullopt;
    }
    if (exitCode == 255 ||
        says(stderrText, R"(connection (to \S+ )?closed|broken pipe|connection reset|)"
                         R"(timed out|client_loop|write failed)")) {
        return ProbeDiagnosis{QStringLiteral("probe_link_dropped"),
                              QObject::tr("The link to the GPU machine dropped%1").arg(saidPart),
                              false};
    }
    return std::nullopt;
}

ProbeDiagnosis silentStartDiagnosis(int timeoutMs, const QString& command) {
    return ProbeDiagnosis{
        QStringLiteral("probe_silent"),
        QObject::tr("warpscope-probe did not answer its first request within %2 (the probe "
                    "command \"%1\" printed nothing). If it logs in to another machine it may "
                    "be waiting for a password at a terminal it does not have: %3. Otherwise the "
                    "machine may be unreachable or slow; GPU ▸ Restart Probe tries again.")
            .arg(command, seconds(timeoutMs), QObject::tr(kBatchModeAdvice)),
        true};
}

ProbeDiagnosis protocolMismatch(int probeProtocol, int ourProtocol, const QString& probeVersion,
                                const QString& ourVersion, const QString& command) {
    const QString probeBuild = probeVersion.isEmpty() ? QObject::tr("unknown") : probeVersion;
    const QString ourBuild = ourVersion.isEmpty() ? QObject::tr("this build") : ourVersion;
    const QString update =
        probeProtocol < ourProtocol
            ? QObject::tr("update warpscope-probe on the GPU machine to warpscope %1").arg(ourBuild)
            : QObject::tr("update warpscope here to the release of the probe (%1), or install "
                          "the probe of warpscope %2 on the GPU machine")
                  .arg(probeBuild, ourBuild);
    return ProbeDiagnosis{
        QStringLiteral("protocol_mismatch"),
        QObject::tr("The probe (\"%1\", warpscope-probe %2) speaks protocol version %3 and "
                    "warpscope %4 speaks protocol version %5: %6.")
            .arg(command, probeBuild)
            .arg(probeProtocol)
            .arg(ourBuild)
            .arg(ourProtocol)
            .arg(update),
        true};
}

QString buildMismatchNote(const QString& probeVersion, const QString& ourVersion) {
    if (probeVersion.isEmpty() || ourVersion.isEmpty() || probeVersion == ourVersion ||
        probeVersion == QLatin1String("unknown")) {
        return {};
    }
    return QObject::tr("warpscope-probe %1 with warpscope %2: the protocol matches; install the "
                       "probe of warpscope %2 for the same measurements")
        .arg(probeVersion, ourVersion);
}

} // namespace warpscope::app
