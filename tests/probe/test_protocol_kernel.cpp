// The probe protocol in-process against the scripted FakeBackend: measure_kernel, and every
// device (device_info lists them, "device" picks one).
#include "protocol_test_support.h"

namespace {

using namespace protocol_test;

// ---- measure_kernel
// ------------------------------------------------------------------------------

/// The notes' readOffset at a small size: C[i] = A[i + offset] + B[i + offset] for i + offset < n.
std::string readOffsetKernel(std::int64_t n = 4096, std::int64_t offset = 0,
                             std::int64_t bufferBytes = -1) {
    const std::int64_t bytes = bufferBytes >= 0 ? bufferBytes : n * 4;
    const std::string active = "gid + offset < n";
    json kernel = {{"grid", {n / 256, 1, 1}},
                   {"block", {256, 1, 1}},
                   {"parameters", {{"n", n}, {"offset", offset}}},
                   {"buffers",
                    {{{"name", "A"}, {"bytes", bytes}},
                     {{"name", "B"}, {"bytes", bytes}},
                     {{"name", "C"}, {"bytes", bytes}}}},
                   {"accesses",
                    {{{"op", "load"},
                      {"space", "global"},
                      {"width", 4},
                      {"buffer", "A"},
                      {"cache", "default"},
                      {"address", "(gid + offset) * 4"},
                      {"active", active}},
                     {{"op", "load"},
                      {"space", "global"},
                      {"width", 4},
                      {"buffer", "B"},
                      {"cache", "default"},
                      {"address", "(gid + offset) * 4"},
                      {"active", active}},
                     {{"op", "store"},
                      {"space", "global"},
                      {"width", 4},
                      {"buffer", "C"},
                      {"cache", "default"},
                      {"address", "gid * 4"},
                      {"active", active}}}}};
    return kernel.dump();
}

/// The notes' shared-memory tiled transpose of an n x n float matrix, TILE = 32, with or without
/// the [TILE][TILE + 1] padding.
std::string tiledTransposeKernel(std::int64_t n = 256, bool padded = true) {
    const std::string pitch = padded ? "33" : "32";
    json kernel = {
        {"grid", {n / 32, n / 32, 1}},
        {"block", {32, 32, 1}},
        {"parameters", {{"n", n}}},
        {"buffers",
         {{{"name", "in"}, {"bytes", n * n * 4}}, {{"name", "out"}, {"bytes", n * n * 4}}}},
        {"accesses",
         {{{"op", "load"},
           {"space", "global"},
           {"width", 4},
           {"buffer", "in"},
           {"cache", "default"},
           {"address", "((bid.y * 32 + tid.y) * n + bid.x * 32 + tid.x) * 4"}},
          {{"op", "store"},
           {"space", "shared"},
           {"width", 4},
           {"address", "(tid.y * " + pitch + " + tid.x) * 4"}},
          {{"op", "load"},
           {"space", "shared"},
           {"width", 4},
           {"address", "(tid.x * " + pitch + " + tid.y) * 4"}},
          {{"op", "store"},
           {"space", "global"},
           {"width", 4},
           {"buffer", "out"},
           {"cache", "default"},
           {"address", "((bid.x * 32 + tid.y) * n + bid.y * 32 + tid.x) * 4"}}}}};
    return kernel.dump();
}

// Constant memory (issue 19): a constant pattern is a kernel, never replayed; a constant kernel's
// answer carries the constant cache's counters and the extra requests the model predicts.
TEST(ProbeMeasureKernel, ConstantPatternsAreKernelsAndTheirCountersMeetTheModel) {
    FakeBackend fake;
    const Served served = serveText(
        fake,
        request(
            1, "measure",
            R"("pattern":{"space":"constant","op":"load","width":4,"source":{"address":"lane * 4"}})") +
            request(
                2, "measure_kernel",
                R"("kernel":{"grid":[4,1,1],"block":[64,1,1],"buffers":[{"name":"c","bytes":128}],)"
                R"("accesses":[{"op":"load","space":"constant","width":4,"buffer":"c",)"
                R"("address":"(lane % 4) * 4"}]})"));
    ASSERT_GE(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines.front()["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines.front()["error"]["where"], "/pattern/space");
    EXPECT_EQ(fake.measureCalls, 0);
    const json& result = served.lines.back()["result"];
    ASSERT_EQ(served.lines.back()["ok"], true) << served.text;
    // 8 warps, 4 distinct addresses each: 32 requests, 24 beyond one per warp.
    EXPECT_EQ(result["predicted"]["warpscope__constant_addresses"], 32);
    EXPECT_EQ(result["predicted"]["warpscope__constant_extra_requests"], 24);
    EXPECT_EQ(result["counters"]["warpscope__constant_extra_requests"], 24);
    EXPECT_EQ(result["accesses"][0]["constantAddresses"], 32);
    EXPECT_EQ(result["memoryInstructions"][0], "LDC 4");
}

TEST(ProbeMeasureKernel, AnswersThePredictionTheCountersAndTheBandwidth) {
    FakeBackend fake;
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + readOffsetKernel()));
    // One progress line (one kernel done), then the answer.
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines.front()["progress"]["done"], 1);
    const json& answer = served.lines.back();
    ASSERT_EQ(answer["ok"], true) << served.text;
    const json& result = answer["result"];
    // 4096 threads, 128 warps, each warp one request of 4 sectors per access.
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 256);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 1024);
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"], 128);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], 512);
    EXPECT_EQ(result["counters"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 1024);
    EXPECT_EQ(result["countersMeasured"], true);
    EXPECT_EQ(result["threads"], 4096);
    EXPECT_EQ(result["parameters"]["offset"], 0);
    EXPECT_EQ(result["grid"], json::array({16, 1, 1}));
    EXPECT_EQ(result["block"], json::array({256, 1, 1}));
    EXPECT_EQ(result["deviceBytes"], 3 * 4096 * 4);
    EXPECT_EQ(result["bytesRequested"], 3 * 4096 * 4);
    EXPECT_EQ(result["timing"]["cold"], true);
    EXPECT_NE(result["timing"]["label"].get<std::string>().find("cold"), std::string::npos);
    EXPECT_EQ(result["timing"]["kernelMs"]["samples"], 21);
    EXPECT_EQ(result["timing"]["samplesMs"].size(), 21u);
    // The fake runs at its copy bandwidth, 50 GB/s of a theoretical 64.
    EXPECT_NEAR(result["effectiveBandwidthGBs"].get<double>(), 50.0, 1e-6);
    EXPECT_NEAR(result["shareOfCopyBandwidthPct"].get<double>(), 100.0, 1e-6);
    EXPECT_NEAR(result["shareOfTheoreticalBandwidthPct"].get<double>(), 100.0 * 50 / 64, 1e-6);
    ASSERT_EQ(result["accesses"].size(), 3u);
    EXPECT_EQ(result["accesses"][2]["op"], "store");
    ASSERT_EQ(result["buffers"].size(), 3u);
    EXPECT_EQ(result["buffers"][0]["name"], "A");
    EXPECT_EQ(result["buffers"][0]["sectorsRead"], 4096 * 4 / 32);
    EXPECT_EQ(fake.measureKernelCalls.load(), 1);
}

