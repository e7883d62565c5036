// CpuPlacement: keeps the threads that time host transfers on the CPUs of the GPU's NUMA node
// (sysfs local_cpulist), so host memory is first touched on that node and the staging copies run
// near the GPU.
#pragma once

#include <sched.h>

#include <string>
#include <vector>

namespace warpscope::probe {

/// Keeps the calling thread on the GPU's node for as long as it lives; puts the old set back.
class CpuPlacement {
public:
    /// The CPUs of `device`'s NUMA node that this process may use (all allowed CPUs when sysfs
    /// does not say), and a sentence naming them.
    explicit CpuPlacement(int device);
    ~CpuPlacement();
    CpuPlacement(const CpuPlacement&) = delete;
    CpuPlacement& operator=(const CpuPlacement&) = delete;

    /// Keeps the calling thread on the node's CPUs (the measuring thread, and each helper).
    void pinToNode() const;
    const std::string& note() const { return m_note; }

private:
    cpu_set_t m_old{};
    bool m_saved = false;
    std::vector<int> m_cpus;
    std::string m_note;
};

} // namespace warpscope::probe
