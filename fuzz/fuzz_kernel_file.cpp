// libFuzzer target for kernel files (core/src/kernel_file.cpp) and what reads them next: any bytes
// must give a kernel or an Error, never a crash, a hang or undefined behaviour; an accepted kernel
// must write out and read back equal; and resolveKernel and the grid model must answer (a value
// or an Error) for it. The grid model runs only on launches of at most 4096 warps, so that a
// fuzzed launch of 2^48 threads does not make one input take hours. Seeds:
// fuzz/corpus/kernel-file/.
#include "fuzz_check.h"
#include "warpscope/kernel.h"

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
    for (const auto& access : grid->accesses) {
        std::int64_t warps = 0;
        for (std::int64_t count : access.histogram) {
            warps += count;
        }
        check(warps == resolved->warpCount());
        check(access.sectors >= access.requests);
    }
    return 0;
}
