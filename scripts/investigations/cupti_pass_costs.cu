// Where one counter measurement's time goes, on a GPU machine: times every CUPTI range-profiler
// call for one single-warp launch under several ways of driving the profiler, and checks that
// every way reads the same counters. Not part of the build; compile on the build machine with
//   nvcc -O2 -std=c++17 -arch=sm_90 -I$CUDA/include scripts/investigations/cupti_pass_costs.cu \
//        -L$CUDA/lib -L$CUDA/lib/stubs -lcupti -lcuda -o cupti_pass_costs
// and run it on the GPU machine (libcupti on LD_LIBRARY_PATH):
//   cupti_pass_costs REPEATS             set-up in one thread, then every way below
//   cupti_pass_costs 0 parallel          set-up with cuptiProfilerInitialize beside the context
//   cupti_pass_costs 0 no-availability   set-up without the counter availability image
// Results: tests/data/measure_cost_h100.txt, docs/benchmarks.md.
//
// Ways (one enabled profiler each, the probe's 8 counters, the launch a warp's misaligned
// 4-byte global load; the first request of each is left out of the times):
//   one-config           all counters in one configuration (the probe before): 4 passes;
//   one-config-1         the same, room for one range per pass instead of 64;
//   reorder              passes asked for as 3, 0, 1, 2 (3 is the sector counters' pass);
//   reorder-kept         the same, pass 3 configured and started before the request;
//   reorder-kept-noise   the same, L2 flushes and other loads launched outside any range while
//                        the started pass waits (they must not be counted);
//   reorder-kept-wait    the same, the started pass left waiting 50 ms;
//   reorder-kept-discard a started pass stopped unused, then started again and used;
//   split-shared-image*  sector and other counters as two configurations over images sized for
//                        all eight counters (the last way started ahead, and with noise);
//   split                the same with an image per configuration.
// Also times the profiler's set-up (initialise, chip, counter availability, host object and
// configuration, enable, first start), with the thread's CPU time beside each wall time.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double now() {
    return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
}

double threadCpuMs() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        CUptiResult r_ = (call);                                                                   \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char* s_ = nullptr;                                                              \
            cuptiGetResultString(r_, &s_);                                                         \
            throw std::runtime_error(std::string(#call) + ": " + (s_ ? s_ : "?"));                 \
        }                                                                                          \
    } while (0)

const std::vector<std::string> kSectors = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                           "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
const std::vector<std::string> kOthers = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"};

__global__ void warpLoad(const float* data, int offset, float* sink, int never) {
    const float value = data[threadIdx.x + offset];
    if (never == 12345) {
        sink[threadIdx.x] = value;
    }
}

__global__ void flushKernel(int* buffer, size_t count) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        buffer[i] = static_cast<int>(i);
    }
}

float* g_data = nullptr;
float* g_sink = nullptr;
int* g_flush = nullptr;
const size_t kFlushInts = size_t{100} << 20 >> 2;
CUcontext g_context = nullptr;
std::string g_chip;
std::vector<uint8_t> g_availability;

// Timings of one named step, over all requests of a way.
struct Steps {
    std::map<std::string, std::vector<double>> wall, cpu;
    std::vector<std::string> order;
    void add(const std::string& name, double wallMs, double cpuMs) {
        if (!wall.count(name)) {
            order.push_back(name);
        }
        wall[name].push_back(wallMs);
        cpu[name].push_back(cpuMs);
    }
};

