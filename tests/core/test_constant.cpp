// Constant memory (issue 19): the `constant` space, its limits (loads only, 64 KiB), the per-warp
// model's rounds (one per distinct address, seed 003), the grid model's sums, the JSON forms and
// the two presets.
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <random>
#include <set>
#include <string>

namespace warpscope {
namespace {

WarpAccess constantWarp(const std::function<std::int64_t(int)>& address, int width = 4) {
    WarpAccess access;
    access.kind = AccessKind{MemorySpace::Constant, AccessOp::Load, width, CachePath::Default};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        access.addresses[static_cast<std::size_t>(lane)] = address(lane);
    }
    return access;
}

double metricOf(const std::vector<Metric>& metrics, const std::string& name) {
    for (const Metric& m : metrics) {
        if (m.name == name) {
            return m.value;
        }
    }
    ADD_FAILURE() << "no metric " << name;
    return -1.0;
}

Kernel constantKernel(const std::string& address, const std::string& bytes = "65536") {
    auto kernel = kernelFromJsonText(
        R"({"grid": [4, 1, 1], "block": [64, 1, 1], "parameters": {"d": 4},
            "buffers": [{"name": "coef", "bytes": ")" +
        bytes + R"("}],
            "accesses": [{"op": "load", "space": "constant", "width": 4, "buffer": "coef",
                          "address": ")" +
        address + R"("}]})");
    EXPECT_TRUE(kernel) << kernel.error().describe();
    return kernel.value();
}

TEST(ConstantSpace, NamesRoundTrip) {
    EXPECT_STREQ(toString(MemorySpace::Constant), "constant");
    EXPECT_EQ(memorySpaceFromString("constant"), MemorySpace::Constant);
    EXPECT_EQ(memorySpaceFromString("const"), std::nullopt);
}

TEST(ConstantSpace, OneAddressIsOneBroadcastRound) {
    const ModernPrediction p = predictModern(constantWarp([](int) { return 256; }));
    ASSERT_TRUE(p.constant);
    EXPECT_FALSE(p.global);
    EXPECT_FALSE(p.shared);
    EXPECT_EQ(p.constant->requests, 1);
    EXPECT_EQ(p.constant->distinctAddresses, 1);
    EXPECT_EQ(p.constant->extraRequests, 0);
    ASSERT_EQ(p.constant->rounds.size(), 1u);
    EXPECT_EQ(p.constant->rounds[0].address, 256);
    EXPECT_EQ(p.constant->rounds[0].laneMask, 0xffffffffu);
}

