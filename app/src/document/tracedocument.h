// The trace the user opened (File ▸ Open Trace): the core's TraceReader over a .wstrace file, the
// model's per-instruction summaries of each launch (core's summarizeTraceLaunch, computed once),
// the traced warps of an instruction, and a traced warp made the document's current pattern by
// the path a loaded preset takes (one undoable step), so the views, the metrics and exports draw
// and count it as a typed pattern. TraceLoader reads a trace off the GUI thread when its header
// is large.
#pragma once

#include <warpscope/file_format.h>
#include <warpscope/trace_file.h>

#include <QObject>
#include <QString>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace warpscope::app {

class PatternDocument;

inline constexpr const char* kTraceSuffix = "wstrace";
/// A trace whose JSON header is longer than this is read on a worker thread.
inline constexpr std::uint64_t kTraceHeaderReadAtOnceBytes = 1u << 20;
/// The most warps the warp picker lists for one instruction (the first ones in the file).
inline constexpr std::uint64_t kMaxListedTracedWarps = 4096;

/// True when `path` names a trace: its suffix is .wstrace, or its first bytes are the trace
/// magic (a trace saved under another name).
bool isTraceFile(const QString& path);

/// A demangled kernel name short enough for a title: no parameter list, template arguments
/// elided ("at::native::elementwise_kernel<…>"), no leading return type.
QString shortKernelName(const std::string& kernel);
/// "block (3, 0, 0) warp 1"
QString tracedWarpName(const std::array<std::uint32_t, 3>& block, std::uint32_t warp);
/// "sample.cu:18", or empty without line info.
QString sourceLineText(const TraceInstruction& instruction);

/// One traced warp of an instruction, as the warp picker lists it.
struct TracedWarp {
    std::uint64_t record = 0; // index into the trace's records
    std::array<std::uint32_t, 3> block{};
    std::uint32_t warp = 0;
};

/// The model's value for one traced warp of an instruction: sectors per request (global, local)
/// or wavefronts per request (shared), as core's summaries count them, for the trace grid view.
struct TracedWarpValue {
    std::uint64_t record = 0;
    std::array<std::uint32_t, 3> block{};
    std::uint32_t warp = 0;
    double perRequest = 0.0;
    bool counted = true; // false: an atomic, or addresses the models refuse
};

/// An instruction's traced warps over its launch, as the trace grid view draws them.
struct TraceGridData {
    const TraceReader* reader = nullptr; // the trace it was read from
    std::size_t instruction = 0;
    TraceLaunch launch;
    QString title;    // kernel, PC and SASS
    QString unitName; // "sectors/request" or "wavefronts/request"
    std::vector<TracedWarpValue> warps;
    /// Records beyond kMaxGridTracedWarps were not read (the view says so).
    std::uint64_t warpsLeftOut = 0;
};
/// The most traced warps the grid view reads for one instruction.
inline constexpr std::uint64_t kMaxGridTracedWarps = 1u << 18;

class TraceDocument : public QObject {
    Q_OBJECT
public:
    explicit TraceDocument(QObject* parent = nullptr);
    ~TraceDocument() override;

    void setTrace(std::shared_ptr<const TraceReader> reader, const QString& path);
    bool hasTrace() const { return m_reader != nullptr; }
    const TraceReader* reader() const { return m_reader.get(); }
    const TraceHeader& header() const;
    QString path() const { return m_path; }

    /// The model's summary of every instruction of `launch`, worst per request first (core's
    /// summarizeTraceLaunch, the same numbers `warpscope-cli trace-summary` prints).
    const Result<std::vector<TraceInstructionSummary>>& launchSummary(std::size_t launch);
    /// The warps traced for `instruction` (at most kMaxListedTracedWarps), in file order.
    Result<std::vector<TracedWarp>> warps(std::size_t instruction) const;
    /// Every traced warp of `instruction` (up to kMaxGridTracedWarps) with the model's value.
    Result<TraceGridData> gridData(std::size_t instruction) const;
    /// Record `record` of `instruction` as a pattern of literal addresses (core's tracedPattern),
    /// titled as traced: kernel, SASS, block and warp; the caption names the program, the PC and
    /// the source line.
    Result<NamedPattern> tracedWarp(std::size_t instruction, std::uint64_t record) const;
    /// The same as an editable pattern (tracepattern.h: `base + stride * lane` when it fits).
    Result<NamedPattern> editableWarp(std::size_t instruction, std::uint64_t record) const;

    /// Make the traced warp the current pattern of `document` (one undoable step, as a preset
    /// is loaded). An error (an atomic, which the models do not count; an unreadable record)
    /// changes nothing.
    std::optional<Error> showTracedWarp(PatternDocument& document, std::size_t instruction,
                                        std::uint64_t record) const;
    /// "Open as pattern": the editable form becomes the current pattern (one undoable step).
    std::optional<Error> openAsPattern(PatternDocument& document, std::size_t instruction,
                                       std::uint64_t record) const;

signals:
    void traceChanged();

private:
    Result<TraceRecord> checkedRecord(std::size_t instruction, std::uint64_t record) const;

    std::shared_ptr<const TraceReader> m_reader;
    QString m_path;
    std::map<std::size_t, Result<std::vector<TraceInstructionSummary>>> m_summaries;
};

/// Reads trace files: a header up to kTraceHeaderReadAtOnceBytes at once (the signal comes
/// before load() returns), a larger one on a worker thread. Each load has a job id; a newer
/// load supersedes an older one, whose answer is dropped.
class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    int load(const QString& path);
    bool isLoading() const { return m_running > 0; }

signals:
    void loaded(int job, const QString& path, std::shared_ptr<const warpscope::TraceReader> reader);
    void failed(int job, const QString& path, const warpscope::Error& error);

private:
    void deliver(int job, const QString& path, Result<TraceReader> result);

    int m_job = 0;
    int m_running = 0;
};

} // namespace warpscope::app
