// sharedCapacityWarning(): a shared-memory access whose addresses lie past what a block can have
// (48 KB without opting in, 227 KB with it on Hopper, whose SM has 228 KB in all) is drawn as
// typed, with a word saying that a real kernel could not make it: `lane * 100000` was accepted
// silently.
#pragma once

#include <warpscope/pattern.h>

#include <QString>

namespace warpscope::app {

/// The default shared memory of a block (CUDA's static limit) and the most a Hopper block may opt
/// in to (cudaFuncAttributeMaxDynamicSharedMemorySize: 227 KB of the SM's 228 KB).
inline constexpr std::int64_t kDefaultBlockSharedBytes = 48 * 1024;
inline constexpr std::int64_t kHopperBlockSharedOptInBytes = 227 * 1024;
inline constexpr std::int64_t kHopperSmSharedBytes = 228 * 1024;

/// Empty unless `access` is a shared-memory access one of whose lanes reaches past 48 KB; then a
/// sentence saying which lane, how far, and what that means.
QString sharedCapacityWarning(const WarpAccess& access);

} // namespace warpscope::app