// Issue 19: a kernel with local accesses and a texture read carries those counters, predicted
// and (from the fake, which measures what it predicts) measured; a plain kernel carries neither.
TEST(ProbeMeasureKernel, LocalAndTextureKernelsCarryTheirCounters) {
    FakeBackend fake;
    const json kernel = json::parse(R"({"buffers": [{"name": "in", "bytes": 65536}],
        "grid": [2, 1, 1], "block": [64, 1, 1], "accesses": [
        {"op": "store", "space": "local", "width": 4, "address": "lane * 4"},
        {"op": "load", "space": "texture", "width": 4, "buffer": "in", "row_bytes": 128,
         "address": "(lane % 8) * 4 + (lane / 8) * 128"}]})");
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + kernel.dump()));
    ASSERT_EQ(served.lines.back()["ok"], true) << served.text;
    const json& result = served.lines.back()["result"];
    // 4 warps: lane l's word l is l x 128 + l x 4, 32 sectors each.
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"], 4);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"], 128);
    EXPECT_EQ(result["counters"]["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"], 128);
    // 8 x 4 texels: 8 quads of one sector each; as global loads 4 sectors.
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_tex_mem_texture.sum"], 32);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_tex_mem_texture.sum"], 32);
    EXPECT_EQ(result["predicted"]["warpscope__texture_global_equivalent_sectors"], 16);
    EXPECT_EQ(result["counters"]["l1tex__t_sectors_pipe_tex_mem_texture.sum"], 32);
    EXPECT_EQ(result["memoryInstructions"], json::array({"STL 4", "TEX 4", "STG 4 (sink)"}));

    const Served plain =
        serveText(fake, request(2, "measure_kernel", "\"kernel\":" + readOffsetKernel()));
    const json& counters = plain.lines.back()["result"]["counters"];
    EXPECT_FALSE(counters.contains("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"));
    EXPECT_FALSE(counters.contains("l1tex__t_sectors_pipe_tex_mem_texture.sum"));
}

