// tma_dump: issues one TMA tile load (cp.async.bulk.tensor.2d) per case on a Hopper GPU, dumps
// the block's shared memory and writes, per case, one JSON line saying which box row and byte of
// that row each 16-byte chunk of shared memory holds. scripts/gpu/tma_check.sh runs it and
// scripts/hw/tma_compare.py compares the lines with warpscope's TMA layout model.
//
// Build (sm_90a: the bulk tensor copy needs it):
//   nvcc -O2 -std=c++17 -arch=sm_90a -o tma_dump scripts/hw/tma_dump.cu
// Use:
//   tma_dump grid OFFSET                  every mode, box width and element size at OFFSET
//   tma_dump extra                        odd row counts and boxes away from the origin
//   tma_dump shifted                      a shared window not aligned to 1024 bytes
//   tma_dump one MODE ELEM INNER ROWS OFFSET [X0 Y0]
//                                         one case (MODE 0..6 as CUtensorMapSwizzle), for cases
//                                         that may fault (unaligned offsets, the 128B_ATOM modes)
//
// The global tensor's every 8-byte word is a hash of its byte position (row, byte column), so
// each 16-byte chunk of it is unique and a chunk found in shared memory names its source.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr unsigned kPitchBytes = 1024; // global row pitch
constexpr unsigned kGlobalRows = 64;
constexpr unsigned kWindowBytes = 8192; // dynamic shared memory dumped
constexpr unsigned char kSentinel = 0xEE;

__host__ __device__ std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

__device__ void loadAndDump(unsigned char* window, unsigned long long& barrier,
                            const CUtensorMap& map, int x0, int y0, unsigned offset,
                            unsigned txBytes, unsigned char* out, unsigned* info) {
    for (unsigned i = threadIdx.x; i < kWindowBytes; i += blockDim.x) {
        window[i] = kSentinel;
    }
    // The sentinel was written by the generic proxy; the TMA writes through the async proxy.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
    const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(window));
    if (threadIdx.x == 0) {
        info[0] = base;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                     "r"(txBytes)
                     : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(base + offset),
                     "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(x0), "r"(y0), "r"(bar)
                     : "memory");
        unsigned done = 0;
        unsigned long long spins = 0;
        while (!done && spins < 200000000ull) {
            asm volatile("{ .reg .pred p;\n"
                         "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                         "  selp.u32 %0, 1, 0, p; }"
                         : "=r"(done)
                         : "r"(bar)
                         : "memory");
            ++spins;
        }
        info[1] = done;
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < kWindowBytes; i += blockDim.x) {
        out[i] = window[i];
    }
}

__global__ void tmaLoad(const __grid_constant__ CUtensorMap map, int x0, int y0, unsigned offset,
                        unsigned txBytes, unsigned char* out, unsigned* info) {
    extern __shared__ __align__(1024) unsigned char window[];
    __shared__ alignas(8) unsigned long long barrier;
    loadAndDump(window, barrier, map, x0, y0, offset, txBytes, out, info);
}

// The same into a static window placed after 384 bytes of other static shared memory, so that it
// starts at an address that is not a multiple of 1024 (an extern window cannot: every extern
// __shared__ array of a file takes the largest alignment declared). Tells a swizzle on the
// address from a swizzle on the offset into an aligned buffer.
__global__ void tmaLoadShifted(const __grid_constant__ CUtensorMap map, int x0, int y0,
                               unsigned offset, unsigned txBytes, unsigned char* out,
                               unsigned* info) {
    __shared__ alignas(128) unsigned char pad[384];
    __shared__ alignas(128) unsigned char shiftedWindow[kWindowBytes];
    __shared__ alignas(8) unsigned long long barrier;
    pad[threadIdx.x] = static_cast<unsigned char>(threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) {
        info[2] = pad[127]; // keeps the static array
    }
    loadAndDump(shiftedWindow, barrier, map, x0, y0, offset, txBytes, out, info);
}

