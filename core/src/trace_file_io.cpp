// Trace files, the bytes (docs/file-formats.md, "Trace files"): the preamble, the header's
// length and the fixed-size records, read lazily from a file or from memory. Every length and
// count in the file is compared with the bytes actually there before anything is allocated, and
// every error names the byte offset it is about.
#include "warpscope/trace_file.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <system_error>
#include <tuple>
#include <utility>

namespace warpscope {

namespace {

Error atOffset(std::string message, std::uint64_t offset) {
    return Error{ErrorCode::FileFormat, std::move(message), 0, "byte " + std::to_string(offset)};
}

std::uint32_t loadU32(const char* bytes) {
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i) {
        value = (value << 8) | static_cast<unsigned char>(bytes[i]);
    }
    return value;
}

std::uint64_t loadU64(const char* bytes) {
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) {
        value = (value << 8) | static_cast<unsigned char>(bytes[i]);
    }
    return value;
}

void storeU32(std::string& out, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xffu));
    }
}

void storeU64(std::string& out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xffu));
    }
}

/// Records start on an 8-byte boundary after the header.
std::uint64_t recordAreaStart(std::uint64_t headerBytes) {
    return (kTracePreambleBytes + headerBytes + 7u) / 8u * 8u;
}

TraceRecord decodeRecord(const char* bytes) {
    TraceRecord record;
    record.instruction = loadU32(bytes);
    for (std::size_t i = 0; i < 3; ++i) {
        record.block[i] = loadU32(bytes + 4 + 4 * i);
    }
    record.warp = loadU32(bytes + 16);
    record.activeMask = loadU32(bytes + 20);
    for (std::size_t lane = 0; lane < kWarpSize; ++lane) {
        record.addresses[lane] = loadU64(bytes + 24 + 8 * lane);
    }
    return record;
}

void encodeRecord(std::string& out, const TraceRecord& record) {
    storeU32(out, record.instruction);
    for (const std::uint32_t part : record.block) {
        storeU32(out, part);
    }
    storeU32(out, record.warp);
    storeU32(out, record.activeMask);
    for (const std::uint64_t address : record.addresses) {
        storeU64(out, address);
    }
}

class MemorySource : public TraceByteSource {
public:
    explicit MemorySource(std::string bytes) : m_bytes(std::move(bytes)) {}
    std::uint64_t size() const override { return m_bytes.size(); }
    bool readAt(std::uint64_t offset, std::size_t count, char* out) override {
        if (offset > m_bytes.size() || count > m_bytes.size() - offset) {
            return false;
        }
        std::memcpy(out, m_bytes.data() + offset, count);
        return true;
    }

private:
    std::string m_bytes;
};

class FileSource : public TraceByteSource {
public:
    FileSource(std::ifstream stream, std::uint64_t size)
        : m_stream(std::move(stream)), m_size(size) {}
    std::uint64_t size() const override { return m_size; }
    bool readAt(std::uint64_t offset, std::size_t count, char* out) override {
        if (offset > m_size || count > m_size - offset) {
            return false;
        }
        m_stream.clear();
        m_stream.seekg(static_cast<std::streamoff>(offset));
        m_stream.read(out, static_cast<std::streamsize>(count));
        return static_cast<std::size_t>(m_stream.gcount()) == count;
    }

private:
    std::ifstream m_stream;
    std::uint64_t m_size;
};

} // namespace

Result<TraceReader> TraceReader::open(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        return Error{ErrorCode::Io, "is a directory, not a trace file", 0, path};
    }
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) {
        return Error{ErrorCode::Io, "cannot read the trace file: " + ec.message(), 0, path};
    }
    std::ifstream stream(path, std::ios::binary);
    if (!stream) {
        return Error{ErrorCode::Io, "cannot open the trace file for reading", 0, path};
    }
    return fromSource(std::make_shared<FileSource>(std::move(stream), size));
}

Result<TraceReader> TraceReader::fromBytes(std::string bytes) {
    return fromSource(std::make_shared<MemorySource>(std::move(bytes)));
}

