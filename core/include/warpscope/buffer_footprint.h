// One buffer of a kernel and what the kernel moves in it, declared once: the grid model predicts
// it (GridBufferFootprint, kernel.h, adds the partial-sector counts) and a measure_kernel answer
// carries it for every buffer (KernelMeasurement::buffers, protocol/kernel_measurement.h).
#pragma once

#include <cstdint>
#include <string>

namespace warpscope {

struct BufferFootprint {
    std::string name;
    std::int64_t bytes = 0;
    /// Distinct 32-byte sectors the grid reads / writes: a cold kernel cannot move fewer bytes
    /// from or to DRAM than 32 times these.
    std::int64_t sectorsRead = 0;
    std::int64_t sectorsWritten = 0;
    /// Estimated L2 sectors requested by L1 (lts__t_sectors_srcunit_tex_op_read/_write.sum);
    /// docs/models.md states the rule.
    std::int64_t l2SectorsRead = 0;
    std::int64_t l2SectorsWritten = 0;
};

} // namespace warpscope
