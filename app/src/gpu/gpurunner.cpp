// GpuRunner: one measurement at a time, the newest pattern pending, failures as messages.
#include "gpu/gpurunner.h"

#include "document/patterndocument.h"

#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>

namespace warpscope::app {

namespace {

/// The parameter that alone differs between `before` and `after`, and the sign of its move;
/// nullopt when they differ otherwise (another preset, an expression edited, nothing moved).
std::optional<std::pair<std::size_t, int>> movedParameter(const Pattern& before,
                                                          const Pattern& after) {
    if (!before.source || !after.source ||
        before.source->parameters.size() != after.source->parameters.size()) {
        return std::nullopt;
    }
    for (std::size_t i = 0; i < after.source->parameters.size(); ++i) {
        const std::int64_t from = before.source->parameters[i].value;
        const std::int64_t to = after.source->parameters[i].value;
        if (from == to) {
            continue;
        }
        Pattern same = after;
        same.source->parameters[i].value = from;
        if (!(same == before)) {
            return std::nullopt;
        }
        return std::pair<std::size_t, int>{i, to > from ? 1 : -1};
    }
    return std::nullopt;
}

} // namespace

GpuRunner::GpuRunner(PatternDocument* document, ProbeClient* client, MeasurementStore* store,
                     QObject* parent)
    : QObject(parent), m_document(document), m_client(client), m_store(store) {
    connect(m_document, &PatternDocument::evaluationChanged, this, [this] {
        retargetWarmUp();
        if (m_autoRun) {
            autoRun();
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
                if (job == m_aheadJob) {
                    onAheadSwept(job, measurements);
                } else if (job == m_sweepJob) {
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
    if (on) {
        autoRun();
    }
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
    if (m_document->pattern().kind.space == MemorySpace::Constant) {
        // The probe replays global and shared accesses only; a constant load is a kernel.
        emit message(MessageLevel::Info,
                     tr("Constant loads are measured as whole kernels: open the kernel preset "
                        "constant-divergent (or constant-broadcast) and use Run Sweep on GPU "
                        "(Shift+F5) in the Sweep tab."));
        return;
    }
    const NamedPattern pattern = m_document->current();
    m_lastAutoPattern = pattern.pattern;
    m_waitingForAhead.reset();
    if (m_job != 0) {
        // One at a time: the newest edit waits, replacing any older one still waiting.
        m_pending = pattern;
        return;
    }
    send(pattern);
}

QString GpuRunner::origin() const {
    return MeasurementCache::originOf(m_client->gpu(),
                                      QStringList{m_client->program()}.join(QLatin1Char(' ')) +
                                          QLatin1Char(' ') +
                                          m_client->arguments().join(QLatin1Char(' ')),
                                      m_client->probeBuild());
}

bool GpuRunner::showCached() {
    const auto& evaluation = m_document->evaluation();
    if (!evaluation || m_client->state() != ProbeClient::State::Ready) {
        return false;
    }
    const std::optional<ProbeMeasurement> cached =
        m_cache.find(evaluation->access, optionsFor(evaluation->access.kind), origin());
    if (!cached) {
        return false;
    }
    m_store->put(evaluation->pattern, *cached);
    emit measurementArrived(*cached);
    return true;
}

void GpuRunner::autoRun() {
    const bool usable = m_client->state() != ProbeClient::State::NoGpu &&
                        m_client->state() != ProbeClient::State::Failed;
    if (!usable || m_document->error() || !m_document->evaluation()) {
        return;
    }
    const Pattern previous = m_lastAutoPattern;
    m_lastAutoPattern = m_document->pattern();
    if (const auto moved = movedParameter(previous, m_lastAutoPattern)) {
        m_dragParameter = moved->first;
        m_dragDirection = moved->second;
    }
    if (showCached()) {
        // The overlay is there now; an edit waiting for an answer is not any more.
        m_pending.reset();
        m_waitingForAhead.reset();
        measureAheadOf();
        return;
    }
    const NamedPattern pattern = m_document->current();
    const std::string key =
        MeasurementCache::keyOf(m_document->evaluation()->access,
                                optionsFor(m_document->evaluation()->access.kind), origin());
    if (m_aheadJob != 0 && !key.empty() &&
        std::find(m_aheadKeys.begin(), m_aheadKeys.end(), key) != m_aheadKeys.end()) {
        // The sweep under way brings it: wait for that instead of queueing behind it.
        m_waitingForAhead = pattern;
        m_pending.reset();
        return;
    }
    m_waitingForAhead.reset();
    if (m_job != 0) {
        m_pending = pattern;
        measureAheadOf();
    } else {
        // The value itself first: the sweep ahead follows its answer (onMeasured), so it never
        // delays the one the user looks at.
        send(pattern);
    }
}

void GpuRunner::measureAheadOf(bool around) {
    const Pattern& current = m_document->pattern();
    if (m_options.grid || m_aheadCount <= 0 || (m_dragDirection == 0 && !around) ||
        !current.source || m_dragParameter >= current.source->parameters.size() ||
        m_client->state() != ProbeClient::State::Ready) {
        return;
    }
    const Parameter& parameter = current.source->parameters[m_dragParameter];
    const QString here = origin();
    // The values ahead in the direction of the drag, nearest first, that are not kept yet.
    std::vector<NamedPattern> patterns;
    std::vector<WarpAccess> accesses;
    std::vector<std::string> keys;
    int firstMissing = -1;
    const int steps = around ? 2 * m_aheadCount : m_aheadCount + m_aheadCount / 2;
    for (int i = 1; i <= steps && static_cast<int>(patterns.size()) < m_aheadCount; ++i) {
        // Around: +1, -1, +2, -2, ... (a step of the distance, nearest first).
        const int step = around ? (i + 1) / 2 : i;
        const int direction = around ? (i % 2 == 1 ? 1 : -1) : m_dragDirection;
        const std::int64_t value = parameter.value + step * direction;
        if (value < parameter.minimum || value > parameter.maximum) {
            if (around) {
                continue;
            }
            break;
        }
        NamedPattern ahead = m_document->current();
        ahead.pattern.source->parameters[m_dragParameter].value = value;
        const Result<WarpAccess> access = resolve(ahead.pattern);
        if (!access.ok()) {
            if (around) {
                continue;
            }
            break; // a value the model refuses: the drag cannot go there either
        }
        const ProbeMeasureOptions options = optionsFor(access.value().kind);
        std::string key = MeasurementCache::keyOf(access.value(), options, here);
        if (m_cache.contains(access.value(), options, here) ||
            (m_job != 0 && access.value().kind == m_jobAccess.kind &&
             access.value().addresses == m_jobAccess.addresses)) {
            continue;
        }
        if (firstMissing < 0) {
            firstMissing = step;
            if (!around && step > m_aheadCount / 2) {
                return; // enough is kept ahead for now
            }
            if (m_aheadJob != 0 &&
                std::find(m_aheadKeys.begin(), m_aheadKeys.end(), key) != m_aheadKeys.end()) {
                return; // the sweep under way brings it
            }
        }
        patterns.push_back(std::move(ahead));
        accesses.push_back(access.value());
        keys.push_back(std::move(key));
    }
    if (patterns.empty()) {
        return;
    }
    if (m_aheadJob != 0) {
        // Left behind by the drag: cancelled, never queued in front of what is needed now.
        m_client->cancel(m_aheadJob);
        ++m_aheadCancelled;
    }
    ProbeMeasureOptions options = optionsFor(accesses.front().kind);
    options.grid = false;
    m_aheadAccesses = std::move(accesses);
    m_aheadKeys = std::move(keys);
    m_aheadJob = m_client->sweep(patterns, options);
    ++m_aheadSent;
}

void GpuRunner::onAheadSwept(int job, const std::vector<ProbeMeasurement>& measurements) {
    if (job != m_aheadJob) {
        return;
    }
    m_aheadJob = 0;
    const QString here = origin();
    for (std::size_t i = 0; i < measurements.size() && i < m_aheadAccesses.size(); ++i) {
        m_cache.put(m_aheadAccesses[i], optionsFor(m_aheadAccesses[i].kind), here, measurements[i]);
    }
    m_aheadAccesses.clear();
    m_aheadKeys.clear();
    if (m_waitingForAhead) {
        const bool stillCurrent = m_waitingForAhead->pattern == m_document->pattern();
        m_waitingForAhead.reset();
        if (stillCurrent && !showCached()) {
            autoRun(); // the sweep did not bring it after all: measure it now
            return;
        }
    }
    measureAheadOf();
    if (m_aheadJob == 0 && m_job == 0) {
        measureAheadOf(true); // enough kept ahead: the other side, for a drag back
    }
}

bool GpuRunner::localGpuPresent() {
    const QByteArray forced = qgetenv("WARPSCOPE_GPU_PRESENT");
    if (!forced.isEmpty()) {
        return forced != "0";
    }
    return QFileInfo::exists(QStringLiteral("/dev/nvidiactl")) ||
           !QDir(QStringLiteral("/proc/driver/nvidia/gpus"))
                .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                .isEmpty();
}

void GpuRunner::warmUp() {
    // Only a probe on this machine, and only where a driver is present: never on a machine
    // without a GPU, never a remote host the user has not asked to reach yet.
    const QFileInfo program(m_client->program());
    if (m_client->state() != ProbeClient::State::Stopped || !m_client->arguments().isEmpty() ||
        !program.isFile() || !program.isExecutable() || !localGpuPresent()) {
        return;
    }
    // Its requests are written now, not when the event loop first runs (after the window has
    // built and painted itself): the probe's set-up overlaps the window's.
    m_client->startAtOnce();
    m_warmUpClock.start();
    if (m_job == 0 && !m_document->error() && m_document->evaluation()) {
        // The first measurement sets up the counters (about 0.2 s on an H100, after CUDA's
        // start and the counters' availability: about 0.6 s from the probe's start); it goes
        // with the probe's own first requests, so the probe works through all three without
        // waiting for the window. Its answer goes to the cache only, unless Run asks for the
        // same pattern meanwhile.
        send(m_document->current(), true);
        m_jobWarmUp = m_job != 0;
    }
}

void GpuRunner::retargetWarmUp() {
    // Only while the warm-up waits in the probe's queue behind device_info (the probe is still
    // starting) and nobody has pressed Run: the pattern the window shows now (a preset or a
    // session loaded as it opened) takes its place, so that a Run pressed at once is answered
    // by the warm-up itself instead of by a measurement after it.
    if (!m_jobWarmUp || m_job == 0 || m_pending || m_waitingForAhead ||
        m_client->state() != ProbeClient::State::Starting || m_document->error() ||
        !m_document->evaluation() || m_document->pattern() == m_jobPattern ||
        m_document->pattern().kind.space == MemorySpace::Constant) {
        return;
    }
    m_client->cancel(m_job); // dropped from the probe's queue unless it has begun
    send(m_document->current(), true);
    m_jobWarmUp = m_job != 0;
}

void GpuRunner::send(const NamedPattern& pattern, bool atOnce) {
    if (pattern.pattern.kind.space == MemorySpace::Constant) {
        return; // measured as kernels only (run() says so); auto-run and warm-up skip them
    }
    m_jobPattern = pattern.pattern;
    const Result<WarpAccess> access = resolve(pattern.pattern);
    m_jobAccess = access.ok() ? access.value() : WarpAccess{};
    m_jobWarmUp = false;
    m_jobTimer.start();
    m_job = atOnce ? m_client->measureAtOnce(pattern, optionsFor(pattern.pattern.kind))
                   : m_client->measure(pattern, optionsFor(pattern.pattern.kind));
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
    m_lastRoundTripMs = static_cast<double>(m_jobTimer.nsecsElapsed()) / 1e6;
    m_cache.put(m_jobAccess, optionsFor(m_jobAccess.kind), origin(), measurement);
    const bool warmUp = m_jobWarmUp;
    m_jobWarmUp = false;
    if (warmUp) {
        m_warmUpMs = static_cast<double>(m_warmUpClock.nsecsElapsed()) / 1e6;
    }
    if (warmUp && !(m_pending && m_pending->pattern == m_jobPattern)) {
        // Nobody asked for it: kept in the cache only; a Run meanwhile is sent now.
        sendPending();
        return;
    }
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
    if (m_autoRun && m_aheadJob == 0 && m_job == 0) {
        // Ahead of the drag if one is under way; the GPU idle otherwise: the neighbours of the
        // value just measured, for the next drag.
        measureAheadOf();
        if (m_aheadJob == 0) {
            measureAheadOf(true);
        }
    }
}

void GpuRunner::onFailed(int job, const ProbeFailure& failure) {
    if (job == m_aheadJob) {
        // Measuring ahead is a guess: a failure costs only the head start, never a message.
        m_aheadJob = 0;
        m_aheadAccesses.clear();
        m_aheadKeys.clear();
        if (m_waitingForAhead) {
            m_waitingForAhead.reset();
            autoRun();
        }
        return;
    }
    if (job == m_job) {
        const bool warmUp = m_jobWarmUp;
        m_jobWarmUp = false;
        m_job = 0;
        if (warmUp) {
            sendPending(); // the state change says what is wrong; Run says it again
            return;
        }
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
    if (m_jobWarmUp && !m_pending) {
        // Nobody has asked the GPU for anything yet: the window stays quiet, and Run says it.
        return;
    }
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
        // The probe's message says what is missing; its code (no_driver) is for scripts.
        return tr("No GPU measurement: %1. The model views work as before; a recorded "
                  "measurement still shows.")
            .arg(failure.message);
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