Result<TraceReader> TraceReader::fromSource(std::shared_ptr<TraceByteSource> source) {
    const std::uint64_t size = source->size();
    char preamble[kTracePreambleBytes];
    if (size < kTracePreambleBytes || !source->readAt(0, kTracePreambleBytes, preamble)) {
        return atOffset("the file is " + std::to_string(size) + " bytes, shorter than a trace's " +
                            std::to_string(kTracePreambleBytes) +
                            "-byte preamble: not a warpscope trace, or cut short",
                        0);
    }
    if (std::memcmp(preamble, kTraceMagic, sizeof kTraceMagic) != 0) {
        return atOffset("not a warpscope trace: the file does not start with \"WSTRACE\" (a "
                        ".wstrace file written by warpscope-trace)",
                        0);
    }
    const std::uint32_t version = loadU32(preamble + 8);
    if (version == 0 || version > kTraceFormatVersion) {
        return atOffset("trace format version " + std::to_string(version) +
                            "; this warpscope reads version " +
                            std::to_string(kTraceFormatVersion) +
                            (version > kTraceFormatVersion ? " (update warpscope)" : ""),
                        8);
    }
    const std::uint32_t recordBytes = loadU32(preamble + 12);
    if (recordBytes != kTraceRecordBytes) {
        return atOffset("record size " + std::to_string(recordBytes) + " bytes; version 1 has " +
                            std::to_string(kTraceRecordBytes) + "-byte records",
                        12);
    }
    const std::uint64_t headerBytes = loadU64(preamble + 16);
    if (headerBytes > kMaxTraceHeaderBytes) {
        return atOffset("the header is " + std::to_string(headerBytes) +
                            " bytes; a trace header may be at most " +
                            std::to_string(kMaxTraceHeaderBytes / (std::uint64_t{1024} * 1024)) +
                            " MiB",
                        16);
    }
    if (headerBytes > size - kTracePreambleBytes) {
        return atOffset("the header claims " + std::to_string(headerBytes) + " bytes but only " +
                            std::to_string(size - kTracePreambleBytes) +
                            " follow: the file is cut short",
                        16);
    }
    std::string headerText(static_cast<std::size_t>(headerBytes), '\0');
    if (!source->readAt(kTracePreambleBytes, headerText.size(), headerText.data())) {
        return Error{ErrorCode::Io, "cannot read the trace header", 0, "byte 24"};
    }
    auto header = traceHeaderFromJsonText(headerText);
    if (!header) {
        Error error = header.error();
        error.message = "in the trace header: " + error.message;
        return error;
    }
    const std::uint64_t recordOffset = recordAreaStart(headerBytes);
    const std::uint64_t recordArea = size >= recordOffset ? size - recordOffset : 0;
    if (size < recordOffset || recordArea % kTraceRecordBytes != 0) {
        return atOffset("the record area is " + std::to_string(recordArea) +
                            " bytes, not a whole number of " + std::to_string(kTraceRecordBytes) +
                            "-byte records: the file is cut "
                            "short or has bytes appended",
                        std::min(recordOffset, size));
    }
    if (header.value().recordCount != recordArea / kTraceRecordBytes) {
        return atOffset("the header says " + std::to_string(header.value().recordCount) +
                            " records but the file holds " +
                            std::to_string(recordArea / kTraceRecordBytes),
                        recordOffset);
    }
    TraceReader reader;
    reader.m_source = std::move(source);
    reader.m_header = std::move(header).value();
    reader.m_recordOffset = recordOffset;
    return reader;
}

Result<std::vector<TraceRecord>> TraceReader::readRecords(std::uint64_t first,
                                                          std::uint64_t count) const {
    if (first > m_header.recordCount || count > m_header.recordCount - first) {
        return Error{ErrorCode::InvalidValue,
                     "records " + std::to_string(first) + " + " + std::to_string(count) +
                         " run past the trace's " + std::to_string(m_header.recordCount),
                     0, "records"};
    }
    if (count > kMaxTraceRecordsPerRead) {
        return Error{ErrorCode::InvalidValue,
                     "at most " + std::to_string(kMaxTraceRecordsPerRead) +
                         " records per read; read the range in pieces",
                     0, "records"};
    }
    std::string bytes(static_cast<std::size_t>(count * kTraceRecordBytes), '\0');
    const std::uint64_t offset = m_recordOffset + first * kTraceRecordBytes;
    if (!m_source->readAt(offset, bytes.size(), bytes.data())) {
        return Error{ErrorCode::Io, "cannot read the records", 0, "byte " + std::to_string(offset)};
    }
    std::vector<TraceRecord> records;
    records.reserve(static_cast<std::size_t>(count));
    for (std::uint64_t i = 0; i < count; ++i) {
        const TraceRecord record = decodeRecord(bytes.data() + i * kTraceRecordBytes);
        if (record.instruction >= m_header.instructions.size()) {
            return atOffset("record " + std::to_string(first + i) + " names instruction " +
                                std::to_string(record.instruction) + "; the trace has " +
                                std::to_string(m_header.instructions.size()),
                            offset + i * kTraceRecordBytes);
        }
        const TraceInstruction& owner = m_header.instructions[record.instruction];
        const std::uint64_t index = first + i;
        if (index < owner.firstRecord || index - owner.firstRecord >= owner.recordCount) {
            return atOffset("record " + std::to_string(index) + " names instruction " +
                                std::to_string(record.instruction) +
                                ", whose records are elsewhere in the file",
                            offset + i * kTraceRecordBytes);
        }
        records.push_back(record);
    }
    return records;
}

