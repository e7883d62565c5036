// Tests of core/src/pattern.cpp: the names of spaces, ops and cache paths, how a warp is formed
// from a block shape and a warp index (CUDA's x-fastest linearisation), validate() and resolve()
// from explicit addresses and from expressions, with the errors they report.
#include "warpscope/pattern.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace warpscope {
namespace {

// ---- Names -------------------------------------------------------------------------------------

TEST(PatternNames, SpacesOpsAndCachePathsRoundTrip) {
    EXPECT_STREQ(toString(MemorySpace::Global), "global");
    EXPECT_STREQ(toString(MemorySpace::Shared), "shared");
    EXPECT_STREQ(toString(AccessOp::Load), "load");
    EXPECT_STREQ(toString(AccessOp::Store), "store");
    // PTX's cache operators ld.global.ca / .cg / .nc.
    EXPECT_STREQ(toString(CachePath::Default), "default");
    EXPECT_STREQ(toString(CachePath::CacheAll), "ca");
    EXPECT_STREQ(toString(CachePath::CacheGlobal), "cg");
    EXPECT_STREQ(toString(CachePath::NonCoherent), "nc");

    for (MemorySpace space : {MemorySpace::Global, MemorySpace::Shared}) {
        EXPECT_EQ(memorySpaceFromString(toString(space)), space);
    }
    for (AccessOp op : {AccessOp::Load, AccessOp::Store}) {
        EXPECT_EQ(accessOpFromString(toString(op)), op);
    }
    for (CachePath path : {CachePath::Default, CachePath::CacheAll, CachePath::CacheGlobal,
                           CachePath::NonCoherent}) {
        EXPECT_EQ(cachePathFromString(toString(path)), path);
    }
    // PTX's spellings of the ops.
    EXPECT_EQ(accessOpFromString("ld"), AccessOp::Load);
    EXPECT_EQ(accessOpFromString("st"), AccessOp::Store);
}

TEST(PatternNames, UnknownNamesAreRejected) {
    EXPECT_EQ(memorySpaceFromString("Global"), std::nullopt); // names are case-sensitive
    EXPECT_EQ(memorySpaceFromString("surface"), std::nullopt);
    EXPECT_EQ(memorySpaceFromString(""), std::nullopt);
    EXPECT_EQ(accessOpFromString("read"), std::nullopt);
    EXPECT_EQ(cachePathFromString("cs"), std::nullopt);
    EXPECT_EQ(cachePathFromString("CA"), std::nullopt);
}

TEST(PatternNames, ElementWidths) {
    for (int width : {1, 2, 4, 8, 16}) {
        EXPECT_TRUE(isValidWidth(width)) << width;
    }
    for (int width : {0, -4, 3, 6, 12, 32}) {
        EXPECT_FALSE(isValidWidth(width)) << width;
    }
}

// ---- warpThreads -------------------------------------------------------------------------------

PatternSource block(Dim3 blockDim, std::int64_t warpIndex = 0) {
    PatternSource source;
    source.addressExpression = "lane * 4";
    source.blockDim = blockDim;
    source.warpIndex = warpIndex;
    return source;
}

TEST(WarpThreads, OneDimensionalBlockMapsLaneToThreadIdxX) {
    auto threads = warpThreads(block({32, 1, 1}));
    ASSERT_TRUE(threads.ok()) << threads.error().describe();
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const LaneThread& t = threads.value()[static_cast<std::size_t>(lane)];
        EXPECT_EQ(t.threadIdx, (Dim3{lane, 0, 0}));
        EXPECT_EQ(t.linearThreadIndex, lane);
        EXPECT_EQ(t.globalIndex, lane);
        EXPECT_TRUE(t.existsInBlock);
    }
}

struct LaneCase {
    Dim3 blockDim;
    std::int64_t warpIndex;
    int lane;
    Dim3 threadIdx;
    std::int64_t linear;
    const char* why;
};