TEST(ProbeMeasureKernel, WarmAndRepetitionsAreOptionsAndTheAnswerSaysWarm) {
    FakeBackend fake;
    const Served served = serveText(
        fake, request(1, "measure_kernel",
                      "\"kernel\":" + readOffsetKernel() +
                          R"(,"options":{"warm":true,"counters":false,"repetitions":5})"));
    ASSERT_EQ(served.lines.size(), 2u);
    const json& result = served.lines.back()["result"];
    EXPECT_EQ(result["timing"]["cold"], false);
    EXPECT_NE(result["timing"]["label"].get<std::string>().find("warm"), std::string::npos);
    EXPECT_EQ(result["timing"]["kernelMs"]["samples"], 5);
    EXPECT_EQ(result["countersMeasured"], false);
    EXPECT_FALSE(fake.lastKernelOptions.cold);
    EXPECT_FALSE(fake.lastKernelOptions.counters);
    EXPECT_EQ(fake.lastKernelOptions.repetitions, 5);
}

TEST(ProbeMeasureKernel, BadOptionsAndMissingKernelAreBadRequestsThatNameTheField) {
    FakeBackend fake;
    const Served served = serveText(
        fake,
        request(1, "measure_kernel",
                "\"kernel\":" + readOffsetKernel() + R"(,"options":{"warm":1})") +
            request(2, "measure_kernel", R"("options":{})") +
            request(3, "measure_kernel",
                    "\"kernel\":" + readOffsetKernel() + R"(,"options":{"repetitions":0})") +
            request(4, "measure_kernel", "\"kernel\":" + readOffsetKernel() + R"(,"sweeps":[])") +
            request(5, "measure_kernel", R"("kernel":{"grid":[1,1,1]})"));
    ASSERT_EQ(served.lines.size(), 5u) << served.text;
    EXPECT_EQ(served.lines[0]["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines[0]["error"]["where"], "/options/warm");
    EXPECT_EQ(served.lines[1]["error"]["where"], "/kernel");
    EXPECT_EQ(served.lines[2]["error"]["where"], "/options/repetitions");
    EXPECT_EQ(served.lines[3]["error"]["where"], "/sweeps");
    EXPECT_EQ(served.lines[4]["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines[4]["error"]["where"].get<std::string>().rfind("/kernel", 0), 0u)
        << served.lines[4];
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, AKernelReadingPastItsBufferIsRefusedNamingTheOffenderAndNeverRuns) {
    FakeBackend fake;
    // offset 1: thread 4095 loads A at byte 16384, one element past the 16384-byte buffer
    // (the active expression gid + offset < n is what the notes' kernel guards with; this one
    // guards nothing).
    json kernel = json::parse(readOffsetKernel(4096, 1));
    kernel["accesses"][0]["active"] = "1";
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + kernel.dump()));
    ASSERT_EQ(served.lines.size(), 1u);
    const json& error = served.lines.front()["error"];
    EXPECT_EQ(error["code"], "pattern_refused") << error;
    const std::string message = error["message"].get<std::string>();
    EXPECT_NE(message.find("16384"), std::string::npos) << message; // the address
    // Thread 4095 is thread 255 of block 15 (blocks of 256).
    EXPECT_NE(message.find("block (15, 0, 0)"), std::string::npos) << message;
    EXPECT_NE(message.find("thread (255, 0, 0)"), std::string::npos) << message;
    EXPECT_NE(message.find("accesses/0"), std::string::npos) << message; // the access
    EXPECT_NE(message.find("not launched"), std::string::npos) << message;
    EXPECT_EQ(error["where"].get<std::string>().rfind("/kernel", 0), 0u) << error;
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, AMisalignedKernelIsRefused) {
    FakeBackend fake;
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"][2]["address"] = "gid * 4 + 2";
    kernel["accesses"][2]["active"] = "gid + 1 < n";
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + kernel.dump()));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines.front()["error"]["code"], "pattern_refused") << served.text;
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, BuffersLargerThanTheGpuAreRefusedNamingThemAndTheirSizes) {
    FakeBackend fake;                                // 1 GiB of device memory
    const std::int64_t huge = std::int64_t{3} << 29; // 1.5 GiB each
    const Served served = serveText(
        fake, request(1, "measure_kernel", "\"kernel\":" + readOffsetKernel(4096, 0, huge)));
    ASSERT_EQ(served.lines.size(), 1u);
    const json& error = served.lines.front()["error"];
    EXPECT_EQ(error["code"], "out_of_memory") << error;
    const std::string message = error["message"].get<std::string>();
    EXPECT_NE(message.find("A 1610612736 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("C 1610612736 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("1073741824"), std::string::npos) << message; // what the GPU has
}

TEST(ProbeMeasureKernel, ASweepAnswersOnePointEachInOrderAfterProgress) {
    FakeBackend fake;
    const Served served = serveText(
        fake, request(1, "measure_kernel",
                      "\"kernel\":" + readOffsetKernel() +
                          R"(,"sweep":[{"offset":0},{"offset":11},{"offset":128,"block":[128]}])"));
    ASSERT_GE(served.lines.size(), 2u) << served.text;
    const json& answer = served.lines.back();
    ASSERT_EQ(answer["ok"], true) << served.text;
    const json& list = answer["result"]["measurements"];
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0]["parameters"]["offset"], 0);
    EXPECT_EQ(list[1]["parameters"]["offset"], 11);
    EXPECT_EQ(list[2]["block"], json::array({128, 1, 1}));
    // Offset 11 leaves the last 11 threads inactive: fewer bytes requested, more sectors.
    EXPECT_EQ(list[1]["bytesRequested"], 3 * (4096 - 11) * 4);
    EXPECT_GT(list[1]["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].get<int>(),
              list[0]["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].get<int>());
    int progressLines = 0;
    for (const json& line : served.lines) {
        progressLines += line.contains("progress") ? 1 : 0;
    }
    EXPECT_EQ(progressLines, 3);
    EXPECT_EQ(served.lines[served.lines.size() - 2]["progress"]["done"], 3);
}

TEST(ProbeMeasureKernel, ASweepPointNamingAnUnknownParameterIsRefusedWhole) {
    FakeBackend fake;
    const Served served = serveText(fake, request(1, "measure_kernel",
                                                  "\"kernel\":" + readOffsetKernel() +
                                                      R"(,"sweep":[{"offset":0},{"ofset":1}])"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines.front()["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines.front()["error"]["where"], "/sweep/1/ofset");
    EXPECT_NE(served.lines.front()["error"]["message"].get<std::string>().find("offset"),
              std::string::npos);
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, ASweepWhosePointReadsOutOfBoundsIsRefusedBeforeAnythingRuns) {
    FakeBackend fake;
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"][1]["active"] = "1";
    const Served served = serveText(
        fake, request(1, "measure_kernel",
                      "\"kernel\":" + kernel.dump() + R"(,"sweep":[{"offset":0},{"offset":3}])"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines.front()["error"]["code"], "pattern_refused");
    EXPECT_EQ(served.lines.front()["error"]["where"].get<std::string>().rfind("/sweep/1", 0), 0u)
        << served.lines.front();
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, CancelStopsARunningKernelSweep) {
    FakeBackend fake;
    std::promise<void> started;
    std::atomic<bool> signalled{false};
    std::atomic<int> ran{0};
    fake.beforeItem = [&](int index) {
        if (index == 0 && !signalled.exchange(true)) {
            started.set_value();
        }
        ++ran;
        std::this_thread::sleep_for(5ms);
    };
    std::string sweep = "[";
    const int count = 1000; // 5 s if nothing cancels it
    for (int i = 0; i < count; ++i) {
        sweep += (i ? ",{\"offset\":" : "{\"offset\":") + std::to_string(i % 64) + "}";
    }
    sweep += "]";
    LiveServer server(fake);
    server.input.push(
        request(7, "measure_kernel", "\"kernel\":" + readOffsetKernel() + ",\"sweep\":" + sweep));
    ASSERT_EQ(started.get_future().wait_for(30s), std::future_status::ready);
    server.input.push(R"({"id":8,"op":"cancel","target":7})"
                      "\n");
    json cancelAnswer = server.output.waitFor(responseTo(8));
    json answer = server.output.waitFor(responseTo(7));
    EXPECT_EQ(server.finish(), kServeExitOk);
    EXPECT_EQ(cancelAnswer["result"]["state"], "cancelling");
    EXPECT_EQ(answer["ok"], false);
    EXPECT_EQ(answer["error"]["code"], "cancelled");
    EXPECT_LT(ran.load(), count);
}

TEST(ProbeMeasureKernel, HelloListsTheOp) {
    FakeBackend fake;
    const Served served = serveText(fake, request(1, "hello"));
    const json& ops = served.lines.front()["result"]["ops"];
    EXPECT_NE(std::find(ops.begin(), ops.end(), "measure_kernel"), ops.end());
}

TEST(ProbeMeasureKernel, KernelSourceOfAKernelListsOneMemoryInstructionPerAccessInOrder) {
    FakeBackend fake;
    const Served served =
        serveText(fake, request(1, "kernel_source", "\"kernel\":" + tiledTransposeKernel()));
    ASSERT_EQ(served.lines.size(), 1u);
    const json& result = served.lines.front()["result"];
    ASSERT_TRUE(result.contains("source")) << served.text;
    EXPECT_EQ(result["memoryInstructions"], json::array({"LDG 4", "STS 4", "LDS 4", "STG 4"}));
    EXPECT_EQ(result["sharedBytesPerBlock"], (31 * 33 + 31 + 1) * 4);
    const std::string source = result["source"].get<std::string>();
    const auto ldg = source.find("ld.global.u32");
    const auto sts = source.find("st.shared.u32");
    const auto sync = source.find("__syncthreads()");
    const auto lds = source.find("ld.shared.u32");
    const auto stg = source.find("st.global.u32");
    ASSERT_NE(ldg, std::string::npos);
    EXPECT_LT(ldg, sts);
    EXPECT_LT(sts, sync);
    EXPECT_LT(sync, lds);
    EXPECT_LT(lds, stg);
    EXPECT_EQ(source.find("ws_sink[0]"), std::string::npos); // it ends with a store
}

TEST(ProbeKernelCodegen, EveryAccessIsOneAsmStatementWithItsCachePathAndWidth) {
    auto kernel = warpscope::kernelFromJsonText(readOffsetKernel());
    ASSERT_TRUE(kernel.ok());
    kernel.value().accesses[0].kind.cache = warpscope::CachePath::CacheGlobal;
    kernel.value().accesses[1].kind.cache = warpscope::CachePath::NonCoherent;
    auto resolved = warpscope::resolveKernel(kernel.value());
    ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
    const GeneratedKernel generated = generateKernelSource(resolved.value());
    const std::string& s = generated.source;
    std::size_t asmCount = 0;
    for (std::size_t at = s.find("asm volatile"); at != std::string::npos;
         at = s.find("asm volatile", at + 1)) {
        ++asmCount;
    }
    EXPECT_EQ(asmCount, 3u);
    EXPECT_LT(s.find("ld.global.cg.u32"), s.find("ld.global.nc.u32"));
    EXPECT_LT(s.find("ld.global.nc.u32"), s.find("st.global.u32"));
    // The active expression guards each access, with the kernel's parameters as arguments.
    EXPECT_NE(s.find("(ws_gid) + (ws_offset)"), std::string::npos) << s;
    EXPECT_NE(s.find("< (ws_n)"), std::string::npos) << s;
    EXPECT_NE(s.find("i64 ws_n, i64 ws_offset"), std::string::npos) << s;
    EXPECT_FALSE(generated.hasSink);
    EXPECT_EQ(generated.bufferArguments, 3);
    EXPECT_EQ(generated.parameterArguments, 2);
}

TEST(ProbeKernelCodegen, TrailingLoadsFeedAGuardedSinkSoTheyAreKept) {
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"].erase(2);
    auto parsed = warpscope::kernelFromJsonText(kernel.dump());
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    auto resolved = warpscope::resolveKernel(parsed.value());
    ASSERT_TRUE(resolved.ok());
    const GeneratedKernel generated = generateKernelSource(resolved.value());
    EXPECT_TRUE(generated.hasSink);
    EXPECT_EQ(generated.expectedMemoryInstructions.back(), "STG 4 (sink)");
    EXPECT_NE(generated.source.find("ws_acc == ws_sentinel"), std::string::npos);
}

TEST(ProbeKernelCodegen, WideAccessesUseVectorRegisters) {
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"][0]["width"] = 16;
    kernel["accesses"][0]["address"] = "(gid + offset) * 16";
    kernel["accesses"][0]["active"] = "(gid + offset) * 4 < n";
    kernel["accesses"][2]["width"] = 8;
    kernel["accesses"][2]["address"] = "gid * 8";
    kernel["accesses"][2]["active"] = "gid * 2 < n";
    auto parsed = warpscope::kernelFromJsonText(kernel.dump());
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    auto resolved = warpscope::resolveKernel(parsed.value());
    ASSERT_TRUE(resolved.ok());
    const GeneratedKernel generated = generateKernelSource(resolved.value());
    EXPECT_NE(generated.source.find("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"), std::string::npos);
    EXPECT_NE(generated.source.find("st.global.v2.u32 [%0], {%1, %2};"), std::string::npos);
    EXPECT_EQ(generated.expectedMemoryInstructions,
              (std::vector<std::string>{"LDG 16", "LDG 4", "STG 8"}));
}

// Issue 19: a local array whose address goes into the PTX (each access with its own term that is
// 0 at run time, so ptxas forwards nothing), and a texture read through an object argument.
TEST(ProbeKernelCodegen, LocalArraysAndTextureReads) {
    auto parsed = warpscope::kernelFromJsonText(
        R"({"buffers": [{"name": "in", "bytes": 65536}, {"name": "out", "bytes": 4096}],
            "grid": [4, 1, 1], "block": [256, 1, 1], "parameters": {"k": 3},
            "accesses": [
             {"op": "store", "space": "local", "width": 4, "address": "(lane % 8) * 4"},
             {"op": "load", "space": "local", "width": 1, "address": "k"},
             {"op": "load", "space": "texture", "width": 4, "buffer": "in", "row_bytes": 1024,
              "address": "gid * 16"},
             {"op": "store", "space": "global", "width": 4, "buffer": "out",
              "address": "gid * 4"}]})");
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    auto resolved = warpscope::resolveKernel(parsed.value());
    ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
    auto grid = warpscope::predictGrid(resolved.value());
    ASSERT_TRUE(grid.ok());
    EXPECT_EQ(grid->localBytesPerThread, 32);
    const GeneratedKernel generated =
        generateKernelSource(resolved.value(), grid->localBytesPerThread);
    const std::string& s = generated.source;
    EXPECT_NE(s.find("unsigned char ws_local[32];"), std::string::npos) << s;
    EXPECT_NE(s.find("__cvta_generic_to_local(ws_local)"), std::string::npos);
    EXPECT_NE(s.find("st.local.u32 [%0], %1;"), std::string::npos);
    EXPECT_NE(s.find("ld.local.u8 %0, [%1];"), std::string::npos);
    EXPECT_NE(s.find("(ws_sentinel == 1u ? 4ull : 0ull)"), std::string::npos);
    EXPECT_NE(s.find("(ws_sentinel == 2u ? 4ull : 0ull)"), std::string::npos);
    EXPECT_NE(s.find("tex.2d.v4.u32.f32"), std::string::npos);
    EXPECT_NE(s.find("i64 ws_k, unsigned long long ws_tex_2, unsigned* ws_sink"), std::string::npos)
        << s;
    EXPECT_NE(s.find("(ws_a % 1024) / 4"), std::string::npos);
    EXPECT_EQ(generated.textureAccesses, (std::vector<int>{2}));
    EXPECT_EQ(generated.expectedMemoryInstructions,
              (std::vector<std::string>{"STL 4", "LDL 1", "TEX 4", "STG 4"}));

    // Without local accesses there is no array.
    auto plain = warpscope::kernelFromJsonText(readOffsetKernel());
    ASSERT_TRUE(plain.ok());
    auto plainResolved = warpscope::resolveKernel(plain.value());
    ASSERT_TRUE(plainResolved.ok());
    EXPECT_EQ(generateKernelSource(plainResolved.value()).source.find("ws_local"),
              std::string::npos);
}

} // namespace

// ---- Every device: device_info lists them, "device" picks one (additive: absent is device 0)

namespace {

TEST(ProbeDevices, DeviceInfoListsEveryDeviceWithItsIdentity) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const Served served =
        serveText(fake, request(1, "device_info") + request(2, "device_info", R"("device":1)"));
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    const json& first = served.lines[0]["result"];
    EXPECT_EQ(first["index"], 0);
    EXPECT_EQ(first["name"], "warpscope fake GPU");
    ASSERT_EQ(first["devices"].size(), 2u);
    for (const char* field :
         {"index", "name", "uuid", "computeCapability", "globalMemoryBytes", "busId", "link"}) {
        EXPECT_TRUE(first["devices"][1].contains(field)) << field;
    }
    EXPECT_EQ(first["devices"][1]["name"], "warpscope fake GPU 1");
    EXPECT_NE(first["devices"][0]["uuid"], first["devices"][1]["uuid"]);
    EXPECT_NE(first["devices"][0]["busId"], first["devices"][1]["busId"]);
    const json& second = served.lines[1]["result"];
    EXPECT_EQ(second["index"], 1);
    EXPECT_EQ(second["name"], "warpscope fake GPU 1");
    EXPECT_EQ(second["uuid"], first["devices"][1]["uuid"]);
    EXPECT_NEAR(second["measuredCopyBandwidthGBs"].get<double>(), 25.0, 1e-9);
}

TEST(ProbeDevices, MeasureKernelRunsOnTheDeviceAsked) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const std::string kernel = "\"kernel\":" + readOffsetKernel();
    const Served served = serveText(
        fake, request(1, "measure_kernel", kernel) +
                  request(2, "measure_kernel", kernel + R"(,"device":1)") +
                  request(3, "measure", "\"pattern\":" + stridedPattern(1) + R"(,"device":1)"));
    std::vector<json> answers;
    for (const json& line : served.lines) {
        if (line.contains("ok")) {
            answers.push_back(line);
        }
    }
    ASSERT_EQ(answers.size(), 3u) << served.text;
    EXPECT_NEAR(answers[0]["result"]["effectiveBandwidthGBs"].get<double>(), 50.0, 1e-6);
    // Device 1 of the fake has half the copy bandwidth: the same kernel takes twice as long.
    EXPECT_NEAR(answers[1]["result"]["effectiveBandwidthGBs"].get<double>(), 25.0, 1e-6);
    EXPECT_EQ(answers[2]["ok"], true) << answers[2].dump();
    EXPECT_EQ(fake.measureKernelCalls.load(), 1); // the second ran on device 1's backend
}

TEST(ProbeDevices, AnUnknownOrMalformedDeviceIsABadRequestNamingTheDevices) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const Served served = serveText(
        fake, request(1, "measure", "\"pattern\":" + stridedPattern(1) + R"(,"device":5)") +
                  request(2, "device_info", R"("device":"one")") +
                  request(3, "device_info", R"("device":-1)"));
    ASSERT_EQ(served.lines.size(), 3u) << served.text;
    const json& unknown = served.lines[0]["error"];
    EXPECT_EQ(unknown["code"], "bad_request");
    EXPECT_EQ(unknown["where"], "/device");
    const std::string message = unknown["message"].get<std::string>();
    EXPECT_NE(message.find("no device 5"), std::string::npos) << message;
    EXPECT_NE(message.find("2 devices (0: warpscope fake GPU, 1: warpscope fake GPU 1)"),
              std::string::npos)
        << message;
    EXPECT_EQ(served.lines[1]["error"]["where"], "/device");
    EXPECT_EQ(served.lines[2]["error"]["where"], "/device");
    EXPECT_EQ(fake.measureCalls.load(), 0);
}

TEST(ProbeDevices, TheExperimentsRunOnTheDeviceAsked) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const Served served = serveText(
        fake,
        request(1, "measure_transfers",
                R"("options":{"sizes":[4096],"modes":["h2d_pinned"],"repetitions":3},"device":1)") +
            request(2, "measure_streams",
                    R"("options":{"bytes":16777216,"streams":[2]},"device":1)") +
            request(3, "measure_l2_persistence",
                    R"("options":{"windowBytes":[2097152]},"device":1)") +
            request(4, "measure_streams",
                    R"("options":{"bytes":16777216,"streams":[2]},"device":5)"));
    std::vector<json> answers;
    for (const json& line : served.lines) {
        if (line.contains("ok")) {
            answers.push_back(line);
        }
    }
    ASSERT_EQ(answers.size(), 4u) << served.text;
    EXPECT_EQ(answers[0]["result"]["device"], "warpscope fake GPU 1") << answers[0].dump();
    EXPECT_EQ(answers[1]["result"]["device"], "warpscope fake GPU 1") << answers[1].dump();
    EXPECT_EQ(answers[2]["ok"], true) << answers[2].dump();
    EXPECT_EQ(answers[3]["error"]["where"], "/device") << answers[3].dump();
    // None of them ran on device 0's backend.
    EXPECT_EQ(fake.measureL2PersistenceCalls.load(), 0);
}

TEST(ProbeDevices, OneDeviceByDefaultAndDeviceZeroIsItself) {
    FakeBackend fake;
    const Served served = serveText(
        fake, request(1, "device_info", R"("device":0)") +
                  request(2, "measure", "\"pattern\":" + stridedPattern(1) + R"(,"device":1)"));
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines[0]["result"]["devices"].size(), 1u);
    EXPECT_EQ(served.lines[1]["error"]["code"], "bad_request");
}

} // namespace
