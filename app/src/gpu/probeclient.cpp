// ProbeClient: the probe process, its request queue and its answers.
#include "gpu/probeclient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStandardPaths>
#include <QTimer>

namespace warpscope::app {

namespace {

constexpr int kRestartLimit = 3;           // unplanned stops ...
constexpr qint64 kRestartWindowMs = 60000; // ... within this long leave the probe stopped
constexpr qsizetype kMaxAnswerBytes = 256 * 1024 * 1024;
constexpr qsizetype kStderrKeep = 4096;

const char* opName(int op) {
    static const char* names[] = {"hello",         "device_info", "measure",  "sweep",
                                  "kernel_source", "cancel",      "shutdown", "measure_kernel"};
    return names[op];
}

QJsonObject optionsJson(const ProbeMeasureOptions& options) {
    QJsonObject o;
    o.insert(QStringLiteral("counters"), options.counters);
    o.insert(QStringLiteral("latency"), options.latency);
    o.insert(QStringLiteral("grid"), options.grid);
    o.insert(QStringLiteral("repetitions"), options.repetitions);
    return o;
}

QJsonObject patternJson(const NamedPattern& pattern) {
    // The core writes the file form; the probe reads it as it is (docs/protocol.md, measure).
    const std::string text = patternToJsonText(pattern);
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

ProbeFailure failureFromError(const QJsonObject& error) {
    ProbeFailure failure;
    failure.code = error.value(QStringLiteral("code")).toString(QStringLiteral("internal"));
    failure.message = error.value(QStringLiteral("message")).toString();
    failure.fatal = error.value(QStringLiteral("fatal")).toBool();
    if (failure.message.isEmpty()) {
        failure.message = QObject::tr("warpscope-probe answered the error %1").arg(failure.code);
    }
    return failure;
}

} // namespace

bool ProbeFailure::isNoGpu() const {
    return code == QLatin1String("no_driver") || code == QLatin1String("no_device") ||
           code == QLatin1String("driver_too_old");
}

ProbeClient::ProbeClient(QObject* parent) : QObject(parent), m_watchdog(new QTimer(this)) {
    m_program = defaultProgram();
    m_watchdog->setInterval(250);
    connect(m_watchdog, &QTimer::timeout, this, &ProbeClient::onWatchdog);
}

ProbeClient::~ProbeClient() {
    if (m_process != nullptr) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            // End of input: the probe answers what it has and exits (docs/protocol.md).
            m_process->closeWriteChannel();
            if (!m_process->waitForFinished(1000)) {
                m_process->kill();
                m_process->waitForFinished(1000);
            }
        }
    }
}

QString ProbeClient::defaultProgram() {
    const QDir here(QCoreApplication::applicationDirPath());
    // Installed side by side, then the build tree (app/ and kernels/probe/ of one build folder).
    for (const QString& candidate :
         {here.filePath(QStringLiteral("warpscope-probe")),
          here.filePath(QStringLiteral("../kernels/probe/warpscope-probe"))}) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable()) {
            return info.canonicalFilePath();
        }
    }
    return QStandardPaths::findExecutable(QStringLiteral("warpscope-probe"));
}

std::pair<QString, QStringList> ProbeClient::parseCommand(const QString& commandLine) {
    QStringList words = QProcess::splitCommand(commandLine);
    if (words.isEmpty()) {
        return {defaultProgram(), {}};
    }
    const QString program = words.takeFirst();
    return {program, words};
}

void ProbeClient::setCommand(const QString& program, const QStringList& arguments) {
    m_program = program;
    m_arguments = arguments;
}

QString ProbeClient::stateText() const {
    switch (m_state) {
    case State::Stopped:
        return tr("GPU: not started (Run, F5, starts warpscope-probe)");
    case State::Starting:
        return tr("GPU: starting warpscope-probe…");
    case State::Ready:
        return tr("GPU: %1").arg(m_gpu.describe());
    case State::NoGpu:
        return tr("No GPU: model only");
    case State::Failed:
        return tr("GPU: warpscope-probe is not running");
    }
    return {};
}

qint64 ProbeClient::processId() const {
    return m_process != nullptr ? m_process->processId() : 0;
}

