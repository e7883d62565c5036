// Reading the raw launch file and building the trace (raw_launch.h).
#include "raw_launch.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <tuple>

namespace warpscope::trace {

namespace {

constexpr std::uint32_t kFlagRead = 0x1;  // SANITIZER_MEMORY_DEVICE_FLAG_READ
constexpr std::uint32_t kFlagWrite = 0x2; // SANITIZER_MEMORY_DEVICE_FLAG_WRITE

Error rawError(std::string message) {
    return Error{ErrorCode::FileFormat, "the tracer's raw launch file: " + std::move(message), 0,
                 "launch.bin"};
}

MemorySpace spaceOf(std::uint32_t space) {
    switch (space) {
    case RawShared:
        return MemorySpace::Shared;
    case RawLocal:
        return MemorySpace::Local;
    default:
        return MemorySpace::Global;
    }
}

} // namespace

Result<RawLaunch> readRawLaunch(const std::string& bytes) {
    RawLaunch launch;
    if (bytes.size() < sizeof launch.header) {
        return rawError("cut short (" + std::to_string(bytes.size()) + " bytes)");
    }
    std::memcpy(&launch.header, bytes.data(), sizeof launch.header);
    const RawLaunchHeader& header = launch.header;
    if (std::memcmp(header.magic, kRawLaunchMagic, sizeof header.magic) != 0 ||
        header.version != kRawLaunchVersion || header.recordBytes != sizeof(RawRecord)) {
        return rawError("written by another version of the tracer's library");
    }
    const std::size_t nameAt = sizeof header;
    if (header.nameBytes > bytes.size() - nameAt) {
        return rawError("the kernel name runs past the end");
    }
    launch.mangledName = bytes.substr(nameAt, header.nameBytes);
    const std::size_t recordsAt = nameAt + header.nameBytes;
    const std::size_t available = (bytes.size() - recordsAt) / sizeof(RawRecord);
    if (header.recordCount > available) {
        return rawError("says " + std::to_string(header.recordCount) + " records but holds " +
                        std::to_string(available));
    }
    launch.records.resize(static_cast<std::size_t>(header.recordCount));
    if (!launch.records.empty()) {
        std::memcpy(launch.records.data(), bytes.data() + recordsAt,
                    launch.records.size() * sizeof(RawRecord));
    }
    return launch;
}

std::string demangle(const std::string& mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> name(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && name ? std::string(name.get()) : mangled;
}

TraceOp traceOpFromFlags(std::uint32_t flags) {
    const bool reads = (flags & kFlagRead) != 0;
    const bool writes = (flags & kFlagWrite) != 0;
    if (reads && writes) {
        return TraceOp::Atomic;
    }
    return writes ? TraceOp::Store : TraceOp::Load;
}

BuiltTrace buildTrace(const RawLaunch& launch, const std::map<std::uint64_t, SassInstruction>& sass,
                      const std::string& program) {
    BuiltTrace built{TraceWriter(program)};
    const RawLaunchHeader& header = launch.header;
    TraceLaunch traced;
    traced.mangledName = launch.mangledName;
    traced.kernel = demangle(launch.mangledName);
    traced.grid = Dim3{header.grid[0], header.grid[1], header.grid[2]};
    traced.block = Dim3{header.block[0], header.block[1], header.block[2]};
    traced.dynamicSharedBytes = header.dynamicSharedBytes;
    traced.complete = header.complete != 0 && header.droppedRecords == 0;
    traced.droppedRecords = static_cast<std::int64_t>(header.droppedRecords);
    built.writer.addLaunch(traced);

    using Key = std::tuple<std::uint64_t, std::uint32_t, int, std::uint32_t>;
    std::map<Key, std::uint32_t> index;
    const auto offsetOf = [&](std::uint64_t pc) {
        if (pc >= header.functionPc && pc - header.functionPc < header.functionBytes) {
            return pc - header.functionPc;
        }
        return pc; // already an offset in the function
    };
    const auto keyOf = [&](const RawRecord& record) {
        return Key{offsetOf(record.pc), record.space,
                   static_cast<int>(traceOpFromFlags(record.flags)), record.accessBytes};
    };
    for (const RawRecord& record : launch.records) {
        if (!isValidWidth(static_cast<int>(record.accessBytes)) || record.space > RawLocal) {
            ++built.recordsSkipped;
            continue;
        }
        index.emplace(keyOf(record), 0);
    }
    for (auto& [key, number] : index) {
        number = static_cast<std::uint32_t>(built.instructions++);
        TraceInstruction instruction;
        instruction.pcOffset = static_cast<std::int64_t>(std::get<0>(key));
        instruction.space = spaceOf(std::get<1>(key));
        instruction.op = static_cast<TraceOp>(std::get<2>(key));
        instruction.widthBytes = static_cast<int>(std::get<3>(key));
        if (const auto found = sass.find(std::get<0>(key)); found != sass.end()) {
            instruction.sass = found->second.text;
            instruction.sourceFile = found->second.sourceFile;
            instruction.sourceLine = found->second.sourceLine;
        }
        built.writer.addInstruction(instruction);
    }
    for (const RawRecord& record : launch.records) {
        const auto found = index.find(keyOf(record));
        if (found == index.end()) {
            continue;
        }
        TraceRecord out;
        out.instruction = found->second;
        out.block = {record.block[0], record.block[1], record.block[2]};
        out.warp = record.warp;
        out.activeMask = record.activeMask;
        for (std::size_t lane = 0; lane < kRawLaneCount; ++lane) {
            out.addresses[lane] = record.addresses[lane];
        }
        built.writer.addRecord(out);
        ++built.recordsKept;
    }
    return built;
}

} // namespace warpscope::trace