TEST(ConstantSpace, DistinctAddressesAreServedInTurn) {
    for (int d = 1; d <= 32; ++d) {
        const ModernPrediction p =
            predictModern(constantWarp([d](int lane) { return (lane % d) * 4; }));
        ASSERT_TRUE(p.constant);
        EXPECT_EQ(p.constant->distinctAddresses, d) << d;
        EXPECT_EQ(p.constant->extraRequests, d - 1) << d;
        // Rounds in the order of their lowest lane; together they hold every lane once.
        std::uint32_t all = 0;
        for (std::size_t r = 0; r < p.constant->rounds.size(); ++r) {
            const ConstantRound& round = p.constant->rounds[r];
            EXPECT_EQ(round.address, static_cast<std::int64_t>(r) * 4);
            EXPECT_EQ(all & round.laneMask, 0u);
            all |= round.laneMask;
        }
        EXPECT_EQ(all, 0xffffffffu);
        const auto metrics = modernMetrics(p);
        EXPECT_EQ(metricOf(metrics, "warpscope__constant_addresses"), d);
        EXPECT_EQ(metricOf(metrics, "warpscope__constant_extra_requests"), d - 1);
        // No l1tex traffic: constant loads use the constant cache.
        EXPECT_EQ(metricOf(metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 0);
    }
}

TEST(ConstantSpace, AddressesWithinOneLineStillCountOneEach) {
    // Lanes 0..7 on eight words of one 32-byte sector: eight rounds, not one.
    const ModernPrediction p = predictModern(constantWarp([](int lane) { return (lane % 8) * 4; }));
    EXPECT_EQ(p.constant->distinctAddresses, 8);
}

TEST(ConstantSpace, WideLoadsAreServedAsThirtyTwoBitParts) {
    // Measured on the H100 (tests/data/constant_widths_h100.jsonl): an 8-byte constant load is
    // two LDC instructions and a 16-byte one four, each serving the warp's distinct addresses.
    const ModernPrediction eight =
        predictModern(constantWarp([](int lane) { return (lane % 4) * 8; }, 8));
    EXPECT_EQ(eight.constant->requests, 2);
    EXPECT_EQ(eight.constant->distinctAddresses, 4);
    EXPECT_EQ(eight.constant->cacheRequests, 8);
    EXPECT_EQ(eight.constant->extraRequests, 6);
    const ModernPrediction sixteen =
        predictModern(constantWarp([](int lane) { return lane * 16; }, 16));
    EXPECT_EQ(sixteen.constant->requests, 4);
    EXPECT_EQ(sixteen.constant->cacheRequests, 128);
    EXPECT_EQ(sixteen.constant->extraRequests, 124);
    // One byte each from one word: four distinct addresses (the counter says so too).
    const ModernPrediction bytes =
        predictModern(constantWarp([](int lane) { return lane % 4; }, 1));
    EXPECT_EQ(bytes.constant->requests, 1);
    EXPECT_EQ(bytes.constant->cacheRequests, 4);
}

TEST(ConstantSpace, InactiveLanesAskForNothing) {
    WarpAccess access = constantWarp([](int lane) { return lane * 4; });
    for (int lane = 4; lane < kWarpSize; ++lane) {
        access.addresses[static_cast<std::size_t>(lane)].reset();
    }
    EXPECT_EQ(predictModern(access).constant->distinctAddresses, 4);
    for (auto& a : access.addresses) {
        a.reset();
    }
    const ModernPrediction none = predictModern(access);
    EXPECT_EQ(none.constant->requests, 0);
    EXPECT_EQ(none.constant->distinctAddresses, 0);
}

TEST(ConstantSpace, TextbookRuleIsOnePassPerDistinctAddress) {
    const TextbookPrediction t =
        predictTextbook(constantWarp([](int lane) { return (lane / 4) * 16; }));
    EXPECT_EQ(t.rule, TextbookRule::ConstantCache);
    EXPECT_STREQ(toString(t.rule), "constant_cache");
    ASSERT_EQ(t.transactions.size(), 8u);
    EXPECT_EQ(t.transactions[1].laneMask, 0xf0u);
    EXPECT_EQ(metricOf(textbookMetrics(t), "textbook__constant_passes"), 8);
}

TEST(ConstantSpace, StoresAreRefused) {
    WarpAccess access = constantWarp([](int lane) { return lane * 4; });
    access.kind.op = AccessOp::Store;
    auto checked = validate(access);
    ASSERT_FALSE(checked);
    EXPECT_EQ(checked.error().where, "op");
    EXPECT_NE(checked.error().message.find("read-only"), std::string::npos);
}

TEST(ConstantSpace, AddressesPast64KiBAreRefused) {
    auto ok = validate(constantWarp([](int) { return 65532; }));
    EXPECT_TRUE(ok);
    auto past = validate(constantWarp([](int lane) { return lane == 7 ? 65536 : 0; }));
    ASSERT_FALSE(past);
    EXPECT_EQ(past.error().code, ErrorCode::OutOfBounds);
    EXPECT_EQ(past.error().where, "lane 7");
    EXPECT_NE(past.error().message.find("64 KiB"), std::string::npos);
    auto wide = validate(constantWarp([](int) { return 65528; }, 16));
    ASSERT_FALSE(wide);
}

TEST(ConstantKernel, GridModelSumsDistinctAddressesPerWarp) {
    auto resolved = resolveKernel(constantKernel("(lane % d) * 4"));
    ASSERT_TRUE(resolved) << resolved.error().describe();
    auto grid = predictGrid(resolved.value());
    ASSERT_TRUE(grid) << grid.error().describe();
    const GridAccessPrediction& a = grid->accesses[0];
    EXPECT_EQ(a.requests, 8); // 4 blocks x 2 warps
    EXPECT_EQ(a.constantAddresses, 8 * 4);
    EXPECT_EQ(a.sectors, 0);
    EXPECT_EQ(a.histogram[4], 8);
    EXPECT_EQ(metricOf(grid->metrics, "warpscope__constant_requests"), 8);
    EXPECT_EQ(metricOf(grid->metrics, "warpscope__constant_addresses"), 32);
    EXPECT_EQ(metricOf(grid->metrics, "warpscope__constant_extra_requests"), 24);
    EXPECT_EQ(metricOf(grid->metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 0);
    EXPECT_EQ(metricOf(grid->metrics, "dram__bytes_read.sum"), 0);
}

TEST(ConstantKernel, GridModelEqualsThePerWarpModelOnRandomWarps) {
    std::mt19937 random(19);
    for (int trial = 0; trial < 50; ++trial) {
        const int d = 1 + static_cast<int>(random() % 32);
        const int scatter = static_cast<int>(random() % 7);
        const std::string address =
            "((lane * " + std::to_string(scatter) + " + bid.x) % " + std::to_string(d) + ") * 8";
        auto resolved = resolveKernel(constantKernel(address));
        ASSERT_TRUE(resolved);
        auto grid = predictGrid(resolved.value());
        ASSERT_TRUE(grid);
        std::int64_t expected = 0;
        for (std::int64_t block = 0; block < resolved->grid.count(); ++block) {
            for (std::int64_t warp = 0; warp < resolved->warpsPerBlock(); ++warp) {
                auto w = resolveWarp(resolved.value(), 0, block, warp);
                ASSERT_TRUE(w);
                expected += predictModern(w.value()).constant->distinctAddresses;
            }
        }
        EXPECT_EQ(grid->accesses[0].constantAddresses, expected) << address;
    }
}

TEST(ConstantKernel, ErrorsNameTheirPlace) {
    // A store to constant memory.
    auto store = kernelFromJsonText(
        R"({"grid": [1, 1, 1], "block": [32, 1, 1], "buffers": [{"name": "c", "bytes": 128}],
            "accesses": [{"op": "store", "space": "constant", "width": 4, "buffer": "c",
                          "address": "lane * 4"}]})");
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().where, "/accesses/0/op");
    // More than 64 KiB of constant buffers.
    auto big = resolveKernel(constantKernel("lane * 4", "65540"));
    ASSERT_FALSE(big);
    EXPECT_EQ(big.error().where, "/buffers/0/bytes");
    EXPECT_NE(big.error().message.find("64 KiB"), std::string::npos);
    // A constant access without a buffer.
    auto noBuffer = kernelFromJsonText(
        R"({"grid": [1, 1, 1], "block": [32, 1, 1],
            "accesses": [{"op": "load", "space": "constant", "width": 4, "address": "0"}]})");
    ASSERT_FALSE(noBuffer);
    EXPECT_EQ(noBuffer.error().where, "/accesses/0/buffer");
    // One buffer read as constant and as global memory.
    auto both = kernelFromJsonText(
        R"({"grid": [1, 1, 1], "block": [32, 1, 1], "buffers": [{"name": "c", "bytes": 128}],
            "accesses": [{"op": "load", "space": "constant", "width": 4, "buffer": "c",
                          "address": "0"},
                         {"op": "load", "space": "global", "width": 4, "buffer": "c",
                          "address": "lane * 4"}]})");
    ASSERT_TRUE(both);
    auto resolvedBoth = resolveKernel(both.value());
    ASSERT_FALSE(resolvedBoth);
    EXPECT_EQ(resolvedBoth.error().where, "/accesses/1/buffer");
    // An address past the buffer is the grid model's out-of-bounds error.
    auto resolvedPast = resolveKernel(constantKernel("lane * 4 + 200", "256"));
    ASSERT_TRUE(resolvedPast);
    auto past = predictGrid(resolvedPast.value());
    ASSERT_FALSE(past);
    EXPECT_EQ(past.error().code, ErrorCode::OutOfBounds);
}

