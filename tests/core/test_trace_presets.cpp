// The checks that hold a trace of warpscope's own kernel presets against core's kernel model
// (scripts/gpu/trace_presets.sh builds each preset as a stand-alone program with
// scripts/gpu/preset_program.py and records it with warpscope-trace on the GPU machine; the
// traces are in tests/data/traces, preset_*.wstrace):
//   - every traced lane's address is what resolveWarp (the function the grid model evaluates
//     each warp with) gives for that block, warp and access, up to one base address per buffer
//     (where cudaMalloc put it) and one for the block's shared window;
//   - trace-summary's counters (summarizeTraceInstruction) equal the modern model's per-warp
//     counters summed over the traced warps and, where every warp was traced, predictGrid's
//     per-access counters.
// They run on the recorded traces, on traces written from the model (two paths of core that must
// agree: trace-summary's and the grid model's), and are shown to catch one wrong lane.
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/model.h"
#include "warpscope/trace_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace warpscope;

// A named namespace, not an anonymous one: the fixtures are parameterised on PresetTrace, and
// GCC warns (-Wsubobject-linkage) when this file is compiled inside a unity batch.
namespace trace_presets_test {

/// One traced run of scripts/gpu/trace_presets.sh: the same presets and parameters.
struct PresetTrace {
    std::string trace;
    std::string preset;
    std::map<std::string, std::int64_t> parameters;
    bool everyWarp; // --warps all (else sample:256)
};

const std::vector<PresetTrace>& presetTraces() {
    static const std::vector<PresetTrace> rows = {
        {"preset_readoffset_sample256", "readoffset", {{"offset", 11}}, false},
        {"preset_readoffset_small", "readoffset", {{"n", 4096}, {"offset", 11}}, true},
        {"preset_naivecol", "transpose-naivecol", {{"nx", 64}, {"ny", 64}}, true},
        {"preset_tiled", "transpose-tiled", {{"nx", 64}, {"ny", 64}}, true},
        {"preset_tiled_padded", "transpose-tiled-padded", {{"nx", 64}, {"ny", 64}}, true},
    };
    return rows;
}

std::vector<PresetTrace> smallPresetTraces() {
    std::vector<PresetTrace> rows;
    std::copy_if(presetTraces().begin(), presetTraces().end(), std::back_inserter(rows),
                 [](const PresetTrace& row) { return row.everyWarp; });
    return rows;
}

std::string rowName(const testing::TestParamInfo<PresetTrace>& info) {
    return info.param.trace;
}

std::optional<ResolvedKernel> resolvedPreset(const PresetTrace& row) {
    const KernelPreset* preset = findKernelPreset(row.preset);
    if (preset == nullptr) {
        ADD_FAILURE() << "no kernel preset " << row.preset;
        return std::nullopt;
    }
    Kernel kernel = preset->kernel;
    for (const auto& [name, value] : row.parameters) {
        // An init-capture: clang before 16 cannot capture a structured binding.
        auto found =
            std::find_if(kernel.parameters.begin(), kernel.parameters.end(),
                         [&wanted = name](const Parameter& p) { return p.name == wanted; });
        if (found == kernel.parameters.end()) {
            ADD_FAILURE() << row.preset << " has no parameter " << name;
            return std::nullopt;
        }
        found->value = value;
    }
    auto resolved = resolveKernel(kernel);
    if (!resolved.ok()) {
        ADD_FAILURE() << resolved.error().describe();
        return std::nullopt;
    }
    return std::move(resolved).value();
}

/// The traced memory instructions that executed, in PC order: the probe generates one per
/// access, in the kernel's order (its sink store never executes, so it has no records).
std::vector<std::size_t> executedInstructions(const TraceReader& reader) {
    std::vector<std::size_t> found;
    const auto& all = reader.header().instructions;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].launch == 0 && all[i].recordCount > 0) {
            found.push_back(i);
        }
    }
    std::sort(found.begin(), found.end(),
              [&](std::size_t a, std::size_t b) { return all[a].pcOffset < all[b].pcOffset; });
    return found;
}

std::int64_t blockLinear(const ResolvedKernel& kernel, const TraceRecord& record) {
    return static_cast<std::int64_t>(record.block[0]) +
           kernel.grid.x * (static_cast<std::int64_t>(record.block[1]) +
                            kernel.grid.y * static_cast<std::int64_t>(record.block[2]));
}

