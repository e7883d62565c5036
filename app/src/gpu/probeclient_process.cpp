// ProbeClient's process: starting warpscope-probe, stopping and restarting it, and what a crash,
// a kill or a failed start means for the jobs it held. The request queue and the answers are in
// probeclient.cpp.
#include "gpu/probeclient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>

#include <unistd.h>

namespace warpscope::app {

namespace {
constexpr int kRestartLimit = 3;           // unplanned stops ...
constexpr qint64 kRestartWindowMs = 60000; // ... within this long leave the probe stopped
} // namespace

void ProbeClient::start() {
    ensureStarted();
}

void ProbeClient::startAtOnce() {
    if (m_state != State::Stopped) {
        return;
    }
    startProcess();
    // QProcess reports the start, and writes what it holds, from the event loop, which a window
    // being built does not run for a few hundred milliseconds: waiting here for the exec (a
    // millisecond or two) lets hello and device_info go now. A program that cannot start is
    // reported as it is otherwise (onProcessError), from in here.
    if (m_process == nullptr || !m_process->waitForStarted(1000)) {
        return;
    }
    sendWaiting(); // done already if started() was emitted in there; what is sent stays sent
    flushAtOnce();
}

void ProbeClient::flushAtOnce() {
    // A pipe takes these few lines without blocking; a probe that reads nothing still cannot
    // hold the window for more than the bound here.
    for (int i = 0; i < 8 && m_process != nullptr && m_process->bytesToWrite() > 0; ++i) {
        if (!m_process->waitForBytesWritten(100)) {
            break;
        }
    }
}

void ProbeClient::ensureStarted() {
    if (m_state == State::Stopped) {
        startProcess();
    }
}

void ProbeClient::startProcess() {
    if (m_process != nullptr) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->deleteLater();
        m_process = nullptr;
    }
    m_lines.clear();
    m_strayLines = 0;
    m_stderr.clear();
    m_stopping = false;
    m_expectExit = false;
    m_stateFailure.reset();
    m_startup = ProbeStartup{};
    m_startClock.start();
    setState(State::Starting);
    emit startupChanged();
    if (!m_commandError.isEmpty()) {
        const ProbeFailure failure{QStringLiteral("probe_command"), m_commandError, false};
        m_stateFailure = failure;
        setState(State::Failed);
        QTimer::singleShot(0, this, [this, failure] { failAll(failure, true); });
        return;
    }
    if (m_program.isEmpty()) {
        ProbeFailure failure{QStringLiteral("probe_missing"),
                             tr("warpscope-probe was not found next to warpscope or on the PATH. "
                                "It is built where the CUDA toolkit is installed; on another "
                                "machine, set the probe command in GPU ▸ Probe Settings (for "
                                "example: ssh gpu-host warpscope-probe)."),
                             false};
        m_stateFailure = failure;
        setState(State::Failed);
        // Reported after the caller got its job id.
        QTimer::singleShot(0, this, [this, failure] { failAll(failure, true); });
        return;
    }
    // The probe's own first two requests go before anything waiting.
    Job info;
    info.id = m_nextId++;
    info.op = Op::DeviceInfo;
    info.line = QJsonDocument(QJsonObject{{QStringLiteral("id"), info.id},
                                          {QStringLiteral("op"), QStringLiteral("device_info")}})
                    .toJson(QJsonDocument::Compact) +
                '\n';
    Job hello;
    hello.id = m_nextId++;
    hello.op = Op::Hello;
    hello.line = QJsonDocument(QJsonObject{{QStringLiteral("id"), hello.id},
                                           {QStringLiteral("op"), QStringLiteral("hello")}})
                     .toJson(QJsonDocument::Compact) +
                 '\n';
    m_jobs.push_front(info);
    m_jobs.push_front(hello);

    m_process = new QProcess(this);
    m_process->setProgram(m_program);
    m_process->setArguments(m_arguments);
    // A session of its own, without a controlling terminal: a login that would ask for a
    // password at the terminal warpscope was started from fails (and says so on stderr)
    // instead of waiting there unseen.
    m_process->setChildProcessModifier([] { ::setsid(); });
    connect(m_process, &QProcess::started, this, &ProbeClient::sendWaiting);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &ProbeClient::onReadyRead);
    connect(m_process, &QProcess::readyReadStandardError, this, &ProbeClient::onStderr);
    connect(m_process, &QProcess::finished, this, &ProbeClient::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &ProbeClient::onProcessError);
    m_process->start(QIODevice::ReadWrite);
}

void ProbeClient::stop() {
    ProbeFailure cancelled{QStringLiteral("cancelled"), tr("warpscope-probe was stopped"), false};
    std::deque<Job> jobs;
    jobs.swap(m_jobs);
    for (const Job& job : jobs) {
        failJob(job, cancelled);
    }
    m_watchdog->stop();
    if (m_process != nullptr) {
        m_stopping = true;
        QProcess* process = m_process;
        m_process = nullptr;
        process->disconnect(this);
        if (process->state() != QProcess::NotRunning) {
            process->closeWriteChannel();
            // Ends on its own at end of input; killed if it does not within two seconds.
            connect(process, &QProcess::finished, process, &QObject::deleteLater);
            QTimer::singleShot(2000, process, [process] { process->kill(); });
        } else {
            process->deleteLater();
        }
    }
    m_stopTimes.clear();
    setState(State::Stopped);
}