TEST(WarpThreads, ThreadsAreLinearisedXFastest) {
    // CUDA Programming Guide, "Thread Hierarchy": thread (x, y, z) of a block (Dx, Dy, Dz) has
    // index x + y Dx + z Dx Dy, and warps take consecutive indices ("SIMT Architecture").
    const LaneCase cases[] = {
        {{8, 4, 1}, 0, 11, {3, 1, 0}, 11, "2-D: lane 11 is x 3 of row 1"},
        {{8, 4, 1}, 0, 31, {7, 3, 0}, 31, "2-D: the last lane ends the block"},
        {{16, 16, 1}, 3, 17, {1, 7, 0}, 113, "2-D, warp 3: 96 + 17 = 113 = 7 * 16 + 1"},
        {{4, 2, 8}, 1, 5, {1, 1, 4}, 37, "3-D: 37 = 1 + 1 * 4 + 4 * 8"},
        {{4, 2, 8}, 0, 0, {0, 0, 0}, 0, "3-D: lane 0 of warp 0"},
        {{2, 2, 16}, 1, 31, {1, 1, 15}, 63, "3-D: the last thread"},
        {{64, 1, 1}, 1, 0, {32, 0, 0}, 32, "warp 1 of a 64-thread block starts at thread 32"},
        {{64, 1, 1}, 1, 31, {63, 0, 0}, 63, "warp 1 of a 64-thread block"},
        {{1, 32, 1}, 0, 9, {0, 9, 0}, 9, "a column block: lanes walk y"},
    };
    for (const LaneCase& c : cases) {
        auto threads = warpThreads(block(c.blockDim, c.warpIndex));
        ASSERT_TRUE(threads.ok()) << c.why << ": " << threads.error().describe();
        const LaneThread& t = threads.value()[static_cast<std::size_t>(c.lane)];
        EXPECT_EQ(t.threadIdx, c.threadIdx) << c.why;
        EXPECT_EQ(t.linearThreadIndex, c.linear) << c.why;
        EXPECT_TRUE(t.existsInBlock) << c.why;
    }
}

TEST(WarpThreads, GlobalIndexCountsTheBlocksBefore) {
    PatternSource source = block({32, 2, 1}, 1);
    source.gridDim = {4, 3, 2};
    source.blockIdx = {1, 2, 1};
    auto threads = warpThreads(source);
    ASSERT_TRUE(threads.ok()) << threads.error().describe();
    // Block (1, 2, 1) of a 4 x 3 x 2 grid is block 1 + 4 * (2 + 3 * 1) = 21, x fastest.
    EXPECT_EQ(threads.value()[3].globalIndex, 21 * 64 + 32 + 3);
}

TEST(WarpThreads, LanesPastAPartialLastWarpDoNotExist) {
    auto threads = warpThreads(block({48, 1, 1}, 1));
    ASSERT_TRUE(threads.ok()) << threads.error().describe();
    for (int lane = 0; lane < kWarpSize; ++lane) {
        EXPECT_EQ(threads.value()[static_cast<std::size_t>(lane)].existsInBlock, lane < 16)
            << "lane " << lane;
    }
    auto square = warpThreads(block({5, 5, 1}));
    ASSERT_TRUE(square.ok());
    EXPECT_TRUE(square.value()[24].existsInBlock);
    EXPECT_EQ(square.value()[24].threadIdx, (Dim3{4, 4, 0}));
    EXPECT_FALSE(square.value()[25].existsInBlock);
}

struct ShapeError {
    PatternSource source;
    const char* where;
    const char* messagePart;
};

