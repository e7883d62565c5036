// The probe's ldmatrix, stmatrix and TMA support over the fake backend: measure and sweep accept
// matrix patterns (the protocol refused them with "the probe does not replay an ldmatrix yet"
// before the replay kernels issued LDSM/STSM) and answer smsp__inst_executed_op_ldsm.sum; the
// refusals name the field and the rule; selfcheck's model checks report agreement and catch a GPU
// that disagrees; the TMA comparison names the chunk that differs; `tma-check` refuses bad input.
#include "ldsm_selfcheck.h"
#include "probe_cli.h"
#include "protocol_test_support.h"
#include "tma_check.h"

#include "warpscope/matrix_access.h"

#include <iostream>

namespace {

using namespace protocol_test;
using warpscope::kLdsmInstructionsMetric;
using warpscope::TmaSwizzle;
using warpscope::TmaTileLoad;

/// An ldmatrix/stmatrix x4 whose lanes give rows 16 bytes apart (conflict-free).
std::string matrixPattern(const char* op, int matrices = 4, bool transpose = false,
                          int misalignedLane = -1) {
    std::string addresses = "[";
    for (int lane = 0; lane < 32; ++lane) {
        const bool row = lane < 8 * matrices;
        addresses +=
            (lane ? "," : "") + (row ? std::to_string(lane * 16 + (lane == misalignedLane ? 8 : 0))
                                     : std::string("null"));
    }
    return std::string(R"({"space":"shared","op":")") + op + R"(","matrices":)" +
           std::to_string(matrices) + R"(,"transpose":)" + (transpose ? "true" : "false") +
           R"(,"width":16,"addresses":)" + addresses + "]}";
}

json measureLine(const std::string& pattern) {
    FakeBackend backend;
    const Served served =
        serveText(backend, R"({"id":1,"op":"measure","options":{"latency":false},"pattern":)" +
                               pattern + "}\n");
    EXPECT_EQ(served.lines.size(), 1u) << served.text;
    return served.lines.empty() ? json() : served.lines.front();
}

TEST(ProtocolLdsm, MeasureAnswersAnLdmatrixWithItsLdsmCount) {
    const json line = measureLine(matrixPattern("ldmatrix"));
    ASSERT_TRUE(line.value("ok", false)) << line.dump();
    const json& counters = line["result"]["counters"];
    EXPECT_EQ(counters.value(kLdsmInstructionsMetric, -1.0), 1.0);
    EXPECT_EQ(counters.value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", -1.0), 4.0);
    EXPECT_EQ(line["result"]["predicted"].value(kLdsmInstructionsMetric, -1.0), 1.0);
}

TEST(ProtocolLdsm, MeasureAnswersAnStmatrixWithNoLdsm) {
    const json line = measureLine(matrixPattern("stmatrix", 2, true));
    ASSERT_TRUE(line.value("ok", false)) << line.dump();
    const json& counters = line["result"]["counters"];
    EXPECT_EQ(counters.value(kLdsmInstructionsMetric, -1.0), 0.0);
    EXPECT_EQ(counters.value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", -1.0), 2.0);
}

TEST(ProtocolLdsm, ThreeMatricesAreABadRequestNamingTheField) {
    const json line = measureLine(matrixPattern("ldmatrix", 3));
    ASSERT_FALSE(line.value("ok", true)) << line.dump();
    EXPECT_EQ(line["error"]["code"], "bad_request");
    EXPECT_EQ(line["error"]["where"], "/pattern/matrices");
    EXPECT_NE(line["error"]["message"].get<std::string>().find("1, 2 or 4"), std::string::npos);
}

TEST(ProtocolLdsm, AnUnalignedRowIsRefusedNamingTheLaneAndTheRule) {
    const json line = measureLine(matrixPattern("ldmatrix", 4, false, 5));
    ASSERT_FALSE(line.value("ok", true)) << line.dump();
    EXPECT_EQ(line["error"]["code"], "pattern_refused");
    EXPECT_NE(line["error"]["where"].get<std::string>().find("lane 5"), std::string::npos);
    EXPECT_NE(line["error"]["message"].get<std::string>().find("16-byte aligned"),
              std::string::npos);
}

TEST(ProtocolLdsm, SweepMixesMatrixAndPlainPatterns) {
    FakeBackend backend;
    const Served served =
        serveText(backend, R"({"id":2,"op":"sweep","options":{"latency":false},"patterns":[)" +
                               matrixPattern("ldmatrix", 1) + "," + kCoalesced + "]}\n");
    const json& result = served.lines.back();
    ASSERT_TRUE(result.value("ok", false)) << served.text;
    const json& measurements = result["result"]["measurements"];
    ASSERT_EQ(measurements.size(), 2u);
    EXPECT_EQ(measurements[0]["counters"].value(kLdsmInstructionsMetric, -1.0), 1.0);
    EXPECT_FALSE(measurements[1]["counters"].contains(kLdsmInstructionsMetric));
}

TEST(ProtocolLdsm, SelfcheckReportsEveryModelCheckAgreeingOnAPerfectGpu) {
    FakeBackend backend;
    const Served served = serveText(backend, "{\"id\":3,\"op\":\"selfcheck\"}\n");
    const json& result = served.lines.back()["result"];
    ASSERT_TRUE(result.contains("modelChecks")) << served.text.substr(0, 400);
    const json& checks = result["modelChecks"];
    EXPECT_EQ(checks["failed"], 0);
    EXPECT_EQ(checks["skipped"], 0);
    EXPECT_EQ(checks["passed"].get<std::size_t>(),
              selfcheckMatrixPatterns().size() + selfcheckTmaLoads().size());
    int tmaModes[4] = {0, 0, 0, 0};
    for (const TmaTileLoad& load : selfcheckTmaLoads()) {
        ++tmaModes[static_cast<int>(load.swizzle)];
    }
    for (int count : tmaModes) {
        EXPECT_GT(count, 0) << "every swizzle mode is checked";
    }
    EXPECT_EQ(backend.dumpTmaTileCalls, static_cast<int>(selfcheckTmaLoads().size()));
}

TEST(ProtocolLdsm, SelfcheckCatchesAGpuThatDisagreesWithTheModel) {
    FakeBackend backend;
    // One more ldmatrix wavefront than the model says, and a TMA dump with one chunk wrong.
    backend.answer = [](const SweepItem& item, const MeasureOptions& options) {
        Measurement m = FakeBackend::modelMeasurement(item.access, options);
        if (warpscope::isMatrixAccess(item.access.kind) &&
            item.access.kind.op == warpscope::AccessOp::Load) {
            m.counters["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] += 1;
        }
        return ProbeResult<Measurement>(m);
    };
    backend.tmaAnswer = [](const TmaTileLoad& load) {
        TmaDump dump;
        dump.chunks = warpscope::layTmaTile(load).value().chunks;
        for (auto& chunk : dump.chunks) {
            if (chunk) {
                chunk->row += 1; // the first chunk written holds the next row's data
                break;
            }
        }
        dump.arrived = true;
        dump.windowAddress = 2048;
        return ProbeResult<TmaDump>(dump);
    };
    auto report = runSelfcheck(backend, embeddedHardwareTable(), nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<SelfcheckReport>(report));
    int differ = 0;
    for (const ModelCheck& check : std::get<SelfcheckReport>(report).modelChecks) {
        if (check.kind == "stmatrix") {
            EXPECT_EQ(check.outcome, ModelCheck::Outcome::Agrees) << check.name;
            continue;
        }
        EXPECT_EQ(check.outcome, ModelCheck::Outcome::Differs) << check.name;
        const char* expected =
            check.kind == "tma" ? "the GPU wrote row 1" : "wavefronts_mem_shared_op_ld";
        EXPECT_NE(check.detail.find(expected), std::string::npos) << check.detail;
        ++differ;
    }
    EXPECT_EQ(differ, 5 + static_cast<int>(selfcheckTmaLoads().size()));
}

TEST(TmaCheck, ComparisonNamesEveryKindOfDifference) {
    const TmaTileLoad load{2, 64, 8, TmaSwizzle::Span128, 384};
    const auto layout = warpscope::layTmaTile(load);
    ASSERT_TRUE(layout);
    TmaDump dump;
    dump.chunks = layout.value().chunks;
    dump.arrived = true;
    dump.windowAddress = 1024;
    EXPECT_TRUE(compareTmaLayout(layout.value(), dump).agrees());

    TmaDump moved = dump;
    moved.chunks[3]->byteInRow += 16; // one chunk holding its neighbour's data
    const TmaCheckResult one = compareTmaLayout(layout.value(), moved);
    ASSERT_EQ(one.differences.size(), 1u);
    EXPECT_NE(one.differences[0].find("chunk 3 (shared-memory byte 432)"), std::string::npos)
        << one.differences[0];

    TmaDump extra = dump;
    extra.chunks.push_back(warpscope::TmaChunkSource{0, 0}); // a write past the tile
    EXPECT_FALSE(compareTmaLayout(layout.value(), extra).agrees());

    TmaDump late = dump;
    late.arrived = false;
    late.windowAddress = 1536;
    late.chunksWrittenBeforeDestination = 2;
    EXPECT_EQ(compareTmaLayout(layout.value(), late).differences.size(), 3u);
}

/// warpscope-probe's command line over the fake backend; stdout and stderr captured.
struct CommandRun {
    int status = -1;
    std::string out;
    std::string err;
};

CommandRun runProbe(std::vector<std::string> args, FakeBackend* shared = nullptr) {
    args.insert(args.begin(), "warpscope-probe");
    std::vector<char*> argv;
    for (std::string& arg : args) {
        argv.push_back(arg.data());
    }
    // probeMain turns stdio syncing off; the first call replaces cout's buffer, so do it first.
    std::ios::sync_with_stdio(false);
    std::ostringstream out;
    std::ostringstream err;
    auto* oldOut = std::cout.rdbuf(out.rdbuf());
    auto* oldErr = std::cerr.rdbuf(err.rdbuf());
    CommandRun run;
    run.status = probeMain(static_cast<int>(argv.size()), argv.data(), [shared] {
        auto backend = std::make_unique<FakeBackend>();
        if (shared != nullptr) {
            backend->tmaAnswer = shared->tmaAnswer;
        }
        return std::unique_ptr<Backend>(std::move(backend));
    });
    std::cout.rdbuf(oldOut);
    std::cerr.rdbuf(oldErr);
    run.out = out.str();
    run.err = err.str();
    return run;
}

TEST(TmaCheckCommand, AgreesOnAPerfectGpuAndPrintsBothLayouts) {
    const CommandRun run = runProbe({"tma-check", "--swizzle", "64B", "--box", "32x8",
                                     "--element-bytes", "2", "--smem-offset", "384"});
    EXPECT_EQ(run.status, kExitOk) << run.err;
    const json answer = json::parse(run.out, nullptr, false);
    ASSERT_TRUE(answer.is_object()) << "out: [" << run.out << "] err: [" << run.err << "]";
    EXPECT_TRUE(answer["agrees"].get<bool>());
    EXPECT_EQ(answer["model"], answer["measured"]);
    EXPECT_EQ(answer["load"]["swizzle"], "64B");
}

TEST(TmaCheckCommand, ADifferingGpuExitsWithTheMismatchStatus) {
    FakeBackend differing;
    differing.tmaAnswer = [](const TmaTileLoad&) {
        TmaDump dump; // nothing written, the barrier never completed
        return ProbeResult<TmaDump>(dump);
    };
    const CommandRun run = runProbe({"tma-check"}, &differing);
    EXPECT_EQ(run.status, kExitMismatch);
    EXPECT_NE(run.err.find("differs from the model"), std::string::npos) << run.err;
}

TEST(TmaCheckCommand, RefusesAnOffsetThatIsNot128ByteAligned) {
    const CommandRun run = runProbe({"tma-check", "--smem-offset", "100"});
    EXPECT_EQ(run.status, kExitBadInput);
    EXPECT_NE(run.err.find("smemOffset"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("multiple of 128"), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
}

TEST(TmaCheckCommand, RefusesABoxWiderThanTheSwizzleSpanAndUnknownOptions) {
    const CommandRun wide = runProbe({"tma-check", "--swizzle", "32B", "--box", "64x8"});
    EXPECT_EQ(wide.status, kExitBadInput);
    EXPECT_NE(wide.err.find("box"), std::string::npos) << wide.err;
    EXPECT_NE(wide.err.find("swizzle span"), std::string::npos) << wide.err;
    const CommandRun unknown = runProbe({"tma-check", "--offset", "0"});
    EXPECT_EQ(unknown.status, kExitBadInput);
    EXPECT_NE(unknown.err.find("--offset"), std::string::npos) << unknown.err;
    const CommandRun mode = runProbe({"tma-check", "--swizzle", "128B_ATOM_32B"});
    EXPECT_EQ(mode.status, kExitBadInput);
    EXPECT_NE(mode.err.find("compute capability 9.0"), std::string::npos) << mode.err;
}

} // namespace
