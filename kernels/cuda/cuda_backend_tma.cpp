// The CUDA backend's TMA check (tma_check.h): one tile load on the device, its shared-memory
// window read back chunk by chunk into the box row and byte each chunk holds.
#include "cuda_backend.h"

#include "tma_check_kernels.h"

#include <cstring>

namespace warpscope::probe::cuda {

namespace {

/// The box row and byte a dumped 16-byte chunk names, or nullopt for one that names none.
std::optional<TmaChunkSource> decodeChunk(const unsigned char* bytes, const TmaTileLoad& load) {
    std::uint32_t words[4];
    std::memcpy(words, bytes, sizeof words);
    const std::uint32_t row = words[0] & 0x00ffffffu;
    const std::uint32_t byte = words[1];
    if ((words[0] & 0xff000000u) != gpu::kTmaChunkTag || words[2] != ~row || words[3] != ~byte ||
        row >= static_cast<std::uint32_t>(load.boxRows) ||
        byte >= static_cast<std::uint32_t>(load.boxInnerBytes()) || byte % 16 != 0) {
        return std::nullopt;
    }
    return TmaChunkSource{static_cast<int>(row), static_cast<int>(byte)};
}

} // namespace

ProbeResult<TmaDump> CudaBackend::dumpTmaTile(const TmaTileLoad& load) {
    if (auto error = ensureDevice()) {
        return *error;
    }
    if (m_info.computeCapabilityMajor < 9) {
        return ProbeError::patternRefused(
            "TMA tile loads (cp.async.bulk.tensor) need compute capability 9.0; " + m_info.name +
            " has " + std::to_string(m_info.computeCapabilityMajor) + "." +
            std::to_string(m_info.computeCapabilityMinor));
    }
    auto layout = layTmaTile(load);
    if (!layout) {
        return ProbeError::badRequest(layout.error().describe());
    }
    const std::int64_t tileEnd =
        load.smemOffset + static_cast<std::int64_t>(layout.value().chunks.size()) * 16;
    // A kilobyte past the tile shows stray writes; the static mbarrier needs a little more.
    const std::int64_t windowBytes = (tileEnd + 1024 + 1023) / 1024 * 1024;
    if (windowBytes + 1024 > static_cast<std::int64_t>(m_maxSharedBytes)) {
        return ProbeError::patternRefused(
            "the tile ends at shared-memory byte " + std::to_string(tileEnd) + "; with the " +
            "kilobyte after it that the check reads, it needs more than the " +
            std::to_string(m_maxSharedBytes) + " bytes a block may have on " + m_info.name);
    }
    gpu::TmaTileDumpLaunch launch;
    launch.elementBytes = load.elementBytes;
    launch.boxInnerElements = load.boxInnerElements;
    launch.boxRows = load.boxRows;
    launch.swizzleMode = static_cast<int>(load.swizzle);
    launch.smemOffset = static_cast<unsigned>(load.smemOffset);
    launch.windowBytes = static_cast<unsigned>(windowBytes);
    gpu::TmaTileDumpResult result;
    std::string what;
    const cudaError_t status = gpu::runTmaTileDump(launch, result, what);
    if (status == cudaErrorInvalidValue || status == cudaErrorNotSupported) {
        cudaGetLastError(); // not sticky
        return ProbeError::patternRefused(what + " (" + cudaGetErrorString(status) + ")");
    }
    if (status != cudaSuccess) {
        return ProbeError::kernelFault(what + ": " + cudaGetErrorString(status) +
                                       ". The GPU context is lost; the probe exits.");
    }
    TmaDump dump;
    dump.arrived = result.arrived;
    dump.windowAddress = result.windowAddress;
    const std::string fill(16, static_cast<char>(gpu::kTmaFillByte));
    const auto first = static_cast<std::size_t>(load.smemOffset / 16);
    std::size_t lastWritten = first;
    std::vector<std::optional<TmaChunkSource>> chunks;
    for (std::size_t k = 0; k < result.window.size() / 16; ++k) {
        const unsigned char* bytes = &result.window[16 * k];
        const bool untouched = std::memcmp(bytes, fill.data(), 16) == 0;
        const std::optional<TmaChunkSource> source =
            untouched ? std::nullopt : decodeChunk(bytes, load);
        if (!untouched && !source) {
            ++dump.garbledChunks;
        }
        if (k < first) {
            dump.chunksWrittenBeforeDestination += untouched ? 0 : 1;
            continue;
        }
        chunks.push_back(source);
        if (source) {
            lastWritten = k + 1;
        }
    }
    chunks.resize(lastWritten - first);
    dump.chunks = std::move(chunks);
    return dump;
}

} // namespace warpscope::probe::cuda
