// Comparing a TMA tile load's dumped shared memory with core's layout model (tma_check.h).
#include "tma_check.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace warpscope::probe {

namespace {

std::string chunkText(const std::optional<TmaChunkSource>& chunk) {
    return chunk ? "row " + std::to_string(chunk->row) + " byte " + std::to_string(chunk->byteInRow)
                 : std::string("nothing");
}

nlohmann::json chunksJson(const std::vector<std::optional<TmaChunkSource>>& chunks) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& chunk : chunks) {
        list.push_back(chunk ? nlohmann::json::array({chunk->row, chunk->byteInRow})
                             : nlohmann::json(nullptr));
    }
    return list;
}

} // namespace

std::string describeTmaLoad(const TmaTileLoad& load) {
    return std::to_string(load.boxInnerElements) + "x" + std::to_string(load.boxRows) + " " +
           std::to_string(load.elementBytes) + "-byte elements, swizzle " + toString(load.swizzle) +
           ", shared-memory offset " + std::to_string(load.smemOffset);
}

TmaCheckResult compareTmaLayout(const TmaLayout& model, const TmaDump& dump) {
    TmaCheckResult result;
    result.load = model.load;
    result.model = model.chunks;
    result.measured = dump;
    std::size_t more = 0;
    const auto differ = [&](std::string text) {
        if (result.differences.size() < kMaxTmaDifferences) {
            result.differences.push_back(std::move(text));
        } else {
            ++more;
        }
    };
    if (!dump.arrived) {
        differ("the load did not complete (its mbarrier never flipped)");
    }
    if (dump.chunksWrittenBeforeDestination > 0) {
        differ(std::to_string(dump.chunksWrittenBeforeDestination) +
               " chunks before the destination were written");
    }
    if (dump.windowAddress % 1024 != 0) {
        differ("the window starts at shared-memory address " + std::to_string(dump.windowAddress) +
               ", not a multiple of 1024, so its offsets are not the model's addresses");
    }
    if (dump.garbledChunks > 0) {
        differ(std::to_string(dump.garbledChunks) +
               " chunks hold neither the fill nor a chunk of the box");
    }
    const std::size_t n = std::max(model.chunks.size(), dump.chunks.size());
    for (std::size_t i = 0; i < n; ++i) {
        const std::optional<TmaChunkSource> expected =
            i < model.chunks.size() ? model.chunks[i] : std::nullopt;
        const std::optional<TmaChunkSource> found =
            i < dump.chunks.size() ? dump.chunks[i] : std::nullopt;
        const bool same =
            expected.has_value() == found.has_value() &&
            (!expected || (expected->row == found->row && expected->byteInRow == found->byteInRow));
        if (!same) {
            differ("chunk " + std::to_string(i) + " (shared-memory byte " +
                   std::to_string(model.load.smemOffset + 16 * static_cast<std::int64_t>(i)) +
                   "): the model puts " + chunkText(expected) + " there, the GPU wrote " +
                   chunkText(found));
        }
    }
    if (more > 0) {
        result.differences.push_back("and " + std::to_string(more) + " more differences");
    }
    return result;
}

nlohmann::json toJson(const TmaCheckResult& result) {
    nlohmann::json differences = nlohmann::json::array();
    for (const std::string& text : result.differences) {
        differences.push_back(text);
    }
    return nlohmann::json{{"load",
                           {{"elementBytes", result.load.elementBytes},
                            {"box", {result.load.boxInnerElements, result.load.boxRows}},
                            {"swizzle", toString(result.load.swizzle)},
                            {"smemOffset", result.load.smemOffset}}},
                          {"agrees", result.agrees()},
                          {"differences", std::move(differences)},
                          {"model", chunksJson(result.model)},
                          {"measured", chunksJson(result.measured.chunks)},
                          {"arrived", result.measured.arrived},
                          {"windowAddress", result.measured.windowAddress}};
}

const std::vector<TmaTileLoad>& selfcheckTmaLoads() {
    // Each mode with its widest row, a narrower row in a wide span (rows start a new span line),
    // the 384-byte offset whose swizzle differs from offset 0, and 1-, 4- and 8-byte elements.
    static const std::vector<TmaTileLoad> loads = {
        {2, 32, 8, TmaSwizzle::None, 0},      {4, 12, 5, TmaSwizzle::None, 384},
        {2, 16, 8, TmaSwizzle::Span32, 0},    {1, 32, 16, TmaSwizzle::Span32, 640},
        {2, 32, 8, TmaSwizzle::Span64, 0},    {4, 8, 8, TmaSwizzle::Span64, 384},
        {2, 64, 16, TmaSwizzle::Span128, 0},  {2, 64, 16, TmaSwizzle::Span128, 384},
        {8, 16, 8, TmaSwizzle::Span128, 128}, {2, 32, 8, TmaSwizzle::Span128, 1024},
    };
    return loads;
}

} // namespace warpscope::probe