TEST(WarpThreads, ImpossibleShapesAndIndicesAreRejected) {
    auto withGrid = [](Dim3 gridDim, Dim3 blockIdx) {
        PatternSource source = block({32, 1, 1});
        source.gridDim = gridDim;
        source.blockIdx = blockIdx;
        return source;
    };
    const ShapeError cases[] = {
        {block({0, 1, 1}), "bdim", "bdim.x must be between 1 and 1024, not 0"},
        {block({32, -1, 1}), "bdim", "bdim.y"},
        {block({1, 1, 1025}), "bdim", "bdim.z"},
        {block({1024, 2, 1}), "bdim", "at most 1024 threads, not 2048"},
        {block({64, 1, 1}, 2), "warp", "between 0 and 1"},
        {block({64, 1, 1}, -1), "warp", "not -1"},
        {block({33, 1, 1}, 2), "warp", "between 0 and 1"},
        {withGrid({0, 1, 1}, {0, 0, 0}), "gdim", "gdim.x"},
        {withGrid({2, 1, 1}, {2, 0, 0}), "bid", "bid.x must be between 0 and 1, not 2"},
        {withGrid({2, 3, 1}, {0, -1, 0}), "bid", "bid.y"},
        {withGrid({1, 1, 4}, {0, 0, 4}), "bid", "bid.z"},
    };
    for (const ShapeError& c : cases) {
        auto threads = warpThreads(c.source);
        ASSERT_FALSE(threads.ok()) << c.messagePart;
        EXPECT_EQ(threads.error().code, ErrorCode::InvalidValue) << c.messagePart;
        EXPECT_EQ(threads.error().where, c.where) << threads.error().describe();
        EXPECT_NE(threads.error().message.find(c.messagePart), std::string::npos)
            << threads.error().describe();
    }
}

TEST(WarpThreads, LaunchesCudaWouldRefuseAreRejectedWithTheLimit) {
    // CUDA allows bdim.z up to 64 and gdim.y, gdim.z up to 65535; core once accepted 1024 and
    // 2^31, and the probe then reported the failed launch as a fatal kernel fault.
    auto withGrid = [](Dim3 gridDim) {
        PatternSource source = block({32, 1, 1});
        source.gridDim = gridDim;
        return source;
    };
    const ShapeError cases[] = {
        {block({1, 1, 65}), "bdim", "bdim.z must be between 1 and 64, not 65"},
        {block({2, 1, 128}), "bdim", "bdim.z must be between 1 and 64, not 128"},
        {block({1, 1025, 1}), "bdim", "bdim.y must be between 1 and 1024, not 1025"},
        {withGrid({1, 65536, 1}), "gdim", "gdim.y must be between 1 and 65535, not 65536"},
        {withGrid({1, 1, 65536}), "gdim", "gdim.z must be between 1 and 65535, not 65536"},
        {withGrid({std::int64_t{1} << 31, 1, 1}), "gdim",
         "gdim.x must be between 1 and 2147483647, not 2147483648"},
    };
    for (const ShapeError& c : cases) {
        auto threads = warpThreads(c.source);
        ASSERT_FALSE(threads.ok()) << c.messagePart;
        EXPECT_EQ(threads.error().where, c.where) << threads.error().describe();
        EXPECT_NE(threads.error().message.find(c.messagePart), std::string::npos)
            << threads.error().describe();
    }
    // The limits themselves are fine.
    for (const PatternSource& fine : {block({1, 1, 64}), block({16, 1, 64}),
                                      withGrid({1, 65535, 65535}), withGrid({2147483647, 1, 1})}) {
        auto threads = warpThreads(fine);
        EXPECT_TRUE(threads.ok()) << threads.error().describe();
    }

    // Through resolve(), as the app and the probe see it: refused with a message.
    Pattern pattern;
    PatternSource source = block({8, 2, 64});
    source.addressExpression = "gid * 4";
    source.gridDim = {1, 70000, 1};
    pattern.source = source;
    auto access = resolve(pattern);
    ASSERT_FALSE(access.ok());
    EXPECT_EQ(access.error().where, "gdim");
    EXPECT_NE(access.error().message.find("65535"), std::string::npos) << access.error().describe();
}

