// GpuRunner: one measurement at a time, the newest pattern pending, failures as messages.
#include "gpu/gpurunner.h"

#include "document/patterndocument.h"

#include <QTimer>

namespace warpscope::app {

GpuRunner::GpuRunner(PatternDocument* document, ProbeClient* client, MeasurementStore* store,
                     QObject* parent)
    : QObject(parent), m_document(document), m_client(client), m_store(store),
      m_debounce(new QTimer(this)) {
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(40);
    connect(m_debounce, &QTimer::timeout, this, [this] {
        // Auto-run stays quiet where Run would explain: no GPU was said once, when it was found.
        const bool usable = m_client->state() != ProbeClient::State::NoGpu &&
                            m_client->state() != ProbeClient::State::Failed;
        if (usable && !m_document->error() && m_document->evaluation()) {
            run();
        }
    });
    connect(m_document, &PatternDocument::evaluationChanged, this, [this] {
        if (m_autoRun) {
            m_debounce->start();
        }
    });
    connect(m_client, &ProbeClient::measured, this, &GpuRunner::onMeasured);
    connect(m_client, &ProbeClient::jobFailed, this, &GpuRunner::onFailed);
    connect(m_client, &ProbeClient::stateChanged, this, &GpuRunner::onStateChanged);
    connect(m_client, &ProbeClient::restarted, this, [this](const QString& why) {
        emit message(MessageLevel::Warning,
                     tr("%1; it was started again. Your pattern, session and earlier results are "
                        "unchanged.")
                         .arg(why));
    });
    connect(m_client, &ProbeClient::progress, this, [this](int job, int done, int total) {
        if (job == m_sweepJob) {
            emit sweepProgress(done, total);
        }
    });
    connect(m_client, &ProbeClient::swept, this,
            [this](int job, const std::vector<ProbeMeasurement>& measurements) {
                if (job == m_sweepJob) {
                    m_sweepJob = 0;
                    emit sweepFinished(measurements);
                }
            });
    connect(m_client, &ProbeClient::kernelSourceReady, this,
            [this](int job, const QString& source) {
                if (job == m_kernelJob) {
                    m_kernelJob = 0;
                    emit kernelSourceArrived(source);
                }
            });
}

void GpuRunner::setAutoRun(bool on) {
    m_autoRun = on;
    if (on && m_document->evaluation() && !m_document->error()) {
        m_debounce->start();
    }
}

int GpuRunner::autoRunDelayMs() const {
    return m_debounce->interval();
}

void GpuRunner::setAutoRunDelayMs(int milliseconds) {
    m_debounce->setInterval(milliseconds);
}

void GpuRunner::run() {
    if (m_document->error()) {
        emit message(MessageLevel::Warning,
                     tr("Nothing was run: the pattern has an error (%1). Fix it and press Run "
                        "again.")
                         .arg(QString::fromStdString(m_document->error()->describe())));
        return;
    }
    if (!m_document->evaluation()) {
        return;
    }
    if (m_client->state() == ProbeClient::State::NoGpu ||
        m_client->state() == ProbeClient::State::Failed) {
        // Said once per state change (onStateChanged); Run repeats it on purpose.
        if (m_client->stateFailure()) {
            emit message(m_client->state() == ProbeClient::State::NoGpu ? MessageLevel::Info
                                                                        : MessageLevel::Error,
                         describeFailure(*m_client->stateFailure()));
        }
        return;
    }
    const NamedPattern pattern = m_document->current();
    if (m_job != 0) {
        // One at a time: the newest edit waits, replacing any older one still waiting.
        m_pending = pattern;
        return;
    }
    send(pattern);
}

void GpuRunner::send(const NamedPattern& pattern) {
    m_jobPattern = pattern.pattern;
    m_job = m_client->measure(pattern, m_options);
    emit measuringChanged(true);
}

void GpuRunner::sendPending() {
    if (m_pending) {
        const NamedPattern next = *m_pending;
        m_pending.reset();
        send(next);
    } else {
        emit measuringChanged(false);
    }
}

void GpuRunner::onMeasured(int job, const ProbeMeasurement& measurement) {
    if (job != m_job) {
        return;
    }
    m_job = 0;
    if (m_pending) {
        // Superseded while it ran: the newer pattern is what the user looks at now.
        ++m_superseded;
        if (m_pending->pattern == m_jobPattern) {
            m_pending.reset();
        } else {
            sendPending();
            return;
        }
    }
    m_store->put(m_jobPattern, measurement);
    if (!measurement.countersMeasured && !measurement.countersUnavailableReason.isEmpty()) {
        emit message(MessageLevel::Warning, tr("Timing was measured but not the counters: %1")
                                                .arg(measurement.countersUnavailableReason));
    }
    emit measurementArrived(measurement);
    emit measuringChanged(false);
}

void GpuRunner::onFailed(int job, const ProbeFailure& failure) {
    if (job == m_job) {
        m_job = 0;
        if (!failure.isNoGpu() && failure.code != QLatin1String("probe_missing")) {
            emit message(failure.code == QLatin1String("pattern_refused") ? MessageLevel::Warning
                                                                          : MessageLevel::Error,
                         describeFailure(failure));
        }
        const bool gpuUsable = m_client->state() != ProbeClient::State::NoGpu &&
                               m_client->state() != ProbeClient::State::Failed;
        if (!gpuUsable) {
            m_pending.reset();
        }
        sendPending(); // a newer pattern still deserves its measurement
    } else if (job == m_sweepJob) {
        m_sweepJob = 0;
        const QString why = failure.code == QLatin1String("cancelled")
                                ? tr("The GPU sweep was cancelled.")
                                : describeFailure(failure);
        if (!failure.isNoGpu() && failure.code != QLatin1String("probe_missing")) {
            emit message(MessageLevel::Error, why);
        }
        emit sweepStopped(why);
    } else if (job == m_kernelJob) {
        m_kernelJob = 0;
        emit kernelSourceFailed(describeFailure(failure));
    }
}

void GpuRunner::onStateChanged(ProbeClient::State state) {
    if (state == ProbeClient::State::NoGpu && m_client->stateFailure()) {
        emit message(MessageLevel::Info, describeFailure(*m_client->stateFailure()));
    } else if (state == ProbeClient::State::Failed && m_client->stateFailure()) {
        emit message(MessageLevel::Error, describeFailure(*m_client->stateFailure()));
    } else if (state == ProbeClient::State::Ready && !m_client->gpu().countersAvailable) {
        emit message(
            MessageLevel::Warning,
            tr("%1 is ready, but its hardware counters are not: %2. Timing still works.")
                .arg(m_client->gpu().describe(), m_client->gpu().countersUnavailableReason));
    }
}

QString GpuRunner::describeFailure(const ProbeFailure& failure) const {
    if (failure.isNoGpu()) {
        return tr("No GPU measurement: %1 (%2). The model views work as before; a recorded "
                  "measurement still shows.")
            .arg(failure.message, failure.code);
    }
    if (failure.code == QLatin1String("pattern_refused")) {
        return tr("The GPU run was refused, nothing was launched: %1").arg(failure.message);
    }
    if (failure.code == QLatin1String("counters_not_permitted")) {
        return tr("Hardware counters are not permitted for this user: %1").arg(failure.message);
    }
    return failure.message;
}

void GpuRunner::runSweep(const std::vector<NamedPattern>& patterns) {
    if (m_sweepJob != 0) {
        m_client->cancel(m_sweepJob);
    }
    if (m_client->state() == ProbeClient::State::NoGpu ||
        m_client->state() == ProbeClient::State::Failed) {
        const QString why = m_client->stateFailure() ? describeFailure(*m_client->stateFailure())
                                                     : m_client->stateText();
        emit message(MessageLevel::Info, why);
        emit sweepStopped(why);
        return;
    }
    ProbeMeasureOptions options = m_options;
    options.grid = false; // one single-warp replay per point: counters and latency
    m_sweepJob = m_client->sweep(patterns, options);
}

void GpuRunner::cancelSweep() {
    if (m_sweepJob != 0) {
        m_client->cancel(m_sweepJob);
        m_sweepJob = 0;
        emit sweepStopped(tr("The GPU sweep was cancelled."));
    }
}

void GpuRunner::requestKernelSource() {
    const NamedPattern pattern = m_document->current();
    if (!pattern.pattern.source) {
        emit kernelSourceFailed(
            tr("This pattern lists its 32 addresses, so there is no expression to generate a grid "
               "kernel from; the probe replays the addresses in its fixed single-warp kernel."));
        return;
    }
    m_kernelJob = m_client->kernelSource(pattern);
}

} // namespace warpscope::app
