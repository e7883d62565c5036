// ProbeClient: the probe process, its request queue and its answers.
#include "gpu/probeclient.h"

#include <warpscope/model.h>

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

#include <algorithm>
#include <climits>

namespace warpscope::app {

namespace {

constexpr qsizetype kMaxAnswerBytes = 256 * 1024 * 1024;
constexpr qsizetype kStderrKeep = 4096;

const char* opName(int op) {
    static const char* names[] = {"hello",
                                  "device_info",
                                  "measure",
                                  "sweep",
                                  "kernel_source",
                                  "cancel",
                                  "shutdown",
                                  "measure_kernel",
                                  "measure_transfers",
                                  "measure_l2_persistence",
                                  "measure_streams"};
    return names[op];
}

QJsonObject optionsJson(const ProbeMeasureOptions& options) {
    QJsonObject o;
    o.insert(QStringLiteral("counters"), options.counters);
    o.insert(QStringLiteral("latency"), options.latency);
    o.insert(QStringLiteral("grid"), options.grid);
    o.insert(QStringLiteral("repetitions"), options.repetitions);
    if (!options.counterNames.empty()) {
        QJsonArray names;
        for (const std::string& name : options.counterNames) {
            names.append(QString::fromStdString(name));
        }
        o.insert(QStringLiteral("counterNames"), names);
    }
    return o;
}

QJsonObject patternJson(const NamedPattern& pattern) {
    // The core writes the file form; the probe reads it as it is (docs/protocol.md, measure).
    const std::string text = patternToJsonText(pattern);
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

ProbeFailure failureFromError(const QJsonObject& error) {
    ProbeFailure failure;
    failure.code = error.value(QStringLiteral("code")).toString();
    if (failure.code.isEmpty()) {
        // A missing, non-string or empty code: the app still needs one to name and sort the error.
        failure.code = QStringLiteral("internal");
    }
    failure.message = error.value(QStringLiteral("message")).toString();
    failure.fatal = error.value(QStringLiteral("fatal")).toBool();
    if (failure.message.isEmpty()) {
        failure.message = QObject::tr("warpscope-probe answered the error %1").arg(failure.code);
    }
    return failure;
}

} // namespace

ProbeAnswerLine ProbeAnswerLine::read(const QByteArray& line) {
    ProbeAnswerLine answer;
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        return answer;
    }
    const QJsonObject object = document.object();
    const QJsonValue id = object.value(QStringLiteral("id"));
    // Ids are the client's own small positive integers; anything else answers nothing.
    if (!id.isDouble() || id.toInteger(-1) < 0 || id.toInteger(-1) > INT_MAX ||
        static_cast<double>(id.toInteger(-1)) != id.toDouble()) {
        return answer;
    }
    answer.id = static_cast<int>(id.toInteger());
    if (!object.contains(QStringLiteral("ok"))) {
        const QJsonValue progress = object.value(QStringLiteral("progress"));
        if (!progress.isObject()) {
            return answer; // Unreadable
        }
        answer.kind = Kind::Progress;
        answer.done = progress.toObject().value(QStringLiteral("done")).toInt();
        answer.total = progress.toObject().value(QStringLiteral("total")).toInt();
        return answer;
    }
    answer.kind = Kind::Answer;
    const QJsonValue ok = object.value(QStringLiteral("ok"));
    const QJsonValue result = object.value(QStringLiteral("result"));
    if (ok.isBool() && ok.toBool() && result.isObject()) {
        answer.ok = true;
        answer.result = result.toObject();
    } else if (ok.isBool() && !ok.toBool()) {
        answer.failure = failureFromError(object.value(QStringLiteral("error")).toObject());
    } else {
        answer.failure = ProbeFailure{
            QStringLiteral("bad_answer"),
            QObject::tr("warpscope-probe answered request %1 with neither a result nor an error")
                .arg(answer.id),
            false};
    }
    return answer;
}

std::optional<QByteArray> ProbeLineSplitter::takeLine() {
    while (true) {
        const qsizetype end = m_buffer.indexOf('\n', m_start);
        if (end < 0) {
            // Keep only the unfinished line.
            m_buffer.remove(0, m_start);
            m_start = 0;
            return std::nullopt;
        }
        QByteArray line = m_buffer.mid(m_start, end - m_start);
        m_start = end + 1;
        if (!line.trimmed().isEmpty()) {
            return line;
        }
    }
}

void ProbeLineSplitter::clear() {
    m_buffer.clear();
    m_start = 0;
}

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
    const ProbeCommand command = ProbeCommand::fromLine(commandLine, defaultProgram());
    return {command.program, command.arguments};
}

