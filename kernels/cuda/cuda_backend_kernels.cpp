// The CUDA backend's measurement of whole generated kernels (measure_kernel): real buffer sizes,
// NVRTC compilation, cold or warm timing and the whole-kernel counter sessions.
#include "cuda_backend.h"

#include "cupti_sass.h"
#include "grid_kernels.h"
#include "kernel_codegen.h"
#include "kernel_request.h"
#include "timing_kernels.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace warpscope::probe::cuda {

ProbeResult<std::vector<KernelMeasurement>>
CudaBackend::measureKernels(const std::vector<KernelItem>& items,
                            const KernelMeasureOptions& options, const ProgressCallback& progress,
                            const CancelCallback& cancelled) {
    if (auto error = ensureDevice(options.counters)) {
        return *error;
    }
    if (m_info.measuredCopyBandwidthGBs == 0.0) {
        if (auto error = measureCopyBandwidth()) {
            return *error;
        }
    }
    std::vector<KernelMeasurement> results;
    const int total = static_cast<int>(items.size());
    for (const KernelItem& item : items) {
        if (cancelled && cancelled()) {
            return ProbeError::cancelled("cancelled after " + std::to_string(results.size()) +
                                         " of " + std::to_string(total) + " kernels");
        }
        auto measured = measureOneKernel(item, options);
        if (auto* error = std::get_if<ProbeError>(&measured)) {
            if (total > 1) {
                error->message = item.where + ": " + error->message;
            }
            return *error;
        }
        results.push_back(std::get<KernelMeasurement>(std::move(measured)));
        if (progress) {
            progress(static_cast<int>(results.size()), total);
        }
    }
    return results;
}

/// The whole-kernel counter session (more metrics than the replay's); it and the replay
/// session take turns, since a context has one range profiler.
void CudaBackend::ensureKernelCounters() {
    m_kindCounters = CounterSlot{};
    openCounters(m_kernelCounters, m_counters, kernelCounterNames());
}

/// For a kernel with async-copy, constant, local or texture accesses: kernelCounterNames()
/// and those kinds' counters (the copy's of kernelCopyCounterNames(), constantCounterNames(),
/// localCounterNames(), textureCounterNames()), a session of its own, so that plain kernels
/// keep their single pass. Null when the kernel has none of them.
CudaBackend::CounterSlot* CudaBackend::ensureKindCounters(const ResolvedKernel& kernel) {
    bool copy = false;
    bool constant = false;
    bool local = false;
    bool texture = false;
    for (const ResolvedAccess& access : kernel.accesses) {
        copy = copy || access.access.kind.op == AccessOp::CopyAsync;
        constant = constant || access.access.kind.space == MemorySpace::Constant;
        local = local || access.access.kind.space == MemorySpace::Local;
        texture = texture || access.access.kind.space == MemorySpace::Texture;
    }
    if (!copy && !constant && !local && !texture) {
        return nullptr;
    }
    std::vector<std::string> names = copy ? kernelCopyCounterNames() : kernelCounterNames();
    if (constant) {
        names.insert(names.end(), constantCounterNames().begin(), constantCounterNames().end());
    }
    if (local) {
        names.insert(names.end(), localCounterNames().begin(), localCounterNames().end());
    }
    if (texture) {
        names.insert(names.end(), textureCounterNames().begin(), textureCounterNames().end());
    }
    if (names != m_kindNames) {
        m_kindCounters = CounterSlot{};
        m_kindNames = names;
    }
    if (!m_kindCounters.tried) {
        m_counters = CounterSlot{};
        openCounters(m_kindCounters, m_kernelCounters, names);
    }
    return &m_kindCounters;
}