void ProbeClient::restart() {
    // Jobs waiting survive a restart; the running one is the probe's to finish or lose.
    std::deque<Job> waiting;
    for (Job& job : m_jobs) {
        if (!job.sent && job.op != Op::Hello && job.op != Op::DeviceInfo) {
            waiting.push_back(job);
        }
    }
    m_jobs.clear();
    stop();
    m_jobs = waiting;
    startProcess();
}

void ProbeClient::onProcessError(QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart || m_process == nullptr) {
        return; // crashes arrive as finished()
    }
    const ProbeFailure failure{
        QStringLiteral("probe_missing"),
        tr("warpscope-probe could not be started (%1: %2). Check the probe command in GPU ▸ "
           "Probe Settings.")
            .arg(m_program, m_process->errorString()),
        false};
    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
    m_watchdog->stop();
    m_stateFailure = failure;
    setState(State::Failed);
    failAll(failure, true);
}

void ProbeClient::onFinished(int exitCode, QProcess::ExitStatus status) {
    if (m_process == nullptr) {
        return;
    }
    // Answers written just before the exit.
    onReadyRead();
    if (m_process == nullptr) {
        return;
    }
    onStderr();
    if (m_process == nullptr) {
        return; // what it said was a login prompt: stopped on that
    }
    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
    if (m_stopping) {
        setState(State::Stopped);
        return;
    }
    if (m_expectExit) {
        // A fatal error was answered (a kernel fault leaves the GPU context unusable): a fresh
        // probe takes the jobs still waiting.
        m_expectExit = false;
        ++m_restarts;
        for (Job& job : m_jobs) {
            job.sent = false;
        }
        startProcess();
        emit restarted(tr("warpscope-probe restarted after a fatal GPU error"));
        return;
    }
    if (const auto diagnosis = diagnoseExit(exitCode, status == QProcess::CrashExit, m_stderr,
                                            m_startup.connectedMs >= 0, commandText())) {
        if (diagnosis->final) {
            m_stateFailure = ProbeFailure{diagnosis->code, diagnosis->message, false};
            m_watchdog->stop();
            setState(State::Failed);
            failAll(*m_stateFailure, true);
            return;
        }
        probeStopped(diagnosis->message);
        return;
    }
    QString why = status == QProcess::CrashExit
                      ? tr("warpscope-probe crashed")
                      : tr("warpscope-probe exited with status %1").arg(exitCode);
    if (m_strayLines == 1) {
        why += tr(" after writing a line that was no answer to its requests");
    } else if (m_strayLines > 1) {
        why += tr(" after writing %1 lines that were no answer to its requests").arg(m_strayLines);
    }
    if (const QString said = stderrTail(); !said.isEmpty()) {
        why += tr(" (it said: %1)").arg(said.left(300));
    }
    probeStopped(why);
}

void ProbeClient::probeStopped(const QString& why) {
    m_watchdog->stop();
    // The probe answers in order: the first job sent and not answered was the one running.
    std::optional<Job> running;
    for (auto it = m_jobs.begin(); it != m_jobs.end(); ++it) {
        if (it->sent && it->op != Op::Hello && it->op != Op::DeviceInfo && it->op != Op::Cancel) {
            running = *it;
            m_jobs.erase(it);
            break;
        }
    }
    // Its own requests are sent again by the next start; cancels are moot.
    std::deque<Job> keep;
    for (Job& job : m_jobs) {
        if (job.op == Op::Hello || job.op == Op::DeviceInfo || job.op == Op::Cancel || job.silent) {
            continue;
        }
        job.sent = false;
        keep.push_back(job);
    }
    m_jobs = keep;

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_stopTimes.push_back(now);
    std::erase_if(m_stopTimes, [now](qint64 t) { return now - t > kRestartWindowMs; });
    const bool giveUp = static_cast<int>(m_stopTimes.size()) >= kRestartLimit;

    if (giveUp) {
        const ProbeFailure failure{
            QStringLiteral("probe_stopped"),
            tr("%1. It stopped %2 times within a minute and is left stopped; GPU ▸ Restart Probe "
               "starts it again.")
                .arg(why)
                .arg(m_stopTimes.size()),
            false};
        m_stateFailure = failure;
        setState(State::Failed);
        if (running) {
            failJob(*running, failure);
        }
        failAll(failure, true);
        return;
    }
    ++m_restarts;
    startProcess();
    const ProbeFailure failure{QStringLiteral("probe_stopped"),
                               tr("%1 and was started again.").arg(why), false};
    if (running) {
        failJob(*running, failure);
    }
    emit restarted(why);
}

void ProbeClient::stopOnDiagnosis(const ProbeDiagnosis& diagnosis) {
    const ProbeFailure failure{diagnosis.code, diagnosis.message, false};
    failAll(failure, true);
    stop(); // the process is told to end, and killed if it does not
    m_stateFailure = failure;
    setState(State::Failed);
}

} // namespace warpscope::app
