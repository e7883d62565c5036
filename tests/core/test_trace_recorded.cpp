// Traces recorded by warpscope-trace on an H200 (tests/data/traces, scripts/gpu/trace_check.sh):
//   - the traced addresses of known instructions equal the addresses the kernel must touch,
//     derived here from the buffers' addresses the program printed beside each trace, the
//     launch shape and the kernel's indexing, never from the tracer;
//   - the model's per-instruction counts over all warps of the launch equal Nsight Compute's
//     per-instruction source counters (ncu --page source) for the same launch.
#include "warpscope/model.h"
#include "warpscope/trace_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

const std::string kDir = std::string(WARPSCOPE_TEST_DATA_DIR) + "/traces/";

TraceReader openTrace(const std::string& name) {
    auto reader = TraceReader::open(kDir + name + ".wstrace");
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().describe());
    return std::move(reader).value();
}

/// The JSON line the traced program printed (its buffers' device addresses).
nlohmann::json programLine(const std::string& name) {
    std::ifstream in(kDir + name + ".json");
    std::string line;
    std::getline(in, line);
    return nlohmann::json::parse(line);
}

/// The instructions of a space and op, in PC order.
std::vector<std::size_t> instructionsOf(const TraceReader& reader, MemorySpace space, TraceOp op) {
    std::vector<std::size_t> found;
    const auto& all = reader.header().instructions;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].space == space && all[i].op == op) {
            found.push_back(i);
        }
    }
    std::sort(found.begin(), found.end(),
              [&](std::size_t a, std::size_t b) { return all[a].pcOffset < all[b].pcOffset; });
    return found;
}

using Expected = std::function<std::uint64_t(const TraceRecord&, int lane)>;

/// Every active lane of every record of `instruction` is where `expected` says; returns the
/// number of lanes checked.
std::uint64_t checkAddresses(const TraceReader& reader, std::size_t instruction,
                             const Expected& expected) {
    auto records = reader.instructionRecords(instruction);
    EXPECT_TRUE(records.ok());
    std::uint64_t lanes = 0;
    for (const TraceRecord& record : records.value()) {
        for (int lane = 0; lane < kWarpSize; ++lane) {
            if ((record.activeMask >> lane) & 1u) {
                ++lanes;
                EXPECT_EQ(record.addresses[static_cast<std::size_t>(lane)], expected(record, lane))
                    << "instruction " << instruction << ", block " << record.block[0] << ","
                    << record.block[1] << ", warp " << record.warp << ", lane " << lane;
            }
        }
    }
    return lanes;
}

/// Linear thread index of a lane in a 1-D launch.
std::uint64_t gid(const TraceReader& reader, const TraceRecord& record, int lane) {
    return record.block[0] * static_cast<std::uint64_t>(reader.header().launches[0].block.x) +
           record.warp * 32u + static_cast<std::uint64_t>(lane);
}

} // namespace

TEST(TraceRecorded, SampleCoalescedAndStridedTouchWhatTheirIndexingSays) {
    const TraceReader coalesced = openTrace("sample_coalesced");
    const nlohmann::json c = programLine("sample_coalesced");
    const auto loads = instructionsOf(coalesced, MemorySpace::Global, TraceOp::Load);
    const auto stores = instructionsOf(coalesced, MemorySpace::Global, TraceOp::Store);
    ASSERT_EQ(loads.size(), 1u);
    ASSERT_EQ(stores.size(), 1u);
    EXPECT_EQ(checkAddresses(coalesced, loads[0],
                             [&](const TraceRecord& r, int lane) {
                                 return c["in"].get<std::uint64_t>() + 4 * gid(coalesced, r, lane);
                             }),
              512u); // every thread of the 4 x 128 launch
    EXPECT_EQ(checkAddresses(coalesced, stores[0],
                             [&](const TraceRecord& r, int lane) {
                                 return c["out"].get<std::uint64_t>() + 4 * gid(coalesced, r, lane);
                             }),
              512u);
    const TraceInstruction& load = coalesced.header().instructions[loads[0]];
    EXPECT_EQ(load.sass.rfind("LDG.E", 0), 0u) << load.sass;
    EXPECT_EQ(load.sourceLine, 18);

    const TraceReader strided = openTrace("sample_strided");
    const nlohmann::json s = programLine("sample_strided");
    const auto stridedLoads = instructionsOf(strided, MemorySpace::Global, TraceOp::Load);
    ASSERT_EQ(stridedLoads.size(), 1u);
    EXPECT_EQ(checkAddresses(strided, stridedLoads[0],
                             [&](const TraceRecord& r, int lane) {
                                 return s["in"].get<std::uint64_t>() + 16 * gid(strided, r, lane);
                             }),
              256u);
}

