// CpuPlacement (transfer_host_cpus.h): the GPU's NUMA node read from sysfs, and the calling
// thread's CPU set kept on it.
#include "transfer_host_cpus.h"

#include <cuda_runtime.h>

#include <pthread.h>

#include <cctype>
#include <exception>
#include <fstream>
#include <sstream>

namespace warpscope::probe {

namespace {

/// "0-3,8,10-11" -> {0, 1, 2, 3, 8, 10, 11}; empty when unreadable.
std::vector<int> parseCpuList(const std::string& text) {
    std::vector<int> cpus;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        const auto dash = part.find('-');
        try {
            const int first = std::stoi(part.substr(0, dash));
            const int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
            for (int cpu = first; cpu <= last && cpu - first < 4096; ++cpu) {
                cpus.push_back(cpu);
            }
        } catch (const std::exception&) {
            return {};
        }
    }
    return cpus;
}

} // namespace

CpuPlacement::CpuPlacement(int device) {
    m_saved = sched_getaffinity(0, sizeof m_old, &m_old) == 0;
    char busId[32] = {};
    std::string node = "?";
    std::vector<int> local;
    if (cudaDeviceGetPCIBusId(busId, sizeof busId, device) == cudaSuccess) {
        std::string path = busId;
        for (char& c : path) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        path = "/sys/bus/pci/devices/" + path + "/";
        std::ifstream cpuList(path + "local_cpulist");
        std::string text;
        if (std::getline(cpuList, text)) {
            local = parseCpuList(text);
        }
        std::ifstream numa(path + "numa_node");
        std::getline(numa, node);
    }
    for (int cpu : local) {
        if (!m_saved || (cpu < CPU_SETSIZE && CPU_ISSET(cpu, &m_old))) {
            m_cpus.push_back(cpu);
        }
    }
    if (m_cpus.empty() && m_saved) {
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
            if (CPU_ISSET(cpu, &m_old)) {
                m_cpus.push_back(cpu);
            }
        }
    }
    if (m_cpus.empty()) {
        m_note = "host threads not pinned (no CPU list)";
        return;
    }
    // The whole node, not one CPU: a thread held to one CPU waits whenever that CPU serves
    // something else (interrupts, the driver's threads), which the first H100 runs showed as
    // pinned copies up to 2 x slower in some repetitions.
    pinToNode();
    m_note = "host threads kept on the CPUs of the GPU's NUMA node " + node + " (" +
             std::to_string(m_cpus.size()) + " CPUs, " + std::to_string(m_cpus.front()) + " to " +
             std::to_string(m_cpus.back()) + ")";
}

CpuPlacement::~CpuPlacement() {
    if (m_saved) {
        pthread_setaffinity_np(pthread_self(), sizeof m_old, &m_old);
    }
}

void CpuPlacement::pinToNode() const {
    if (m_cpus.empty()) {
        return;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : m_cpus) {
        if (cpu >= 0 && cpu < CPU_SETSIZE) {
            CPU_SET(cpu, &set);
        }
    }
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

} // namespace warpscope::probe
