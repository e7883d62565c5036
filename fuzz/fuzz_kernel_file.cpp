// libFuzzer target for kernel files (core/src/kernel_file.cpp) and what reads them next: any bytes
// must give a kernel or an Error, never a crash, a hang or undefined behaviour; an accepted kernel
// must write out and read back equal; and resolveKernel and the grid model must answer (a value
// or an Error) for it. The grid model runs only on launches of at most 4096 warps, so that a
// fuzzed launch of 2^48 threads does not make one input take hours. Seeds:
// fuzz/corpus/kernel-file/.
#include "fuzz_check.h"
#include "warpscope/kernel.h"
#include "warpscope/model.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr std::int64_t kMaxWarps = 4096;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto kernel = warpscope::kernelFromJsonText(text);
    if (!kernel) {
        check(!kernel.error().message.empty());
        return 0;
    }
    const std::string written = warpscope::kernelToJsonText(kernel.value());
    auto again = warpscope::kernelFromJsonText(written);
    check(again.ok());
    check(again.value() == kernel.value());

    auto resolved = warpscope::resolveKernel(kernel.value());
    if (!resolved) {
        check(!resolved.error().message.empty());
        return 0;
    }
    if (resolved->warpCount() > kMaxWarps) {
        return 0;
    }
    auto grid = warpscope::predictGrid(resolved.value());
    if (!grid) {
        check(!grid.error().message.empty());
        return 0;
    }
    check(grid->accesses.size() == resolved->accesses.size());
    check(grid->warps == resolved->warpCount());
    for (std::size_t i = 0; i < grid->accesses.size(); ++i) {
        const auto& access = grid->accesses[i];
        std::int64_t warps = 0;
        for (std::int64_t count : access.histogram) {
            warps += count;
        }
        check(warps == resolved->warpCount());
        // Every request needs at least one sector, or, for constant loads, one distinct address;
        // shared accesses count wavefronts instead and have no requests here.
        const warpscope::MemorySpace space = resolved->accesses[i].access.kind.space;
        if (warpscope::usesSectors(space)) {
            check(access.sectors >= access.requests);
        } else if (space == warpscope::MemorySpace::Constant) {
            check(access.constantAddresses >= access.requests);
        }
    }
    return 0;
}