TEST(ConstantKernel, JsonRoundTripKeepsTheBufferAndNoCache) {
    const Kernel kernel = constantKernel("(lane % d) * 4");
    const std::string text = kernelToJsonText(kernel);
    EXPECT_NE(text.find("\"space\": \"constant\""), std::string::npos);
    EXPECT_EQ(text.find("\"cache\""), std::string::npos);
    auto again = kernelFromJsonText(text);
    ASSERT_TRUE(again) << again.error().describe();
    EXPECT_EQ(again.value(), kernel);
}

TEST(ConstantKernel, PatternBecomesAKernelWithAConstantBuffer) {
    Pattern pattern;
    pattern.kind.space = MemorySpace::Constant;
    pattern.source = PatternSource{};
    pattern.source->addressExpression = "(lane % 4) * 4";
    auto kernel = kernelFromPattern(pattern);
    ASSERT_TRUE(kernel) << kernel.error().describe();
    ASSERT_EQ(kernel->buffers.size(), 1u);
    EXPECT_EQ(kernel->buffers[0].bytesExpression, "16");
    EXPECT_EQ(kernel->accesses[0].buffer, "data");
}

TEST(ConstantKernel, PresetsSweepOneToThirtyTwoDistinctAddresses) {
    for (const char* id : {"constant-broadcast", "constant-divergent"}) {
        const KernelPreset* preset = findKernelPreset(id);
        ASSERT_NE(preset, nullptr) << id;
        ASSERT_EQ(preset->sweeps.size(), 1u);
        EXPECT_EQ(preset->sweeps[0].parameter, "distinct");
        EXPECT_EQ(preset->sweeps[0].values.size(), 32u);
        // The presets' own grid (2^24 threads) with n = 2^16, so the test stays quick.
        Kernel kernel = preset->kernel;
        kernel.parameters[0].value = std::int64_t{1} << 16;
        auto resolved = resolveKernel(kernel);
        ASSERT_TRUE(resolved) << resolved.error().describe();
        auto grid = predictGrid(resolved.value());
        ASSERT_TRUE(grid) << grid.error().describe();
        const std::int64_t warps = grid->accesses[0].requests;
        ASSERT_EQ(preset->kernel.parameters[0].name, "n");
        EXPECT_EQ(warps, (std::int64_t{1} << 16) / 32);
        const std::int64_t distinct = std::string(id) == "constant-broadcast" ? 1 : 32;
        EXPECT_EQ(grid->accesses[0].constantAddresses, warps * distinct) << id;
    }
}