std::string place(std::size_t access, const TraceRecord& record) {
    std::ostringstream out;
    out << "access " << access << ", block (" << record.block[0] << ", " << record.block[1] << ", "
        << record.block[2] << "), warp " << record.warp;
    return out.str();
}

/// The launch, the instructions and every lane against the kernel model; empty when all agree,
/// else the first disagreement.
std::string addressMismatch(const ResolvedKernel& kernel, const TraceReader& reader,
                            std::optional<std::uint64_t> warpsSelected) {
    if (reader.header().launches.size() != 1) {
        return "expected one traced launch";
    }
    const TraceLaunch& launch = reader.header().launches[0];
    if (launch.kernel != "warpscope_kernel" || !launch.complete || launch.droppedRecords != 0 ||
        launch.grid != kernel.grid || launch.block != kernel.block) {
        return "the launch is not the preset's whole kernel: " + launch.kernel;
    }
    const auto executed = executedInstructions(reader);
    if (executed.size() != kernel.accesses.size()) {
        return std::to_string(executed.size()) + " instructions executed, the kernel has " +
               std::to_string(kernel.accesses.size()) + " accesses";
    }
    // One base per buffer and one for the shared window (-1), fixed by the first lane seen and
    // then required of every other lane of every access on it.
    std::map<int, std::int64_t> base;
    for (std::size_t a = 0; a < executed.size(); ++a) {
        const TraceInstruction& instruction = reader.header().instructions[executed[a]];
        const AccessKind& kind = kernel.accesses[a].access.kind;
        const TraceOp op = kind.op == AccessOp::Store ? TraceOp::Store : TraceOp::Load;
        if (instruction.space != kind.space || instruction.op != op ||
            instruction.widthBytes != kind.widthBytes) {
            return "access " + std::to_string(a) + " is not instruction " + instruction.sass;
        }
        auto records = reader.instructionRecords(executed[a]);
        if (!records.ok()) {
            return records.error().describe();
        }
        if (warpsSelected && records.value().size() != *warpsSelected) {
            return "access " + std::to_string(a) + ": " + std::to_string(records.value().size()) +
                   " warps traced, " + std::to_string(*warpsSelected) + " selected";
        }
        const int where = kernel.accesses[a].bufferIndex;
        for (const TraceRecord& record : records.value()) {
            auto warp =
                resolveWarp(kernel, static_cast<int>(a), blockLinear(kernel, record), record.warp);
            if (!warp.ok()) {
                return place(a, record) + ": " + warp.error().describe();
            }
            if (record.activeMask != warp.value().activeMask()) {
                return place(a, record) + ": active mask differs";
            }
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const auto& modelled = warp.value().addresses[static_cast<std::size_t>(lane)];
                if (!modelled) {
                    continue;
                }
                const auto traced =
                    static_cast<std::int64_t>(record.addresses[static_cast<std::size_t>(lane)]);
                const auto found = base.try_emplace(where, traced - *modelled).first;
                if (traced - found->second != *modelled) {
                    return place(a, record) + ", lane " + std::to_string(lane) + ": traced " +
                           std::to_string(traced) + ", the model's offset " +
                           std::to_string(*modelled) + " from " + std::to_string(found->second);
                }
            }
        }
    }
    for (const auto& [where, address] : base) {
        // cudaMalloc aligns to 256 bytes; compute capability 9.0 reserves the shared window's
        // first 1 KiB for the system (the sample tile of test_trace_recorded.cpp starts there).
        if (where >= 0 ? address % 256 != 0 : address != 0x400) {
            return "base " + std::to_string(address) + " of " +
                   (where >= 0 ? kernel.buffers[static_cast<std::size_t>(where)].name
                               : std::string("the shared window"));
        }
    }
    return {};
}