TEST(TraceRecorded, SampleTransposeSharedTileOffsets) {
    // Block (32, 8): warp w holds threadIdx.y = w; the unrolled loop's k-th shared store writes
    // tile[w + 8k][lane], the k-th shared load reads tile[lane][w + 8k] (floats, 32 per row).
    // The tile starts 1 KiB into the shared window, past the 1 KiB compute capability 9.0
    // reserves for the system (the SASS builds the address from UMOV UR4, 0x400).
    constexpr std::uint64_t kTile = 0x400;
    const TraceReader reader = openTrace("sample_transpose");
    const nlohmann::json p = programLine("sample_transpose");
    const auto stores = instructionsOf(reader, MemorySpace::Shared, TraceOp::Store);
    const auto loads = instructionsOf(reader, MemorySpace::Shared, TraceOp::Load);
    const auto globalLoads = instructionsOf(reader, MemorySpace::Global, TraceOp::Load);
    ASSERT_EQ(stores.size(), 4u);
    ASSERT_EQ(loads.size(), 4u);
    ASSERT_EQ(globalLoads.size(), 4u);
    for (std::uint64_t k = 0; k < 4; ++k) {
        EXPECT_EQ(checkAddresses(reader, stores[k],
                                 [&](const TraceRecord& r, int lane) {
                                     return kTile + ((r.warp + 8 * k) * 32 + lane) * 4;
                                 }),
                  1024u);
        EXPECT_EQ(checkAddresses(reader, loads[k],
                                 [&](const TraceRecord& r, int lane) {
                                     return kTile + (static_cast<std::uint64_t>(lane) * 32 +
                                                     r.warp + 8 * k) *
                                                        4;
                                 }),
                  1024u);
        // in[(blockIdx.y * 32 + row) * 64 + blockIdx.x * 32 + lane]
        EXPECT_EQ(checkAddresses(reader, globalLoads[k],
                                 [&](const TraceRecord& r, int lane) {
                                     const std::uint64_t row = r.warp + 8 * k;
                                     return p["in"].get<std::uint64_t>() +
                                            4 * ((r.block[1] * 32 + row) * 64 + r.block[0] * 32 +
                                                 static_cast<std::uint64_t>(lane));
                                 }),
                  1024u);
    }
}

TEST(TraceRecorded, PyTorchElementwiseAndTransposeTouchTheTensorsElements) {
    // x * 2: vectorized_elementwise_kernel<4> with 128 threads, 8 floats a thread: block b's
    // thread t loads float4 number t, then number t + 128, of the block's 1024 floats.
    const TraceReader mul = openTrace("torch_mul");
    const nlohmann::json m = programLine("torch_mul");
    const auto loads = instructionsOf(mul, MemorySpace::Global, TraceOp::Load);
    const auto stores = instructionsOf(mul, MemorySpace::Global, TraceOp::Store);
    ASSERT_EQ(loads.size(), 2u);
    ASSERT_EQ(stores.size(), 2u);
    for (std::uint64_t k = 0; k < 2; ++k) {
        const auto element = [&](const TraceRecord& r, int lane) {
            return r.block[0] * 1024u + (k * 128 + r.warp * 32 + lane) * 4;
        };
        EXPECT_EQ(checkAddresses(mul, loads[k],
                                 [&](const TraceRecord& r, int lane) {
                                     return m["x"].get<std::uint64_t>() + 4 * element(r, lane);
                                 }),
                  768u);
        EXPECT_EQ(checkAddresses(mul, stores[k],
                                 [&](const TraceRecord& r, int lane) {
                                     return m["y"].get<std::uint64_t>() + 4 * element(r, lane);
                                 }),
                  768u);
    }

    // x.t().contiguous(): t (96 x 64, row-major) element idx = i * 64 + j is x[j][i] (x is 64 x
    // 96, row stride 96). elementwise_kernel<128, 2>: block b, thread t handles idx = b * 256 +
    // t and b * 256 + t + 128, each at its own pair of load and store instructions.
    const TraceReader transpose = openTrace("torch_transpose");
    const nlohmann::json t = programLine("torch_transpose");
    ASSERT_EQ(t["x_stride"], nlohmann::json::array({96, 1}));
    const auto tLoads = instructionsOf(transpose, MemorySpace::Global, TraceOp::Load);
    const auto tStores = instructionsOf(transpose, MemorySpace::Global, TraceOp::Store);
    ASSERT_EQ(tLoads.size(), 2u);
    ASSERT_EQ(tStores.size(), 2u);
    std::uint64_t lanes = 0;
    for (std::size_t which = 0; which < 2; ++which) {
        for (std::uint64_t k : {0u, 1u}) {
            auto records = transpose.instructionRecords(tStores[which]);
            ASSERT_TRUE(records.ok());
            const TraceRecord& first = records.value().front();
            const std::uint64_t idx = first.block[0] * 256u + k * 128 + first.warp * 32u;
            if (first.addresses[0] != t["t"].get<std::uint64_t>() + 4 * idx) {
                continue; // this store pair is the other half
            }
            const auto index = [&](const TraceRecord& r, int lane) {
                return r.block[0] * 256u + k * 128 + r.warp * 32u +
                       static_cast<std::uint64_t>(lane);
            };
            lanes += checkAddresses(transpose, tStores[which], [&](const TraceRecord& r, int lane) {
                return t["t"].get<std::uint64_t>() + 4 * index(r, lane);
            });
            lanes += checkAddresses(transpose, tLoads[which], [&](const TraceRecord& r, int lane) {
                const std::uint64_t i = index(r, lane) / 64;
                const std::uint64_t j = index(r, lane) % 64;
                return t["x"].get<std::uint64_t>() + 4 * (j * 96 + i);
            });
        }
    }
    EXPECT_EQ(lanes, 2u * 6144u) << "every element of t stored once and its x element loaded once";
}

