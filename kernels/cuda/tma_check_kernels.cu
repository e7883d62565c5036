// The TMA check's kernel (tma_check_kernels.h): one block of 128 threads fills its window with a
// byte the box never holds, thread 0 issues one cp.async.bulk.tensor.2d through an mbarrier and
// waits for it with a bounded number of tries, and the block copies the window to global memory.
// The tensor map comes from cuTensorMapEncodeTiled, reached through the runtime's driver entry
// point so that the probe needs no link to libcuda.
#include "tma_check_kernels.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstring>

namespace warpscope::gpu {
namespace {

__global__ void tmaTileDump(const __grid_constant__ CUtensorMap map, unsigned smemOffset,
                            unsigned windowBytes, unsigned txBytes, unsigned char* out,
                            unsigned* info) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(1024) unsigned char tmaWindow[];
    __shared__ alignas(8) unsigned long long barrier;
    constexpr unsigned long long kMaxWaitTries = 50'000'000ull;
    for (unsigned i = threadIdx.x; i < windowBytes; i += blockDim.x) {
        tmaWindow[i] = kTmaFillByte;
    }
    // The fill went through the generic proxy; the TMA writes through the async proxy.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const auto bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
    const auto base = static_cast<unsigned>(__cvta_generic_to_shared(tmaWindow));
    if (threadIdx.x == 0) {
        info[0] = base;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                     "r"(txBytes)
                     : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(base + smemOffset),
                     "l"(reinterpret_cast<unsigned long long>(&map)), "r"(0), "r"(0), "r"(bar)
                     : "memory");
        unsigned done = 0;
        for (unsigned long long tries = 0; !done && tries < kMaxWaitTries; ++tries) {
            asm volatile("{ .reg .pred p;\n"
                         "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                         "  selp.u32 %0, 1, 0, p; }"
                         : "=r"(done)
                         : "r"(bar)
                         : "memory");
        }
        info[1] = done;
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < windowBytes; i += blockDim.x) {
        out[i] = tmaWindow[i];
    }
#else
    (void)map;
    (void)smemOffset;
    (void)windowBytes;
    (void)txBytes;
    (void)out;
    (void)info;
#endif
}

CUtensorMapDataType dataType(int elementBytes) {
    switch (elementBytes) {
    case 1:
        return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    case 2:
        return CU_TENSOR_MAP_DATA_TYPE_UINT16;
    case 4:
        return CU_TENSOR_MAP_DATA_TYPE_UINT32;
    default:
        return CU_TENSOR_MAP_DATA_TYPE_UINT64;
    }
}

/// Device memory freed on every path.
struct DeviceMemory {
    void* pointer = nullptr;
    ~DeviceMemory() { cudaFree(pointer); }
};

} // namespace

cudaError_t runTmaTileDump(const TmaTileDumpLaunch& launch, TmaTileDumpResult& result,
                           std::string& what) {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    cudaError_t status = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function,
                                                          12000, cudaEnableDefault, &found);
    if (status != cudaSuccess || found != cudaDriverEntryPointSuccess) {
        what = "the driver has no cuTensorMapEncodeTiled";
        return status != cudaSuccess ? status : cudaErrorNotSupported;
    }
    const auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);

    // The global tensor is the box itself: rows of boxInnerBytes (a multiple of 16), each
    // 16-byte chunk naming its row and byte.
    const auto innerBytes = static_cast<unsigned>(launch.boxInnerElements * launch.elementBytes);
    const auto rows = static_cast<unsigned>(launch.boxRows);
    std::vector<std::uint32_t> host(static_cast<std::size_t>(innerBytes) * rows / 4);
    for (unsigned row = 0; row < rows; ++row) {
        for (unsigned byte = 0; byte < innerBytes; byte += 16) {
            std::uint32_t* chunk = &host[(static_cast<std::size_t>(row) * innerBytes + byte) / 4];
            chunk[0] = kTmaChunkTag | row;
            chunk[1] = byte;
            chunk[2] = ~row;
            chunk[3] = ~byte;
        }
    }
    DeviceMemory tensor;
    DeviceMemory out;
    DeviceMemory info;
    const std::size_t tensorBytes = host.size() * 4;
    if ((status = cudaMalloc(&tensor.pointer, tensorBytes)) != cudaSuccess ||
        (status = cudaMalloc(&out.pointer, launch.windowBytes)) != cudaSuccess ||
        (status = cudaMalloc(&info.pointer, 2 * sizeof(unsigned))) != cudaSuccess) {
        what = "allocating the tensor and the dump";
        return status;
    }
    if ((status = cudaMemcpy(tensor.pointer, host.data(), tensorBytes, cudaMemcpyHostToDevice)) !=
            cudaSuccess ||
        (status = cudaMemset(info.pointer, 0, 2 * sizeof(unsigned))) != cudaSuccess) {
        what = "copying the tensor";
        return status;
    }

    CUtensorMap map;
    std::memset(&map, 0, sizeof map);
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(launch.boxInnerElements), rows};
    const cuuint64_t strides[1] = {innerBytes};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(launch.boxInnerElements), rows};
    const cuuint32_t elementStrides[2] = {1, 1};
    const CUresult encoded = encode(
        &map, dataType(launch.elementBytes), 2, tensor.pointer, dims, strides, box, elementStrides,
        CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(launch.swizzleMode),
        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (encoded != CUDA_SUCCESS) {
        what = "cuTensorMapEncodeTiled refused the box (CUresult " +
               std::to_string(static_cast<int>(encoded)) + ")";
        return cudaErrorInvalidValue;
    }
    if ((status = cudaFuncSetAttribute(tmaTileDump, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(launch.windowBytes))) != cudaSuccess) {
        what = "asking for " + std::to_string(launch.windowBytes) + " bytes of shared memory";
        return status;
    }
    tmaTileDump<<<1, 128, launch.windowBytes>>>(
        map, launch.smemOffset, launch.windowBytes, innerBytes * rows,
        static_cast<unsigned char*>(out.pointer), static_cast<unsigned*>(info.pointer));
    if ((status = cudaGetLastError()) != cudaSuccess ||
        (status = cudaDeviceSynchronize()) != cudaSuccess) {
        what = "the TMA kernel";
        return status;
    }
    result.window.assign(launch.windowBytes, 0);
    unsigned facts[2] = {0, 0};
    if ((status = cudaMemcpy(result.window.data(), out.pointer, launch.windowBytes,
                             cudaMemcpyDeviceToHost)) != cudaSuccess ||
        (status = cudaMemcpy(facts, info.pointer, sizeof facts, cudaMemcpyDeviceToHost)) !=
            cudaSuccess) {
        what = "reading the dump";
        return status;
    }
    result.windowAddress = facts[0];
    result.arrived = facts[1] != 0;
    return cudaSuccess;
}

} // namespace warpscope::gpu