/// trace-summary's counters per access against the modern model per traced warp (and the grid
/// model's totals when given); empty when all agree.
std::string counterMismatch(const ResolvedKernel& kernel, const TraceReader& reader,
                            const GridPrediction* grid) {
    const auto executed = executedInstructions(reader);
    for (std::size_t a = 0; a < executed.size() && a < kernel.accesses.size(); ++a) {
        auto summary = summarizeTraceInstruction(reader, executed[a]);
        auto records = reader.instructionRecords(executed[a]);
        if (!summary.ok() || !records.ok() || summary.value().warpsRefused != 0) {
            return "access " + std::to_string(a) + ": not summarised";
        }
        std::int64_t requests = 0, sectors = 0, wavefronts = 0, conflicts = 0;
        for (const TraceRecord& record : records.value()) {
            auto warp =
                resolveWarp(kernel, static_cast<int>(a), blockLinear(kernel, record), record.warp);
            if (!warp.ok()) {
                return warp.error().describe();
            }
            const ModernPrediction p = predictModern(warp.value());
            if (p.global) {
                requests += p.global->requests;
                sectors += p.global->sectors;
            }
            if (p.shared) {
                wavefronts += p.shared->wavefronts;
                conflicts += p.shared->bankConflicts;
            }
        }
        const TraceInstructionSummary& s = summary.value();
        const bool shared = kernel.accesses[a].access.kind.space == MemorySpace::Shared;
        std::ostringstream out;
        out << "access " << a << ": trace-summary " << s.first << " " << s.firstCounter << ", "
            << s.second << " " << s.secondCounter << "; ";
        if (s.first != static_cast<double>(shared ? wavefronts : requests) ||
            s.second != static_cast<double>(shared ? conflicts : sectors) ||
            (shared ? wavefronts : requests) == 0) {
            out << "the model per traced warp " << (shared ? wavefronts : requests) << ", "
                << (shared ? conflicts : sectors);
            return out.str();
        }
        if (grid != nullptr) {
            const GridAccessPrediction& g = grid->accesses[a];
            if (s.first != static_cast<double>(shared ? g.wavefronts : g.requests) ||
                s.second != static_cast<double>(shared ? g.bankConflicts : g.sectors)) {
                out << "the grid model " << (shared ? g.wavefronts : g.requests) << ", "
                    << (shared ? g.bankConflicts : g.sectors);
                return out.str();
            }
        }
    }
    return {};
}

/// What warpscope-trace would record for every warp of the kernel if the GPU did what the model
/// says: buffers at 256-byte aligned bases, the shared tile at 0x400, one instruction per access.
std::string traceFromModel(const ResolvedKernel& kernel) {
    TraceWriter writer("warpscope-probe run-kernel (from the model)");
    TraceLaunch launch;
    launch.kernel = "warpscope_kernel";
    launch.grid = kernel.grid;
    launch.block = kernel.block;
    writer.addLaunch(launch);
    for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
        const AccessKind& kind = kernel.accesses[a].access.kind;
        TraceInstruction instruction;
        instruction.pcOffset = 0x100 + 0x40 * static_cast<std::int64_t>(a);
        instruction.space = kind.space;
        instruction.op = kind.op == AccessOp::Store ? TraceOp::Store : TraceOp::Load;
        instruction.widthBytes = kind.widthBytes;
        writer.addInstruction(instruction);
        const int where = kernel.accesses[a].bufferIndex;
        const std::int64_t base =
            where >= 0 ? std::int64_t{0x7f0000000000} + (std::int64_t{where} << 28) : 0x400;
        for (std::int64_t block = 0; block < kernel.grid.count(); ++block) {
            for (std::int64_t w = 0; w < kernel.warpsPerBlock(); ++w) {
                auto warp = resolveWarp(kernel, static_cast<int>(a), block, w);
                EXPECT_TRUE(warp.ok());
                TraceRecord record;
                record.instruction = static_cast<std::uint32_t>(a);
                record.block = {static_cast<std::uint32_t>(block % kernel.grid.x),
                                static_cast<std::uint32_t>(block / kernel.grid.x % kernel.grid.y),
                                static_cast<std::uint32_t>(block / kernel.grid.x / kernel.grid.y)};
                record.warp = static_cast<std::uint32_t>(w);
                record.activeMask = warp.value().activeMask();
                for (std::size_t lane = 0; lane < kWarpSize; ++lane) {
                    if (const auto& address = warp.value().addresses[lane]) {
                        record.addresses[lane] = static_cast<std::uint64_t>(base + *address);
                    }
                }
                writer.addRecord(record);
            }
        }
    }
    auto bytes = writer.toBytes();
    EXPECT_TRUE(bytes.ok());
    return bytes.ok() ? bytes.value() : std::string();
}

class TracePresetsFromModel : public testing::TestWithParam<PresetTrace> {};

} // namespace trace_presets_test

using namespace trace_presets_test;

TEST_P(TracePresetsFromModel, ChecksAgreeWithTheGridModel) {
    const auto kernel = resolvedPreset(GetParam());
    ASSERT_TRUE(kernel);
    auto reader = TraceReader::fromBytes(traceFromModel(*kernel));
    ASSERT_TRUE(reader.ok()) << reader.error().describe();
    EXPECT_EQ(
        addressMismatch(*kernel, reader.value(), static_cast<std::uint64_t>(kernel->warpCount())),
        "");
    auto grid = predictGrid(*kernel);
    ASSERT_TRUE(grid.ok()) << grid.error().describe();
    EXPECT_EQ(counterMismatch(*kernel, reader.value(), &grid.value()), "");
}

