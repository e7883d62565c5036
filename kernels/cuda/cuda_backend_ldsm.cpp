// The CUDA backend's ldmatrix and stmatrix replay: the launch of one LDSM or STSM for a checked
// matrix access (ldsm_replay_kernels.cu), and the counter that only they need,
// smsp__inst_executed_op_ldsm.sum (the modern model predicts it; docs/models.md).
#include "cuda_backend.h"

#include "warpscope/matrix_access.h"
#include "warpscope/model.h"

#include <algorithm>

namespace warpscope::probe::cuda {

std::vector<std::string> replayCounterNames(const std::vector<std::string>& names,
                                            const std::vector<gpu::ReplayLaunch>& launches) {
    std::vector<std::string> wanted = names.empty() ? nsightCounterNames() : names;
    const bool matrix = std::any_of(launches.begin(), launches.end(),
                                    [](const gpu::ReplayLaunch& l) { return l.matrices != 0; });
    if (matrix) {
        wanted.emplace_back(kLdsmInstructionsMetric);
    }
    return wanted;
}

ProbeResult<gpu::ReplayLaunch> CudaBackend::toMatrixLaunch(const WarpAccess& access) const {
    const AccessKind& kind = access.kind;
    const bool store = kind.op == AccessOp::Store;
    // The PTX ISA: ldmatrix needs sm_75, stmatrix sm_90.
    const int needed = store ? 90 : 75;
    const int have = m_info.computeCapabilityMajor * 10 + m_info.computeCapabilityMinor;
    if (have < needed) {
        return ProbeError::patternRefused(
            std::string(opName(kind)) + " needs compute capability " + std::to_string(needed / 10) +
            "." + std::to_string(needed % 10) + "; " + m_info.name + " has " +
            std::to_string(have / 10) + "." + std::to_string(have % 10) +
            "; the pattern was not launched");
    }
    if (auto error = checkMatrixKind(kind)) {
        return ProbeError::patternRefused(error->describe() + "; the pattern was not launched");
    }
    gpu::ReplayLaunch launch;
    launch.space = gpu::ReplaySpace::Shared;
    launch.op = store ? gpu::ReplayOp::Store : gpu::ReplayOp::Load;
    launch.widthBytes = kMatrixRowBytes;
    launch.matrices = kind.matrices;
    launch.transpose = kind.transpose;
    launch.sink = m_sink;
    launch.globalArena = m_arena;
    const int rows = kMatrixRows * kind.matrices;
    std::int64_t highest = 0;
    for (int lane = 0; lane < rows; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address || *address < 0 || *address % kMatrixRowBytes != 0 ||
            static_cast<std::uint64_t>(*address) + kMatrixRowBytes > m_maxSharedBytes) {
            return ProbeError::patternRefused(
                "lane " + std::to_string(lane) + " gives row " + std::to_string(lane % 8) +
                " of matrix " + std::to_string(lane / 8) + " and needs a 16-byte aligned address " +
                "inside the probe's " + std::to_string(m_maxSharedBytes) +
                "-byte shared memory; found " +
                (address ? "byte " + std::to_string(*address) : std::string("no address")) +
                "; the pattern was not launched");
        }
        launch.offsets[lane] = *address;
        highest = std::max<std::int64_t>(highest, *address + kMatrixRowBytes);
    }
    // Every lane executes the instruction (.sync.aligned); lanes that give no row get a copy of
    // a row lane's address, as the PTX ISA suggests for targets that read them.
    for (int lane = rows; lane < kWarpSize; ++lane) {
        launch.offsets[lane] = launch.offsets[lane % rows];
    }
    launch.activeMask = matrixRowLanes(kind.matrices);
    launch.sharedBytes = static_cast<std::size_t>(highest);
    return launch;
}

} // namespace warpscope::probe::cuda
