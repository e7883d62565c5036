// ProbeClient's answers: reading the probe's lines (ProbeAnswerLine, ProbeLineSplitter), turning
// each answer into core's protocol types once, here at the boundary, and the device chosen.
#include "gpu/probeclient.h"

#include <warpscope/experiments/experiments.h>
#include <warpscope/protocol/errors.h>
#include <warpscope/protocol/pattern_measurement.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <climits>

namespace warpscope::app {

namespace {

/// An answer core's protocol reader refused: bad_answer, naming the op and the place.
ProbeFailure unreadableAnswer(protocol::ProbeOp op, const Error& error) {
    return ProbeFailure{QStringLiteral("bad_answer"),
                        QObject::tr("warpscope-probe's answer to %1 cannot be read: %2")
                            .arg(probeOpName(op), QString::fromStdString(error.describe())),
                        false};
}

/// A sweep's answer read one measurement at a time (a whole sweep may be larger than one guarded
/// read takes): each element of its "measurements" array through `read`. The first element that
/// is not an object or that `read` refuses gives the error, its place named from the answer's root.
template <typename Measurement, typename Read>
Result<std::vector<Measurement>> readMeasurementList(const QJsonObject& result, const Read& read) {
    const QJsonValue list = result.value(QStringLiteral("measurements"));
    if (!list.isArray()) {
        return Error{ErrorCode::FileFormat, "measurements must be an array", 0, "/measurements"};
    }
    std::vector<Measurement> measurements;
    const QJsonArray array = list.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        Result<Measurement> one =
            array[i].isObject()
                ? read(array[i].toObject())
                : Result<Measurement>(
                      Error{ErrorCode::FileFormat, "a measurement must be a JSON object", 0, ""});
        if (!one) {
            Error error = one.error();
            error.where = "/measurements/" + std::to_string(i) + error.where;
            return error;
        }
        measurements.push_back(std::move(one).value());
    }
    return measurements;
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

QString probeOpName(protocol::ProbeOp op) {
    const std::string_view name = protocol::opInfo(op).name;
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

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
    const auto known = protocol::probeErrorCodeFromName(code.toStdString());
    return known && protocol::isNoGpu(*known);
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
                    // The client's own requests (hello, device_info) are not failed here.
                    if (!waiting.sent && waiting.op != Op::DeviceInfo &&
                        protocol::opInfo(waiting.op).needsGpu) {
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
    if (job.op == Op::Experiment) {
        // An experiment's answer: its tab reads it with the experiment's reader.
        if (!job.silent && job.experiment != nullptr) {
            emit experimentMeasured(job.id, qString(job.experiment->key), result);
        }
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
    case Op::DeviceInfo: {
        auto device = protocol::deviceInfoAnswerFromJsonText(compactJsonText(result));
        if (!device) {
            const ProbeFailure failure = unreadableAnswer(job.op, device.error());
            m_stateFailure = failure;
            setState(State::Failed);
            failAll(failure, true);
            return;
        }
        takeDeviceInfo(device.value());
        return;
    }
    case Op::Measure:
        if (!job.silent) {
            auto read = protocol::patternMeasurementFromJsonText(compactJsonText(result));
            if (!read) {
                failJob(job, unreadableAnswer(job.op, read.error()));
                return;
            }
            emit measured(job.id, ProbeMeasurement::fromMeasured(read.value(), m_gpu,
                                                                 QDateTime::currentDateTime()));
        }
        return;
    case Op::Sweep:
        if (!job.silent) {
            const QDateTime now = QDateTime::currentDateTime();
            Result<std::vector<ProbeMeasurement>> measurements =
                readMeasurementList<ProbeMeasurement>(
                    result, [&](const QJsonObject& one) -> Result<ProbeMeasurement> {
                        auto read = protocol::patternMeasurementFromJsonText(compactJsonText(one));
                        if (!read) {
                            return read.error();
                        }
                        return ProbeMeasurement::fromMeasured(read.value(), m_gpu, now);
                    });
            if (!measurements) {
                failJob(job, unreadableAnswer(job.op, measurements.error()));
                return;
            }
            emit swept(job.id, measurements.value());
        }
        return;
    case Op::KernelSource:
        if (!job.silent) {
            emit kernelSourceReady(job.id, result.value(QStringLiteral("source")).toString());
        }
        return;
    case Op::MeasureKernel:
        if (!job.silent) {
            // One kernel, or a sweep's measurements one at a time (as for a pattern sweep), each
            // through core's guarded reader.
            const QDateTime now = QDateTime::currentDateTime();
            const auto read = [&](const QJsonObject& one) {
                return KernelMeasurement::fromProbeResult(one, m_gpu, now);
            };
            if (!result.contains(QStringLiteral("measurements"))) {
                Result<KernelMeasurement> one = read(result);
                if (!one) {
                    failJob(job, unreadableAnswer(job.op, one.error()));
                    return;
                }
                emit kernelMeasured(job.id, {std::move(one).value()});
                return;
            }
            Result<std::vector<KernelMeasurement>> measurements =
                readMeasurementList<KernelMeasurement>(result, read);
            if (!measurements) {
                failJob(job, unreadableAnswer(job.op, measurements.error()));
                return;
            }
            emit kernelMeasured(job.id, measurements.value());
        }
        return;
    case Op::Cancel:
    case Op::Shutdown:
    case Op::Selfcheck:
        return;
    default: // an experiment's op: answered above
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

void ProbeClient::takeDeviceInfo(const protocol::DeviceInfoAnswer& answer) {
    GpuInfo info = GpuInfo::fromDevice(answer.device);
    if (!answer.devices.empty()) {
        m_devices.clear();
        for (const protocol::DeviceInfo& device : answer.devices) {
            m_devices.push_back(GpuInfo::fromDevice(device));
        }
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

} // namespace warpscope::app
