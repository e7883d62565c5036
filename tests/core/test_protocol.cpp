// The probe protocol's vocabulary in core (warpscope/protocol/): the op table both ends read, the
// error codes and their names, and the JSON of the answer types written by the probe and read by
// the app, round trip and hostile input.
#include <warpscope/experiments/experiments.h>
#include <warpscope/protocol/device_info.h>
#include <warpscope/protocol/errors.h>
#include <warpscope/protocol/ops.h>
#include <warpscope/protocol/pattern_measurement.h>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::protocol {
namespace {

TEST(ProtocolOps, EveryOpHasOneRowFoundByItsName) {
    std::set<std::string> names;
    for (const OpInfo& row : probeOps()) {
        EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name << " twice";
        EXPECT_EQ(&opInfo(row.op), &row);
        if (row.op != ProbeOp::Experiment) {
            ASSERT_NE(findOp(row.name), nullptr) << row.name;
            EXPECT_EQ(findOp(row.name), &row);
        }
    }
    EXPECT_EQ(names.size(), 10u);
    EXPECT_EQ(probeOps().back().op, ProbeOp::Experiment);
    // The Experiment row's name is for messages: no request is answered by it.
    EXPECT_EQ(findOp("experiment"), nullptr);
    EXPECT_EQ(findOp("launch_missiles"), nullptr);
    EXPECT_EQ(findOp(""), nullptr);
}

TEST(ProtocolOps, EveryExperimentsOpNameIsAnsweredByTheExperimentRow) {
    for (const experiments::Experiment& row : experiments::experiments()) {
        ASSERT_NE(findOp(row.opName), nullptr) << row.opName;
        EXPECT_EQ(findOp(row.opName), &opInfo(ProbeOp::Experiment)) << row.opName;
    }
    // hello lists the fixed ops, then every experiment's op, each once.
    const std::vector<std::string_view> names = opNames();
    EXPECT_EQ(std::set<std::string_view>(names.begin(), names.end()).size(), names.size());
    EXPECT_EQ(names.size(), probeOps().size() - 1 + experiments::experiments().size());
    EXPECT_EQ(names.front(), "hello");
    EXPECT_EQ(names.back(), experiments::experiments().back().opName);
    for (const std::string_view name : names) {
        EXPECT_NE(findOp(name), nullptr) << name;
    }
}

TEST(ProtocolOps, PropertiesAsDocsProtocolStatesThem) {
    // Every op that measures on a GPU takes the chosen device: the app sends it for each.
    for (const ProbeOp op : {ProbeOp::DeviceInfo, ProbeOp::Measure, ProbeOp::Sweep,
                             ProbeOp::KernelSource, ProbeOp::MeasureKernel, ProbeOp::Experiment}) {
        EXPECT_TRUE(opInfo(op).takesDevice) << opInfo(op).name;
    }
    for (const ProbeOp op :
         {ProbeOp::Hello, ProbeOp::Cancel, ProbeOp::Shutdown, ProbeOp::Selfcheck}) {
        EXPECT_FALSE(opInfo(op).takesDevice) << opInfo(op).name;
    }
    EXPECT_FALSE(opInfo(ProbeOp::KernelSource).needsGpu); // answered in model-only mode
    EXPECT_TRUE(opInfo(ProbeOp::Experiment).needsGpu);
    EXPECT_FALSE(opInfo(ProbeOp::Measure).cancellable);
    EXPECT_TRUE(opInfo(ProbeOp::Experiment).cancellable);
    EXPECT_TRUE(opInfo(ProbeOp::Experiment).reportsProgress);
    EXPECT_TRUE(opInfo(ProbeOp::Selfcheck).reportsProgress);
    EXPECT_EQ(opNameList().substr(0, 19), "hello, device_info,");
    EXPECT_NE(opNameList().find("measure_kernel, measure_transfers, measure_streams and "
                                "measure_l2_persistence"),
              std::string::npos)
        << opNameList();
}

TEST(ProtocolErrors, NamesRoundTripAndNamedConstructorsSayFatal) {
    for (int i = 0; i <= static_cast<int>(ProbeErrorCode::OutOfMemory); ++i) {
        const auto code = static_cast<ProbeErrorCode>(i);
        const auto back = probeErrorCodeFromName(probeErrorCodeName(code));
        ASSERT_TRUE(back.has_value()) << probeErrorCodeName(code);
        EXPECT_EQ(*back, code);
    }
    EXPECT_FALSE(probeErrorCodeFromName("no_such_code").has_value());
    EXPECT_STREQ(probeErrorCodeName(ProbeErrorCode::OutOfMemory), "out_of_memory");

    const ProbeError fault = ProbeError::kernelFault("illegal address");
    EXPECT_EQ(fault.code, ProbeErrorCode::KernelFault);
    EXPECT_TRUE(fault.fatal);
    const ProbeError noDriver = ProbeError::noDriver("libcuda.so.1 not found");
    EXPECT_EQ(noDriver.code, ProbeErrorCode::NoDriver);
    EXPECT_FALSE(noDriver.fatal);
    EXPECT_EQ(noDriver.message, "libcuda.so.1 not found");
    EXPECT_TRUE(isNoGpu(noDriver.code));
    EXPECT_FALSE(isNoGpu(ProbeErrorCode::Cancelled));
    EXPECT_EQ(ProbeError::cancelled().code, ProbeErrorCode::Cancelled);
}

DeviceInfo h200(int index) {
    DeviceInfo d;
    d.name = "NVIDIA H200";
    d.computeCapabilityMajor = 9;
    d.computeCapabilityMinor = 0;
    d.smCount = 132;
    d.l2Bytes = 60 << 20;
    d.globalMemoryBytes = std::int64_t{143} << 30;
    d.memoryClockKHz = 3201000;
    d.memoryBusWidthBits = 6144;
    d.theoreticalBandwidthGBs = 4917.0;
    d.measuredCopyBandwidthGBs = 3870.5;
    d.driverVersion = "13.0";
    d.runtimeVersion = "13.0";
    d.countersAvailable = true;
    d.index = index;
    d.uuid = "GPU-" + std::to_string(index);
    d.busId = "0000:1b:00.0";
    d.link = "peer access to 1";
    return d;
}

TEST(ProtocolJson, DeviceInfoAnswerRoundTrips) {
    DeviceInfoAnswer answer{h200(1), {h200(0), h200(1)}};
    auto back = deviceInfoAnswerFromJsonText(toJson(answer).dump());
    ASSERT_TRUE(back) << back.error().describe();
    const DeviceInfo& d = back->device;
    EXPECT_EQ(d.name, "NVIDIA H200");
    EXPECT_EQ(d.computeCapability(), "9.0");
    EXPECT_EQ(d.smCount, 132);
    EXPECT_EQ(d.l2Bytes, 60 << 20);
    EXPECT_EQ(d.globalMemoryBytes, std::int64_t{143} << 30);
    EXPECT_EQ(d.memoryBusWidthBits, 6144);
    EXPECT_DOUBLE_EQ(d.measuredCopyBandwidthGBs, 3870.5);
    EXPECT_TRUE(d.countersAvailable);
    EXPECT_EQ(d.index, 1);
    EXPECT_EQ(d.uuid, "GPU-1");
    EXPECT_EQ(d.link, "peer access to 1");
    ASSERT_EQ(back->devices.size(), 2u);
    // The list's entries carry the capability as text only.
    EXPECT_EQ(back->devices[1].computeCapabilityMajor, 9);
    EXPECT_EQ(back->devices[1].uuid, "GPU-1");
    EXPECT_EQ(back->devices[0].globalMemoryBytes, std::int64_t{143} << 30);
}

TEST(ProtocolJson, ADeviceListEntryCarriesTheFactsThatTellDevicesApart) {
    // The probe's wire format: the entry of "devices" as device_info has always written it.
    EXPECT_EQ(deviceListEntryJson(h200(0)).dump(),
              R"({"busId":"0000:1b:00.0","computeCapability":"9.0","globalMemoryBytes":)"
              R"(153545080832,"index":0,"link":"peer access to 1","name":"NVIDIA H200",)"
              R"("smCount":132,"uuid":"GPU-0"})");
}

TEST(ProtocolJson, PatternMeasurementRoundTrips) {
    PatternMeasurement m;
    m.counters = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4.0}, {"x", 2.5}};
    m.countersMeasured = true;
    m.predicted = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4.0}};
    m.latencyColdCycles = Stats{612.0, 600.0, 640.0, 21};
    m.smClockKHz = 1980000.0;
    m.gridKernelMs = Stats{0.25, 0.24, 0.3, 21};
    m.gridBytesRequested = 1 << 20;
    m.gridEffectiveBandwidthGBs = 4194.3;
    const auto text = toJson(m).dump();
    EXPECT_NE(text.find("\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\":4,"), std::string::npos)
        << "counters are written as integers: " << text;
    auto back = patternMeasurementFromJsonText(text);
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->counters, m.counters);
    EXPECT_EQ(back->predicted, m.predicted);
    EXPECT_TRUE(back->countersMeasured);
    ASSERT_TRUE(back->latencyColdCycles.has_value());
    EXPECT_DOUBLE_EQ(back->latencyColdCycles->median, 612.0);
    EXPECT_EQ(back->latencyColdCycles->samples, 21);
    EXPECT_FALSE(back->latencyWarmCycles.has_value());
    EXPECT_DOUBLE_EQ(back->smClockKHz, 1980000.0);
    ASSERT_TRUE(back->gridKernelMs.has_value());
    EXPECT_DOUBLE_EQ(back->gridKernelMs->max, 0.3);
    EXPECT_DOUBLE_EQ(back->gridEffectiveBandwidthGBs, 4194.3);
    ASSERT_TRUE(cyclesToNs(612.0, back->smClockKHz).has_value());
    EXPECT_NEAR(*cyclesToNs(612.0, back->smClockKHz), 309.09, 0.01);
    EXPECT_FALSE(cyclesToNs(612.0, 0.0).has_value());

    auto sweep = sweepAnswerFromJsonText(
        nlohmann::json{{"measurements", {toJson(m), toJson(PatternMeasurement{})}}}.dump());
    ASSERT_TRUE(sweep) << sweep.error().describe();
    ASSERT_EQ(sweep->size(), 2u);
    EXPECT_FALSE((*sweep)[1].countersMeasured);
}