const char* modeName(int mode) {
    static const char* names[] = {
        "none", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"};
    return mode >= 0 && mode <= 6 ? names[mode] : "?";
}

CUtensorMapDataType dataType(unsigned elementBytes) {
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

struct Context {
    PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    std::vector<unsigned char> host;
    unsigned char* global = nullptr;
    unsigned char* dump = nullptr;
    unsigned* info = nullptr;
};

bool setUp(Context& c) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
        std::printf("{\"status\":\"no cuTensorMapEncodeTiled\"}\n");
        return false;
    }
    c.encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    c.host.resize(static_cast<std::size_t>(kPitchBytes) * kGlobalRows);
    for (std::size_t i = 0; i < c.host.size(); i += 8) {
        const std::uint64_t word = mix(i);
        std::memcpy(&c.host[i], &word, 8);
    }
    if (cudaMalloc(&c.global, c.host.size()) != cudaSuccess ||
        cudaMalloc(&c.dump, kWindowBytes) != cudaSuccess ||
        cudaMalloc(&c.info, 3 * sizeof(unsigned)) != cudaSuccess) {
        std::printf("{\"status\":\"cudaMalloc failed\"}\n");
        return false;
    }
    cudaMemcpy(c.global, c.host.data(), c.host.size(), cudaMemcpyHostToDevice);
    cudaFuncSetAttribute(tmaLoad, cudaFuncAttributeMaxDynamicSharedMemorySize, kWindowBytes);
    return true;
}

