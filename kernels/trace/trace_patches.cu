// The device side of warpscope-trace: __device__ patch functions the Compute Sanitizer API calls
// before each global, shared and local memory instruction of the traced launch. Every thread of
// the warp that executes the instruction arrives here; unselected warps leave after one compare.
// The lanes on the same instruction agree on a leader, which takes one slot of the record buffer
// with an atomic; each lane writes its own address into the slot; a full buffer counts the warp as
// dropped. Compiled with nvcc --fatbin --compile-as-tools-patch (kernels/trace/CMakeLists.txt).
#include "trace_raw.h"

#include <sanitizer_patching.h>

using namespace warpscope::trace;

namespace {

__device__ bool isSelected(const DeviceControl& control, std::uint32_t block, std::uint32_t warp) {
    switch (control.selection) {
    case SelectAll:
        return true;
    case SelectSample:
        return (static_cast<unsigned long long>(block) * control.warpsPerBlock + warp) %
                   control.sampleStride ==
               0;
    default:
        for (std::uint32_t i = 0; i < control.listCount && i < kMaxListedWarps; ++i) {
            if (control.listBlock[i] == block && control.listWarp[i] == warp) {
                return true;
            }
        }
        return false;
    }
}

__device__ void recordAccess(void* userdata, std::uint64_t pc, void* ptr, std::uint32_t bytes,
                             std::uint32_t flags, RawSpace space) {
    auto* control = static_cast<DeviceControl*>(userdata);
    if (control == nullptr) {
        return;
    }
    const std::uint32_t thread =
        threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const std::uint32_t warp = thread / kRawLaneCount;
    const std::uint32_t block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (!isSelected(*control, block, warp)) {
        return;
    }
    std::uint32_t lane = 0;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    // The lanes executing this instruction together: those converged here on the same PC.
    const std::uint32_t group = __match_any_sync(__activemask(), pc);
    const int leader = __ffs(group) - 1;
    unsigned long long slot = 0;
    if (static_cast<int>(lane) == leader) {
        slot = atomicAdd(&control->attempts, 1ull);
    }
    slot = __shfl_sync(group, slot, leader);
    if (slot >= control->capacity) {
        return;
    }
    RawRecord& record = control->records[slot];
    std::uint64_t address = reinterpret_cast<std::uint64_t>(ptr);
    // Shared and local addresses are kept as offsets in their windows (the models' terms).
    if (space == RawShared && __isShared(ptr)) {
        address = static_cast<std::uint64_t>(__cvta_generic_to_shared(ptr));
    } else if (space == RawLocal && __isLocal(ptr)) {
        address = static_cast<std::uint64_t>(__cvta_generic_to_local(ptr));
    }
    record.addresses[lane] = address;
    if (static_cast<int>(lane) == leader) {
        record.pc = pc;
        record.block[0] = blockIdx.x;
        record.block[1] = blockIdx.y;
        record.block[2] = blockIdx.z;
        record.warp = warp;
        record.activeMask = group;
        record.accessBytes = bytes;
        record.flags = flags;
        record.space = space;
        // The launch's dynamic shared memory, which the Sanitizer API's launch data does not
        // carry: every recording warp stores the same value.
        std::uint32_t dynamicShared = 0;
        asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamicShared));
        control->dynamicSharedBytes = dynamicShared;
        for (std::uint32_t other = 0; other < kRawLaneCount; ++other) {
            if (((group >> other) & 1u) == 0) {
                record.addresses[other] = 0;
            }
        }
    }
}

} // namespace

extern "C" __device__ __noinline__ SanitizerPatchResult
WarpscopeGlobalAccess(void* userdata, uint64_t pc, void* ptr, uint32_t bytes, uint32_t flags,
                      const void* /*newValue*/) {
    recordAccess(userdata, pc, ptr, bytes, flags, RawGlobal);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
WarpscopeSharedAccess(void* userdata, uint64_t pc, void* ptr, uint32_t bytes, uint32_t flags,
                      const void* /*newValue*/) {
    recordAccess(userdata, pc, ptr, bytes, flags, RawShared);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
WarpscopeLocalAccess(void* userdata, uint64_t pc, void* ptr, uint32_t bytes, uint32_t flags,
                     const void* /*newValue*/) {
    recordAccess(userdata, pc, ptr, bytes, flags, RawLocal);
    return SANITIZER_PATCH_SUCCESS;
}