TEST(ProtocolJson, HostileAnswersAreRefusedWithTheirJsonPointer) {
    struct Case {
        const char* text;
        const char* where;
    };
    const Case cases[] = {
        {R"({"counters": {"sectors": "four"}})", "/counters/sectors"},
        {R"({"counters": [1, 2]})", "/counters"},
        {R"({"countersMeasured": 1})", "/countersMeasured"},
        {R"({"latency": {"coldCycles": {"median": "slow"}}})", "/latency/coldCycles/median"},
        {R"({"latency": {"coldCycles": {"samples": 1e300}}})", "/latency/coldCycles/samples"},
        {R"({"grid": {"bytesMoved": 5}})", "/grid/kernelMs"},
        {R"({"grid": 7})", "/grid"},
    };
    for (const Case& c : cases) {
        auto read = patternMeasurementFromJsonText(c.text);
        ASSERT_FALSE(read) << c.text;
        EXPECT_EQ(read.error().code, ErrorCode::FileFormat) << c.text;
        EXPECT_EQ(read.error().where, c.where) << c.text << ": " << read.error().describe();
    }
    auto sweep = sweepAnswerFromJsonText(R"({"measurements": [{}, {"predicted": {"a": null}}]})");
    ASSERT_FALSE(sweep);
    EXPECT_EQ(sweep.error().where, "/measurements/1/predicted/a");
    EXPECT_FALSE(sweepAnswerFromJsonText(R"({"measurement": []})"));

    auto device = deviceInfoAnswerFromJsonText(R"({"name": "x", "devices": [{"index": "one"}]})");
    ASSERT_FALSE(device);
    EXPECT_EQ(device.error().where, "/devices/0/index");
    auto capability =
        deviceInfoAnswerFromJsonText(R"({"devices": [{"computeCapability": "nine"}]})");
    ASSERT_FALSE(capability);
    EXPECT_EQ(capability.error().where, "/devices/0/computeCapability");
    // The guard: a duplicate key and a nesting bomb are refused before any field is read.
    EXPECT_FALSE(deviceInfoAnswerFromJsonText(R"({"name": "a", "name": "b"})"));
    EXPECT_FALSE(patternMeasurementFromJsonText(std::string(5000, '[') + std::string(5000, ']')));
    EXPECT_FALSE(patternMeasurementFromJsonText("[]"));
}

} // namespace
} // namespace warpscope::protocol
