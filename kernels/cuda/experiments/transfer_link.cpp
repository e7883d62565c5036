// The link between host and device (transfers_cuda.h): NVLink-C2C from the device's attributes,
// PCIe generation and width from NVML (dlopen'ed, so the probe needs no NVML to build or start)
// or from sysfs.
#include "transfers_cuda.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>

namespace warpscope::probe {

namespace {

/// NVML's C entry points used here; nvmlDevice_t is an opaque pointer, nvmlReturn_t 0 on success.
using NvmlInit = int (*)();
using NvmlShutdown = int (*)();
using NvmlHandleByBusId = int (*)(const char*, void**);
using NvmlUintQuery = int (*)(void*, unsigned int*);

bool fromNvml(const std::string& busId, experiments::TransferLink& link) {
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        return false;
    }
    const auto symbol = [&](const char* name) { return dlsym(library, name); };
    auto init = reinterpret_cast<NvmlInit>(symbol("nvmlInit_v2"));
    auto shutdown = reinterpret_cast<NvmlShutdown>(symbol("nvmlShutdown"));
    auto byBusId = reinterpret_cast<NvmlHandleByBusId>(symbol("nvmlDeviceGetHandleByPciBusId_v2"));
    auto currentGeneration =
        reinterpret_cast<NvmlUintQuery>(symbol("nvmlDeviceGetCurrPcieLinkGeneration"));
    auto currentWidth = reinterpret_cast<NvmlUintQuery>(symbol("nvmlDeviceGetCurrPcieLinkWidth"));
    auto maxGeneration =
        reinterpret_cast<NvmlUintQuery>(symbol("nvmlDeviceGetMaxPcieLinkGeneration"));
    auto maxWidth = reinterpret_cast<NvmlUintQuery>(symbol("nvmlDeviceGetMaxPcieLinkWidth"));
    bool found = false;
    if (init && shutdown && byBusId && currentGeneration && currentWidth && maxGeneration &&
        maxWidth && init() == 0) {
        void* device = nullptr;
        unsigned int values[4] = {0, 0, 0, 0};
        if (byBusId(busId.c_str(), &device) == 0 && currentGeneration(device, &values[0]) == 0 &&
            currentWidth(device, &values[1]) == 0 && maxGeneration(device, &values[2]) == 0 &&
            maxWidth(device, &values[3]) == 0 && values[2] > 0) {
            link.pcieGeneration = static_cast<int>(values[0]);
            link.pcieWidth = static_cast<int>(values[1]);
            link.pcieMaxGeneration = static_cast<int>(values[2]);
            link.pcieMaxWidth = static_cast<int>(values[3]);
            link.source = "nvml";
            found = true;
        }
        shutdown();
    }
    dlclose(library);
    return found;
}

std::string readWord(const std::string& path) {
    std::ifstream file(path);
    std::string word;
    file >> word;
    return word;
}

/// "32.0 GT/s PCIe" -> 5.
int generationOf(const std::string& gts) {
    const double rate = std::atof(gts.c_str());
    const double rates[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    for (int i = 0; i < 6; ++i) {
        if (rate > rates[i] * 0.9 && rate < rates[i] * 1.1) {
            return i + 1;
        }
    }
    return 0;
}

bool fromSysfs(std::string busId, experiments::TransferLink& link) {
    std::transform(busId.begin(), busId.end(), busId.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string dir = "/sys/bus/pci/devices/" + busId + "/";
    const int generation = generationOf(readWord(dir + "current_link_speed"));
    const int maxGeneration = generationOf(readWord(dir + "max_link_speed"));
    const int width = std::atoi(readWord(dir + "current_link_width").c_str());
    const int maxWidth = std::atoi(readWord(dir + "max_link_width").c_str());
    if (maxGeneration == 0 || maxWidth == 0) {
        return false;
    }
    link.pcieGeneration = generation;
    link.pcieWidth = width;
    link.pcieMaxGeneration = maxGeneration;
    link.pcieMaxWidth = maxWidth;
    link.source = "sysfs";
    return true;
}

} // namespace

experiments::TransferLink findTransferLink() {
    experiments::TransferLink link;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        return link;
    }
    int hostPageTables = 0;
    int managedFromHost = 0;
    cudaDeviceGetAttribute(&hostPageTables, cudaDevAttrPageableMemoryAccessUsesHostPageTables,
                           device);
    cudaDeviceGetAttribute(&managedFromHost, cudaDevAttrDirectManagedMemAccessFromHost, device);
    if (hostPageTables == 1 && managedFromHost == 1) {
        link.kind = "nvlink-c2c";
        link.source = "cuda";
        link.description = experiments::describeLink(link);
        return link;
    }
    char busId[32] = {};
    if (cudaDeviceGetPCIBusId(busId, sizeof busId, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return link;
    }
    if (fromNvml(busId, link) || fromSysfs(busId, link)) {
        link.kind = "pcie";
        link.theoreticalGBs = experiments::pcieLinkGBs(link.pcieMaxGeneration, link.pcieMaxWidth);
    }
    link.description = experiments::describeLink(link);
    return link;
}

} // namespace warpscope::probe
