// Single-warp replay of ldmatrix and stmatrix (PTX ldmatrix / stmatrix .m8n8 .b16, SASS LDSM /
// STSM): the launch issues exactly one such instruction per warp and no other shared-memory
// instruction, so Nsight Compute's shared-memory counters and smsp__inst_executed_op_ldsm.sum for
// the launch are that instruction's.
#pragma once

#include "replay_kernels.h"

namespace warpscope::gpu {

/// Enqueues one matrix replay (1 block of 32 threads) on `stream`: launch.matrices 1, 2 or 4,
/// launch.op Load (ldmatrix) or Store (stmatrix). cudaErrorInvalidValue for anything else.
/// stmatrix needs compute capability 9.0 and ldmatrix 7.5; the caller checks the device.
cudaError_t launchMatrixReplay(const ReplayLaunch& launch, cudaStream_t stream);

} // namespace warpscope::gpu