Result<TraceRecord> TraceReader::readRecord(std::uint64_t index) const {
    auto records = readRecords(index, 1);
    if (!records) {
        return records.error();
    }
    return records.value().front();
}

Result<std::vector<TraceRecord>> TraceReader::instructionRecords(std::size_t instruction) const {
    if (instruction >= m_header.instructions.size()) {
        return Error{ErrorCode::InvalidValue,
                     "no instruction " + std::to_string(instruction) + "; the trace has " +
                         std::to_string(m_header.instructions.size()),
                     0, "instruction"};
    }
    const TraceInstruction& entry = m_header.instructions[instruction];
    return readRecords(entry.firstRecord, entry.recordCount);
}

Result<std::vector<TraceRecord>> TraceReader::warpRecords(std::size_t launch,
                                                          const std::array<std::uint32_t, 3>& block,
                                                          std::uint32_t warp) const {
    if (launch >= m_header.launches.size()) {
        return Error{ErrorCode::InvalidValue,
                     "no launch " + std::to_string(launch) + "; the trace has " +
                         std::to_string(m_header.launches.size()),
                     0, "launch"};
    }
    std::vector<TraceRecord> found;
    for (const TraceInstruction& entry : m_header.instructions) {
        if (entry.launch != static_cast<std::int64_t>(launch)) {
            continue;
        }
        for (std::uint64_t done = 0; done < entry.recordCount;) {
            const std::uint64_t piece = std::min(entry.recordCount - done, kMaxTraceRecordsPerRead);
            auto records = readRecords(entry.firstRecord + done, piece);
            if (!records) {
                return records.error();
            }
            for (const TraceRecord& record : records.value()) {
                if (record.block == block && record.warp == warp) {
                    found.push_back(record);
                }
            }
            done += piece;
        }
    }
    return found;
}

std::size_t TraceWriter::addLaunch(TraceLaunch launch) {
    m_header.launches.push_back(std::move(launch));
    return m_header.launches.size() - 1;
}

std::size_t TraceWriter::addInstruction(TraceInstruction instruction) {
    m_header.instructions.push_back(std::move(instruction));
    return m_header.instructions.size() - 1;
}

Result<std::string> TraceWriter::toBytes() const {
    std::vector<std::size_t> order(m_records.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto key = [this](std::size_t i) {
        const TraceRecord& r = m_records[i];
        return std::make_tuple(r.instruction, r.block[2], r.block[1], r.block[0], r.warp);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    TraceHeader header = m_header;
    header.recordCount = m_records.size();
    for (TraceInstruction& instruction : header.instructions) {
        instruction.firstRecord = 0;
        instruction.recordCount = 0;
    }
    for (const TraceRecord& record : m_records) {
        if (record.instruction >= header.instructions.size()) {
            return Error{ErrorCode::InvalidValue,
                         "a record names instruction " + std::to_string(record.instruction) +
                             " of " + std::to_string(header.instructions.size()),
                         0, "records"};
        }
        ++header.instructions[record.instruction].recordCount;
    }
    std::uint64_t next = 0;
    for (TraceInstruction& instruction : header.instructions) {
        instruction.firstRecord = next;
        next += instruction.recordCount;
    }
    const std::string headerText = traceHeaderToJsonText(header);
    std::string out(kTraceMagic, sizeof kTraceMagic);
    storeU32(out, kTraceFormatVersion);
    storeU32(out, static_cast<std::uint32_t>(kTraceRecordBytes));
    storeU64(out, headerText.size());
    out += headerText;
    out.resize(static_cast<std::size_t>(recordAreaStart(headerText.size())), ' ');
    out.reserve(out.size() + m_records.size() * kTraceRecordBytes);
    for (const std::size_t i : order) {
        encodeRecord(out, m_records[i]);
    }
    return out;
}

Result<bool> TraceWriter::write(const std::string& path) const {
    auto bytes = toBytes();
    if (!bytes) {
        return bytes.error();
    }
    const std::string temporary = path + ".part";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(bytes.value().data(), static_cast<std::streamsize>(bytes.value().size()));
        out.close();
        if (!out) {
            std::remove(temporary.c_str());
            return Error{ErrorCode::Io, "cannot write the trace file", 0, path};
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::remove(temporary.c_str());
        return Error{ErrorCode::Io, "cannot write the trace file: " + ec.message(), 0, path};
    }
    return true;
}

} // namespace warpscope