/// A 2-D texture of 32-bit unsigned texels over `pointer` (pitched linear memory), or
/// PatternRefused when this GPU cannot lay one over it (pitch or size limits).
ProbeResult<cudaTextureObject_t> CudaBackend::createTexture(void* pointer, std::int64_t bytes,
                                                            std::int64_t rowBytes, int access) {
    cudaDeviceProp properties{};
    cudaGetDeviceProperties(&properties, m_device);
    const std::int64_t width = rowBytes / 4;
    const std::int64_t height = bytes / rowBytes;
    const std::string where = "access " + std::to_string(access) + ": ";
    if (rowBytes % static_cast<std::int64_t>(properties.texturePitchAlignment) != 0 ||
        width > properties.maxTexture2DLinear[0] || height > properties.maxTexture2DLinear[1] ||
        rowBytes > properties.maxTexture2DLinear[2] ||
        reinterpret_cast<std::uintptr_t>(pointer) % properties.textureAlignment != 0) {
        return ProbeError::patternRefused(
            where + "this GPU lays a 2-D texture over linear memory with rows that are a " +
            "multiple of " + std::to_string(properties.texturePitchAlignment) + " bytes, at most " +
            std::to_string(properties.maxTexture2DLinear[0]) + " texels wide and " +
            std::to_string(properties.maxTexture2DLinear[1]) + " rows high; rows of " +
            std::to_string(rowBytes) + " bytes x " + std::to_string(height) +
            " rows do not fit; nothing was launched");
    }
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypePitch2D;
    resource.res.pitch2D.devPtr = pointer;
    resource.res.pitch2D.desc = cudaCreateChannelDesc<unsigned>();
    resource.res.pitch2D.width = static_cast<std::size_t>(width);
    resource.res.pitch2D.height = static_cast<std::size_t>(height);
    resource.res.pitch2D.pitchInBytes = static_cast<std::size_t>(rowBytes);
    cudaTextureDesc description{};
    description.filterMode = cudaFilterModePoint;
    description.readMode = cudaReadModeElementType;
    description.addressMode[0] = cudaAddressModeClamp;
    description.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t object = 0;
    if (auto e = check(cudaCreateTextureObject(&object, &resource, &description, nullptr),
                       "creating a texture object")) {
        return *e;
    }
    return object;
}

std::string CudaBackend::mib(std::int64_t bytes) {
    const double value = static_cast<double>(bytes) / (1024.0 * 1024.0);
    char text[64];
    std::snprintf(text, sizeof text, "%.1f MiB", value);
    return std::to_string(bytes) + " bytes (" + text + ")";
}