TEST(TraceRecorded, TritonVectorAddAndSoftmaxTouchTheirBlocks) {
    // vector_add, BLOCK = 1024 over 128 threads: program p's thread t loads floats
    // p * 1024 + 4t .. 4t + 3, then the same 512 floats on (the +0x800 in the SASS).
    const TraceReader add = openTrace("triton_add");
    const nlohmann::json a = programLine("triton_add");
    const auto loads = instructionsOf(add, MemorySpace::Global, TraceOp::Load);
    const auto stores = instructionsOf(add, MemorySpace::Global, TraceOp::Store);
    ASSERT_EQ(loads.size(), 4u);
    ASSERT_EQ(stores.size(), 2u);
    const auto element = [](const TraceRecord& r, int lane, std::uint64_t half) {
        return r.block[0] * 1024u + half * 512 + (r.warp * 32u + lane) * 4;
    };
    // PC order: a, b, then a + 512, b + 512 (the SASS: R20 is a's pointer, R22 b's).
    const char* buffers[] = {"a", "b", "a", "b"};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(checkAddresses(add, loads[i],
                                 [&](const TraceRecord& r, int lane) {
                                     return a[buffers[i]].get<std::uint64_t>() +
                                            4 * element(r, lane, i / 2);
                                 }),
                  512u);
    }
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(checkAddresses(add, stores[i],
                                 [&](const TraceRecord& r, int lane) {
                                     return a["c"].get<std::uint64_t>() + 4 * element(r, lane, i);
                                 }),
                  512u);
    }

    // row_softmax: program r's thread t loads x[r][t] (128 columns, row stride 128).
    const TraceReader softmax = openTrace("triton_softmax");
    const nlohmann::json s = programLine("triton_softmax");
    const auto sLoads = instructionsOf(softmax, MemorySpace::Global, TraceOp::Load);
    const auto sStores = instructionsOf(softmax, MemorySpace::Global, TraceOp::Store);
    ASSERT_EQ(sLoads.size(), 1u);
    ASSERT_EQ(sStores.size(), 1u);
    const auto cell = [](const TraceRecord& r, int lane) {
        return r.block[0] * 128u + r.warp * 32u + static_cast<std::uint64_t>(lane);
    };
    EXPECT_EQ(checkAddresses(softmax, sLoads[0],
                             [&](const TraceRecord& r, int lane) {
                                 return s["x"].get<std::uint64_t>() + 4 * cell(r, lane);
                             }),
              2048u);
    EXPECT_EQ(checkAddresses(softmax, sStores[0],
                             [&](const TraceRecord& r, int lane) {
                                 return s["y"].get<std::uint64_t>() + 4 * cell(r, lane);
                             }),
              2048u);
}

// ---- The model against Nsight Compute's per-instruction source counters --------------------

