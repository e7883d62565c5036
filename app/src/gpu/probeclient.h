// ProbeClient: the app's side of warpscope-probe (docs/protocol.md). It owns the probe as a child
// process, so a faulting kernel or a hung GPU costs a restart, never the window: the GPU work
// happens in that process and the client only reads its answer lines as they arrive, on the GUI
// thread's event loop, without ever waiting on them.
//
// Every request is a job with its own id. The client starts the probe on first use, checks the
// protocol version (hello) and asks for the GPU (device_info) before sending anything else. A
// probe that exits, crashes or stays silent past the timeout while a job runs is killed and
// started again: the running job fails with a message saying so, the jobs waiting behind it are
// sent to the new probe. Three stops within a minute and it is left stopped until the user asks
// for a restart, so a broken driver cannot loop.
#pragma once

#include "gpu/kernelmeasurement.h"
#include "gpu/probecommand.h"
#include "gpu/probeconnection.h"
#include "gpu/probemeasurement.h"

#include <warpscope/file_format.h>
#include <warpscope/protocol/device_info.h>
#include <warpscope/protocol/kernel_measurement.h>
#include <warpscope/protocol/ops.h>

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <deque>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

class QTimer;

namespace warpscope::experiments {
struct Experiment;
}

namespace warpscope::app {

/// measure_kernel's options (docs/protocol.md): counters, cold (the L2 flushed before each timed
/// launch, as the notes measure), the number of timed launches and per_instruction; core's.
using protocol::KernelMeasureOptions;

/// measure's and sweep's options (docs/protocol.md): counters, latency, grid, repetitions and
/// the counters to read; core's.
using ProbeMeasureOptions = protocol::MeasureOptions;

/// The "op" of a request, from core's op table.
QString probeOpName(protocol::ProbeOp op);

/// A name from core's tables (an op's, an experiment's key) as a QString.
inline QString qString(std::string_view name) {
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

/// `options` reading only the two counters the app compares for `kind` (nsightCountersFor)
/// when the kind is a global or shared access and counters are asked for; otherwise as given.
ProbeMeasureOptions withCountersOf(ProbeMeasureOptions options, const AccessKind& kind);

/// Why a job got no result. `code` is the protocol's error code (pattern_refused, no_device,
/// counters_not_permitted, ...) or one of the client's own: probe_missing (it could not be
/// started), probe_stopped (it exited or crashed), probe_timeout (it stayed silent),
/// protocol_mismatch, bad_answer.
struct ProbeFailure {
    QString code;
    QString message;
    bool fatal = false;

    /// No GPU to measure on (no driver, no device, driver too old): the app is in model-only mode.
    bool isNoGpu() const;
};

/// One line of the probe's stdout as the client reads it (docs/protocol.md): an answer, a
/// progress line, or neither. Pure, so that the fuzzer reads lines exactly as the client does.
struct ProbeAnswerLine {
    enum class Kind {
        Unreadable, // not a JSON object with an integer id: not a protocol line at all
        Progress,   // {"id", "progress": {"done", "total"}}
        Answer,     // {"id", "ok": true, "result": {...}} or {"id", "ok": false, "error": {...}}
    };
    Kind kind = Kind::Unreadable;
    int id = -1;
    int done = 0; // Progress
    int total = 0;
    /// Answer: true with a result object; false with a failure (the probe's error, or
    /// bad_answer when an answer has no usable "ok" or no result object).
    bool ok = false;
    QJsonObject result;
    ProbeFailure failure;

    static ProbeAnswerLine read(const QByteArray& line);
};

/// Cuts the probe's stdout into lines, whatever pieces the bytes arrive in.
class ProbeLineSplitter {
public:
    void append(const QByteArray& bytes) { m_buffer += bytes; }
    /// The next complete line without its newline, skipping blank ones; nullopt until one is
    /// complete.
    std::optional<QByteArray> takeLine();
    /// Bytes of the line not yet complete (a probe that never ends a line is stopped on it).
    qsizetype pendingBytes() const { return m_buffer.size() - m_start; }
    void clear();

private:
    QByteArray m_buffer;
    qsizetype m_start = 0;
};

class ProbeClient : public QObject {
    Q_OBJECT
public:
    enum class State {
        Stopped,  // not started yet, or stopped on purpose
        Starting, // process started, hello and device_info under way
        Ready,    // a GPU answered device_info
        NoGpu,    // the probe runs but found no GPU (model-only mode)
        Failed,   // it could not be started or kept stopping; restart() tries again
    };
    Q_ENUM(State)

    explicit ProbeClient(QObject* parent = nullptr);
    ~ProbeClient() override;

    /// The probe to run: a program and its arguments (for a remote GPU, "ssh" and
    /// {"gpu-host", "warpscope-probe"}). Takes effect at the next start.
    void setCommand(const QString& program, const QStringList& arguments = {});
    /// The same from a command as the user gave it; one that cannot be used (an unterminated
    /// quote) makes the next start fail with its error.
    void setCommand(const ProbeCommand& command);
    QString program() const { return m_program; }
    QStringList arguments() const { return m_arguments; }
    /// warpscope-probe next to the running executable if it is there, else on the PATH; empty when
    /// neither has it.
    static QString defaultProgram();
    /// Split a command line as typed in the preferences ("ssh gpu warpscope-probe") into a
    /// program and arguments; empty means defaultProgram().
    static std::pair<QString, QStringList> parseCommand(const QString& commandLine);

    /// A job whose answer does not come within this time (no line from the probe at all, not even
    /// progress) counts as a hung probe.
    void setTimeoutMs(int milliseconds) { m_timeoutMs = milliseconds; }
    int timeoutMs() const { return m_timeoutMs; }
    /// How long a start may stay silent before its first answer (a login, a slow link); by
    /// default the timeout, but at least 20 s. Afterwards the timeout counts, stretched by the
    /// link's measured round trip (effectiveTimeoutMs()).
    void setConnectTimeoutMs(int milliseconds) { m_connectTimeoutMs = milliseconds; }
    int connectTimeoutMs() const;

    State state() const { return m_state; }
    /// One sentence on the state for the status bar and messages.
    QString stateText() const;
    /// Valid in the Ready state: the device measured on.
    const GpuInfo& gpu() const { return m_gpu; }
    /// The running probe's version and build (its hello answer), for telling measurements of
    /// different probe builds apart; empty before hello is answered.
    const QString& probeBuild() const { return m_probeBuild; }

    /// The device to measure on (a device_info index; 0 by default). Jobs added afterwards carry
    /// it (a request's "device"); a running probe is asked for that device's facts first. A
    /// device the probe's machine does not have falls back to 0, with deviceNote() saying so.
    void setDevice(int index);
    int device() const { return m_device; }
    /// Every device of the probe's machine, as its latest device_info listed them.
    const std::vector<GpuInfo>& devices() const { return m_devices; }
    QString deviceNote() const { return m_deviceNote; }
    /// Why the probe found no GPU or could not run (NoGpu, Failed).
    const std::optional<ProbeFailure>& stateFailure() const { return m_stateFailure; }
    /// The steps of the latest start and the time each took (the status bar shows them).
    const ProbeStartup& startup() const { return m_startup; }
    /// The probe's build differs from warpscope's (the protocol matches): a note, else empty.
    QString buildNote() const;
    /// Process id of the running probe, or 0.
    qint64 processId() const;
    /// Times the probe was started again after stopping on its own.
    int restartCount() const { return m_restarts; }

    /// Start the probe now (jobs start it anyway).
    void start();
    /// Start the probe now, if it is stopped, and write its first requests (hello, device_info)
    /// to it before returning, instead of when the event loop next runs: the GPU set-up (CUDA,
    /// the counters: about 0.6 s on an H100) then overlaps a window still building itself.
    /// Blocks until the program has been executed (a millisecond or two for a local probe; at
    /// most a second). For a probe on this machine (the window's warm-up), never a remote one.
    void startAtOnce();
    /// Stop the probe; jobs still waiting fail with `cancelled`.
    void stop();
    /// Stop and start again, forgetting earlier failures.
    void restart();

    // ---- Jobs: each returns its id; the answer comes as a signal with that id. ---------------
    int measure(const NamedPattern& pattern, const ProbeMeasureOptions& options);
    /// measure(), written to a running probe at once, behind its start's requests and without
    /// waiting for device_info's answer (the probe answers in order: no_device and the like
    /// come as this job's failure), with the options as given ("counterNames" kept although
    /// hello has not said yet that the probe reads it; a probe that does not answers
    /// bad_request). For the warm-up after startAtOnce(), whose failures are quiet.
    int measureAtOnce(const NamedPattern& pattern, const ProbeMeasureOptions& options);
    int sweep(const std::vector<NamedPattern>& patterns, const ProbeMeasureOptions& options);
    int kernelSource(const NamedPattern& pattern);
    /// A whole kernel (a kernel object as kernelToJson writes it), once per point of `sweep`
    /// (parameter name -> value; empty: once as it is). Answered by kernelMeasured, one
    /// measurement per point in order.
    int measureKernel(const QJsonObject& kernel, const std::vector<KernelPoint>& sweep,
                      const KernelMeasureOptions& options);
    /// The probe experiment `key` (a key of core's table, warpscope/experiments/experiments.h):
    /// a request whose op is the experiment's opName, with the chosen GPU as every op that takes
    /// a device (protocol::ProbeOp::Experiment's row); `options` as docs/protocol.md has them, {}
    /// for the defaults. Answered by experimentMeasured with the answer's result object, which
    /// the experiment's reader in the app's registry reads (app/src/experiments).
    int measureExperiment(std::string_view key, const QJsonObject& options);
    /// Drop a job: a waiting one is never sent (or removed from the probe's queue), a running
    /// sweep is cancelled; its answer, if it still comes, is not reported. No signal follows.
    void cancel(int job);
    /// Jobs sent or waiting to be sent.
    int pendingJobs() const { return static_cast<int>(m_jobs.size()); }

signals:
    void stateChanged(ProbeClient::State state);
    void measured(int job, const ProbeMeasurement& measurement);
    void swept(int job, const std::vector<ProbeMeasurement>& measurements);
    void progress(int job, int done, int total);
    void kernelSourceReady(int job, const QString& source);
    void kernelMeasured(int job, const std::vector<KernelMeasurement>& measurements);
    /// A measureExperiment() job's answer: its experiment's key and the answer's result object.
    void experimentMeasured(int job, const QString& key, const QJsonObject& result);
    void jobFailed(int job, const ProbeFailure& failure);
    /// The probe stopped on its own (`why`) and was started again.
    void restarted(const QString& why);
    /// A step of the start was reached (startup() says which, and when).
    void startupChanged();
    /// device_info listed the devices (devices()), or the device measured on changed.
    void devicesChanged();

private:
    /// The ops and their properties (takes a device, needs a GPU, cancellable) are core's table.
    using Op = protocol::ProbeOp;
    struct Job {
        int id = 0;
        Op op = Op::Measure;
        /// For Op::Experiment, which experiment (a row of core's table, which lives as long as
        /// the program).
        const experiments::Experiment* experiment = nullptr;
        QByteArray line; // the request, with its newline
        bool sent = false;
        bool silent = false; // answer not reported (cancelled)
        bool early = false;  // sent before device_info is answered (measureAtOnce)
        QDateTime started;
    };

    int addJob(Op op, QJsonObject request, bool early = false,
               const experiments::Experiment* experiment = nullptr);
    /// Writes what the process holds unwritten now (startAtOnce, measureAtOnce).
    void flushAtOnce();
    void ensureStarted();
    void startProcess();
    void sendWaiting();
    void send(Job& job);
    void onReadyRead();
    void onStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onProcessError(QProcess::ProcessError error);
    void onWatchdog();
    void handleLine(const QByteArray& line);
    void handleAnswer(Job job, const ProbeAnswerLine& answer);
    void failAll(const ProbeFailure& failure, bool includeUnsent);
    void failJob(const Job& job, const ProbeFailure& failure);
    void probeStopped(const QString& why);
    void setState(State state);
    bool hasJobsSent() const;
    QString stderrTail() const;
    /// Stops the probe for good on a diagnosis a restart cannot help (a login prompt, a probe
    /// missing on the GPU machine, another protocol version).
    void stopOnDiagnosis(const ProbeDiagnosis& diagnosis);
    /// Asks for device `index`'s facts ahead of the jobs not yet sent.
    void queueDeviceInfo(int index);
    void takeDeviceInfo(const protocol::DeviceInfoAnswer& answer);
    QString commandText() const;

    QString m_program;
    QStringList m_arguments;
    QString m_commandError; // why the command as given cannot be used
    ProbeStartup m_startup;
    QElapsedTimer m_startClock; // since the latest start
    QProcess* m_process = nullptr;
    QTimer* m_watchdog;
    QElapsedTimer m_sinceLastLine;
    int m_timeoutMs = 60000;
    int m_connectTimeoutMs = -1; // -1: max(m_timeoutMs, 20 s)
    State m_state = State::Stopped;
    GpuInfo m_gpu;
    QString m_probeBuild;
    bool m_probeNamesCounters = false; // hello listed "counterNames" among measureOptions
    int m_device = 0;
    std::vector<GpuInfo> m_devices;
    QString m_deviceNote;
    std::optional<ProbeFailure> m_stateFailure;
    int m_nextId = 1;
    std::deque<Job> m_jobs; // in the order sent (the probe answers in that order)
    ProbeLineSplitter m_lines;
    int m_strayLines = 0; // lines of this probe that answered nothing it was asked
    QByteArray m_stderr;
    bool m_stopping = false;         // we asked it to stop: its exit is no failure
    bool m_expectExit = false;       // it answered a fatal error: it exits with status 3
    std::vector<qint64> m_stopTimes; // ms since epoch of unplanned stops, for the restart limit
    int m_restarts = 0;
};

} // namespace warpscope::app