/// Runs one case and prints its JSON line. Returns false when CUDA reported an error (the
/// context may then be unusable).
bool runCase(Context& c, int mode, unsigned elementBytes, unsigned innerBytes, unsigned rows,
             unsigned offset, int x0, int y0, bool shifted = false) {
    std::printf("{\"mode\":\"%s\",\"element_bytes\":%u,\"box\":[%u,%u],\"smem_offset\":%u,"
                "\"coords\":[%d,%d]",
                modeName(mode), elementBytes, innerBytes / elementBytes, rows, offset, x0, y0);
    CUtensorMap map;
    const cuuint64_t dims[2] = {kPitchBytes / elementBytes, kGlobalRows};
    const cuuint64_t strides[1] = {kPitchBytes};
    const cuuint32_t box[2] = {innerBytes / elementBytes, rows};
    const cuuint32_t elementStrides[2] = {1, 1};
    const CUresult encoded =
        c.encode(&map, dataType(elementBytes), 2, c.global, dims, strides, box, elementStrides,
                 CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(mode),
                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (encoded != CUDA_SUCCESS) {
        std::printf(",\"status\":\"encode failed\",\"cu_result\":%d}\n", static_cast<int>(encoded));
        std::fflush(stdout);
        return true;
    }
    cudaMemset(c.dump, 0, kWindowBytes);
    if (shifted) {
        tmaLoadShifted<<<1, 128>>>(map, x0, y0, offset, innerBytes * rows, c.dump, c.info);
    } else {
        tmaLoad<<<1, 128, kWindowBytes>>>(map, x0, y0, offset, innerBytes * rows, c.dump, c.info);
    }
    cudaError_t status = cudaDeviceSynchronize();
    if (status != cudaSuccess) {
        std::printf(",\"status\":\"launch failed\",\"cuda_error\":\"%s\"}\n",
                    cudaGetErrorName(status));
        std::fflush(stdout);
        return false;
    }
    std::vector<unsigned char> dump(kWindowBytes);
    unsigned info[2] = {0, 0};
    cudaMemcpy(dump.data(), c.dump, kWindowBytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(info, c.info, sizeof info, cudaMemcpyDeviceToHost);
    // Source chunks of the box: 16 bytes -> (row, byte in row).
    std::map<std::string, std::pair<unsigned, unsigned>> sources;
    for (unsigned r = 0; r < rows; ++r) {
        for (unsigned b = 0; b < innerBytes; b += 16) {
            const std::size_t at =
                static_cast<std::size_t>(y0 + static_cast<int>(r)) * kPitchBytes +
                static_cast<std::size_t>(x0) * elementBytes + b;
            sources[std::string(reinterpret_cast<const char*>(&c.host[at]), 16)] = {r, b};
        }
    }
    int first = -1;
    int last = -1;
    unsigned garbled = 0;
    std::vector<std::pair<int, int>> chunks(kWindowBytes / 16, {-1, -1});
    const std::string sentinel(16, static_cast<char>(kSentinel));
    for (unsigned k = 0; k < kWindowBytes / 16; ++k) {
        const std::string content(reinterpret_cast<const char*>(&dump[k * 16]), 16);
        auto it = sources.find(content);
        if (it != sources.end()) {
            chunks[k] = {static_cast<int>(it->second.first), static_cast<int>(it->second.second)};
            first = first < 0 ? static_cast<int>(k) : first;
            last = static_cast<int>(k);
        } else if (content != sentinel) {
            ++garbled;
        }
    }
    std::printf(",\"smem_base\":%u,\"arrived\":%u,\"garbled_chunks\":%u", info[0], info[1],
                garbled);
    if (first < 0) {
        std::printf(",\"status\":\"nothing written\"}\n");
        std::fflush(stdout);
        return true;
    }
    // The first written chunk's byte offset from the destination address given to the TMA.
    std::printf(",\"status\":\"ok\",\"first_chunk\":%d,\"chunks\":[",
                first * 16 - static_cast<int>(offset));
    for (int k = first; k <= last; ++k) {
        std::printf("%s[%d,%d]", k == first ? "" : ",", chunks[k].first, chunks[k].second);
    }
    std::printf("]}\n");
    std::fflush(stdout);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: tma_dump grid OFFSET | extra | shifted | one MODE ELEM "
                             "INNER_BYTES ROWS OFFSET [X0 Y0]\n");
        return 2;
    }
    Context c;
    if (!setUp(c)) {
        return 1;
    }
    if (std::strcmp(argv[1], "one") == 0 && argc >= 7) {
        const int x0 = argc >= 9 ? std::atoi(argv[7]) : 0;
        const int y0 = argc >= 9 ? std::atoi(argv[8]) : 0;
        return runCase(c, std::atoi(argv[2]), static_cast<unsigned>(std::atoi(argv[3])),
                       static_cast<unsigned>(std::atoi(argv[4])),
                       static_cast<unsigned>(std::atoi(argv[5])),
                       static_cast<unsigned>(std::atoi(argv[6])), x0, y0)
                   ? 0
                   : 1;
    }
    if (std::strcmp(argv[1], "shifted") == 0) {
        // A window that does not start at a multiple of 1024 (tmaLoadShifted).
        for (int mode = 0; mode <= 3; ++mode) {
            const unsigned inner = mode == 0 ? 64 : 16u << mode;
            for (unsigned offset : {0u, 128u, 384u, 640u}) {
                if (!runCase(c, mode, 2, inner, 8, offset, 0, 0, true)) {
                    return 1;
                }
            }
        }
        return 0;
    }
    const bool grid = std::strcmp(argv[1], "grid") == 0 && argc >= 3;
    if (!grid && std::strcmp(argv[1], "extra") != 0) {
        std::fprintf(stderr, "unknown command %s\n", argv[1]);
        return 2;
    }
    if (grid) {
        // Every shape and element size at one destination offset (one process per offset, so
        // that an offset the hardware refuses cannot hide the others).
        const auto offset = static_cast<unsigned>(std::atoi(argv[2]));
        const unsigned elements[] = {1, 2, 4, 8};
        struct ModeInner {
            int mode;
            unsigned inner;
        };
        const ModeInner shapes[] = {{0, 16}, {0, 48}, {0, 128}, {0, 256}, {1, 16},
                                    {1, 32}, {2, 16}, {2, 32},  {2, 48},  {2, 64},
                                    {3, 16}, {3, 32}, {3, 48},  {3, 64},  {3, 128}};
        for (const ModeInner& shape : shapes) {
            for (unsigned e : elements) {
                const unsigned rows = offset == 384 ? 16 : 8;
                if (!runCase(c, shape.mode, e, shape.inner, rows, offset, 0, 0)) {
                    return 1;
                }
            }
        }
        return 0;
    }
    // Odd row counts, and a box that does not start at the tensor's origin.
    for (int mode = 0; mode <= 3; ++mode) {
        const unsigned inner = mode == 0 ? 64 : 16u << mode;
        for (unsigned offset : {0u, 384u, 640u}) {
            if (!runCase(c, mode, 2, inner, 5, offset, 0, 0) ||
                !runCase(c, mode, 2, inner, 11, offset, 24, 3) ||
                !runCase(c, mode, 4, inner, 9, offset, 8, 7)) {
                return 1;
            }
        }
    }
    return 0;
}
