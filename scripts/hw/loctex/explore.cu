// Issue 19 (local and texture memory): what the H100 counts for local loads/stores of each width
// and index pattern, and for 2-D texture reads against the same addresses read as global loads.
// Built and run by scripts/hw/loctex/explore.sh on the GPU machine under ncu.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

// mode: per-thread byte offset into the thread's local array.
__device__ __forceinline__ long long localOffset(int mode, int lane, int width) {
    switch (mode) {
    case 0:
        return 0; // every lane the same element
    case 1:
        return (long long)lane * width; // lane l element l
    case 2:
        return (long long)(lane % 8) * width;
    case 3:
        return (long long)(lane / 8) * width;
    case 4:
        return (long long)(31 - lane) * width;
    default:
        return (long long)((lane * 5) % 32) * width;
    }
}

template <int W> __global__ void localKernel(unsigned* out, int mode, int store) {
    __align__(16) unsigned char arr[32 * 16];
    const int lane = threadIdx.x % 32;
    const unsigned long long base = __cvta_generic_to_local(arr);
    const unsigned long long p = base + localOffset(mode, lane, W);
    unsigned v0 = threadIdx.x, v1 = 1, v2 = 2, v3 = 3;
    if (store) {
        if (W == 4)
            asm volatile("st.local.u32 [%0], %1;" ::"l"(p), "r"(v0) : "memory");
        if (W == 8)
            asm volatile("st.local.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v0), "r"(v1) : "memory");
        if (W == 16)
            asm volatile("st.local.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v0), "r"(v1),
                         "r"(v2), "r"(v3)
                         : "memory");
        if (W == 1)
            asm volatile("st.local.u8 [%0], %1;" ::"l"(p), "r"(v0) : "memory");
        if (W == 2)
            asm volatile("st.local.u16 [%0], %1;" ::"l"(p), "r"(v0) : "memory");
    } else {
        if (W == 4)
            asm volatile("ld.local.u32 %0, [%1];" : "=r"(v0) : "l"(p) : "memory");
        if (W == 8)
            asm volatile("ld.local.v2.u32 {%0, %1}, [%2];"
                         : "=r"(v0), "=r"(v1)
                         : "l"(p)
                         : "memory");
        if (W == 16)
            asm volatile("ld.local.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3)
                         : "l"(p)
                         : "memory");
        if (W == 1)
            asm volatile("ld.local.u8 %0, [%1];" : "=r"(v0) : "l"(p) : "memory");
        if (W == 2)
            asm volatile("ld.local.u16 %0, [%1];" : "=r"(v0) : "l"(p) : "memory");
    }
    if ((v0 ^ v1 ^ v2 ^ v3) == 0xdeadbeefu)
        out[0] = v0;
}

// shape: 0 row (32x1), 1 tile 8x4, 2 tile 4x8, 3 column (1x32), 4 tile 16x2
__device__ __forceinline__ void texel(int shape, int warpId, int lane, int& x, int& y) {
    const int W = 1024;
    switch (shape) {
    case 0:
        x = (warpId % (W / 32)) * 32 + lane;
        y = warpId / (W / 32);
        break;
    case 1:
        x = (warpId % (W / 8)) * 8 + lane % 8;
        y = (warpId / (W / 8)) * 4 + lane / 8;
        break;
    case 2:
        x = (warpId % (W / 4)) * 4 + lane % 4;
        y = (warpId / (W / 4)) * 8 + lane / 4;
        break;
    case 3:
        x = warpId % W;
        y = (warpId / W) * 32 + lane;
        break;
    default:
        x = (warpId % (W / 16)) * 16 + lane % 16;
        y = (warpId / (W / 16)) * 2 + lane / 16;
        break;
    }
}

__global__ void texKernel(cudaTextureObject_t tex, unsigned* out, int shape) {
    int x, y;
    texel(shape, blockIdx.x, threadIdx.x, x, y);
    const unsigned v = tex2D<unsigned>(tex, x + 0.5f, y + 0.5f);
    if (v == 0xdeadbeefu)
        out[0] = v;
}

__global__ void globalKernel(const unsigned char* base, size_t pitch, unsigned* out, int shape) {
    int x, y;
    texel(shape, blockIdx.x, threadIdx.x, x, y);
    const unsigned char* p = base + y * pitch + x * 4;
    unsigned v;
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (v == 0xdeadbeefu)
        out[0] = v;
}

int main(int argc, char** argv) {
    const char* what = argc > 1 ? argv[1] : "all";
    unsigned* out;
    cudaMalloc(&out, 64);
    const int blocks = 1024;
    if (!strcmp(what, "local") || !strcmp(what, "all")) {
        for (int store = 0; store < 2; ++store)
            for (int mode = 0; mode < 6; ++mode) {
                localKernel<1><<<blocks, 32>>>(out, mode, store);
                localKernel<2><<<blocks, 32>>>(out, mode, store);
                localKernel<4><<<blocks, 32>>>(out, mode, store);
                localKernel<8><<<blocks, 32>>>(out, mode, store);
                localKernel<16><<<blocks, 32>>>(out, mode, store);
            }
    }
    if (!strcmp(what, "tex") || !strcmp(what, "all")) {
        const int W = 1024, H = 1024;
        unsigned char* data;
        size_t pitch;
        cudaMallocPitch(&data, &pitch, W * 4, H);
        cudaMemset2D(data, pitch, 0, W * 4, H);
        cudaResourceDesc res{};
        res.resType = cudaResourceTypePitch2D;
        res.res.pitch2D.devPtr = data;
        res.res.pitch2D.desc = cudaCreateChannelDesc<unsigned>();
        res.res.pitch2D.width = W;
        res.res.pitch2D.height = H;
        res.res.pitch2D.pitchInBytes = pitch;
        cudaTextureDesc td{};
        td.filterMode = cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        cudaTextureObject_t tex;
        cudaCreateTextureObject(&tex, &res, &td, nullptr);
        printf("pitch %zu\n", pitch);
        for (int shape = 0; shape < 5; ++shape) {
            texKernel<<<blocks, 32>>>(tex, out, shape);
            globalKernel<<<blocks, 32>>>(data, pitch, out, shape);
        }
        // a cudaArray too
        cudaArray_t arr;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned>();
        cudaMallocArray(&arr, &cd, W, H);
        cudaResourceDesc ra{};
        ra.resType = cudaResourceTypeArray;
        ra.res.array.array = arr;
        cudaTextureObject_t tex2;
        cudaCreateTextureObject(&tex2, &ra, &td, nullptr);
        for (int shape = 0; shape < 5; ++shape) {
            texKernel<<<blocks, 32>>>(tex2, out, shape);
        }
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("done: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
