// The opened trace, its summaries and traced warps, and the loader that reads it.
#include "document/tracedocument.h"

#include "document/patterndocument.h"
#include "document/patterneditcommand.h"
#include "document/tracepattern.h"

#include <warpscope/model.h>

#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QThread>
#include <QUndoStack>

#include <algorithm>
#include <cstring>

namespace warpscope::app {

namespace {

const TraceHeader& emptyHeader() {
    static const TraceHeader header;
    return header;
}

/// The header length the preamble states, or nothing when the preamble cannot be read (the
/// reader then says what is wrong).
std::optional<std::uint64_t> statedHeaderBytes(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    const QByteArray preamble = file.read(static_cast<qint64>(kTracePreambleBytes));
    if (preamble.size() != static_cast<qsizetype>(kTracePreambleBytes)) {
        return std::nullopt;
    }
    std::uint64_t bytes = 0;
    for (int i = 7; i >= 0; --i) {
        bytes = (bytes << 8) | static_cast<unsigned char>(preamble[16 + i]);
    }
    return bytes;
}

QString hexPc(std::int64_t pc) {
    return QStringLiteral("0x%1").arg(static_cast<qulonglong>(pc), 4, 16, QLatin1Char('0'));
}

} // namespace

bool isTraceFile(const QString& path) {
    if (QFileInfo(path).suffix().compare(QLatin1String(kTraceSuffix), Qt::CaseInsensitive) == 0) {
        return true;
    }
    // Only a regular file is sniffed: opening a FIFO or a device to read its first bytes would
    // block or never end (the session reader then refuses it with its own message).
    if (!QFileInfo(path).isFile()) {
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QByteArray magic = file.read(sizeof kTraceMagic);
    return magic.size() == static_cast<qsizetype>(sizeof kTraceMagic) &&
           std::memcmp(magic.constData(), kTraceMagic, sizeof kTraceMagic) == 0;
}

QString shortKernelName(const std::string& kernel) {
    std::string name = kernel;
    // Drop the parameter list: the last top-level "(...)" group.
    if (!name.empty() && name.back() == ')') {
        int depth = 0;
        for (std::size_t i = name.size(); i-- > 0;) {
            if (name[i] == ')') {
                ++depth;
            } else if (name[i] == '(' && --depth == 0) {
                name.erase(i);
                break;
            }
        }
    }
    // Elide template arguments, which for library kernels run to hundreds of characters.
    std::string shortName;
    int angle = 0;
    for (const char c : name) {
        if (c == '<') {
            if (angle++ == 0) {
                shortName += "<…>";
            }
        } else if (c == '>' && angle > 0) {
            --angle;
        } else if (angle == 0) {
            shortName += c;
        }
    }
    // The return type ("void "): up to the last space outside parentheses, so that
    // "(anonymous namespace)" stays whole.
    std::size_t nameStart = 0;
    int paren = 0;
    for (std::size_t i = 0; i < shortName.size(); ++i) {
        if (shortName[i] == '(') {
            ++paren;
        } else if (shortName[i] == ')' && paren > 0) {
            --paren;
        } else if (shortName[i] == ' ' && paren == 0 && i + 1 < shortName.size()) {
            nameStart = i + 1;
        }
    }
    shortName.erase(0, nameStart);
    return QString::fromStdString(shortName.empty() ? kernel : shortName);
}

QString tracedWarpName(const std::array<std::uint32_t, 3>& block, std::uint32_t warp) {
    return QObject::tr("block (%1, %2, %3) warp %4")
        .arg(block[0])
        .arg(block[1])
        .arg(block[2])
        .arg(warp);
}

QString sourceLineText(const TraceInstruction& instruction) {
    if (instruction.sourceFile.empty()) {
        return {};
    }
    return QStringLiteral("%1:%2")
        .arg(QString::fromStdString(instruction.sourceFile))
        .arg(instruction.sourceLine);
}

TraceDocument::TraceDocument(QObject* parent) : QObject(parent) {}

TraceDocument::~TraceDocument() = default;

void TraceDocument::setTrace(std::shared_ptr<const TraceReader> reader, const QString& path) {
    m_reader = std::move(reader);
    m_path = path;
    m_summaries.clear();
    emit traceChanged();
}

const TraceHeader& TraceDocument::header() const {
    return m_reader ? m_reader->header() : emptyHeader();
}

const Result<std::vector<TraceInstructionSummary>>&
TraceDocument::launchSummary(std::size_t launch) {
    auto found = m_summaries.find(launch);
    if (found == m_summaries.end()) {
        Result<std::vector<TraceInstructionSummary>> summary =
            m_reader ? summarizeTraceLaunch(*m_reader, launch)
                     : Result<std::vector<TraceInstructionSummary>>(
                           Error{ErrorCode::InvalidValue, "no trace is open", 0, {}});
        found = m_summaries.emplace(launch, std::move(summary)).first;
    }
    return found->second;
}

Result<std::vector<TracedWarp>> TraceDocument::warps(std::size_t instruction) const {
    if (!m_reader || instruction >= header().instructions.size()) {
        return Error{ErrorCode::InvalidValue, "no such traced instruction", 0, {}};
    }
    const TraceInstruction& traced = header().instructions[instruction];
    auto records = m_reader->readRecords(traced.firstRecord,
                                         std::min(traced.recordCount, kMaxListedTracedWarps));
    if (!records) {
        return records.error();
    }
    std::vector<TracedWarp> warps;
    warps.reserve(records.value().size());
    for (std::size_t i = 0; i < records.value().size(); ++i) {
        const TraceRecord& record = records.value()[i];
        warps.push_back({traced.firstRecord + i, record.block, record.warp});
    }
    return warps;
}

Result<TraceGridData> TraceDocument::gridData(std::size_t instruction) const {
    if (!m_reader || instruction >= header().instructions.size()) {
        return Error{ErrorCode::InvalidValue, "no such traced instruction", 0, {}};
    }
    const TraceInstruction& traced = header().instructions[instruction];
    TraceGridData data;
    data.reader = m_reader.get();
    data.instruction = instruction;
    data.launch = header().launches.at(static_cast<std::size_t>(traced.launch));
    const QString sass = traced.sass.empty() ? QString() : QString::fromStdString(traced.sass);
    data.title = tr("%1: PC %2 %3")
                     .arg(shortKernelName(data.launch.kernel), hexPc(traced.pcOffset), sass)
                     .trimmed();
    const bool shared = traced.space == MemorySpace::Shared;
    data.unitName = shared ? tr("wavefronts/request") : tr("sectors/request");
    const std::uint64_t count = std::min(traced.recordCount, kMaxGridTracedWarps);
    data.warpsLeftOut = traced.recordCount - count;
    data.warps.reserve(count);
    // The same counting as core's summarizeTraceInstruction, one warp at a time.
    for (std::uint64_t done = 0; done < count;) {
        const std::uint64_t piece = std::min<std::uint64_t>(count - done, 65536);
        auto records = m_reader->readRecords(traced.firstRecord + done, piece);
        if (!records) {
            return records.error();
        }
        for (std::size_t i = 0; i < records.value().size(); ++i) {
            const TraceRecord& record = records.value()[i];
            TracedWarpValue value{traced.firstRecord + done + i, record.block, record.warp, 0.0,
                                  traced.op != TraceOp::Atomic};
            auto pattern = value.counted
                               ? tracedPattern(traced, record)
                               : Result<Pattern>(Error{ErrorCode::InvalidValue, {}, 0, {}});
            auto access = pattern ? resolve(pattern.value()) : Result<WarpAccess>(pattern.error());
            if (!access) {
                value.counted = false;
            } else {
                const ModernPrediction prediction = predictModern(access.value());
                if (prediction.shared) {
                    value.perRequest = access.value().activeLaneCount() > 0
                                           ? static_cast<double>(prediction.shared->wavefronts)
                                           : 0.0;
                } else if (prediction.global && prediction.global->requests > 0) {
                    value.perRequest = static_cast<double>(prediction.global->sectors) /
                                       static_cast<double>(prediction.global->requests);
                }
            }
            data.warps.push_back(value);
        }
        done += piece;
    }
    return data;
}

Result<TraceRecord> TraceDocument::checkedRecord(std::size_t instruction,
                                                 std::uint64_t record) const {
    if (!m_reader || instruction >= header().instructions.size()) {
        return Error{ErrorCode::InvalidValue, "no such traced instruction", 0, {}};
    }
    const TraceInstruction& traced = header().instructions[instruction];
    if (record < traced.firstRecord || record - traced.firstRecord >= traced.recordCount) {
        return Error{ErrorCode::InvalidValue, "the record is not one of the instruction's", 0, {}};
    }
    return m_reader->readRecord(record);
}

Result<NamedPattern> TraceDocument::tracedWarp(std::size_t instruction,
                                               std::uint64_t record) const {
    auto read = checkedRecord(instruction, record);
    if (!read) {
        return read.error();
    }
    const TraceInstruction& traced = header().instructions[instruction];
    auto pattern = tracedPattern(traced, read.value());
    if (!pattern) {
        return pattern.error();
    }
    const TraceLaunch& launch = header().launches.at(static_cast<std::size_t>(traced.launch));
    const QString sass = traced.sass.empty() ? tr("PC %1").arg(hexPc(traced.pcOffset))
                                             : QString::fromStdString(traced.sass);
    // The PC in the title too: an exported figure names the instruction without its caption.
    const QString title = tr("Traced %1: %2 (PC %3), %4")
                              .arg(shortKernelName(launch.kernel), sass, hexPc(traced.pcOffset),
                                   tracedWarpName(read.value().block, read.value().warp));
    QString caption = tr("Recorded by warpscope-trace from %1; PC %2")
                          .arg(QString::fromStdString(header().program), hexPc(traced.pcOffset));
    if (const QString line = sourceLineText(traced); !line.isEmpty()) {
        caption += tr(", %1").arg(line);
    }
    return NamedPattern(title.toStdString(), caption.toStdString(), pattern.value());
}

Result<NamedPattern> TraceDocument::editableWarp(std::size_t instruction,
                                                 std::uint64_t record) const {
    auto traced = tracedWarp(instruction, record);
    if (!traced) {
        return traced.error();
    }
    auto editable = editableTracedPattern(header().instructions[instruction],
                                          m_reader->readRecord(record).value());
    if (!editable) {
        return editable.error();
    }
    NamedPattern named = traced.value();
    named.title = tr("%1 (as a pattern)").arg(QString::fromStdString(named.title)).toStdString();
    named.pattern = editable.value();
    return named;
}

namespace {

void pushLoad(PatternDocument& document, const NamedPattern& after, const QString& description) {
    // The path a preset takes (PatternDocument::loadPreset): one PatternEditCommand on the
    // current entry, so the edit is undone like any other and the session keeps its entries.
    document.undoStack()->push(new PatternEditCommand(
        &document, document.currentEntryIndex(), document.current(), document.presetId(), after,
        QString(), description, static_cast<int>(EditMerge::None), document.selectedAccess(), 0));
}

} // namespace

std::optional<Error> TraceDocument::showTracedWarp(PatternDocument& document,
                                                   std::size_t instruction,
                                                   std::uint64_t record) const {
    auto traced = tracedWarp(instruction, record);
    if (!traced) {
        return traced.error();
    }
    if (traced.value() == document.current() && document.presetId().isEmpty()) {
        return std::nullopt;
    }
    pushLoad(document, traced.value(), tr("Show traced warp"));
    return std::nullopt;
}

std::optional<Error> TraceDocument::openAsPattern(PatternDocument& document,
                                                  std::size_t instruction,
                                                  std::uint64_t record) const {
    auto editable = editableWarp(instruction, record);
    if (!editable) {
        return editable.error();
    }
    pushLoad(document, editable.value(), tr("Open traced warp as pattern"));
    return std::nullopt;
}

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {}

TraceLoader::~TraceLoader() = default;

int TraceLoader::load(const QString& path) {
    const int job = ++m_job;
    const auto headerBytes = statedHeaderBytes(path);
    // At once: a small header, and one the reader refuses before reading it (longer than the
    // limit or than the file), so such an error is in the message bar when load() returns.
    if (!headerBytes || *headerBytes <= kTraceHeaderReadAtOnceBytes ||
        *headerBytes > kMaxTraceHeaderBytes ||
        *headerBytes > static_cast<std::uint64_t>(QFileInfo(path).size())) {
        deliver(job, path, TraceReader::open(path.toStdString()));
        return job;
    }
    // A large header (up to kMaxTraceHeaderBytes of JSON) is parsed on a worker; the result is
    // handed back on the GUI thread through the thread's finished signal, which is dropped if
    // this loader is gone by then.
    auto result = std::make_shared<std::optional<Result<TraceReader>>>();
    const std::string file = path.toStdString();
    QThread* worker = QThread::create([result, file] { result->emplace(TraceReader::open(file)); });
    ++m_running;
    connect(worker, &QThread::finished, this, [this, job, path, result] {
        --m_running;
        if (result->has_value()) {
            deliver(job, path, std::move(**result));
        }
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
    return job;
}

void TraceLoader::deliver(int job, const QString& path, Result<TraceReader> result) {
    if (job != m_job) {
        return; // a newer load superseded this one
    }
    if (!result) {
        emit failed(job, path, result.error());
        return;
    }
    emit loaded(job, path, std::make_shared<const TraceReader>(std::move(result).value()));
}

} // namespace warpscope::app