// The H100's answers (scripts/gpu/constant_sweep.py, tests/data/constant_*_h100.jsonl): the grid
// model's extra requests equal idc__requests.sum - smsp__inst_executed_op_ldc_pred_on_any.sum,
// measured by the probe's CUPTI counters and by ncu, at every point.
std::int64_t modelExtra(const Kernel& kernel) {
    auto resolved = resolveKernel(kernel);
    EXPECT_TRUE(resolved) << resolved.error().describe();
    auto grid = predictGrid(resolved.value());
    EXPECT_TRUE(grid) << grid.error().describe();
    return static_cast<std::int64_t>(metricOf(grid->metrics, "warpscope__constant_extra_requests"));
}

Kernel divergentAt(const nlohmann::json& parameters) {
    Kernel kernel = findKernelPreset("constant-divergent")->kernel;
    for (Parameter& p : kernel.parameters) {
        if (parameters.contains(p.name)) {
            p.value = parameters[p.name].get<std::int64_t>();
        }
    }
    return kernel;
}

/// The model's extra requests of constant-divergent at `parameters`. Its addresses do not depend
/// on the block, so at the preset's 2^24 threads every 2^16 threads are alike: the model runs on
/// 2^16 of them and is scaled (keeps a debug build's test quick); other sizes run as they are.
double divergentExtra(const nlohmann::json& parameters) {
    Kernel kernel = divergentAt(parameters);
    const std::int64_t n = kernel.parameters[0].value;
    constexpr std::int64_t kPart = std::int64_t{1} << 16;
    if (n % kPart != 0 || n == kPart) {
        return static_cast<double>(modelExtra(kernel));
    }
    kernel.parameters[0].value = kPart;
    return static_cast<double>(modelExtra(kernel)) * static_cast<double>(n / kPart);
}