TEST(WarpThreads, HugeGridsAreRejectedNotOverflowed) {
    // Three grid dimensions of 2^31 blocks of 1024 threads: gid would need 2^103.
    PatternSource source = block({1024, 1, 1});
    const std::int64_t big = std::int64_t{1} << 31;
    source.gridDim = {big, big, big};
    source.blockIdx = {big - 1, big - 1, big - 1};
    auto threads = warpThreads(source);
    ASSERT_FALSE(threads.ok());
    EXPECT_EQ(threads.error().code, ErrorCode::InvalidValue);
    EXPECT_EQ(threads.error().where, "gdim");

    // The largest 1-D grid CUDA launches still works.
    source.gridDim = {big - 1, 1, 1};
    source.blockIdx = {big - 2, 0, 0};
    auto largest = warpThreads(source);
    ASSERT_TRUE(largest.ok()) << largest.error().describe();
    EXPECT_EQ(largest.value()[0].globalIndex, (big - 2) * 1024);
}

// ---- validate and resolve: explicit addresses --------------------------------------------------

Pattern explicitPattern(int widthBytes = 4) {
    Pattern pattern;
    pattern.kind.widthBytes = widthBytes;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        pattern.addresses[static_cast<std::size_t>(lane)] = lane * widthBytes;
    }
    return pattern;
}

TEST(ResolveExplicit, AddressesPassThroughUnchanged) {
    Pattern pattern = explicitPattern();
    pattern.kind.space = MemorySpace::Shared;
    pattern.kind.op = AccessOp::Store;
    pattern.addresses[7] = std::nullopt;
    auto access = resolve(pattern);
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(access->kind, pattern.kind);
    EXPECT_EQ(access->addresses, pattern.addresses);
    EXPECT_FALSE(access->threads.has_value()); // no expression, no threads
    EXPECT_EQ(access->activeLaneCount(), 31);
    EXPECT_EQ(access->activeMask(), 0xFFFFFFFFu & ~(1u << 7));
}

TEST(ResolveExplicit, AllLanesInactiveIsValid) {
    Pattern pattern;
    auto access = resolve(pattern);
    ASSERT_TRUE(access.ok());
    EXPECT_EQ(access->activeLaneCount(), 0);
    EXPECT_EQ(access->activeMask(), 0u);
}

TEST(ResolveExplicit, BadAddressesNameTheLane) {
    Pattern negative = explicitPattern();
    negative.addresses[3] = -4;
    auto a = resolve(negative);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().code, ErrorCode::NegativeAddress);
    EXPECT_EQ(a.error().where, "lane 3");
    EXPECT_NE(a.error().message.find("-4"), std::string::npos);

    Pattern misaligned = explicitPattern(8);
    misaligned.addresses[5] = 44; // a multiple of 4, not of 8
    auto b = resolve(misaligned);
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().code, ErrorCode::Misaligned);
    EXPECT_EQ(b.error().where, "lane 5");

    Pattern huge = explicitPattern();
    huge.addresses[0] = std::numeric_limits<std::int64_t>::max() - 3;
    auto c = resolve(huge);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().code, ErrorCode::Overflow);
    EXPECT_EQ(c.error().where, "lane 0");

    Pattern width = explicitPattern();
    width.kind.widthBytes = 3;
    auto d = resolve(width);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().code, ErrorCode::InvalidValue);
    EXPECT_EQ(d.error().where, "width");

    // An inactive lane's address is not checked: it does not exist.
    Pattern inactive = explicitPattern();
    inactive.addresses[3] = std::nullopt;
    EXPECT_TRUE(resolve(inactive).ok());
}

TEST(ResolveExplicit, ByteAccessesMayStartAnywhere) {
    Pattern pattern = explicitPattern(1);
    pattern.addresses[0] = 11;
    EXPECT_TRUE(resolve(pattern).ok());
}

// ---- resolve: expressions ----------------------------------------------------------------------

