// ProbeClient: the probe process and its request queue (the answers: probeclient_answers.cpp).
#include "gpu/probeclient.h"

#include <warpscope/experiments/experiments.h>
#include <warpscope/model.h>
#include <warpscope/protocol/errors.h>

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

QJsonObject optionsJson(const ProbeMeasureOptions& options) {
    return qtJsonObject(protocol::toRequestJson(options));
}

QJsonObject patternJson(const NamedPattern& pattern) {
    // The core writes the file form; the probe reads it as it is (docs/protocol.md, measure).
    const std::string text = patternToJsonText(pattern);
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

} // namespace

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

int ProbeClient::addJob(Op op, QJsonObject request, bool early,
                        const experiments::Experiment* experiment) {
    Job job;
    job.id = m_nextId++;
    job.op = op;
    job.experiment = experiment;
    job.early = early;
    request.insert(QStringLiteral("id"), job.id);
    // An experiment's request names it by its opName; the properties are the Experiment row's.
    request.insert(QStringLiteral("op"),
                   experiment != nullptr ? qString(experiment->opName) : probeOpName(op));
    const protocol::OpInfo& row = protocol::opInfo(op);
    if (m_device != 0 && row.takesDevice) {
        request.insert(QStringLiteral("device"), m_device); // absent means device 0
    }
    job.line = QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
    if ((m_state == State::NoGpu && row.needsGpu) || m_state == State::Failed) {
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
    const QJsonObject requestOptions = qtJsonObject(protocol::toRequestJson(options));
    QJsonObject request{{QStringLiteral("kernel"), kernel},
                        {QStringLiteral("options"), requestOptions}};
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

int ProbeClient::measureExperiment(std::string_view key, const QJsonObject& options) {
    return addJob(Op::Experiment, QJsonObject{{QStringLiteral("options"), options}}, false,
                  &experiments::experiment(key));
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
        if ((protocol::opInfo(it->op).cancellable || it->early) && m_process != nullptr) {
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
    // After a stall of the GUI thread this timer and the pipe's notifier come due together: an
    // answer already waiting in the pipe is read (readyRead runs from here) before the probe is
    // called hung.
    if (m_process != nullptr && m_process->waitForReadyRead(0)) {
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
