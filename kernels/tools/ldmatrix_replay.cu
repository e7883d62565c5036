// warpscope-ldmatrix-replay: runs ldmatrix / stmatrix patterns (JSON lines in the
// `warpscope-cli predict` form, plus an optional "name"), one single-warp launch each, in file
// order, so that Nsight Compute's n-th profiled kernel is the n-th pattern
// (scripts/hw/measure_ldmatrix.sh). The launch does one shared-memory instruction and nothing
// else in shared memory: an ldmatrix reads whatever shared memory holds (its registers go to a
// global sink) and an stmatrix writes the lane numbers. Standalone (no core library) so that it
// builds with nvcc alone: nvcc -arch=sm_90 -std=c++17 -O2 -o ldmatrix-replay ldmatrix_replay.cu
//
// Which lanes give row addresses follows the PTX ISA (ldmatrix): x1 lanes 0-7, x2 lanes 0-15,
// x4 all 32, lanes 8i..8i+7 the rows of matrix i. For x1 and x2 the lanes beyond those rows get a
// copy of lane (lane % rows)'s address, as the PTX ISA suggests for targets that read them.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace {

constexpr int kWarp = 32;
constexpr int kMaxSharedBytes = 48 * 1024; // the default dynamic shared-memory limit

struct Launch {
    bool store = false;
    int matrices = 4;
    bool transpose = false;
    int offsets[kWarp] = {};
    int sharedBytes = 16;
};

template <int Matrices, bool Transpose>
__global__ void loadMatrix(const int* offsets, std::uint32_t* sink) {
    extern __shared__ __align__(128) unsigned char shared[];
    const int lane = static_cast<int>(threadIdx.x);
    const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared));
    const std::uint32_t address = base + static_cast<std::uint32_t>(offsets[lane]);
    std::uint32_t r[4] = {0, 0, 0, 0};
    if constexpr (Matrices == 1) {
        if constexpr (Transpose) {
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                         : "=r"(r[0])
                         : "r"(address));
        } else {
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                         : "=r"(r[0])
                         : "r"(address));
        }
    } else if constexpr (Matrices == 2) {
        if constexpr (Transpose) {
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                         : "=r"(r[0]), "=r"(r[1])
                         : "r"(address));
        } else {
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                         : "=r"(r[0]), "=r"(r[1])
                         : "r"(address));
        }
    } else {
        if constexpr (Transpose) {
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                         : "r"(address));
        } else {
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                         : "r"(address));
        }
    }
    for (int i = 0; i < 4; ++i) {
        sink[lane * 4 + i] = r[i];
    }
}

template <int Matrices, bool Transpose>
__global__ void storeMatrix(const int* offsets, std::uint32_t* sink) {
    extern __shared__ __align__(128) unsigned char shared[];
    const int lane = static_cast<int>(threadIdx.x);
    const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared));
    const std::uint32_t address = base + static_cast<std::uint32_t>(offsets[lane]);
    const std::uint32_t r0 = lane * 4u, r1 = r0 + 1, r2 = r0 + 2, r3 = r0 + 3;
    if constexpr (Matrices == 1) {
        if constexpr (Transpose) {
            asm volatile(
                "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(address), "r"(r0)
                : "memory");
        } else {
            asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(address),
                         "r"(r0)
                         : "memory");
        }
    } else if constexpr (Matrices == 2) {
        if constexpr (Transpose) {
            asm volatile(
                "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(address),
                "r"(r0), "r"(r1)
                : "memory");
        } else {
            asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(address),
                         "r"(r0), "r"(r1)
                         : "memory");
        }
    } else {
        if constexpr (Transpose) {
            asm volatile(
                "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(
                    address),
                "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                : "memory");
        } else {
            asm volatile(
                "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(address),
                "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                : "memory");
        }
    }
    sink[lane] = 1; // the launch writes the sink in both kinds, so both look alike to ncu
}

using Kernel = void (*)(const int*, std::uint32_t*);

Kernel kernelFor(const Launch& launch) {
    const int index = (launch.matrices == 1   ? 0
                       : launch.matrices == 2 ? 1
                                              : 2) *
                          2 +
                      (launch.transpose ? 1 : 0);
    static const Kernel loads[6] = {loadMatrix<1, false>, loadMatrix<1, true>,
                                    loadMatrix<2, false>, loadMatrix<2, true>,
                                    loadMatrix<4, false>, loadMatrix<4, true>};
    static const Kernel stores[6] = {storeMatrix<1, false>, storeMatrix<1, true>,
                                     storeMatrix<2, false>, storeMatrix<2, true>,
                                     storeMatrix<4, false>, storeMatrix<4, true>};
    return launch.store ? stores[index] : loads[index];
}