double median(std::vector<double> v) {
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Timer {
    Steps& steps;
    std::string name;
    double wall0 = now(), cpu0 = threadCpuMs();
    Timer(Steps& s, std::string n) : steps(s), name(std::move(n)) {}
    ~Timer() { steps.add(name, now() - wall0, threadCpuMs() - cpu0); }
};

struct Group {
    std::vector<std::string> names;
    std::vector<const char*> pointers;
    CUpti_Profiler_Host_Object* host = nullptr;
    std::vector<uint8_t> config, counterData;
    size_t passes = 0;
};

void buildGroup(Group& group, const std::vector<std::string>& names) {
    group.names = names;
    for (const auto& n : group.names) {
        group.pointers.push_back(n.c_str());
    }
    CUpti_Profiler_Host_Initialize_Params hi{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = g_chip.c_str();
    hi.pCounterAvailabilityImage = g_availability.empty() ? nullptr : g_availability.data();
    CHECK(cuptiProfilerHostInitialize(&hi));
    group.host = hi.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = group.host;
    add.ppMetricNames = group.pointers.data();
    add.numMetrics = group.pointers.size();
    CHECK(cuptiProfilerHostConfigAddMetrics(&add));
    CUpti_Profiler_Host_GetConfigImageSize_Params size{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = group.host;
    CHECK(cuptiProfilerHostGetConfigImageSize(&size));
    group.config.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = group.host;
    image.configImageSize = group.config.size();
    image.pConfigImage = group.config.data();
    CHECK(cuptiProfilerHostGetConfigImage(&image));
    CUpti_Profiler_Host_GetNumOfPasses_Params passes{
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = group.config.size();
    passes.pConfigImage = group.config.data();
    CHECK(cuptiProfilerHostGetNumOfPasses(&passes));
    group.passes = passes.numOfPasses;
}

struct Way {
    std::string name;
    std::vector<std::vector<std::string>> groups;
    bool kept = false; // group 0's first pass started before the request
    int maxRanges = 64;
    bool noise = false;        // flushes and loads outside ranges while the kept pass waits
    int waitMs = 0;            // how long the kept pass waits before the request
    bool discard = false;      // stop the kept pass unused once per request, then start it again
    std::vector<size_t> order; // one configuration's passes in this order (else as CUPTI says)
    bool sharedImage = false;  // every counter data image sized for all counters
};

struct Profiler {
    CUpti_RangeProfiler_Object* object = nullptr;
    std::vector<const char*> allPointers; // for sharedImage
    std::vector<size_t> order;
    std::string diagnosis;
    std::vector<Group> groups;
    int maxRanges = 64;
    bool started = false;
};

void initImage(Profiler& p, Group& g) {
    if (g.counterData.empty()) {
        CUpti_RangeProfiler_GetCounterDataSize_Params size{
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        size.pRangeProfilerObject = p.object;
        size.pMetricNames = p.allPointers.empty() ? g.pointers.data() : p.allPointers.data();
        size.numMetrics = p.allPointers.empty() ? g.pointers.size() : p.allPointers.size();
        size.maxNumOfRanges = p.maxRanges;
        size.maxNumRangeTreeNodes = p.maxRanges;
        CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
        g.counterData.assign(size.counterDataSize, 0);
    }
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = p.object;
    init.counterDataSize = g.counterData.size();
    init.pCounterData = g.counterData.data();
    CHECK(cuptiRangeProfilerCounterDataImageInitialize(&init));
}

void setConfig(Profiler& p, Group& g, size_t pass) {
    CUpti_RangeProfiler_SetConfig_Params config{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    config.pRangeProfilerObject = p.object;
    config.configSize = g.config.size();
    config.pConfig = g.config.data();
    config.counterDataImageSize = g.counterData.size();
    config.pCounterDataImage = g.counterData.data();
    config.range = CUPTI_UserRange;
    config.replayMode = CUPTI_UserReplay;
    config.maxRangesPerPass = p.maxRanges;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = pass;
    config.targetNestingLevel = 1;
    CHECK(cuptiRangeProfilerSetConfig(&config));
}

void startPass(Profiler& p) {
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = p.object;
    CHECK(cuptiRangeProfilerStart(&start));
}

CUpti_RangeProfiler_Stop_Params stopPass(Profiler& p) {
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = p.object;
    CHECK(cuptiRangeProfilerStop(&stop));
    return stop;
}

void prepare(Profiler& p, Steps& steps) {
    Timer t(steps, "idle: images, set config, start (off the request)");
    for (auto& g : p.groups) {
        initImage(p, g);
    }
    setConfig(p, p.groups[0], p.order.empty() ? 0 : p.order[0]);
    startPass(p);
    p.started = true;
}

std::map<std::string, double> measureOnce(Profiler& p, const Way& way, Steps& steps, int offset) {
    std::map<std::string, double> values;
    for (size_t gi = 0; gi < p.groups.size(); ++gi) {
        Group& g = p.groups[gi];
        const bool kept = gi == 0 && p.started;
        if (!kept && !way.kept) {
            Timer t(steps, "g" + std::to_string(gi) + " counter data initialise");
            initImage(p, g);
        }
        const bool ordered = gi == 0 && !p.order.empty();
        size_t pass = ordered ? p.order[0] : 0;
        bool done = false;
        for (int attempt = 0; !done && attempt < 16; ++attempt) {
            const bool keptPass = kept && attempt == 0;
            const std::string tag = "g" + std::to_string(gi) + " pass " + std::to_string(pass) +
                                    (keptPass ? " (kept)" : "");
            if (!keptPass) {
                Timer t(steps, tag + " set config + start");
                setConfig(p, g, pass);
                startPass(p);
            }
            {
                Timer t(steps, tag + " push, launch, pop");
                CUpti_RangeProfiler_PushRange_Params push{
                    CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
                push.pRangeProfilerObject = p.object;
                push.pRangeName = "pattern";
                CHECK(cuptiRangeProfilerPushRange(&push));
                warpLoad<<<1, 32>>>(g_data, offset, g_sink, 0);
                CUpti_RangeProfiler_PopRange_Params pop{
                    CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
                pop.pRangeProfilerObject = p.object;
                CHECK(cuptiRangeProfilerPopRange(&pop));
            }
            {
                Timer t(steps, tag + " synchronise");
                cudaDeviceSynchronize();
            }
            CUpti_RangeProfiler_Stop_Params stop;
            {
                Timer t(steps, tag + " stop");
                stop = stopPass(p);
            }
            {
                Timer t(steps, tag + " decode");
                CUpti_RangeProfiler_DecodeData_Params decode{
                    CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
                decode.pRangeProfilerObject = p.object;
                CHECK(cuptiRangeProfilerDecodeData(&decode));
            }
            if (p.diagnosis.size() < 400) {
                p.diagnosis += " [ran " + std::to_string(pass) + ": stop says next " +
                               std::to_string(stop.passIndex) + ", all " +
                               std::to_string(int(stop.isAllPassSubmitted)) + "]";
            }
            if (ordered) {
                done = static_cast<size_t>(attempt + 1) == p.order.size();
                pass = done ? 0 : p.order[attempt + 1];
            } else {
                done = stop.isAllPassSubmitted != 0;
                pass = stop.passIndex;
            }
        }
        if (gi == 0) {
            p.started = false;
        }
        Timer t(steps, "g" + std::to_string(gi) + " evaluate");
        std::vector<double> out(g.pointers.size());
        CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        evaluate.pHostObject = g.host;
        evaluate.pCounterDataImage = g.counterData.data();
        evaluate.counterDataImageSize = g.counterData.size();
        evaluate.rangeIndex = 0;
        evaluate.ppMetricNames = g.pointers.data();
        evaluate.numMetrics = g.pointers.size();
        evaluate.pMetricValues = out.data();
        CHECK(cuptiProfilerHostEvaluateToGpuValues(&evaluate));
        for (size_t m = 0; m < out.size(); ++m) {
            values[g.names[m]] = out[m];
        }
    }
    return values;
}

std::map<std::string, double> g_reference;

void runWay(const Way& way, int repeats) {
    Profiler p;
    p.maxRanges = way.maxRanges;
    p.order = way.order;
    std::vector<std::string> everything;
    for (const auto& g : way.groups) {
        everything.insert(everything.end(), g.begin(), g.end());
    }
    if (way.sharedImage) {
        for (const auto& n : everything) {
            p.allPointers.push_back(n.c_str());
        }
    }
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = g_context;
    CHECK(cuptiRangeProfilerEnable(&enable));
    p.object = enable.pRangeProfilerObject;
    p.groups.resize(way.groups.size());
    for (size_t i = 0; i < way.groups.size(); ++i) {
        buildGroup(p.groups[i], way.groups[i]);
    }
    Steps steps;
    std::vector<double> requests;
    int differ = 0;
    std::map<std::string, double> last;
    try {
        for (int r = 0; r <= repeats; ++r) {
            if (way.kept) {
                prepare(p, steps);
                if (way.discard) {
                    Timer t(steps, "discard: stop unused");
                    stopPass(p);
                    p.started = false;
                    CUpti_RangeProfiler_DecodeData_Params decode{
                        CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
                    decode.pRangeProfilerObject = p.object;
                    cuptiRangeProfilerDecodeData(&decode);
                }
                if (way.discard) {
                    prepare(p, steps);
                }
                if (way.noise) {
                    for (int k = 0; k < 3; ++k) {
                        flushKernel<<<264, 512>>>(g_flush, kFlushInts);
                        warpLoad<<<4, 64>>>(g_data, k + 1, g_sink, 0);
                    }
                    cudaDeviceSynchronize();
                }
                if (way.waitMs > 0) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(way.waitMs));
                }
            }
            const int offset = 11 + (r % 5) * 8; // 5 sectors every time, at different addresses
            const double t0 = now();
            Steps* target = &steps;
            Steps warm;
            if (r == 0) {
                target = &warm; // the first request pays the first start: left out
            }
            last = measureOnce(p, way, *target, offset);
            if (r > 0) {
                requests.push_back(now() - t0);
            }
            if (!g_reference.empty() && last != g_reference) {
                ++differ;
                if (differ == 1) {
                    std::printf("   %s: first differing counters:", way.name.c_str());
                    for (const auto& [name, value] : last) {
                        std::printf(" %s=%g", name.c_str(), value);
                    }
                    std::printf("\n");
                }
            }
        }
    } catch (const std::exception& e) {
        std::printf("## %s: FAILED: %s; passes:%s\n", way.name.c_str(), e.what(),
                    p.diagnosis.c_str());
        {
            // Whatever was started is stopped (an error when nothing was is ignored).
            CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
            stop.pRangeProfilerObject = p.object;
            cuptiRangeProfilerStop(&stop);
        }
        CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        disable.pRangeProfilerObject = p.object;
        cuptiRangeProfilerDisable(&disable);
        std::fflush(stdout);
        return;
    }
    if (g_reference.empty()) {
        g_reference = last;
    }
    size_t totalPasses = 0;
    for (auto& g : p.groups) {
        totalPasses += g.passes;
    }
    std::printf("## %s: %zu groups, %zu passes, request p50 %.2f ms (min %.2f, max %.2f), %d of "
                "%d requests' counters differ from one-config's\n",
                way.name.c_str(), p.groups.size(), totalPasses, median(requests),
                *std::min_element(requests.begin(), requests.end()),
                *std::max_element(requests.begin(), requests.end()), differ, repeats + 1);
    std::printf("   passes of the last request:%s\n", p.diagnosis.substr(0, 200).c_str());
    for (const auto& name : steps.order) {
        std::printf("   %-58s n %3zu  wall p50 %7.3f ms  thread cpu p50 %7.3f ms\n", name.c_str(),
                    steps.wall[name].size(), median(steps.wall[name]), median(steps.cpu[name]));
    }
    for (auto& g : p.groups) {
        CUpti_Profiler_Host_Deinitialize_Params d{
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        d.pHostObject = g.host;
        cuptiProfilerHostDeinitialize(&d);
    }
    if (p.started) {
        stopPass(p);
    }
    CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    disable.pRangeProfilerObject = p.object;
    CHECK(cuptiRangeProfilerDisable(&disable));
    std::fflush(stdout);
}

void initProfiler(Steps& steps) {
    {
        Timer t(steps, "cuptiProfilerInitialize");
        CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        CHECK(cuptiProfilerInitialize(&init));
    }
    {
        Timer t(steps, "cuptiDeviceGetChipName");
        CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
        chip.deviceIndex = 0;
        CHECK(cuptiDeviceGetChipName(&chip));
        g_chip = chip.pChipName;
    }
}

void contextAndBuffers(Steps& steps) {
    {
        Timer t(steps, "CUDA initialise (cudaGetDeviceCount)");
        int count = 0;
        cudaGetDeviceCount(&count);
    }
    {
        Timer t(steps, "context (cudaSetDevice, cudaFree(0))");
        cudaSetDevice(0);
        cudaFree(nullptr);
    }
    cuCtxGetCurrent(&g_context);
    cudaMalloc(&g_data, 1 << 20);
    cudaMemset(g_data, 0, 1 << 20);
    cudaMalloc(&g_sink, 4096);
    cudaMalloc(&g_flush, kFlushInts * 4);
    cudaDeviceSynchronize();
}

void availability(Steps& steps) {
    Timer t(steps, "cuptiProfilerGetCounterAvailability");
    CUpti_Profiler_GetCounterAvailability_Params a{
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    a.ctx = g_context;
    CHECK(cuptiProfilerGetCounterAvailability(&a));
    g_availability.resize(a.counterAvailabilityImageSize);
    a.pCounterAvailabilityImage = g_availability.data();
    CHECK(cuptiProfilerGetCounterAvailability(&a));
}

void printSteps(const char* title, Steps& steps) {
    std::printf("## %s\n", title);
    for (const auto& name : steps.order) {
        std::printf("   %-58s %8.2f ms (thread cpu %.2f)\n", name.c_str(), steps.wall[name][0],
                    steps.cpu[name][0]);
    }
}

} // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 30;
    const bool parallel = argc > 2 && std::string(argv[2]) == "parallel";
    const bool noAvailability = argc > 2 && std::string(argv[2]) == "no-availability";
    Steps setup;
    const double t0 = now();
    if (parallel) {
        // CUPTI's host-side set-up in a second thread while this one makes the CUDA context.
        Steps side;
        std::thread cupti([&] {
            initProfiler(side);
            Group probeGroup;
            Timer t(side, "host object + configuration (8 counters, no availability)");
            buildGroup(probeGroup, kOthers);
        });
        contextAndBuffers(setup);
        cupti.join();
        setup.add("(side thread) total", 0, 0);
        printSteps("side thread", side);
    } else {
        contextAndBuffers(setup);
        initProfiler(setup);
    }
    if (!noAvailability) {
        availability(setup);
    }
    {
        Timer t(setup, "host object + configuration (8 counters)");
        Group all;
        std::vector<std::string> names = kSectors;
        names.insert(names.end(), kOthers.begin(), kOthers.end());
        buildGroup(all, names);
    }
    Profiler first;
    {
        Timer t(setup, "cuptiRangeProfilerEnable");
        CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
        enable.ctx = g_context;
        CHECK(cuptiRangeProfilerEnable(&enable));
        first.object = enable.pRangeProfilerObject;
    }
    {
        first.groups.resize(1);
        buildGroup(first.groups[0], kOthers);
        initImage(first, first.groups[0]);
        setConfig(first, first.groups[0], 0);
        Timer t(setup, "first cuptiRangeProfilerStart");
        startPass(first);
    }
    {
        Timer t(setup, "its stop");
        stopPass(first);
        CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        disable.pRangeProfilerObject = first.object;
        CHECK(cuptiRangeProfilerDisable(&disable));
    }
    std::printf("## set-up %s: %.1f ms to the first start's end\n",
                parallel         ? "(CUPTI initialised beside the context)"
                : noAvailability ? "(one thread, no counter availability image)"
                                 : "(one thread)",
                now() - t0);
    printSteps("set-up steps", setup);
    if (parallel || noAvailability) {
        return 0;
    }

    std::vector<std::string> all = kSectors;
    all.insert(all.end(), kOthers.begin(), kOthers.end());
    // Pass 3 of the one configuration is the sector counters' (costly) pass.
    const std::vector<size_t> last = {3, 0, 1, 2};
    const std::vector<Way> ways = {
        {"one-config", {all}},
        {"one-config-1", {all}, false, 1},
        {"reorder", {all}, false, 64, false, 0, false, last},
        {"reorder-kept", {all}, true, 64, false, 0, false, last},
        {"reorder-kept-noise", {all}, true, 64, true, 0, false, last},
        {"reorder-kept-wait", {all}, true, 64, false, 50, false, last},
        {"reorder-kept-discard", {all}, true, 64, false, 0, true, last},
        {"split-shared-image", {kSectors, kOthers}, false, 64, false, 0, false, {}, true},
        {"split-shared-image-kept", {kSectors, kOthers}, true, 64, false, 0, false, {}, true},
        {"split-shared-image-kept-noise", {kSectors, kOthers}, true, 64, true, 0, false, {}, true},
        {"split", {kSectors, kOthers}},
    };
    for (const Way& way : ways) {
        runWay(way, way.waitMs > 0 ? repeats / 3 : repeats);
    }
    std::printf("reference counters:");
    for (const auto& [name, value] : g_reference) {
        std::printf(" %s=%g", name.c_str(), value);
    }
    std::printf("\n");
    return 0;
}
