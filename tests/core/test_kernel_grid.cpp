// The grid model's sectors written in part, and the grid model against a reference walk on random
// kernels.
#include "kernel_test_support.h"

namespace warpscope {
namespace {

using namespace kernel_test;

// ---- Sectors written in part (stores that leave a sector for other requests to complete) ----

std::int64_t inPart(const GridPrediction& grid, std::size_t buffer) {
    return grid.buffers.at(buffer).sectorsWrittenInPart;
}

Kernel storeKernel(const std::string& address, int width = 4, const std::string& active = "1") {
    Kernel kernel = simpleKernel(address);
    kernel.accesses[0].kind =
        AccessKind{MemorySpace::Global, AccessOp::Store, width, CachePath::Default};
    kernel.accesses[0].activeExpression = active;
    return kernel;
}

TEST(GridModel, CountsSectorsWrittenInPart) {
    // Coalesced 4-byte stores: every request writes its 4 sectors whole.
    GridPrediction grid = gridOrFail(storeKernel("gid * 4"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 16);
    EXPECT_EQ(inPart(grid, 0), 0);
    EXPECT_EQ(metric(grid, "warpscope__sectors_written_in_part"), 0);
    // Every other float: each sector gets 16 of its 32 bytes, from one request.
    grid = gridOrFail(storeKernel("gid * 8"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 32);
    EXPECT_EQ(inPart(grid, 0), 32);
    EXPECT_EQ(metric(grid, "warpscope__sectors_written_in_part"), 32);
    // Misaligned by 3 floats: each warp's 128 bytes start 12 bytes into a sector, so its first
    // and last sectors are partial (completed by the neighbouring warp, but by another request):
    // bytes 12..523 cover sectors 0..16, of which 0, 4, 8, 12 and 16 are written in part.
    grid = gridOrFail(storeKernel("(gid + 3) * 4"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 17);
    EXPECT_EQ(inPart(grid, 0), 5);
    // An inactive lane leaves a hole in one sector per warp.
    grid = gridOrFail(storeKernel("gid * 4", 4, "lane != 5"));
    EXPECT_EQ(inPart(grid, 0), 4);
    // 16-byte stores: two lanes fill a sector; 8-byte stores every 16 bytes fill half of one.
    grid = gridOrFail(storeKernel("gid * 16", 16));
    EXPECT_EQ(inPart(grid, 0), 0);
    grid = gridOrFail(storeKernel("gid * 16", 8));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 64);
    EXPECT_EQ(inPart(grid, 0), 64);
    // Two lanes writing the same 4 bytes add nothing: every other float of bytes 0..127, each
    // written twice, leaves all 4 sectors half written.
    grid = gridOrFail(storeKernel("(lane / 2) * 8"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 4);
    EXPECT_EQ(inPart(grid, 0), 4);
    // Loads are never counted.
    Kernel load = storeKernel("gid * 8");
    load.accesses[0].kind.op = AccessOp::Load;
    grid = gridOrFail(load);
    EXPECT_EQ(inPart(grid, 0), 0);
}

// The fill rule (docs/models.md): L2 holds a few open (incomplete) partial sectors; opening one
// more evicts the oldest, which is then read from DRAM (a fill, in dram__bytes_read.sum).
GridPrediction fillsOrFail(const Kernel& kernel, std::int64_t capacitySectors,
                           std::int64_t l2Sectors = std::int64_t{1} << 40) {
    GridOptions options;
    options.partialSectorCapacityBytes = capacitySectors * 32;
    options.l2Bytes = l2Sectors * 32;
    auto prediction = predictGrid(resolvedOrFail(kernel), options);
    EXPECT_TRUE(prediction.ok()) << (prediction.ok() ? "" : prediction.error().describe());
    return prediction.ok() ? prediction.value() : GridPrediction{};
}

/// Half a sector per lane group: each warp writes bytes 0..15 (h = 0) or 16..31 (h = 1) of 8
/// sectors; the warp `d` warps later writes the other half (the designed kernel
/// scripts/investigations/dram_fills/kernels/fill_pair.json), over `warps` warps of 32 threads.
Kernel halvesKernel(int warps, int d) {
    Kernel kernel = storeKernel("((((gid / 32) / (2 * " + std::to_string(d) + ")) * " +
                                std::to_string(d) + " + (gid / 32) % " + std::to_string(d) +
                                ") * 8 + (gid % 32) / 4) * 32 + ((gid / 32) / " +
                                std::to_string(d) + ") % 2 * 16 + (gid % 4) * 4");
    kernel.buffers[0].bytesExpression = std::to_string(warps / 2 * 8 * 32);
    kernel.launch.grid = {std::to_string(warps), "1", "1"};
    return kernel;
}

TEST(GridModel, FillsPartialSectorsEvictedBeforeTheyAreComplete) {
    // Completed by the next warp: at most 8 sectors open at once, none evicted at capacity 8.
    GridPrediction grid = fillsOrFail(halvesKernel(64, 1), 8);
    EXPECT_EQ(grid.buffers[0].sectorsWrittenInPart, 256);
    EXPECT_EQ(grid.buffers[0].sectorsFilled, 0);
    EXPECT_EQ(metric(grid, "dram__bytes_read.sum"), 0);
    // Completed 8 warps later: 64 sectors opened by 8 warps before their second halves come, so
    // with room for 8 all but the last warp's 8 are evicted (filled) first, and are then whole
    // in L2; 4 such groups of 16 warps.
    grid = fillsOrFail(halvesKernel(64, 8), 8);
    EXPECT_EQ(grid.buffers[0].sectorsFilled, 4 * (64 - 8));
    EXPECT_EQ(metric(grid, "dram__bytes_read.sum"), 4 * (64 - 8) * 32);
    EXPECT_EQ(metric(grid, "warpscope__sectors_filled"), 4 * (64 - 8));
    EXPECT_EQ(metric(grid, "warpscope__footprint_bytes_read"), 0);
    // With room for all 64 nothing is filled.
    EXPECT_EQ(fillsOrFail(halvesKernel(64, 8), 64).buffers[0].sectorsFilled, 0);
    // If L2 forgets the filled sector before the second half arrives (an L2 of 16 sectors, and
    // 64 touched in between), the second half opens it again; the last 8 opened stay open at
    // the end (written back after the kernel, not counted).
    EXPECT_EQ(fillsOrFail(halvesKernel(64, 8), 8, 16).buffers[0].sectorsFilled, 256 + 256 - 8);
    // Never completed: all but the last `capacity` opened are evicted during the kernel.
    grid = fillsOrFail(storeKernel("((gid / 32) * 8 + (gid % 32) / 4) * 32 + (gid % 4) * 4"), 8);
    EXPECT_EQ(grid.buffers[0].sectorsWrittenInPart, 32);
    EXPECT_EQ(grid.buffers[0].sectorsFilled, 32 - 8);
    // Whole-sector stores and sectors the kernel read first are never open.
    EXPECT_EQ(fillsOrFail(storeKernel("gid * 4"), 1).buffers[0].sectorsFilled, 0);
    Kernel readFirst = storeKernel("gid * 8");
    KernelAccess load = readFirst.accesses[0];
    load.kind.op = AccessOp::Load;
    readFirst.accesses.insert(readFirst.accesses.begin(), load);
    EXPECT_EQ(fillsOrFail(readFirst, 1).buffers[0].sectorsFilled, 0);
    EXPECT_EQ(fillsOrFail(storeKernel("gid * 8"), 1).buffers[0].sectorsFilled, 32 - 1);
}

TEST(GridModel, PredictsNoFillForTheKernelPresets) {
    // Every preset completes each sector inside one block, so in launch order no more than a
    // block's sectors are open: the H100's Unroll4Row fills are beyond the rule (docs/models.md).
    for (const KernelPreset& preset : builtinKernelPresets()) {
        SCOPED_TRACE(preset.id);
        const Kernel kernel = smallerProblem(preset.kernel); // the same shape of blocks
        auto resolved = resolveKernel(kernel);
        ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
        GridOptions options;
        options.partialSectorCapacityBytes = 32 * 1024; // far below the H100's, still no fill
        auto grid = predictGrid(resolved.value(), options);
        ASSERT_TRUE(grid.ok());
        for (const GridBufferFootprint& b : grid.value().buffers) {
            EXPECT_EQ(b.sectorsFilled, 0) << b.name;
        }
    }
}

TEST(GridModel, RowReadingTransposesWriteSectorsInPartUnlessAWarpFillsThem) {
    // NaiveRow on 64 x 64 floats: a 16 x 16 block's warp stores two floats of each of 16 output
    // rows, so every output sector arrives in parts (from 4 warps); with (4, 64) blocks a warp
    // stores 8 consecutive floats of each of 4 rows: whole sectors.
    const std::string text = R"({"grid": ["(nx + bx - 1) / bx", "(ny + by - 1) / by", 1],
      "block": ["bx", "by", 1], "parameters": {"nx": 64, "ny": 64, "bx": 16, "by": 16},
      "buffers": [{"name": "in", "bytes": "nx * ny * 4"}, {"name": "out", "bytes": "nx * ny * 4"}],
      "accesses": [
       {"op": "load", "space": "global", "width": 4, "buffer": "in",
        "address": "((bid.y * bdim.y + tid.y) * nx + (bid.x * bdim.x + tid.x)) * 4"},
       {"op": "store", "space": "global", "width": 4, "buffer": "out",
        "address": "((bid.x * bdim.x + tid.x) * ny + (bid.y * bdim.y + tid.y)) * 4"}]})";
    Kernel kernel = kernelOrFail(text);
    GridPrediction grid = gridOrFail(kernel);
    EXPECT_EQ(grid.buffers[1].sectorsWritten, 512);
    EXPECT_EQ(inPart(grid, 0), 0);
    EXPECT_EQ(inPart(grid, 1), 512);
    for (Parameter& p : kernel.parameters) {
        if (p.name == "bx" || p.name == "by") {
            p.value = p.name == "bx" ? 4 : 64;
        }
    }
    grid = gridOrFail(kernel);
    EXPECT_EQ(grid.buffers[1].sectorsWritten, 512);
    EXPECT_EQ(inPart(grid, 1), 0);
    // The issue's example stores rows: whole sectors.
    EXPECT_EQ(inPart(gridOrFail(kernelOrFail(kIssueExample)), 1), 0);
}

/// Sums of the per-warp modern model over every warp, the way a reader of kernel.h would compute
/// them by hand: what predictGrid must equal.
struct Reference {
    std::vector<GridAccessPrediction> accesses;
    std::int64_t sharedBytes = 0;
};

Reference referenceGrid(const ResolvedKernel& kernel) {
    Reference ref;
    ref.accesses.resize(kernel.accesses.size());
    for (std::int64_t block = 0; block < kernel.grid.count(); ++block) {
        for (std::int64_t warp = 0; warp < kernel.warpsPerBlock(); ++warp) {
            for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
                auto wa = resolveWarp(kernel, static_cast<int>(a), block, warp);
                EXPECT_TRUE(wa.ok());
                if (!wa.ok()) {
                    return ref;
                }
                const ModernPrediction p = predictModern(wa.value());
                GridAccessPrediction& r = ref.accesses[a];
                int value = 0;
                if (p.global) {
                    r.requests += p.global->requests;
                    r.sectors += p.global->sectors;
                    value = p.global->sectors;
                } else {
                    r.wavefronts += p.shared->wavefronts;
                    r.bankConflicts += p.shared->bankConflicts;
                    value = p.shared->wavefronts;
                    for (const auto& address : wa->addresses) {
                        if (address) {
                            ref.sharedBytes =
                                std::max(ref.sharedBytes, *address + wa->kind.widthBytes);
                        }
                    }
                }
                r.activeThreads += wa->activeLaneCount();
                r.histogram[static_cast<std::size_t>(std::min(value, kHistogramBuckets - 1))]++;
            }
        }
    }
    return ref;
}

/// Random kernels whose addresses stay inside their buffers: mixes of strides, offsets, modulo,
/// duplicates (division), inactive lanes, every width, shared and global, odd block shapes.
Kernel randomKernel(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const int widths[] = {1, 2, 4, 8, 16};
    const char* indices[] = {"gid",
                             "lane",
                             "tid.x + tid.y * 7",
                             "(tid.x * 33 + tid.y) % 97",
                             "gid / 3",
                             "lane ^ 5",
                             "(lane * 17) % 32",
                             "bid.x * 13 + tid.y",
                             "(gid * 2654435761) % 1021",
                             "lane / 8",
                             "tid.y * 32 + tid.x",
                             "(tid.x + bid.y) * 9",
                             "lane & 29",
                             "0"};
    const char* actives[] = {
        "1", "lane % 3 != 0", "gid < 200", "tid.y != 1 && lane > 3", "(gid * 7) % 5 < 2", "0"};
    Kernel kernel;
    kernel.launch.grid = {std::to_string(1 + pick(3)), std::to_string(1 + pick(2)), "1"};
    const int bx = 1 + pick(40);
    const int by = 1 + pick(4);
    kernel.launch.block = {std::to_string(bx), std::to_string(by), std::to_string(1 + pick(2))};
    kernel.buffers = {KernelBuffer{"a", "1048576"}, KernelBuffer{"b", "1048576"}};
    const int count = 1 + pick(4);
    for (int i = 0; i < count; ++i) {
        KernelAccess access;
        const int width = widths[pick(5)];
        const bool shared = pick(3) == 0;
        access.kind = AccessKind{shared ? MemorySpace::Shared : MemorySpace::Global,
                                 pick(2) ? AccessOp::Load : AccessOp::Store, width,
                                 static_cast<CachePath>(pick(4))};
        access.buffer = shared ? "" : (pick(2) ? "a" : "b");
        access.addressExpression = "((" + std::string(indices[pick(14)]) + ") * " +
                                   std::to_string(pick(4) + 1) + " + " + std::to_string(pick(9)) +
                                   ") * " + std::to_string(width);
        access.activeExpression = actives[pick(6)];
        kernel.accesses.push_back(access);
    }
    return kernel;
}

TEST(GridModel, EqualsThePerWarpModelOnRandomKernels) {
    std::mt19937 rng(20261122);
    GridOptions everyWarp;
    everyWarp.worstWarpCount = 1 << 20; // the "worst" list then holds every warp with a cost
    for (int round = 0; round < 300; ++round) {
        const Kernel kernel = randomKernel(rng);
        const ResolvedKernel resolved = resolvedOrFail(kernel);
        auto grid = predictGrid(resolved, everyWarp);
        ASSERT_TRUE(grid.ok()) << grid.error().describe() << "\n" << kernelToJsonText(kernel);
        const Reference ref = referenceGrid(resolved);
        for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
            const GridAccessPrediction& got = grid->accesses[a];
            const GridAccessPrediction& want = ref.accesses[a];
            SCOPED_TRACE(kernelToJsonText(kernel) + " access " + std::to_string(a));
            EXPECT_EQ(got.requests, want.requests);
            EXPECT_EQ(got.sectors, want.sectors);
            EXPECT_EQ(got.wavefronts, want.wavefronts);
            EXPECT_EQ(got.bankConflicts, want.bankConflicts);
            EXPECT_EQ(got.activeThreads, want.activeThreads);
            EXPECT_EQ(got.histogram, want.histogram);
        }
        EXPECT_EQ(grid->sharedBytesPerBlock, ref.sharedBytes);
        // Sectors written in part, byte by byte: a store request whose active lanes leave any of
        // a sector's 32 bytes unwritten.
        std::vector<std::map<std::int64_t, bool>> partly(kernel.buffers.size());
        for (std::int64_t block = 0; block < resolved.grid.count(); ++block) {
            for (std::int64_t warp = 0; warp < resolved.warpsPerBlock(); ++warp) {
                for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
                    const ResolvedAccess& access = resolved.accesses[a];
                    if (access.access.kind.space != MemorySpace::Global ||
                        access.access.kind.op != AccessOp::Store) {
                        continue;
                    }
                    auto wa = resolveWarp(resolved, static_cast<int>(a), block, warp);
                    ASSERT_TRUE(wa.ok());
                    std::map<std::int64_t, std::uint32_t> bytes;
                    for (const auto& address : wa->addresses) {
                        for (int i = 0; address && i < wa->kind.widthBytes; ++i) {
                            bytes[(*address + i) / 32] |= 1u << ((*address + i) % 32);
                        }
                    }
                    auto& set = partly[static_cast<std::size_t>(access.bufferIndex)];
                    for (const auto& [sector, mask] : bytes) {
                        set[sector] = set[sector] || mask != 0xffffffffu;
                    }
                }
            }
        }
        for (std::size_t b = 0; b < kernel.buffers.size(); ++b) {
            const auto count = std::count_if(partly[b].begin(), partly[b].end(),
                                             [](const auto& entry) { return entry.second; });
            EXPECT_EQ(grid->buffers[b].sectorsWrittenInPart, count) << "buffer " << b << "\n"
                                                                    << kernelToJsonText(kernel);
        }
        // Warp by warp: each warp's sectors (or wavefronts) equal predictModern's for it.
        for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
            std::map<std::pair<std::int64_t, std::int64_t>, int> listed;
            for (const WarpRef& warpRef : grid->accesses[a].worstWarps) {
                listed[{warpRef.blockLinear, warpRef.warpInBlock}] = warpRef.value;
            }
            for (std::int64_t block = 0; block < resolved.grid.count(); ++block) {
                for (std::int64_t warp = 0; warp < resolved.warpsPerBlock(); ++warp) {
                    auto wa = resolveWarp(resolved, static_cast<int>(a), block, warp);
                    ASSERT_TRUE(wa.ok());
                    const ModernPrediction p = predictModern(wa.value());
                    const int want = p.global ? p.global->sectors : p.shared->wavefronts;
                    const auto it = listed.find({block, warp});
                    EXPECT_EQ(it == listed.end() ? 0 : it->second, want)
                        << "access " << a << ", block " << block << ", warp " << warp;
                }
            }
        }
    }
}

