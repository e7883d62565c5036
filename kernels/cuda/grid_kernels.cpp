// Grid kernels generated from a pattern's expression and compiled with NVRTC (loaded with dlopen,
// so a machine without NVRTC still measures single-warp patterns). Every thread's address is
// evaluated on the host with the core's own interpreter before the first launch: a pattern that
// would fault is refused, never launched.
#include "grid_kernels.h"

#include "warpscope/expression.h"
#include "warpscope/kernel.h"
#include "warpscope/model.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <array>
#include <map>
#include <mutex>

namespace warpscope::probe {
namespace {

/// Largest grid whose addresses the host checks before a launch.
constexpr std::int64_t kMaxGridThreads = std::int64_t{1} << 26;

struct NvrtcApi {
    void* library = nullptr;
    decltype(&::nvrtcCreateProgram) createProgram = nullptr;
    decltype(&::nvrtcCompileProgram) compileProgram = nullptr;
    decltype(&::nvrtcGetProgramLogSize) getProgramLogSize = nullptr;
    decltype(&::nvrtcGetProgramLog) getProgramLog = nullptr;
    decltype(&::nvrtcGetCUBINSize) getCubinSize = nullptr;
    decltype(&::nvrtcGetCUBIN) getCubin = nullptr;
    decltype(&::nvrtcDestroyProgram) destroyProgram = nullptr;
    decltype(&::nvrtcGetErrorString) getErrorString = nullptr;
};

const NvrtcApi* loadNvrtc(std::string& why) {
    static NvrtcApi api;
    static std::string error;
    static std::once_flag once;
    std::call_once(once, [] {
        for (const char* name :
             {"libnvrtc.so.13", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13"}) {
            api.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
            if (api.library) {
                break;
            }
        }
        if (!api.library) {
            error = "NVRTC (libnvrtc.so.13) could not be loaded: grid kernels need the CUDA "
                    "toolkit's runtime compiler";
            return;
        }
        bool complete = true;
        auto resolve = [&](auto& slot, const char* symbol) {
            slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
                dlsym(api.library, symbol));
            complete = complete && slot != nullptr;
        };
        resolve(api.createProgram, "nvrtcCreateProgram");
        resolve(api.compileProgram, "nvrtcCompileProgram");
        resolve(api.getProgramLogSize, "nvrtcGetProgramLogSize");
        resolve(api.getProgramLog, "nvrtcGetProgramLog");
        resolve(api.getCubinSize, "nvrtcGetCUBINSize");
        resolve(api.getCubin, "nvrtcGetCUBIN");
        resolve(api.destroyProgram, "nvrtcDestroyProgram");
        resolve(api.getErrorString, "nvrtcGetErrorString");
        if (!complete) {
            error = "the NVRTC library found lacks functions this probe needs";
            dlclose(api.library);
            api.library = nullptr;
        }
    });
    why = error;
    return api.library ? &api : nullptr;
}

std::string cName(std::string_view name) {
    std::string out = "ws_";
    for (char c : name) {
        out += c == '.' ? '_' : c;
    }
    return out;
}

const char* loadAsm(int width, CachePath cache) {
    // One PTX instruction, as in the replay kernels; %0.. are the value registers, the last
    // operand the address.
    static const std::map<std::pair<int, CachePath>, const char*> table = [] {
        std::map<std::pair<int, CachePath>, const char*> t;
        t[{1, CachePath::Default}] = "ld.global.u8 %0, [%1];";
        t[{2, CachePath::Default}] = "ld.global.u16 %0, [%1];";
        t[{4, CachePath::Default}] = "ld.global.u32 %0, [%1];";
        t[{8, CachePath::Default}] = "ld.global.v2.u32 {%0, %1}, [%2];";
        t[{16, CachePath::Default}] = "ld.global.v4.u32 {%0, %1, %2, %3}, [%4];";
        t[{1, CachePath::CacheAll}] = "ld.global.ca.u8 %0, [%1];";
        t[{2, CachePath::CacheAll}] = "ld.global.ca.u16 %0, [%1];";
        t[{4, CachePath::CacheAll}] = "ld.global.ca.u32 %0, [%1];";
        t[{8, CachePath::CacheAll}] = "ld.global.ca.v2.u32 {%0, %1}, [%2];";
        t[{16, CachePath::CacheAll}] = "ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];";
        t[{1, CachePath::CacheGlobal}] = "ld.global.cg.u8 %0, [%1];";
        t[{2, CachePath::CacheGlobal}] = "ld.global.cg.u16 %0, [%1];";
        t[{4, CachePath::CacheGlobal}] = "ld.global.cg.u32 %0, [%1];";
        t[{8, CachePath::CacheGlobal}] = "ld.global.cg.v2.u32 {%0, %1}, [%2];";
        t[{16, CachePath::CacheGlobal}] = "ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];";
        t[{1, CachePath::NonCoherent}] = "ld.global.nc.u8 %0, [%1];";
        t[{2, CachePath::NonCoherent}] = "ld.global.nc.u16 %0, [%1];";
        t[{4, CachePath::NonCoherent}] = "ld.global.nc.u32 %0, [%1];";
        t[{8, CachePath::NonCoherent}] = "ld.global.nc.v2.u32 {%0, %1}, [%2];";
        t[{16, CachePath::NonCoherent}] = "ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];";
        return t;
    }();
    return table.at({width, cache});
}

std::string accessStatement(const AccessKind& kind) {
    const int w = kind.widthBytes;
    if (kind.op == AccessOp::Store) {
        switch (w) {
        case 1:
            return "    asm volatile(\"st.global.u8 [%0], %1;\" :: \"l\"(p), \"r\"(value) : "
                   "\"memory\");\n";
        case 2:
            return "    asm volatile(\"st.global.u16 [%0], %1;\" :: \"l\"(p), \"r\"(value) : "
                   "\"memory\");\n";
        case 4:
            return "    asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(value) : "
                   "\"memory\");\n";
        case 8:
            return "    asm volatile(\"st.global.v2.u32 [%0], {%1, %1};\" :: \"l\"(p), "
                   "\"r\"(value) : "
                   "\"memory\");\n";
        default:
            return "    asm volatile(\"st.global.v4.u32 [%0], {%1, %1, %1, %1};\" :: \"l\"(p), "
                   "\"r\"(value) : \"memory\");\n";
        }
    }
    const CachePath cache = kind.cache;
    std::string text = "    unsigned v0 = 0, v1 = 0, v2 = 0, v3 = 0;\n    asm volatile(\"";
    text += loadAsm(w, cache);
    if (w <= 4) {
        text += "\" : \"=r\"(v0) : \"l\"(p) : \"memory\");\n";
    } else if (w == 8) {
        text += "\" : \"=r\"(v0), \"=r\"(v1) : \"l\"(p) : \"memory\");\n";
    } else {
        text += "\" : \"=r\"(v0), \"=r\"(v1), \"=r\"(v2), \"=r\"(v3) : \"l\"(p) : \"memory\");\n";
    }
    // The condition depends on the loaded data, so the load must execute: with a condition on a
    // parameter alone, ptxas sank the load into the never-taken branch (an H100 run read 512 MiB
    // in 86 us). The arena holds 0x5a bytes or small thread numbers, never the sentinel.
    text += "    if ((v0 ^ v1 ^ v2 ^ v3) == sentinel) sink[threadIdx.x & 31] = v0;\n";
    return text;
}

struct CompiledKernel {
    cudaLibrary_t library = nullptr;
    cudaKernel_t kernel = nullptr;
};

std::mutex cacheMutex;
std::map<std::string, CompiledKernel> kernelCache;

ProbeResult<CompiledKernel> compile(const GridKernel& kernel,
                                    std::vector<char>* cubinOut = nullptr) {
    if (cubinOut == nullptr) {
        std::lock_guard lock(cacheMutex);
        auto found = kernelCache.find(kernel.cacheKey);
        if (found != kernelCache.end()) {
            return found->second;
        }
    }
    std::string why;
    const NvrtcApi* nvrtc = loadNvrtc(why);
    if (!nvrtc) {
        return ProbeError::compileError(why);
    }
    int device = 0;
    cudaDeviceProp prop{};
    cudaGetDevice(&device);
    cudaGetDeviceProperties(&prop, device);
    const std::string arch =
        "--gpu-architecture=sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
    nvrtcProgram program = nullptr;
    if (nvrtc->createProgram(&program, kernel.source.c_str(), "warpscope_grid.cu", 0, nullptr,
                             nullptr) != NVRTC_SUCCESS) {
        return ProbeError::compileError("NVRTC could not create a program");
    }
    const char* options[] = {arch.c_str(), "--std=c++17", "-default-device"};
    const nvrtcResult compiled = nvrtc->compileProgram(program, 3, options);
    std::size_t logSize = 0;
    nvrtc->getProgramLogSize(program, &logSize);
    std::string log(logSize, '\0');
    if (logSize > 0) {
        nvrtc->getProgramLog(program, log.data());
    }
    if (compiled != NVRTC_SUCCESS) {
        nvrtc->destroyProgram(&program);
        return ProbeError::compileError(std::string("NVRTC could not compile the grid kernel: ") +
                                        nvrtc->getErrorString(compiled) + "\n" + log);
    }
    std::size_t cubinSize = 0;
    nvrtc->getCubinSize(program, &cubinSize);
    std::vector<char> cubin(cubinSize);
    nvrtc->getCubin(program, cubin.data());
    nvrtc->destroyProgram(&program);
    if (cubinOut != nullptr) {
        *cubinOut = cubin;
        std::lock_guard lock(cacheMutex);
        auto found = kernelCache.find(kernel.cacheKey);
        if (found != kernelCache.end()) {
            return found->second;
        }
    }

    CompiledKernel loaded;
    cudaError_t status = cudaLibraryLoadData(&loaded.library, cubin.data(), nullptr, nullptr, 0,
                                             nullptr, nullptr, 0);
    if (status == cudaSuccess) {
        status = cudaLibraryGetKernel(&loaded.kernel, loaded.library, kernel.entryPoint.c_str());
    }
    if (status != cudaSuccess) {
        return ProbeError::compileError(
            std::string("the compiled grid kernel could not be loaded: ") +
            cudaGetErrorString(status));
    }
    std::lock_guard lock(cacheMutex);
    kernelCache[kernel.cacheKey] = loaded;
    return loaded;
}

} // namespace

ProbeResult<cudaKernel_t> compileGeneratedKernel(const std::string& source,
                                                 const std::string& entryPoint,
                                                 std::vector<char>* cubin) {
    GridKernel kernel{source, entryPoint, entryPoint + "\n" + source};
    auto compiled = compile(kernel, cubin);
    if (auto* error = std::get_if<ProbeError>(&compiled)) {
        return *error;
    }
    return std::get<CompiledKernel>(compiled).kernel;
}

ProbeResult<GridKernel> generateGridKernel(const Pattern& pattern) {
    if (!pattern.source) {
        return ProbeError::badRequest(
            "a grid measurement needs a pattern written as an expression (explicit "
            "lane addresses describe one warp only)");
    }
    const PatternSource& source = *pattern.source;
    std::vector<std::string> names;
    for (const Parameter& p : source.parameters) {
        names.push_back(p.name);
    }
    auto address = Expression::parse(source.addressExpression, names);
    auto active = Expression::parse(source.activeExpression, names);
    if (!address || !active) {
        const Error& error = !address ? address.error() : active.error();
        return ProbeError::badRequest(error.describe());
    }
    auto rename = [](std::string_view name) { return cName(name); };
    const AccessKind& kind = pattern.kind;
    if (kind.space != MemorySpace::Global) {
        return ProbeError::badRequest(
            "grid kernels measure global memory; shared-memory patterns are measured "
            "as a single warp");
    }
    GridKernel kernel;
    kernel.entryPoint = "warpscope_grid";
    std::string params;
    for (const std::string& name : names) {
        params += ", long long " + cName(name);
    }
    std::string& s = kernel.source;
    s = "// Generated by warpscope-probe for the pattern\n"
        "//   address: " +
        source.addressExpression +
        "\n"
        "//   active:  " +
        source.activeExpression +
        "\n"
        "// " +
        std::string(toString(kind.op)) + " of " + std::to_string(kind.widthBytes) +
        "-byte elements, cache path " + toString(kind.cache) +
        ".\n"
        "// Every variable is a signed 64-bit integer, as in warpscope's pattern language.\n"
        "typedef long long i64;\n"
        "__device__ __forceinline__ i64 ws_min(i64 a, i64 b) { return a < b ? a : b; }\n"
        "__device__ __forceinline__ i64 ws_max(i64 a, i64 b) { return a > b ? a : b; }\n"
        "__device__ __forceinline__ i64 ws_abs(i64 a) { return a < 0 ? -a : a; }\n\n"
        "extern \"C\" __global__ void warpscope_grid(unsigned char* arena, i64 arenaBytes,\n"
        "                                          unsigned* sink, unsigned sentinel" +
        params +
        ")\n"
        "{\n"
        "    const i64 ws_tid_x = threadIdx.x, ws_tid_y = threadIdx.y, ws_tid_z = threadIdx.z;\n"
        "    const i64 ws_bdim_x = blockDim.x, ws_bdim_y = blockDim.y, ws_bdim_z = blockDim.z;\n"
        "    const i64 ws_bid_x = blockIdx.x, ws_bid_y = blockIdx.y, ws_bid_z = blockIdx.z;\n"
        "    const i64 ws_gdim_x = gridDim.x, ws_gdim_y = gridDim.y, ws_gdim_z = gridDim.z;\n"
        "    const i64 ws_warpSize = 32;\n"
        "    const i64 linear = ws_tid_x + ws_bdim_x * (ws_tid_y + ws_bdim_y * ws_tid_z);\n"
        "    const i64 ws_lane = linear % 32, ws_warp = linear / 32;\n"
        "    const i64 ws_gid = (ws_bid_x + ws_gdim_x * (ws_bid_y + ws_gdim_y * ws_bid_z))\n"
        "                       * (ws_bdim_x * ws_bdim_y * ws_bdim_z) + linear;\n"
        "    (void)ws_lane; (void)ws_warp; (void)ws_gid; (void)ws_warpSize;\n"
        "    if (!(" +
        active->toCSource(rename) +
        ")) return;\n"
        "    const i64 address = " +
        address->toCSource(rename) +
        ";\n"
        "    // Checked for every thread on the host before launch; this guard is never taken.\n"
        "    if (address < 0 || address > arenaBytes - " +
        std::to_string(kind.widthBytes) + " || address % " + std::to_string(kind.widthBytes) +
        " != 0) return;\n"
        "    unsigned char* p = arena + address;\n"
        "    const unsigned value = (unsigned)linear;\n"
        "    (void)value;\n" +
        accessStatement(kind) + "}\n";
    kernel.cacheKey = s;
    return kernel;
}

ProbeError gridLaunchError(cudaError_t status, const Dim3& grid, const Dim3& block) {
    auto dims = [](const Dim3& d) {
        return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
    };
    switch (status) {
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidValue:
    case cudaErrorLaunchOutOfResources:
        return ProbeError::patternRefused("the GPU refused to launch a grid of " + dims(grid) +
                                          " blocks of " + dims(block) + " threads (" +
                                          cudaGetErrorString(status) + "); nothing ran");
    default:
        return ProbeError::kernelFault(std::string("the grid kernel failed: ") +
                                       cudaGetErrorString(status));
    }
}

ProbeResult<GridTiming> runGridKernel(const Pattern& pattern, const WarpAccess& access, void* arena,
                                      std::size_t arenaBytes, void* sink, cudaStream_t stream,
                                      int repetitions) {
    (void)access;
    auto generated = generateGridKernel(pattern);
    if (auto* error = std::get_if<ProbeError>(&generated)) {
        return *error;
    }
    const GridKernel& kernel = std::get<GridKernel>(generated);
    const PatternSource& source = *pattern.source;
    const std::int64_t blockThreads = source.blockDim.count();
    const std::int64_t blocks = source.gridDim.count();
    // CUDA's per-axis limits first (bdim.z <= 64, gdim.y and gdim.z <= 65535): a launch beyond
    // them fails, and must be refused here rather than reported as a fault.
    const std::array<std::int64_t, 3> blockAxes = {source.blockDim.x, source.blockDim.y,
                                                   source.blockDim.z};
    const std::array<std::int64_t, 3> gridAxes = {source.gridDim.x, source.gridDim.y,
                                                  source.gridDim.z};
    for (std::size_t i = 0; i < 3; ++i) {
        const char* axis = i == 0 ? "x" : (i == 1 ? "y" : "z");
        if (blockAxes[i] < 1 || blockAxes[i] > kMaxBlockDim[i]) {
            return ProbeError::patternRefused(
                std::string("bdim.") + axis + " must be between 1 and " +
                std::to_string(kMaxBlockDim[i]) + ", not " + std::to_string(blockAxes[i]) +
                "; nothing was launched");
        }
        if (gridAxes[i] < 1 || gridAxes[i] > kMaxGridDim[i]) {
            return ProbeError::patternRefused(
                std::string("gdim.") + axis + " must be between 1 and " +
                std::to_string(kMaxGridDim[i]) + ", not " + std::to_string(gridAxes[i]) +
                "; nothing was launched");
        }
    }
    if (blockThreads > kMaxThreadsPerBlock || blocks <= 0 ||
        blocks > kMaxGridThreads / blockThreads) {
        return ProbeError::patternRefused("the grid has " + std::to_string(blocks) + " blocks of " +
                                          std::to_string(blockThreads) + " threads; at most " +
                                          std::to_string(kMaxGridThreads) +
                                          " threads can be checked");
    }

    // Check every thread on the host: the same interpreter that drew the pattern.
    std::vector<std::string> names;
    std::vector<std::int64_t> values;
    for (const Parameter& p : source.parameters) {
        names.push_back(p.name);
        values.push_back(p.value);
    }
    auto address = Expression::parse(source.addressExpression, names);
    auto active = Expression::parse(source.activeExpression, names);
    if (!address || !active) {
        return ProbeError::badRequest("the pattern's expressions do not parse");
    }
    GridTiming timing;
    const int width = pattern.kind.widthBytes;
    const Dim3& g = source.gridDim;
    const Dim3& b = source.blockDim;
    ThreadEnvironment env;
    env.bdim = b;
    env.gdim = g;
    const std::int64_t warpsPerBlock = (blockThreads + kWarpSize - 1) / kWarpSize;
    WarpAccess warp;
    warp.kind = pattern.kind;
    for (std::int64_t block = 0; block < blocks; ++block) {
        env.bid = Dim3{block % g.x, (block / g.x) % g.y, block / (g.x * g.y)};
        for (std::int64_t w = 0; w < warpsPerBlock; ++w) {
            warp.addresses.fill(std::nullopt);
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const std::int64_t linear = w * kWarpSize + lane;
                if (linear >= blockThreads) {
                    break;
                }
                env.lane = lane;
                env.warp = w;
                env.tid = Dim3{linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y)};
                env.gid = block * blockThreads + linear;
                auto on = active->evaluate(env, values);
                if (!on) {
                    return ProbeError::patternRefused("thread " + std::to_string(env.gid) + ": " +
                                                      on.error().describe());
                }
                if (on.value() == 0) {
                    continue;
                }
                auto at = address->evaluate(env, values);
                if (!at || at.value() < 0 || at.value() % width != 0 ||
                    static_cast<std::uint64_t>(at.value()) + static_cast<std::uint64_t>(width) >
                        arenaBytes) {
                    return ProbeError::patternRefused(
                        "thread " + std::to_string(env.gid) + " (block " + std::to_string(block) +
                        ", lane " + std::to_string(lane) + ") " +
                        (at ? "would access byte " + std::to_string(at.value()) + ", outside the " +
                                  std::to_string(arenaBytes) +
                                  "-byte arena or not aligned to its element"
                            : at.error().describe()) +
                        "; nothing was launched");
                }
                warp.addresses[static_cast<std::size_t>(lane)] = at.value();
                timing.bytesRequested += width;
            }
            const ModernPrediction prediction = predictModern(warp);
            timing.bytesMoved += static_cast<double>(prediction.global->bytesMoved);
        }
    }
    timing.threads = blocks * blockThreads;

    auto compiled = compile(kernel);
    if (auto* error = std::get_if<ProbeError>(&compiled)) {
        return *error;
    }
    const CompiledKernel& loaded = std::get<CompiledKernel>(compiled);
    long long arenaSize = static_cast<long long>(arenaBytes);
    unsigned sentinel = 0x9e3779b9u; // no load of the arena's contents can produce it
    std::vector<long long> parameterValues(values.begin(), values.end());
    std::vector<void*> args = {&arena, &arenaSize, &sink, &sentinel};
    for (long long& value : parameterValues) {
        args.push_back(&value);
    }
    const dim3 gridDim(static_cast<unsigned>(g.x), static_cast<unsigned>(g.y),
                       static_cast<unsigned>(g.z));
    const dim3 blockDim(static_cast<unsigned>(b.x), static_cast<unsigned>(b.y),
                        static_cast<unsigned>(b.z));
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int i = 0; i <= std::max(1, repetitions); ++i) {
        cudaEventRecord(start, stream);
        cudaError_t status = cudaLaunchKernel(reinterpret_cast<const void*>(loaded.kernel), gridDim,
                                              blockDim, args.data(), 0, stream);
        if (status != cudaSuccess) {
            // Refused at launch: nothing ran. A configuration error is not sticky; clear it so
            // the next request starts clean.
            cudaGetLastError();
            cudaEventDestroy(start);
            cudaEventDestroy(stop);
            return gridLaunchError(status, g, b);
        }
        cudaEventRecord(stop, stream);
        status = cudaEventSynchronize(stop);
        if (status != cudaSuccess) {
            cudaEventDestroy(start);
            cudaEventDestroy(stop);
            return ProbeError::kernelFault(std::string("the grid kernel failed: ") +
                                           cudaGetErrorString(status));
        }
        float ms = 0.0f;
        cudaEventElapsedTime(&ms, start, stop);
        if (i > 0) { // the first launch warms up
            timing.kernelMs.push_back(ms);
        }
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return timing;
}

} // namespace warpscope::probe