ProbeResult<KernelMeasurement> CudaBackend::measureOneKernel(const KernelItem& item,
                                                             const KernelMeasureOptions& options) {
    const ResolvedKernel& kernel = item.kernel;
    KernelMeasurement result;
    result.cold = options.cold && options.flush != KernelMeasureOptions::Flush::None;
    result.flush = options.flush;
    result.copyBandwidthGBs = m_info.measuredCopyBandwidthGBs;
    result.theoreticalBandwidthGBs = m_info.theoreticalBandwidthGBs;
    result.sharedBytesPerBlock = item.prediction.sharedBytesPerBlock;

    // Real sizes, refused before anything is allocated when they cannot fit.
    std::int64_t totalBytes = 0;
    std::string listing;
    for (const ResolvedBuffer& buffer : kernel.buffers) {
        totalBytes += buffer.bytes;
        listing += (listing.empty() ? "" : ", ") + buffer.name + " " + mib(buffer.bytes);
    }
    std::size_t freeBytes = 0;
    std::size_t totalDevice = 0;
    if (auto e = check(cudaMemGetInfo(&freeBytes, &totalDevice), "cudaMemGetInfo")) {
        return *e;
    }
    constexpr std::int64_t kHeadroom = std::int64_t{256} << 20; // for NVRTC, CUPTI, the driver
    if (totalBytes > static_cast<std::int64_t>(freeBytes) - kHeadroom) {
        return ProbeError::outOfMemory(
            "the kernel's buffers need " + mib(totalBytes) + " (" + listing + ") but the GPU has " +
            mib(static_cast<std::int64_t>(freeBytes)) +
            " free (less 256 MiB kept for the driver); nothing was launched");
    }
    const std::int64_t shared = (item.prediction.sharedBytesPerBlock + 15) / 16 * 16;
    if (shared > static_cast<std::int64_t>(m_maxSharedBytes)) {
        return ProbeError::patternRefused(
            "a block needs " + std::to_string(shared) +
            " bytes of shared memory; this GPU gives a block at most " +
            std::to_string(m_maxSharedBytes) + "; nothing was launched");
    }

    const GeneratedKernel generated =
        generateKernelSource(kernel, item.prediction.localBytesPerThread);
    result.memoryInstructions = generated.expectedMemoryInstructions;
    std::vector<char> cubin;
    const char* savePath = std::getenv("WARPSCOPE_SAVE_CUBIN");
    auto compiled =
        compileGeneratedKernel(generated.source, generated.entryPoint, savePath ? &cubin : nullptr);
    if (auto* error = std::get_if<ProbeError>(&compiled)) {
        return *error;
    }
    if (savePath != nullptr) {
        std::ofstream(savePath, std::ios::binary)
            .write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
    }
    const cudaKernel_t function = std::get<cudaKernel_t>(compiled);
    if (shared > 48 * 1024) {
        if (auto e = check(cudaFuncSetAttribute(reinterpret_cast<const void*>(function),
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(shared)),
                           "setting the kernel's shared memory")) {
            return *e;
        }
    }

    DeviceBuffers buffers;
    for (const ResolvedBuffer& buffer : kernel.buffers) {
        void* pointer = nullptr;
        const cudaError_t status = cudaMalloc(
            &pointer, static_cast<std::size_t>(std::max<std::int64_t>(buffer.bytes, 16)));
        if (status != cudaSuccess) {
            cudaGetLastError(); // not sticky
            return ProbeError::outOfMemory("cannot allocate buffer " + buffer.name + " of " +
                                           mib(buffer.bytes) + " (" + cudaGetErrorString(status) +
                                           "); the kernel's buffers: " + listing +
                                           "; nothing was launched");
        }
        buffers.pointers.push_back(pointer);
        // Zeroed: the generated kernel's sink store can then never be taken.
        if (auto e =
                check(cudaMemsetAsync(pointer, 0, static_cast<std::size_t>(buffer.bytes), m_stream),
                      "clearing a buffer")) {
            return *e;
        }
    }
    result.deviceBytes = totalBytes;
    std::vector<long long> parameterValues(kernel.parameterValues.begin(),
                                           kernel.parameterValues.end());
    unsigned* sink = static_cast<unsigned*>(m_sink);
    unsigned sentinel = 0x9e3779b9u;
    std::vector<void*> args;
    for (void*& pointer : buffers.pointers) {
        args.push_back(&pointer);
    }
    for (long long& value : parameterValues) {
        args.push_back(&value);
    }
    // One texture object per texture access: 32-bit texels over its buffer, as pitched
    // linear memory with rows of the access's textureRowBytes (docs/models.md).
    TextureObjects textures;
    for (int index : generated.textureAccesses) {
        const ResolvedAccess& access = kernel.accesses[static_cast<std::size_t>(index)];
        const auto buffer = static_cast<std::size_t>(access.bufferIndex);
        auto texture = createTexture(buffers.pointers[buffer], kernel.buffers[buffer].bytes,
                                     access.textureRowBytes, index);
        if (auto* error = std::get_if<ProbeError>(&texture)) {
            return *error;
        }
        textures.objects.push_back(std::get<cudaTextureObject_t>(texture));
    }
    for (cudaTextureObject_t& texture : textures.objects) {
        args.push_back(&texture);
    }
    args.push_back(&sink);
    args.push_back(&sentinel);
    const dim3 gridDim(static_cast<unsigned>(kernel.grid.x), static_cast<unsigned>(kernel.grid.y),
                       static_cast<unsigned>(kernel.grid.z));
    const dim3 blockDim(static_cast<unsigned>(kernel.block.x),
                        static_cast<unsigned>(kernel.block.y),
                        static_cast<unsigned>(kernel.block.z));
    auto launch = [&](cudaStream_t stream) {
        return cudaLaunchKernel(reinterpret_cast<const void*>(function), gridDim, blockDim,
                                args.data(), static_cast<std::size_t>(shared), stream);
    };
    auto flush = [&](cudaStream_t stream) {
        switch (options.flush) {
        case KernelMeasureOptions::Flush::Dirty:
            return gpu::launchFlush(m_flush, m_flushBytes, stream);
        case KernelMeasureOptions::Flush::None:
            return cudaSuccess;
        case KernelMeasureOptions::Flush::Clean:
            break;
        }
        return gpu::launchCleanFlush(m_flush, m_flushBytes, sink, stream);
    };

    // One launch untimed (first-launch costs: module load, page mapping of fresh buffers).
    if (auto e = check(launch(m_stream), "launching the kernel")) {
        return *e;
    }
    if (auto e = wait("the kernel")) {
        return *e;
    }
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::vector<double> samples;
    std::optional<ProbeError> failed;
    for (int i = 0; i < std::max(1, options.repetitions) && !failed; ++i) {
        if (result.cold) {
            failed = check(flush(m_stream), "L2 flush");
            if (failed) {
                break;
            }
        }
        cudaEventRecord(start, m_stream);
        failed = check(launch(m_stream), "launching the kernel");
        cudaEventRecord(stop, m_stream);
        if (!failed) {
            failed = wait("the kernel");
        }
        float ms = 0.0f;
        if (!failed) {
            cudaEventElapsedTime(&ms, start, stop);
            samples.push_back(ms);
        }
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (failed) {
        return *failed;
    }
    result.samplesMs = samples;
    result.kernelMs = statsOf(samples);
    double bytesRequested = 0.0;
    for (std::size_t i = 0; i < item.prediction.accesses.size(); ++i) {
        if (kernel.accesses[i].access.kind.space == MemorySpace::Global ||
            kernel.accesses[i].access.kind.space == MemorySpace::Texture) {
            bytesRequested += static_cast<double>(item.prediction.accesses[i].bytesRequested);
        }
    }
    result.bytesRequested = bytesRequested;
    result.effectiveBandwidthGBs = 0.0;
    if (result.kernelMs->median > 0.0) {
        result.effectiveBandwidthGBs = bytesRequested / (result.kernelMs->median * 1e-3) / 1e9;
    }

    if (options.counters) {
        CounterSlot* slot = ensureKindCounters(kernel);
        if (slot == nullptr) {
            ensureKernelCounters();
            slot = &m_kernelCounters;
        }
        if (!slot->session) {
            result.countersUnavailableReason = slot->error.message;
        } else {
            if (auto e = check(cudaDeviceSynchronize(), "before the counters")) {
                return *e;
            }
            // One cold launch (flushed before every pass) on the legacy stream, which the
            // profiler's ranges are ordered with.
            auto counters = slot->session->measure(
                1, [&](int) { return launch(nullptr) == cudaSuccess; },
                [&](int) {
                    return flush(nullptr) == cudaSuccess &&
                           cudaStreamSynchronize(nullptr) == cudaSuccess;
                });
            if (auto error = keepCounters(std::move(counters), result)) {
                return *error;
            }
            addConstantExtraRequests(result.counters);
        }
    } else {
        result.countersUnavailableReason = "counters were not asked for";
    }
    if (options.perInstruction) { // one more launch, patched (cupti_sass.h)
        auto synced = [](cudaError_t status) {
            return status == cudaSuccess && cudaStreamSynchronize(nullptr) == cudaSuccess;
        };
        measurePerInstruction(
            m_device, generated.entryPoint, item, [&] { return synced(flush(nullptr)); },
            [&] { return synced(launch(nullptr)); }, result);
    }
    if (auto e = check(cudaDeviceSynchronize(), "after the kernel")) {
        return *e;
    }
    return result;
}

} // namespace warpscope::probe::cuda