void ProbeClient::setState(State state) {
    if (m_state != state) {
        m_state = state;
        emit stateChanged(state);
    }
}

void ProbeClient::start() {
    ensureStarted();
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
    m_buffer.clear();
    m_stderr.clear();
    m_stopping = false;
    m_expectExit = false;
    m_stateFailure.reset();
    setState(State::Starting);
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

int ProbeClient::addJob(Op op, QJsonObject request) {
    Job job;
    job.id = m_nextId++;
    job.op = op;
    request.insert(QStringLiteral("id"), job.id);
    request.insert(QStringLiteral("op"), QString::fromLatin1(opName(static_cast<int>(op))));
    job.line = QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
    const bool needsGpu = op == Op::Measure || op == Op::Sweep || op == Op::MeasureKernel;
    if ((m_state == State::NoGpu && needsGpu) || m_state == State::Failed) {
        // Answered at once, after the caller has the id.
        const ProbeFailure failure = m_stateFailure.value_or(
            ProbeFailure{QStringLiteral("probe_missing"), stateText(), false});
        const int id = job.id;
        QTimer::singleShot(0, this, [this, id, failure] { emit jobFailed(id, failure); });
        return id;
    }
    m_jobs.push_back(job);
    ensureStarted();
    sendWaiting();
    return job.id;
}

int ProbeClient::measure(const NamedPattern& pattern, const ProbeMeasureOptions& options) {
    return addJob(Op::Measure, QJsonObject{{QStringLiteral("pattern"), patternJson(pattern)},
                                           {QStringLiteral("options"), optionsJson(options)}});
}

int ProbeClient::sweep(const std::vector<NamedPattern>& patterns,
                       const ProbeMeasureOptions& options) {
    QJsonArray list;
    for (const NamedPattern& pattern : patterns) {
        list.append(patternJson(pattern));
    }
    return addJob(Op::Sweep, QJsonObject{{QStringLiteral("patterns"), list},
                                         {QStringLiteral("options"), optionsJson(options)}});
}

int ProbeClient::measureKernel(const QJsonObject& kernel, const std::vector<KernelPoint>& sweep,
                               const KernelMeasureOptions& options) {
    QJsonObject request{{QStringLiteral("kernel"), kernel},
                        {QStringLiteral("options"),
                         QJsonObject{{QStringLiteral("counters"), options.counters},
                                     {QStringLiteral("warm"), options.warm},
                                     {QStringLiteral("repetitions"), options.repetitions}}}};
    if (!sweep.empty()) {
        QJsonArray points;
        for (const KernelPoint& point : sweep) {
            QJsonObject object;
            for (const auto& [name, value] : point) {
                object.insert(QString::fromStdString(name), static_cast<double>(value));
            }
            points.append(object);
        }
        request.insert(QStringLiteral("sweep"), points);
    }
    return addJob(Op::MeasureKernel, request);
}

int ProbeClient::kernelSource(const NamedPattern& pattern) {
    return addJob(Op::KernelSource, QJsonObject{{QStringLiteral("pattern"), patternJson(pattern)}});
}

void ProbeClient::cancel(int job) {
    for (auto it = m_jobs.begin(); it != m_jobs.end(); ++it) {
        if (it->id != job) {
            continue;
        }
        if (!it->sent) {
            m_jobs.erase(it);
            return;
        }
        it->silent = true;
        if ((it->op == Op::Sweep || it->op == Op::MeasureKernel) && m_process != nullptr) {
            Job cancel;
            cancel.id = m_nextId++;
            cancel.op = Op::Cancel;
            cancel.silent = true;
            cancel.line =
                QJsonDocument(QJsonObject{{QStringLiteral("id"), cancel.id},
                                          {QStringLiteral("op"), QStringLiteral("cancel")},
                                          {QStringLiteral("target"), job}})
                    .toJson(QJsonDocument::Compact) +
                '\n';
            // Sent at once, ahead of jobs not yet sent: the probe answers a cancel immediately.
            cancel.sent = true;
            m_process->write(cancel.line);
            m_jobs.push_back(cancel);
        }
        return;
    }
}

void ProbeClient::sendWaiting() {
    if (m_process == nullptr || m_process->state() != QProcess::Running) {
        return;
    }
    for (Job& job : m_jobs) {
        if (job.sent) {
            continue;
        }
        const bool ownRequest = job.op == Op::Hello || job.op == Op::DeviceInfo;
        if (m_state != State::Ready && !ownRequest) {
            // In model-only mode only what needs no GPU goes (kernel_source).
            if (!(m_state == State::NoGpu && job.op == Op::KernelSource)) {
                continue;
            }
        }
        send(job);
    }
}

void ProbeClient::send(Job& job) {
    if (!m_watchdog->isActive()) {
        // An idle probe's silence starts counting now.
        m_sinceLastLine.restart();
        m_watchdog->start();
    }
    job.sent = true;
    job.started = QDateTime::currentDateTime();
    m_process->write(job.line);
}

bool ProbeClient::hasJobsSent() const {
    for (const Job& job : m_jobs) {
        if (job.sent) {
            return true;
        }
    }
    return false;
}

void ProbeClient::onWatchdog() {
    if (!hasJobsSent()) {
        m_watchdog->stop();
        return;
    }
    if (m_sinceLastLine.elapsed() <= m_timeoutMs) {
        return;
    }
    m_watchdog->stop();
    if (m_process != nullptr) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
        m_process->deleteLater();
        m_process = nullptr;
    }
    probeStopped(tr("warpscope-probe did not answer for %1 s and was stopped")
                     .arg(m_timeoutMs / 1000.0, 0, 'g', 3));
}