INSTANTIATE_TEST_SUITE_P(Presets, TracePresetsFromModel, testing::ValuesIn(smallPresetTraces()),
                         rowName);

TEST(TracePresetsCheck, CatchesOneWrongLaneAWrongMaskAndOtherCounters) {
    const auto kernel = resolvedPreset(presetTraces()[3]); // transpose-tiled, 64 x 64
    ASSERT_TRUE(kernel);
    std::string bytes = traceFromModel(*kernel);
    auto reader = TraceReader::fromBytes(bytes);
    ASSERT_TRUE(reader.ok());
    // Record 100 (access 0, some warp), lane 7 one element further; then its mask one lane short.
    const std::uint64_t record = 100;
    const std::size_t lane7 = reader.value().recordAreaOffset() + record * kTraceRecordBytes + 24 +
                              7 * sizeof(std::uint64_t);
    std::string wrongLane = bytes;
    wrongLane[lane7] = static_cast<char>(wrongLane[lane7] + 4);
    auto wrong = TraceReader::fromBytes(wrongLane);
    ASSERT_TRUE(wrong.ok());
    EXPECT_NE(addressMismatch(*kernel, wrong.value(), std::nullopt).find("lane 7: traced"),
              std::string::npos);

    std::string wrongMask = bytes;
    const std::size_t mask = reader.value().recordAreaOffset() + record * kTraceRecordBytes + 20;
    wrongMask[mask] = static_cast<char>(wrongMask[mask] & ~1);
    auto masked = TraceReader::fromBytes(wrongMask);
    ASSERT_TRUE(masked.ok());
    EXPECT_NE(addressMismatch(*kernel, masked.value(), std::nullopt).find("active mask differs"),
              std::string::npos);

    // The padded tile's model against the unpadded tile's trace: its column reads take one
    // wavefront, the trace's 32.
    const auto padded = resolvedPreset(presetTraces()[4]);
    ASSERT_TRUE(padded);
    EXPECT_NE(
        counterMismatch(*padded, reader.value(), nullptr).find("access 2: trace-summary 4096"),
        std::string::npos)
        << counterMismatch(*padded, reader.value(), nullptr);
}

class TracePresetsRecorded : public testing::TestWithParam<PresetTrace> {};

TEST_P(TracePresetsRecorded, EveryTracedLaneIsWhereTheModelPutsIt) {
    // Recorded on an NVIDIA H200 (driver 580.159.04, Compute Sanitizer 2025.3.1): every warp of
    // the small launches, 256 sampled warps of the notes' readOffset at 2^24.
    const PresetTrace& row = GetParam();
    const auto kernel = resolvedPreset(row);
    ASSERT_TRUE(kernel);
    auto reader = TraceReader::open(std::string(WARPSCOPE_TEST_DATA_DIR) + "/traces/" + row.trace +
                                    ".wstrace");
    ASSERT_TRUE(reader.ok()) << reader.error().describe();
    const std::optional<std::uint64_t> warps =
        row.everyWarp ? std::optional<std::uint64_t>(kernel->warpCount()) : std::uint64_t{256};
    EXPECT_EQ(addressMismatch(*kernel, reader.value(), warps), "");
    const std::int64_t traced = reader.value().header().launches.at(0).dynamicSharedBytes;
    if (!row.everyWarp) { // the notes' 2^24 threads: the grid model is not needed for a sample
        EXPECT_EQ(counterMismatch(*kernel, reader.value(), nullptr), "");
        EXPECT_EQ(traced, 0);
        return;
    }
    auto grid = predictGrid(*kernel);
    ASSERT_TRUE(grid.ok()) << grid.error().describe();
    EXPECT_EQ(counterMismatch(*kernel, reader.value(), &grid.value()), "");
    // The launch's dynamic shared memory, read by the patches from %dynamic_smem_size: what
    // the program launched with, the grid model's shared bytes per block (4,096 and 4,220 for
    // the tiles).
    EXPECT_EQ(traced, grid.value().sharedBytesPerBlock) << row.trace;
}

INSTANTIATE_TEST_SUITE_P(H200, TracePresetsRecorded, testing::ValuesIn(presetTraces()), rowName);
