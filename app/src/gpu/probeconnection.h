// What the probe client makes of a probe that runs elsewhere (`ssh gpu-host warpscope-probe`):
// the steps of its start (connecting, the version check, the GPU query) and the time each took;
// the timeout stretched by the link's measured round trip; and what a start that went wrong
// means, read from the exit status and what the command wrote on stderr: a probe binary missing
// on the other machine, a login that wants a password, a link that dropped, another protocol
// version. Pure functions and a plain struct, so each case is tested without a probe.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace warpscope::app {

/// The probe's start, step by step (ms since the process was asked to start; -1: not yet).
struct ProbeStartup {
    qint64 connectedMs = -1; // the first answer (hello) arrived: the command runs and speaks
    qint64 versionMs = -1;   // hello's protocol version was checked and matches
    qint64 readyMs = -1;     // device_info answered
    QString probeVersion;    // the probe's build ("0.4.0"), from hello

    /// The round trip measured on this link: the time hello took to be answered, which includes
    /// starting the command (and an ssh login); an upper bound of one request's overhead.
    qint64 roundTripMs() const { return connectedMs; }
    /// "connecting…", "connected in 1.2 s; checking the version…", ...
    QString stepText() const;
    /// "connect 1.2 s, version check 0.0 s, GPU 0.3 s" once ready; empty before.
    QString timesText() const;
};

/// How long a job may stay silent on this link: the configured timeout plus two round trips
/// (the request's way there and the answer's way back, each as slow as the measured hello).
int effectiveTimeoutMs(int timeoutMs, qint64 roundTripMs);

/// A diagnosis: the client's failure code and a message saying what to do. `final` means a
/// restart cannot help (the user must change something): the client stays stopped.
struct ProbeDiagnosis {
    QString code;
    QString message;
    bool final = false;
};

/// stderr asks for a password, a passphrase or a host key confirmation: the command waits for
/// someone to type at a terminal. `command` is the probe command as the user wrote it.
std::optional<ProbeDiagnosis> diagnoseAuthPrompt(const QByteArray& stderrText,
                                                 const QString& command);

/// The probe command exited. `answered`: hello was answered (the probe ran and spoke).
/// Recognises a probe missing on the other side (status 127, "not found", "No such file"), a
/// login refused (ssh's "Permission denied", "Host key verification failed"), and a link that
/// dropped (ssh's status 255, "Connection closed", "Broken pipe", "Connection reset"); nullopt
/// for anything else (a plain crash or exit, described by the caller).
std::optional<ProbeDiagnosis> diagnoseExit(int exitCode, bool crashed, const QByteArray& stderrText,
                                           bool answered, const QString& command);

/// A probe that never answered its first request within the timeout.
ProbeDiagnosis silentStartDiagnosis(int timeoutMs, const QString& command);

/// hello answered another protocol version: both versions, both builds, what to update.
ProbeDiagnosis protocolMismatch(int probeProtocol, int ourProtocol, const QString& probeVersion,
                                const QString& ourVersion, const QString& command);

/// The probe's build differs from warpscope's while the protocol matches: a note, not an error;
/// empty when they match or either is unknown.
QString buildMismatchNote(const QString& probeVersion, const QString& ourVersion);

} // namespace warpscope::app