Pattern expressionPattern(std::string address, std::string active = "1") {
    Pattern pattern;
    PatternSource source;
    source.addressExpression = std::move(address);
    source.activeExpression = std::move(active);
    pattern.source = source;
    return pattern;
}

TEST(ResolveExpression, CoalescedWarp) {
    auto access = resolve(expressionPattern("lane * 4"));
    ASSERT_TRUE(access.ok()) << access.error().describe();
    for (int lane = 0; lane < kWarpSize; ++lane) {
        EXPECT_EQ(access->addresses[static_cast<std::size_t>(lane)], lane * 4);
    }
    ASSERT_TRUE(access->threads.has_value());
    EXPECT_EQ((*access->threads)[9].threadIdx.x, 9);
}

TEST(ResolveExpression, ParametersTakeTheirValue) {
    // The readSegment experiment with offset 11 (seed 002, figure 4-11 and its table).
    Pattern pattern = expressionPattern("(gid + offset) * 4");
    pattern.source->parameters = {Parameter{"offset", 11, 0, 0, 128}};
    auto access = resolve(pattern);
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(access->addresses[0], 44);
    EXPECT_EQ(access->addresses[31], (31 + 11) * 4);
}

TEST(ResolveExpression, TwoDimensionalBlockAndWarpIndex) {
    // A column read of a 16 x 16 tile: warp 1 holds rows 2 and 3.
    Pattern pattern = expressionPattern("(tid.x * bdim.y + tid.y) * 4");
    pattern.source->blockDim = {16, 16, 1};
    pattern.source->warpIndex = 1;
    auto access = resolve(pattern);
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(access->addresses[0], (0 * 16 + 2) * 4);
    EXPECT_EQ(access->addresses[17], (1 * 16 + 3) * 4);
}

TEST(ResolveExpression, GlobalIndexUsesTheBlock) {
    Pattern pattern = expressionPattern("gid * 4");
    pattern.source->blockDim = {64, 1, 1};
    pattern.source->gridDim = {2, 1, 1};
    pattern.source->blockIdx = {1, 0, 0};
    pattern.source->warpIndex = 1;
    auto access = resolve(pattern);
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(access->addresses[0], (64 + 32) * 4);
}

TEST(ResolveExpression, ActiveExpressionMasksLanes) {
    auto access = resolve(expressionPattern("lane * 4", "lane < 16"));
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(access->activeMask(), 0x0000FFFFu);
    EXPECT_EQ(access->addresses[15], 60);
    EXPECT_FALSE(access->addresses[16].has_value());

    // Any non-zero value is active, as in C's if.
    auto odd = resolve(expressionPattern("lane * 4", "lane & 1"));
    ASSERT_TRUE(odd.ok());
    EXPECT_EQ(odd->activeMask(), 0xAAAAAAAAu);
}

TEST(ResolveExpression, InactiveLanesAreNotEvaluated) {
    // The address would divide by zero at lane 20 and be negative at lane 25; both are inactive.
    auto access =
        resolve(expressionPattern("lane == 25 ? -4 : 4 / (lane - 20) * 0 + lane * 4", "lane < 20"));
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(access->activeLaneCount(), 20);
}

TEST(ResolveExpression, LanesPastTheBlockAreInactive) {
    Pattern pattern = expressionPattern("lane * 4", "1 / (lane < 16)"); // fails past lane 15
    pattern.source->blockDim = {48, 1, 1};
    pattern.source->warpIndex = 1;
    auto access = resolve(pattern);
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(access->activeMask(), 0x0000FFFFu);
    ASSERT_TRUE(access->threads.has_value());
    EXPECT_FALSE((*access->threads)[16].existsInBlock);
}

struct ResolveError {
    const char* address;
    const char* active;
    ErrorCode code;
    int column;
    const char* where;
    const char* why;
};