void ProbeClient::onReadyRead() {
    if (m_process == nullptr) {
        return;
    }
    m_buffer += m_process->readAllStandardOutput();
    m_sinceLastLine.restart();
    qsizetype start = 0;
    while (true) {
        const qsizetype end = m_buffer.indexOf('\n', start);
        if (end < 0) {
            break;
        }
        const QByteArray line = m_buffer.mid(start, end - start);
        start = end + 1;
        if (!line.trimmed().isEmpty()) {
            handleLine(line);
        }
        if (m_process == nullptr) {
            // A line made the client stop or restart the probe.
            m_buffer.clear();
            return;
        }
    }
    m_buffer.remove(0, start);
    if (m_buffer.size() > kMaxAnswerBytes) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->deleteLater();
        m_process = nullptr;
        probeStopped(tr("warpscope-probe wrote a line longer than 256 MiB"));
    }
}

void ProbeClient::onStderr() {
    if (m_process == nullptr) {
        return;
    }
    m_stderr += m_process->readAllStandardError();
    if (m_stderr.size() > kStderrKeep) {
        m_stderr = m_stderr.right(kStderrKeep);
    }
}

QString ProbeClient::stderrTail() const {
    const QList<QByteArray> lines = m_stderr.trimmed().split('\n');
    return lines.isEmpty() ? QString() : QString::fromUtf8(lines.back()).trimmed();
}

void ProbeClient::handleLine(const QByteArray& line) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        // Not a protocol line (the probe keeps stdout for the protocol; tolerate and go on).
        m_stderr += "unreadable line on stdout: " + line.left(200) + '\n';
        return;
    }
    const QJsonObject object = document.object();
    const int id = object.value(QStringLiteral("id")).toInt(-1);
    auto it = std::find_if(m_jobs.begin(), m_jobs.end(), [id](const Job& j) { return j.id == id; });
    if (it == m_jobs.end()) {
        return; // an answer to a job nobody waits for any more
    }
    if (!object.contains(QStringLiteral("ok"))) {
        const QJsonObject p = object.value(QStringLiteral("progress")).toObject();
        if (!it->silent) {
            emit progress(id, p.value(QStringLiteral("done")).toInt(),
                          p.value(QStringLiteral("total")).toInt());
        }
        return;
    }
    Job job = *it;
    m_jobs.erase(it);
    handleAnswer(job, object);
}