TEST(ConstantH100, SweepCountersEqualTheModel) {
    std::ifstream file(WARPSCOPE_TEST_DATA_DIR "/constant_sweep_h100.jsonl");
    ASSERT_TRUE(file) << "tests/data/constant_sweep_h100.jsonl is missing";
    int points = 0;
    for (std::string line; std::getline(file, line);) {
        const auto record = nlohmann::json::parse(line);
        ASSERT_EQ(record["id"], "constant-divergent");
        const auto& answer = record["answer"];
        const auto& c = answer["counters"];
        const double measured = c["idc__requests.sum"].get<double>() -
                                c["smsp__inst_executed_op_ldc_pred_on_any.sum"].get<double>();
        EXPECT_EQ(divergentExtra(answer["parameters"]), measured) << answer["parameters"].dump();
        ++points;
    }
    EXPECT_EQ(points, 32);
}

TEST(ConstantH100, NcuCountersEqualTheModel) {
    std::ifstream file(WARPSCOPE_TEST_DATA_DIR "/constant_ncu_h100.jsonl");
    ASSERT_TRUE(file);
    int points = 0;
    for (std::string line; std::getline(file, line);) {
        const auto record = nlohmann::json::parse(line);
        nlohmann::json parameters = nlohmann::json::object();
        const auto& args = record["args"];
        for (std::size_t i = 1; i < args.size(); i += 2) {
            const std::string assignment = args[i].get<std::string>();
            const auto eq = assignment.find('=');
            parameters[assignment.substr(0, eq)] = std::stoll(assignment.substr(eq + 1));
        }
        const auto& n = record["ncu"];
        const double measured = n["idc__requests.sum"].get<double>() -
                                n["smsp__inst_executed_op_ldc_pred_on_any.sum"].get<double>();
        EXPECT_EQ(divergentExtra(parameters), measured) << parameters.dump();
        ++points;
    }
    EXPECT_EQ(points, 9);
}

TEST(ConstantH100, EveryWidthEqualsTheModel) {
    std::ifstream file(WARPSCOPE_TEST_DATA_DIR "/constant_widths_h100.jsonl");
    ASSERT_TRUE(file);
    int points = 0;
    for (std::string line; std::getline(file, line);) {
        const auto record = nlohmann::json::parse(line);
        const int width = record["width"].get<int>();
        const std::string address = record["address"].get<std::string>();
        auto kernel = kernelFromJsonText(
            R"({"grid": [32, 1, 1], "block": [128, 1, 1], "buffers": [{"name": "c", "bytes": 4096}],
                "accesses": [{"op": "load", "space": "constant", "width": )" +
            std::to_string(width) + R"(, "buffer": "c", "address": ")" + address + R"("}]})");
        ASSERT_TRUE(kernel) << kernel.error().describe();
        const auto& c = record["answer"]["counters"];
        const double measured = c["idc__requests.sum"].get<double>() -
                                c["smsp__inst_executed_op_ldc_pred_on_any.sum"].get<double>();
        EXPECT_EQ(modelExtra(kernel.value()), measured) << width << " " << address;
        ++points;
    }
    EXPECT_EQ(points, 10);
}

} // namespace
} // namespace warpscope