TEST(ResolveExpression, ErrorsKeepTheColumnAndSayWhere) {
    const ResolveError cases[] = {
        {"lane *", "1", ErrorCode::Syntax, 7, "addressExpression", "syntax error"},
        {"lane * 4", "lane <", ErrorCode::Syntax, 7, "activeExpression", "syntax error"},
        {"lane * stride", "1", ErrorCode::UnknownName, 8, "addressExpression", "no parameter"},
        {"lane * 4", "lanes", ErrorCode::UnknownName, 1, "activeExpression", "unknown name"},
        {"4 / (lane - 3)", "1", ErrorCode::DivisionByZero, 3, "addressExpression, lane 3",
         "division by zero at lane 3"},
        {"lane * 4", "1 % (lane - 5)", ErrorCode::DivisionByZero, 3, "activeExpression, lane 5",
         "division by zero in the active expression"},
        {"lane * 4611686018427387904", "1", ErrorCode::Overflow, 6, "addressExpression, lane 2",
         "2 * 2^62 overflows"},
        {"lane == 5 ? -4 : lane * 4", "1", ErrorCode::NegativeAddress, 0, "lane 5",
         "negative address"},
        {"lane * 2", "1", ErrorCode::Misaligned, 0, "lane 1", "2 is not a multiple of 4"},
        {"9223372036854775800 + lane * 0", "1", ErrorCode::Overflow, 0, "lane 0",
         "an address no access can end within int64"},
    };
    for (const ResolveError& c : cases) {
        auto access = resolve(expressionPattern(c.address, c.active));
        ASSERT_FALSE(access.ok()) << c.why;
        EXPECT_EQ(access.error().code, c.code) << c.why << ": " << access.error().describe();
        EXPECT_EQ(access.error().column, c.column) << c.why << ": " << access.error().describe();
        EXPECT_EQ(access.error().where, c.where) << c.why << ": " << access.error().describe();
    }
}

TEST(ResolveExpression, NegativeAddressNamesTheLaneAndValue) {
    auto access = resolve(expressionPattern("(lane - 3) * 4", "lane >= 1"));
    ASSERT_FALSE(access.ok());
    EXPECT_EQ(access.error().code, ErrorCode::NegativeAddress);
    EXPECT_EQ(access.error().where, "lane 1"); // the first active lane below zero
    EXPECT_NE(access.error().message.find("-8"), std::string::npos);
}

TEST(ResolveExpression, BadParametersAreRejected) {
    Pattern builtin = expressionPattern("lane");
    builtin.source->parameters = {Parameter{"lane", 1, 0, 0, 1}};
    auto a = resolve(builtin);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().code, ErrorCode::InvalidValue);
    EXPECT_EQ(a.error().where, "parameters");

    Pattern twice = expressionPattern("k * 4");
    twice.source->parameters = {Parameter{"k", 1, 0, 0, 1}, Parameter{"k", 2, 0, 0, 2}};
    auto b = resolve(twice);
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().where, "parameters");
    EXPECT_NE(b.error().message.find("twice"), std::string::npos);
}

TEST(ResolveExpression, ShapeAndWidthErrorsComeThrough) {
    Pattern shape = expressionPattern("lane * 4");
    shape.source->blockDim = {0, 1, 1};
    auto a = resolve(shape);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().where, "bdim");

    Pattern width = expressionPattern("lane * 4");
    width.kind.widthBytes = 5;
    auto b = resolve(width);
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().where, "width");
}

TEST(ResolveExpression, EightAndSixteenByteElements) {
    Pattern pattern = expressionPattern("lane * 16");
    pattern.kind.widthBytes = 16;
    EXPECT_TRUE(resolve(pattern).ok());
    pattern.source->addressExpression = "lane * 8";
    auto misaligned = resolve(pattern);
    ASSERT_FALSE(misaligned.ok());
    EXPECT_EQ(misaligned.error().code, ErrorCode::Misaligned);
    EXPECT_EQ(misaligned.error().where, "lane 1");
}

} // namespace
} // namespace warpscope
