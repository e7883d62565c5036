// What Nsight Compute counts for cp.async (SASS LDGSTS) on this GPU: the hand-written kernels
// whose counters tests/data/copy_async_h100.txt lists and tests/core/test_copy_async.cpp checks
// the model against. 4 blocks of 128 threads; thread t copies the w-byte element gid * g (global)
// to element (tid.x * s) mod 16384 bytes (shared), for w = 4, 8 (cp.async.ca) and 16
// (cp.async.cg, as __pipeline_memcpy_async chooses), and the staged version (a register between).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 -o copy_async_explore copy_async_explore.cu
// Run:   ncu --csv --metrics METRICS ./copy_async_explore, with METRICS
//        "regex:.*ldgsts.*\.sum$,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,..."
// (s = 32 makes threads of one block share shared elements: racecheck reports those, as it should.)
#include <cstdio>
#include <cuda_runtime.h>

template <int W> __device__ __forceinline__ void copyAsync(void* s, const void* g) {
    unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(s));
    if constexpr (W == 16) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(g));
    } else {
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(sa), "l"(g), "n"(W));
    }
}

template <int W>
__global__ void k(const char* g, int gmul, int smul, int sbytes, unsigned long long* sink) {
    extern __shared__ __align__(16) char sm[];
    long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long ga = gid * gmul * W;
    int sa = (int)((threadIdx.x * (long long)smul * W) % sbytes);
    copyAsync<W>(sm + sa, g + ga);
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    if (threadIdx.x == 0 && sm[0] == 123)
        sink[0] = 1;
}

template <int W>
__global__ void staged(const char* g, int gmul, int smul, int sbytes, unsigned long long* sink) {
    extern __shared__ __align__(16) char sm[];
    long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long ga = gid * gmul * W;
    int sa = (int)((threadIdx.x * (long long)smul * W) % sbytes);
    if constexpr (W == 4)
        *(int*)(sm + sa) = *(const int*)(g + ga);
    if constexpr (W == 8)
        *(int2*)(sm + sa) = *(const int2*)(g + ga);
    if constexpr (W == 16)
        *(int4*)(sm + sa) = *(const int4*)(g + ga);
    __syncthreads();
    if (threadIdx.x == 0 && sm[0] == 123)
        sink[0] = 1;
}

int main() {
    char* g;
    unsigned long long* sink;
    cudaMalloc(&g, 1 << 26);
    cudaMemset(g, 1, 1 << 26);
    cudaMalloc(&sink, 8);
    const int blocks = 4, threads = 128, sbytes = 16384;
    int configs[][2] = {{1, 1}, {2, 1}, {1, 2}, {1, 32}, {32, 1}, {3, 1}, {1, 4}}; // {g, s}
    for (auto& c : configs) {
        k<4><<<blocks, threads, sbytes>>>(g, c[0], c[1], sbytes, sink);
        k<8><<<blocks, threads, sbytes>>>(g, c[0], c[1], sbytes, sink);
        k<16><<<blocks, threads, sbytes>>>(g, c[0], c[1], sbytes, sink);
        staged<4><<<blocks, threads, sbytes>>>(g, c[0], c[1], sbytes, sink);
        staged<16><<<blocks, threads, sbytes>>>(g, c[0], c[1], sbytes, sink);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("done %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