void ProbeClient::setCommand(const QString& program, const QStringList& arguments) {
    m_program = program;
    m_arguments = arguments;
    m_commandError.clear();
}

void ProbeClient::setCommand(const ProbeCommand& command) {
    setCommand(command.program, command.arguments);
    m_commandError = command.error;
}

int ProbeClient::connectTimeoutMs() const {
    return m_connectTimeoutMs >= 0 ? m_connectTimeoutMs : std::max(m_timeoutMs, 20000);
}

QString ProbeClient::commandText() const {
    return ProbeCommand{m_program, m_arguments, {}}.display();
}

QString ProbeClient::buildNote() const {
    return buildMismatchNote(m_startup.probeVersion, QCoreApplication::applicationVersion());
}

QString ProbeClient::stateText() const {
    switch (m_state) {
    case State::Stopped:
        return tr("GPU: not started (Run, F5, starts warpscope-probe)");
    case State::Starting:
        return tr("GPU: %1").arg(m_startup.stepText());
    case State::Ready:
        return m_startup.readyMs >= 0
                   ? tr("GPU: %1 (%2)").arg(m_gpu.describe(), m_startup.stepText())
                   : tr("GPU: %1").arg(m_gpu.describe());
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

int ProbeClient::addJob(Op op, QJsonObject request, bool early) {
    Job job;
    job.id = m_nextId++;
    job.op = op;
    job.early = early;
    request.insert(QStringLiteral("id"), job.id);
    request.insert(QStringLiteral("op"), QString::fromLatin1(opName(static_cast<int>(op))));
    if (m_device != 0 && (op == Op::Measure || op == Op::Sweep || op == Op::MeasureKernel ||
                          op == Op::KernelSource || op == Op::MeasureL2Persistence)) {
        request.insert(QStringLiteral("device"), m_device); // absent means device 0
    }
    job.line = QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
    const bool needsGpu = op == Op::Measure || op == Op::Sweep || op == Op::MeasureKernel ||
                          op == Op::MeasureTransfers || op == Op::MeasureL2Persistence ||
                          op == Op::MeasureStreams;
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

int ProbeClient::measureAtOnce(const NamedPattern& pattern, const ProbeMeasureOptions& options) {
    const bool early = m_state == State::Starting && m_process != nullptr &&
                       m_process->state() == QProcess::Running;
    const int id = addJob(Op::Measure,
                          QJsonObject{{QStringLiteral("pattern"), patternJson(pattern)},
                                      {QStringLiteral("options"), optionsJson(options)}},
                          early);
    if (early) {
        flushAtOnce();
    }
    return id;
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

int ProbeClient::measureTransfers(const QJsonObject& options) {
    return addJob(Op::MeasureTransfers, QJsonObject{{QStringLiteral("options"), options}});
}

int ProbeClient::measureStreams(const QJsonObject& options) {
    return addJob(Op::MeasureStreams, QJsonObject{{QStringLiteral("options"), options}});
}
int ProbeClient::measureL2Persistence(const QJsonObject& options) {
    return addJob(Op::MeasureL2Persistence, QJsonObject{{QStringLiteral("options"), options}});
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
        // An early measure (measureAtOnce) waits in a starting probe's queue behind
        // device_info: dropped there, it costs nothing.
        if ((it->op == Op::Sweep || it->op == Op::MeasureKernel || it->op == Op::MeasureTransfers ||
             it->op == Op::MeasureStreams || it->op == Op::MeasureL2Persistence || it->early) &&
            m_process != nullptr) {
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
        if (m_state != State::Ready && !ownRequest && !(job.early && m_state == State::Starting)) {
            // In model-only mode only what needs no GPU goes (kernel_source).
            if (!(m_state == State::NoGpu && job.op == Op::KernelSource)) {
                continue;
            }
        }
        send(job);
    }
}

ProbeMeasureOptions withCountersOf(ProbeMeasureOptions options, const AccessKind& kind) {
    if (options.counters &&
        (kind.space == MemorySpace::Global || kind.space == MemorySpace::Shared)) {
        const AccessCounters counters = nsightCountersFor(kind);
        options.counterNames = {counters.first, counters.second};
    }
    return options;
}

void ProbeClient::send(Job& job) {
    if (!m_probeNamesCounters && !job.early && (job.op == Op::Measure || job.op == Op::Sweep) &&
        job.line.contains("\"counterNames\"")) {
        // A probe from before the option: it reads every counter, which holds these too.
        QJsonObject request = QJsonDocument::fromJson(job.line).object();
        QJsonObject options = request.value(QStringLiteral("options")).toObject();
        options.remove(QStringLiteral("counterNames"));
        request.insert(QStringLiteral("options"), options);
        job.line = QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
    }
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
    if (m_startup.connectedMs < 0) {
        if (m_sinceLastLine.elapsed() > connectTimeoutMs()) {
            // Not one answer since the start: a login waiting at a terminal, or no link at all.
            stopOnDiagnosis(silentStartDiagnosis(connectTimeoutMs(), commandText()));
        }
        return;
    }
    if (m_sinceLastLine.elapsed() <= effectiveTimeoutMs(m_timeoutMs, m_startup.roundTripMs())) {
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
    m_lines.append(m_process->readAllStandardOutput());
    m_sinceLastLine.restart();
    while (const std::optional<QByteArray> line = m_lines.takeLine()) {
        handleLine(*line);
        if (m_process == nullptr) {
            // A line made the client stop or restart the probe.
            m_lines.clear();
            return;
        }
    }
    if (m_lines.pendingBytes() > kMaxAnswerBytes) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->deleteLater();
        m_process = nullptr;
        m_lines.clear();
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
    if (m_startup.connectedMs < 0) {
        // A prompt before the first answer waits for someone to type: stop now, never hang.
        if (auto prompt = diagnoseAuthPrompt(m_stderr, commandText())) {
            stopOnDiagnosis(*prompt);
        }
    }
}

QString ProbeClient::stderrTail() const {
    const QList<QByteArray> lines = m_stderr.trimmed().split('\n');
    return lines.isEmpty() ? QString() : QString::fromUtf8(lines.back()).trimmed();
}

void ProbeClient::handleLine(const QByteArray& line) {
    const ProbeAnswerLine answer = ProbeAnswerLine::read(line);
    if (answer.kind == ProbeAnswerLine::Kind::Unreadable) {
        // Not a protocol line (the probe keeps stdout for the protocol; tolerate and go on).
        ++m_strayLines;
        m_stderr += "unreadable line on stdout: " + line.left(200) + '\n';
        return;
    }
    const int id = answer.id;
    if (m_startup.connectedMs < 0) {
        m_startup.connectedMs = m_startClock.elapsed();
        emit startupChanged();
    }
    // Only a request that was sent can be answered: an id never sent, or not sent yet, is a
    // line the probe made up.
    auto it = std::find_if(m_jobs.begin(), m_jobs.end(), [id](const Job& j) { return j.id == id; });
    if ((it == m_jobs.end() && id >= m_nextId) || (it != m_jobs.end() && !it->sent)) {
        ++m_strayLines;
        m_stderr += "a line for request " + QByteArray::number(id) + ", which was not sent\n";
        return;
    }
    if (it == m_jobs.end()) {
        return; // an answer to a job nobody waits for any more
    }
    if (answer.kind == ProbeAnswerLine::Kind::Progress) {
        if (!it->silent) {
            emit progress(id, answer.done, answer.total);
        }
        return;
    }
    Job job = *it;
    m_jobs.erase(it);
    handleAnswer(job, answer);
}

void ProbeClient::handleAnswer(Job job, const ProbeAnswerLine& answer) {
    const QJsonObject& result = answer.result;
    if (!answer.ok) {
        const ProbeFailure& failure = answer.failure;
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
                    if (!waiting.sent &&
                        (waiting.op == Op::Measure || waiting.op == Op::Sweep ||
                         waiting.op == Op::MeasureKernel || waiting.op == Op::MeasureTransfers ||
                         waiting.op == Op::MeasureStreams ||
                         waiting.op == Op::MeasureL2Persistence)) {
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
        m_startup.probeVersion = result.value(QStringLiteral("version")).toString();
        m_probeNamesCounters = result.value(QStringLiteral("measureOptions"))
                                   .toArray()
                                   .contains(QStringLiteral("counterNames"));
        if (protocol != 1) {
            stopOnDiagnosis(protocolMismatch(protocol, 1, m_startup.probeVersion,
                                             QCoreApplication::applicationVersion(),
                                             commandText()));
            return;
        }
        m_probeBuild = QString::fromUtf8(
            QJsonDocument(
                QJsonObject{{QStringLiteral("version"), result.value(QStringLiteral("version"))},
                            {QStringLiteral("build"), result.value(QStringLiteral("build"))}})
                .toJson(QJsonDocument::Compact));
        m_startup.versionMs = m_startClock.elapsed();
        emit startupChanged();
        return;
    }
    case Op::DeviceInfo:
        takeDeviceInfo(result);
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
    case Op::MeasureTransfers:
        if (!job.silent) {
            emit transfersMeasured(job.id, result);
        }
        return;
    case Op::MeasureStreams:
        if (!job.silent) {
            emit streamsMeasured(job.id, result);
        }
        return;
    case Op::MeasureL2Persistence:
        if (!job.silent) {
            emit l2PersistenceMeasured(job.id, result);
        }
        return;
    case Op::Cancel:
    case Op::Shutdown:
        return;
    }
}

void ProbeClient::setDevice(int index) {
    index = std::max(0, index);
    if (index == m_device) {
        return;
    }
    m_device = index;
    m_deviceNote.clear();
    if (m_state == State::Ready && m_process != nullptr) {
        // Nothing waiting is sent until the new device has answered.
        setState(State::Starting);
        queueDeviceInfo(index);
    }
    emit devicesChanged();
}

void ProbeClient::queueDeviceInfo(int index) {
    Job info;
    info.id = m_nextId++;
    info.op = Op::DeviceInfo;
    QJsonObject request{{QStringLiteral("id"), info.id},
                        {QStringLiteral("op"), QStringLiteral("device_info")}};
    if (index != 0) {
        request.insert(QStringLiteral("device"), index);
    }
    info.line = QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
    const auto firstUnsent =
        std::find_if(m_jobs.begin(), m_jobs.end(), [](const Job& j) { return !j.sent; });
    Job& queued = *m_jobs.insert(firstUnsent, info);
    if (m_process != nullptr && m_process->state() == QProcess::Running) {
        send(queued);
    }
}

void ProbeClient::takeDeviceInfo(const QJsonObject& result) {
    GpuInfo info = GpuInfo::fromJson(result);
    if (std::vector<GpuInfo> list = GpuInfo::listFromJson(result); !list.empty()) {
        m_devices = std::move(list);
    } else if (m_devices.empty()) {
        m_devices = {info}; // an older probe: one device
    }
    if (info.index != m_device) {
        if (m_device < static_cast<int>(m_devices.size())) {
            queueDeviceInfo(m_device); // the first device_info answers device 0: ask for ours
            emit devicesChanged();
            return;
        }
        m_deviceNote = tr("GPU %1 is not on the probe's machine (it has %n device(s)); measuring "
                          "on GPU 0",
                          nullptr, static_cast<int>(m_devices.size()))
                           .arg(m_device);
        m_device = 0;
    }
    m_gpu = info;
    m_gpu.probeVersion = m_startup.probeVersion;
    m_startup.readyMs = m_startClock.elapsed();
    setState(State::Ready);
    emit startupChanged();
    emit devicesChanged();
    sendWaiting();
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

} // namespace warpscope::app