/// Reads one pattern; returns an empty string or what is wrong with it.
std::string readLaunch(const nlohmann::json& json, Launch& out) {
    if (!json.is_object()) {
        return "not a JSON object";
    }
    const std::string op = json.value("op", "");
    if (op != "ldmatrix" && op != "stmatrix") {
        return "op must be ldmatrix or stmatrix";
    }
    out.store = op == "stmatrix";
    out.matrices = json.value("matrices", 0);
    if (out.matrices != 1 && out.matrices != 2 && out.matrices != 4) {
        return "matrices must be 1, 2 or 4";
    }
    out.transpose = json.value("transpose", false);
    const auto& addresses = json.at("addresses");
    if (!addresses.is_array() || addresses.size() != kWarp) {
        return "addresses must hold 32 entries";
    }
    const int rows = 8 * out.matrices;
    int highest = 0;
    for (int lane = 0; lane < rows; ++lane) {
        const auto& a = addresses[static_cast<std::size_t>(lane)];
        if (!a.is_number_integer()) {
            return "lane " + std::to_string(lane) + " gives a row and needs an address";
        }
        const long long value = a.get<long long>();
        if (value < 0 || value % 16 != 0 || value + 16 > kMaxSharedBytes) {
            return "lane " + std::to_string(lane) +
                   ": row address must be 16-byte aligned and "
                   "inside 48 KiB";
        }
        out.offsets[lane] = static_cast<int>(value);
        highest = std::max(highest, static_cast<int>(value) + 16);
    }
    for (int lane = rows; lane < kWarp; ++lane) {
        out.offsets[lane] = out.offsets[lane % rows];
    }
    out.sharedBytes = highest;
    return {};
}

bool check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "ldmatrix-replay: %s: %s\n", what, cudaGetErrorString(status));
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    const bool dryRun = argc == 3 && std::strcmp(argv[1], "--dry-run") == 0;
    if (argc != 2 && !dryRun) {
        std::fprintf(stderr, "usage: ldmatrix-replay [--dry-run] PATTERNS.jsonl\n");
        return 2;
    }
    std::ifstream in(argv[argc - 1]);
    if (!in) {
        std::fprintf(stderr, "ldmatrix-replay: cannot open %s\n", argv[argc - 1]);
        return 2;
    }
    int* offsets = nullptr;
    std::uint32_t* sink = nullptr;
    if (!dryRun && (!check(cudaMalloc(&offsets, kWarp * sizeof(int)), "cudaMalloc") ||
                    !check(cudaMalloc(&sink, kWarp * 4 * sizeof(std::uint32_t)), "cudaMalloc"))) {
        return 3;
    }
    std::string line;
    int index = 0;
    int refused = 0;
    while (std::getline(in, line)) {
        if (line.empty()) {
            continue;
        }
        const auto json = nlohmann::json::parse(line, nullptr, false);
        const std::string name = json.is_object() && json.contains("name")
                                     ? json["name"].get<std::string>()
                                     : std::to_string(index);
        Launch launch;
        std::string problem;
        try {
            problem = readLaunch(json, launch);
        } catch (const nlohmann::json::exception& e) {
            problem = e.what();
        }
        if (!problem.empty()) {
            // Every pattern must launch, or the n-th profiled kernel is not the n-th pattern.
            std::fprintf(stderr, "%d %s: %s\n", index, name.c_str(), problem.c_str());
            return 1;
        }
        if (!dryRun) {
            if (!check(cudaMemcpy(offsets, launch.offsets, sizeof launch.offsets,
                                  cudaMemcpyHostToDevice),
                       "cudaMemcpy")) {
                return 4;
            }
            kernelFor(launch)<<<1, kWarp, launch.sharedBytes>>>(offsets, sink);
            if (!check(cudaGetLastError(), name.c_str()) ||
                !check(cudaDeviceSynchronize(), name.c_str())) {
                return 4;
            }
        }
        std::printf("%d %s\n", index, name.c_str());
        ++index;
    }
    std::fprintf(stderr, "ldmatrix-replay: %d launched, %d refused\n", index, refused);
    if (!dryRun) {
        cudaFree(offsets);
        cudaFree(sink);
    }
    return 0;
}