namespace {

/// One CSV line with quoted fields ("a, b" stays one field).
std::vector<std::string> csvFields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (const char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

/// ncu --page source --csv --print-source sass: PC offset in the function -> column -> value.
std::map<std::uint64_t, std::map<std::string, std::string>> ncuSource(const std::string& kernel) {
    std::ifstream in(kDir + "ncu_" + kernel + ".csv");
    std::string line;
    std::getline(in, line); // "Kernel Name", ...
    std::getline(in, line);
    const std::vector<std::string> header = csvFields(line);
    std::map<std::uint64_t, std::map<std::string, std::string>> rows;
    std::uint64_t functionStart = 0;
    while (std::getline(in, line)) {
        const std::vector<std::string> fields = csvFields(line);
        const std::uint64_t address = std::stoull(fields.at(0), nullptr, 16);
        if (rows.empty()) {
            functionStart = address;
        }
        auto& row = rows[address - functionStart];
        for (std::size_t i = 0; i < fields.size() && i < header.size(); ++i) {
            row[header[i]] = fields[i];
        }
    }
    return rows;
}

struct ModelCounts {
    double requests = 0, sectors = 0, lines = 0, wavefronts = 0;
};

ModelCounts countInstruction(const TraceReader& reader, std::size_t instruction) {
    ModelCounts counts;
    const TraceInstruction& entry = reader.header().instructions[instruction];
    const auto records = reader.instructionRecords(instruction);
    EXPECT_TRUE(records.ok());
    for (const TraceRecord& record : records.value()) {
        auto pattern = tracedPattern(entry, record);
        EXPECT_TRUE(pattern.ok());
        const ModernPrediction prediction = predictModern(resolve(pattern.value()).value());
        if (prediction.global) {
            counts.requests += prediction.global->requests;
            counts.sectors += prediction.global->sectors;
            counts.lines += prediction.global->lines;
        }
        if (prediction.shared) {
            counts.wavefronts += prediction.shared->wavefronts;
        }
    }
    return counts;
}

} // namespace

TEST(TraceRecorded, ModelMatchesNsightComputeSourceCountersPerInstruction) {
    // Each trace recorded every warp (--warps all) of the launch ncu profiled. Compared per
    // instruction: global sectors with "L2 Theoretical Sectors Global", the 128-byte lines a
    // warp touches with "L1 Tag Requests Global" (one tag lookup per line: 4 for a 16-byte
    // LDG.128 of 512 bytes, where l1tex__t_requests counts 1), requests with "Instructions
    // Executed", shared wavefronts with "L1 Wavefronts Shared".
    const std::pair<const char*, const char*> traces[] = {
        {"sample_coalesced", "coalesced"},
        {"sample_strided", "strided"},
        {"sample_transpose", "transpose"},
        {"triton_add", "vector_add"},
        {"triton_softmax", "row_softmax"},
        {"torch_mul", "torch_vectorized_elementwise_kernel"},
        {"torch_transpose", "torch_18elementwise_kernel"},
        {"preset_readoffset_small", "preset_readoffset_small"},
        {"preset_naivecol", "preset_naivecol"},
        {"preset_tiled", "preset_tiled"},
        {"preset_tiled_padded", "preset_tiled_padded"}};
    int compared = 0;
    for (const auto& [trace, kernel] : traces) {
        const TraceReader reader = openTrace(trace);
        const auto ncu = ncuSource(kernel);
        for (std::size_t i = 0; i < reader.header().instructions.size(); ++i) {
            const TraceInstruction& entry = reader.header().instructions[i];
            const auto row = ncu.find(static_cast<std::uint64_t>(entry.pcOffset));
            ASSERT_NE(row, ncu.end()) << trace << " pc " << entry.pcOffset;
            const auto& c = row->second;
            const ModelCounts model = countInstruction(reader, i);
            const std::string where = std::string(trace) + " " + entry.sass;
            if (entry.space == MemorySpace::Global) {
                EXPECT_EQ(model.sectors, std::stod(c.at("L2 Theoretical Sectors Global"))) << where;
                EXPECT_EQ(model.lines, std::stod(c.at("L1 Tag Requests Global"))) << where;
                EXPECT_EQ(model.requests, std::stod(c.at("Instructions Executed"))) << where;
            } else {
                EXPECT_EQ(model.wavefronts, std::stod(c.at("L1 Wavefronts Shared"))) << where;
            }
            ++compared;
        }
    }
    EXPECT_EQ(compared, 2 + 2 + 16 + 6 + 10 + 4 + 4 + 3 + 2 + 4 + 4);
}
