// libFuzzer target for kernel files (core/src/kernel_file.cpp) and what reads them next: any bytes
// must give a kernel or an Error, never a crash, a hang or undefined behaviour; an accepted kernel
// must write out and read back equal; and resolveKernel and the grid model must answer (a value
// or an Error) for it. Huge launches and buffers (fuzz/dict/kernel-file.dict names the size
// fields) reach the grid model's budget, as every caller's do: the model runs under a budget of
// 4096 warps' work and 64 MiB, and a kernel above it must be refused before any walk with an
// OverBudget error that names the estimate (a walk that ignored the budget shows up as a slow or
// timed-out input, which fails the fuzz step). Seeds: fuzz/corpus/kernel-file/.
#include "fuzz_check.h"
#include "warpscope/kernel.h"
#include "warpscope/model.h"

#include <algorithm>
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
    warpscope::GridOptions options;
    options.budget.maxThreadAccesses =
        kMaxWarps * 32 *
        std::max<std::int64_t>(1, static_cast<std::int64_t>(resolved->accesses.size()));
    options.budget.maxMemoryBytes = std::int64_t{64} << 20;
    const auto refused = warpscope::checkGridBudget(resolved.value(), options.budget);
    auto grid = warpscope::predictGrid(resolved.value(), options);
    if (refused) {
        // Refused before the walk, with the estimate and the limit in the message.
        check(!grid.ok());
        check(grid.error().code == warpscope::ErrorCode::OverBudget);
        check(grid.error().message.find("limit") != std::string::npos);
        return 0;
    }
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