// GridOptions::warpValue hands out every warp's value, in launch order, as the histogram counts
// it: the grid view's heat map reads these instead of running the per-warp model again.
TEST(GridModel, HandsOutEveryWarpsValueInLaunchOrder) {
    std::mt19937 rng(20261123);
    for (int round = 0; round < 150; ++round) {
        const Kernel kernel = randomKernel(rng);
        const ResolvedKernel resolved = resolvedOrFail(kernel);
        struct Seen {
            std::int64_t block;
            std::int64_t warp;
            int access;
            int value;
        };
        std::vector<Seen> seen;
        GridOptions options;
        options.warpValue = [&](std::int64_t block, std::int64_t warp, int access, int value) {
            seen.push_back({block, warp, access, value});
        };
        auto grid = predictGrid(resolved, options);
        ASSERT_TRUE(grid.ok()) << grid.error().describe();
        const std::size_t accesses = kernel.accesses.size();
        ASSERT_EQ(seen.size(), static_cast<std::size_t>(resolved.warpCount()) * accesses);
        std::vector<std::array<std::int64_t, kHistogramBuckets>> histograms(accesses);
        std::size_t i = 0;
        for (std::int64_t block = 0; block < resolved.grid.count(); ++block) {
            for (std::int64_t warp = 0; warp < resolved.warpsPerBlock(); ++warp) {
                for (std::size_t a = 0; a < accesses; ++a, ++i) {
                    SCOPED_TRACE(kernelToJsonText(kernel) + " access " + std::to_string(a) +
                                 ", block " + std::to_string(block) + ", warp " +
                                 std::to_string(warp));
                    ASSERT_EQ(seen[i].block, block);
                    ASSERT_EQ(seen[i].warp, warp);
                    ASSERT_EQ(seen[i].access, static_cast<int>(a));
                    auto wa = resolveWarp(resolved, static_cast<int>(a), block, warp);
                    ASSERT_TRUE(wa.ok());
                    const ModernPrediction p = predictModern(wa.value());
                    const int want = p.global ? p.global->sectors : p.shared->wavefronts;
                    EXPECT_EQ(seen[i].value, want);
                    histograms[a][static_cast<std::size_t>(
                        std::min(seen[i].value, kHistogramBuckets - 1))]++;
                }
            }
        }
        for (std::size_t a = 0; a < accesses; ++a) {
            EXPECT_EQ(histograms[a], grid->accesses[a].histogram);
        }
    }
}

} // namespace
} // namespace warpscope