void ProbeClient::handleAnswer(Job job, const QJsonObject& answer) {
    const bool ok = answer.value(QStringLiteral("ok")).toBool();
    const QJsonObject result = answer.value(QStringLiteral("result")).toObject();
    if (!ok) {
        const ProbeFailure failure =
            failureFromError(answer.value(QStringLiteral("error")).toObject());
        if (failure.fatal) {
            m_expectExit = true; // the probe exits with status 3 after this answer
        }
        if (job.op == Op::Hello) {
            failAll(failure, true);
            stop();
            m_stateFailure = failure;
            setState(State::Failed);
            return;
        }
        if (job.op == Op::DeviceInfo) {
            m_stateFailure = failure;
            if (failure.isNoGpu()) {
                setState(State::NoGpu);
                // What needs a GPU fails now; the rest (kernel_source) is sent.
                std::deque<Job> keep;
                std::vector<Job> failed;
                for (const Job& waiting : m_jobs) {
                    if (!waiting.sent && (waiting.op == Op::Measure || waiting.op == Op::Sweep ||
                                          waiting.op == Op::MeasureKernel)) {
                        failed.push_back(waiting);
                    } else {
                        keep.push_back(waiting);
                    }
                }
                m_jobs = keep;
                for (const Job& f : failed) {
                    failJob(f, failure);
                }
                sendWaiting();
            } else {
                setState(State::Failed);
                failAll(failure, true);
            }
            return;
        }
        failJob(job, failure);
        return;
    }
    switch (job.op) {
    case Op::Hello: {
        const int protocol = result.value(QStringLiteral("protocol")).toInt();
        if (protocol != 1) {
            const ProbeFailure failure{QStringLiteral("protocol_mismatch"),
                                       tr("warpscope-probe speaks protocol version %1 and this "
                                          "warpscope speaks version 1; "
                                          "install the probe of the same warpscope release")
                                           .arg(protocol),
                                       false};
            stop();
            m_stateFailure = failure;
            setState(State::Failed);
            return;
        }
        return;
    }
    case Op::DeviceInfo:
        m_gpu = GpuInfo::fromJson(result);
        setState(State::Ready);
        sendWaiting();
        return;
    case Op::Measure:
        if (!job.silent) {
            emit measured(job.id, ProbeMeasurement::fromProbeResult(result, m_gpu,
                                                                    QDateTime::currentDateTime()));
        }
        return;
    case Op::Sweep:
        if (!job.silent) {
            std::vector<ProbeMeasurement> measurements;
            const QDateTime now = QDateTime::currentDateTime();
            for (const QJsonValue& value : result.value(QStringLiteral("measurements")).toArray()) {
                measurements.push_back(
                    ProbeMeasurement::fromProbeResult(value.toObject(), m_gpu, now));
            }
            emit swept(job.id, measurements);
        }
        return;
    case Op::KernelSource:
        if (!job.silent) {
            emit kernelSourceReady(job.id, result.value(QStringLiteral("source")).toString());
        }
        return;
    case Op::MeasureKernel:
        if (!job.silent) {
            std::vector<KernelMeasurement> measurements;
            const QDateTime now = QDateTime::currentDateTime();
            if (result.contains(QStringLiteral("measurements"))) {
                for (const QJsonValue& value :
                     result.value(QStringLiteral("measurements")).toArray()) {
                    measurements.push_back(
                        KernelMeasurement::fromProbeResult(value.toObject(), m_gpu, now));
                }
            } else {
                measurements.push_back(KernelMeasurement::fromProbeResult(result, m_gpu, now));
            }
            emit kernelMeasured(job.id, measurements);
        }
        return;
    case Op::Cancel:
    case Op::Shutdown:
        return;
    }
}

void ProbeClient::failJob(const Job& job, const ProbeFailure& failure) {
    if (job.silent || job.op == Op::Hello || job.op == Op::DeviceInfo || job.op == Op::Cancel ||
        job.op == Op::Shutdown) {
        return;
    }
    emit jobFailed(job.id, failure);
}

void ProbeClient::failAll(const ProbeFailure& failure, bool includeUnsent) {
    std::deque<Job> keep;
    std::vector<Job> failed;
    for (const Job& job : m_jobs) {
        if (job.sent || includeUnsent) {
            failed.push_back(job);
        } else {
            keep.push_back(job);
        }
    }
    m_jobs = keep;
    for (const Job& job : failed) {
        failJob(job, failure);
    }
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
    QString why = status == QProcess::CrashExit
                      ? tr("warpscope-probe crashed")
                      : tr("warpscope-probe exited with status %1").arg(exitCode);
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

} // namespace warpscope::app
