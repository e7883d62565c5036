// The whole-kernel generator (kernel_codegen.h).
//
// Every access becomes one inline-PTX instruction (ld.global{,.ca,.cg,.nc}, st.global, ld.shared,
// st.shared of the access's width) inside `asm volatile(... : "memory")`, so the front end keeps
// them all and in order. ptxas sees plain PTX, and removes a load whose value nobody uses (an
// earlier H100 run showed it sinking such a load into a never-taken branch), so every loaded
// value is XOR-accumulated into `acc`, and every store writes `acc`: the loads feed the stores,
// as in the notes' kernels (C[i] = A[k] + B[k]). Loads after the last store feed one guarded
// store to a sink that never executes (acc cannot equal the sentinel: see below).
//
// An async copy (copy_async) is one cp.async.ca.shared.global of its width (SASS LDGSTS), then
// cp.async.commit_group and cp.async.wait_all, so that its shared elements have landed before
// anything after it (the notes' __pipeline_memcpy_async, __pipeline_commit,
// __pipeline_wait_prior(0)). For the barriers it counts as a shared store.
#include "kernel_codegen.h"

#include <algorithm>
#include <string>
#include <vector>

namespace warpscope::probe {
namespace {

std::string cName(std::string_view name) {
    std::string out = "ws_";
    for (char c : name) {
        out += c == '.' ? '_' : c;
    }
    return out;
}

/// Text from the kernel's description (its name, an access's label) as it may stand inside a
/// `//` comment of the source: one line, cut to 120 bytes, with nothing that could end the
/// comment or splice the next line into it. Line breaks and other control characters become
/// spaces, a backslash becomes a slash, the star of a block comment's opener or closer becomes
/// '+', and a question mark after another is spaced (no trigraph), so a label can neither start
/// a preprocessor line nor hide code from the grid model.
std::string commentText(std::string_view text) {
    constexpr std::size_t kMaxBytes = 120;
    std::string out;
    for (char c : text.substr(0, kMaxBytes)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            c = ' ';
        } else if (c == '\\') {
            c = '/';
        } else if (c == '*' && !out.empty() && out.back() == '/') {
            c = '+';
        } else if (c == '/' && !out.empty() && out.back() == '*') {
            out.back() = '+';
        } else if (c == '?' && !out.empty() && out.back() == '?') {
            out += ' ';
        }
        out += c;
    }
    if (text.size() > kMaxBytes) {
        out += "...";
    }
    return out;
}

const char* widthSuffix(int width) {
    switch (width) {
    case 1:
        return "u8";
    case 2:
        return "u16";
    case 4:
        return "u32";
    case 8:
        return "v2.u32";
    default:
        return "v4.u32";
    }
}

const char* cacheSuffix(CachePath cache) {
    switch (cache) {
    case CachePath::CacheAll:
        return ".ca";
    case CachePath::CacheGlobal:
        return ".cg";
    case CachePath::NonCoherent:
        return ".nc";
    case CachePath::Default:
        break;
    }
    return "";
}

int registerCount(int width) {
    return width <= 4 ? 1 : width / 4;
}

/// "{%0, %1}" or "%0" for `count` registers starting at operand `first`.
std::string registerList(int first, int count) {
    if (count == 1) {
        return "%" + std::to_string(first);
    }
    std::string list = "{";
    for (int i = 0; i < count; ++i) {
        list += (i ? ", %" : "%") + std::to_string(first + i);
    }
    return list + "}";
}

std::string expectedInstruction(const AccessKind& kind) {
    if (kind.op == AccessOp::CopyAsync) {
        return "LDGSTS " + std::to_string(kind.widthBytes);
    }
    if (kind.space == MemorySpace::Constant) {
        // An indexed load from the constant bank of __constant__ data: LDC c[0x3][R]. ptxas
        // splits 8- and 16-byte ones into 32-bit LDCs (expectedInstructions lists each).
        return "LDC " + std::to_string(std::min(kind.widthBytes, 4));
    }
    const bool load = kind.op == AccessOp::Load;
    std::string family;
    switch (kind.space) {
    case MemorySpace::Global:
        family = load ? "LDG" : "STG";
        break;
    case MemorySpace::Shared:
        family = load ? "LDS" : "STS";
        break;
    case MemorySpace::Local:
        family = load ? "LDL" : "STL";
        break;
    case MemorySpace::Texture:
        family = "TEX";
        break;
    case MemorySpace::Constant:
        family = "LDC";
        break;
    }
    return family + " " + std::to_string(kind.widthBytes);
}

/// A 2-D texture read (one TEX instruction): texel ((a % row) / 4, a / row), sampled at its
/// centre with point filtering, as a 32-bit unsigned texel.
std::string textureStatement(int index, std::int64_t rowBytes) {
    const std::string row = std::to_string(rowBytes);
    std::string text;
    text += "        const float ws_x = (float)((ws_a % " + row + ") / 4) + 0.5f;\n";
    text += "        const float ws_y = (float)(ws_a / " + row + ") + 0.5f;\n";
    text += "        unsigned ws_v[4] = {0u, 0u, 0u, 0u};\n";
    text += "        asm volatile(\"tex.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];\"\n"
            "            : \"=r\"(ws_v[0]), \"=r\"(ws_v[1]), \"=r\"(ws_v[2]), \"=r\"(ws_v[3])\n"
            "            : \"l\"(ws_tex_" +
            std::to_string(index) + "), \"f\"(ws_x), \"f\"(ws_y) : \"memory\");\n";
    text += "        ws_acc ^= ws_v[0] ^ " + std::to_string(index + 1) + "u;\n";
    return text;
}

/// The statement for one access; `pointer` is a C expression of the element's address
/// (generic for global, a 32-bit shared-window address for shared).
std::string accessStatement(const AccessKind& kind, int index) {
    if (kind.space == MemorySpace::Constant) {
        // ws_p is the generic address of the element of the __constant__ array; cvta.to.const
        // turns it into a constant-space address, and ld.const reads it through the constant
        // cache (resolveKernel refuses constant stores).
        const int regs = registerCount(kind.widthBytes);
        std::string text = "        unsigned ws_v[4] = {0u, 0u, 0u, 0u};\n";
        text += "        asm volatile(\"{ .reg .u64 ws_c; cvta.to.const.u64 ws_c, %" +
                std::to_string(regs) + "; ld.const." + widthSuffix(kind.widthBytes) + " " +
                registerList(0, regs) + ", [ws_c]; }\"\n            : ";
        for (int r = 0; r < regs; ++r) {
            text += (r ? ", " : "") + std::string("\"=r\"(ws_v[") + std::to_string(r) + "])";
        }
        text += "\n            : \"l\"(ws_p) : \"memory\");\n";
        text += "        ws_acc ^= ws_v[0] ^ ws_v[1] ^ ws_v[2] ^ ws_v[3] ^ " +
                std::to_string(index + 1) + "u;\n";
        return text;
    }
    const bool global = kind.space == MemorySpace::Global;
    const bool local = kind.space == MemorySpace::Local;
    const int regs = registerCount(kind.widthBytes);
    const std::string space = global ? "global" : (local ? "local" : "shared");
    const std::string addressConstraint =
        global ? "\"l\"(ws_p)" : (local ? "\"l\"(ws_l)" : "\"r\"(ws_s)");
    std::string text;
    if (kind.op == AccessOp::CopyAsync) {
        text += "        asm volatile(\"cp.async.ca.shared.global [%0], [%1], " +
                std::to_string(kind.widthBytes) +
                ";\"\n            :: \"r\"(ws_s), \"l\"(ws_p) : \"memory\");\n";
        return text;
    }
    if (kind.op == AccessOp::Load) {
        const std::string cache = global ? cacheSuffix(kind.cache) : "";
        text += "        unsigned ws_v[4] = {0u, 0u, 0u, 0u};\n";
        text += "        asm volatile(\"ld." + space + cache + "." + widthSuffix(kind.widthBytes) +
                " " + registerList(0, regs) + ", [%" + std::to_string(regs) +
                "];\"\n            : ";
        for (int r = 0; r < regs; ++r) {
            text += (r ? ", " : "") + std::string("\"=r\"(ws_v[") + std::to_string(r) + "])";
        }
        text += "\n            : " + addressConstraint + " : \"memory\");\n";
        text += "        ws_acc ^= ws_v[0] ^ ws_v[1] ^ ws_v[2] ^ ws_v[3] ^ " +
                std::to_string(index + 1) + "u;\n";
    } else {
        // Narrow stores take the low bits of acc; wide ones store acc in every word (a store of
        // a vector register, one instruction).
        text += "        asm volatile(\"st." + space + "." + widthSuffix(kind.widthBytes) +
                " [%0], " + registerList(1, regs) + ";\"\n            :: " + addressConstraint;
        for (int r = 0; r < regs; ++r) {
            text += ", \"r\"(ws_acc + " + std::to_string(r) + "u)";
        }
        text += " : \"memory\");\n";
    }
    return text;
}

} // namespace

GeneratedKernel generateKernelSource(const ResolvedKernel& resolved,
                                     std::int64_t localBytesPerThread) {
    const Kernel& kernel = resolved.kernel;
    GeneratedKernel out;
    out.entryPoint = "warpscope_kernel";
    out.bufferArguments = static_cast<int>(resolved.buffers.size());
    out.parameterArguments = static_cast<int>(kernel.parameters.size());
    auto rename = [](std::string_view name) { return cName(name); };

    std::string& s = out.source;
    // resolveKernel refused any name but an identifier; the comment stays safe regardless.
    s += "// Generated by warpscope-probe for the kernel \"" + commentText(kernel.name) + "\".\n";
    s += "// One memory instruction per access, in this order:\n";
    for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
        const KernelAccess& access = kernel.accesses[i];
        s += "//   " + std::to_string(i) + ": " + toString(access.kind.op) + " " +
             toString(access.kind.space) + " " + std::to_string(access.kind.widthBytes) + " B";
        if (access.kind.space == MemorySpace::Constant) {
            s += " " + commentText(access.buffer) + " (__constant__)";
        }
        if (access.kind.space == MemorySpace::Texture) {
            s += " texture over " + commentText(access.buffer) + ", rows of " +
                 commentText(access.textureRowBytes) + " bytes";
        }
        if (access.kind.space == MemorySpace::Global) {
            s += " " + commentText(access.buffer);
            if (access.kind.op == AccessOp::Load) {
                s += std::string(" cache ") + toString(access.kind.cache);
            }
            if (access.kind.op == AccessOp::CopyAsync) {
                s += " -> shared";
            }
        }
        if (!access.label.empty()) {
            s += " (" + commentText(access.label) + ")";
        }
        s += "\n";
    }
    s += "// Every variable is a signed 64-bit integer, as in warpscope's pattern language.\n"
         "typedef long long i64;\n"
         "__device__ __forceinline__ i64 ws_min(i64 a, i64 b) { return a < b ? a : b; }\n"
         "__device__ __forceinline__ i64 ws_max(i64 a, i64 b) { return a > b ? a : b; }\n"
         "__device__ __forceinline__ i64 ws_abs(i64 a) { return a < 0 ? -a : a; }\n\n";
    // Buffers that constant accesses read are __constant__ arrays (zero, as the probe clears
    // global buffers); their pointer arguments stay in the argument list, unused.
    std::vector<bool> constantBuffer(resolved.buffers.size(), false);
    for (const ResolvedAccess& access : resolved.accesses) {
        if (access.access.kind.space == MemorySpace::Constant && access.bufferIndex >= 0) {
            constantBuffer[static_cast<std::size_t>(access.bufferIndex)] = true;
        }
    }
    for (std::size_t b = 0; b < resolved.buffers.size(); ++b) {
        if (constantBuffer[b]) {
            s += "__constant__ __align__(16) unsigned char " +
                 cName("const_" + resolved.buffers[b].name) + "[" +
                 std::to_string(resolved.buffers[b].bytes) + "];\n";
        }
    }
    s += "extern \"C\" __global__ void " + out.entryPoint + "(";
    std::string arguments;
    for (const ResolvedBuffer& buffer : resolved.buffers) {
        arguments += std::string(arguments.empty() ? "" : ", ") + "unsigned char* __restrict__ " +
                     cName("buf_" + buffer.name);
    }
    for (const Parameter& parameter : kernel.parameters) {
        arguments += std::string(arguments.empty() ? "" : ", ") + "i64 " + cName(parameter.name);
    }
    for (std::size_t i = 0; i < resolved.accesses.size(); ++i) {
        if (resolved.accesses[i].access.kind.space == MemorySpace::Texture) {
            out.textureAccesses.push_back(static_cast<int>(i));
            arguments += std::string(arguments.empty() ? "" : ", ") + "unsigned long long ws_tex_" +
                         std::to_string(i);
        }
    }
    arguments +=
        std::string(arguments.empty() ? "" : ", ") + "unsigned* ws_sink, unsigned ws_sentinel";
    s += arguments + ")\n{\n";
    s += "    extern __shared__ __align__(16) unsigned char ws_shared[];\n"
         "    const i64 ws_tid_x = threadIdx.x, ws_tid_y = threadIdx.y, ws_tid_z = threadIdx.z;\n"
         "    const i64 ws_bdim_x = blockDim.x, ws_bdim_y = blockDim.y, ws_bdim_z = blockDim.z;\n"
         "    const i64 ws_bid_x = blockIdx.x, ws_bid_y = blockIdx.y, ws_bid_z = blockIdx.z;\n"
         "    const i64 ws_gdim_x = gridDim.x, ws_gdim_y = gridDim.y, ws_gdim_z = gridDim.z;\n"
         "    const i64 ws_warpSize = 32;\n"
         "    const i64 ws_linear = ws_tid_x + ws_bdim_x * (ws_tid_y + ws_bdim_y * ws_tid_z);\n"
         "    const i64 ws_lane = ws_linear % 32, ws_warp = ws_linear / 32;\n"
         "    const i64 ws_gid = (ws_bid_x + ws_gdim_x * (ws_bid_y + ws_gdim_y * ws_bid_z))\n"
         "                       * (ws_bdim_x * ws_bdim_y * ws_bdim_z) + ws_linear;\n"
         "    (void)ws_lane; (void)ws_warp; (void)ws_gid; (void)ws_warpSize; (void)ws_shared;\n"
         "    (void)ws_tid_x; (void)ws_tid_y; (void)ws_tid_z; (void)ws_bdim_x; (void)ws_bdim_y;\n"
         "    (void)ws_bdim_z; (void)ws_bid_x; (void)ws_bid_y; (void)ws_bid_z; (void)ws_gdim_x;\n"
         "    (void)ws_gdim_y; (void)ws_gdim_z;\n";
    for (const Parameter& parameter : kernel.parameters) {
        s += "    (void)" + cName(parameter.name) + ";\n";
    }
    if (localBytesPerThread > 0) {
        // The thread's own array: its address goes into the inline PTX (ld.local / st.local),
        // so ptxas keeps it in local memory (ptxas -v: "N bytes stack frame").
        s += "    __align__(16) unsigned char ws_local[" +
             std::to_string((localBytesPerThread + 15) / 16 * 16) +
             "];\n"
             "    const unsigned long long ws_local_base = __cvta_generic_to_local(ws_local);\n";
    }
    // acc starts from the thread's number, so a thread's stored words depend on it and on
    // everything it loaded.
    s += "    unsigned ws_acc = (unsigned)ws_linear;\n";

    bool sharedStoreBefore = false;
    bool sharedLoadBefore = false;
    bool loadsSinceStore = false;
    for (std::size_t i = 0; i < resolved.accesses.size(); ++i) {
        const ResolvedAccess& access = resolved.accesses[i];
        const AccessKind& kind = access.access.kind;
        const bool copy = kind.op == AccessOp::CopyAsync;
        const bool shared = kind.space == MemorySpace::Shared || copy; // writes shared memory
        const bool local = kind.space == MemorySpace::Local;
        const bool texture = kind.space == MemorySpace::Texture;
        const bool load = kind.op == AccessOp::Load;
        if (shared && ((load && sharedStoreBefore) || (!load && sharedLoadBefore))) {
            // Between a shared store and a later shared load (or a load and a later store) of
            // other threads' elements, as the notes' tiled transpose synchronises. Every thread
            // reaches it: the active expressions guard the accesses, not the barrier.
            s += "    __syncthreads();\n";
            sharedStoreBefore = false;
            sharedLoadBefore = false;
        }
        s += "    // access " + std::to_string(i) +
             (access.access.label.empty() ? "" : ": " + commentText(access.access.label)) + "\n";
        s += "    if (" + access.active.toCSource(rename) + ") {\n";
        s += "        const i64 ws_a = " + access.address.toCSource(rename) + ";\n";
        if (copy) {
            s += "        const i64 ws_b = " + access.sharedAddress->toCSource(rename) + ";\n";
            s += "        const unsigned ws_s = (unsigned)__cvta_generic_to_shared(ws_shared + "
                 "ws_b);\n";
            s += "        const unsigned char* ws_p = " +
                 cName("buf_" +
                       resolved.buffers[static_cast<std::size_t>(access.bufferIndex)].name) +
                 " + ws_a;\n";
        } else if (shared) {
            s += "        const unsigned ws_s = (unsigned)__cvta_generic_to_shared(ws_shared + "
                 "ws_a);\n";
        } else if (kind.space == MemorySpace::Constant) {
            s += "        const unsigned char* ws_p = " +
                 cName("const_" +
                       resolved.buffers[static_cast<std::size_t>(access.bufferIndex)].name) +
                 " + ws_a;\n";
        } else if (local) {
            // The last term is 0 at run time (the sentinel is no small number) but not to
            // ptxas, and differs from access to access: it cannot prove two local accesses
            // address the same element, so it neither forwards a store to a later load nor
            // drops either (an H100 run of the plain form showed the load gone).
            s += "        const unsigned long long ws_l = ws_local_base + (unsigned long long)ws_a"
                 " + (ws_sentinel == " +
                 std::to_string(i + 1) + "u ? 4ull : 0ull);\n";
        } else if (texture) {
            // no pointer: the texture object and the texel's coordinates
        } else {
            s += "        unsigned char* ws_p = " +
                 cName("buf_" +
                       resolved.buffers[static_cast<std::size_t>(access.bufferIndex)].name) +
                 " + ws_a;\n";
        }
        s += texture ? textureStatement(static_cast<int>(i), access.textureRowBytes)
                     : accessStatement(kind, static_cast<int>(i));
        s += "    }\n";
        if (copy) {
            // Every thread commits and waits, active or not (an empty group completes at once).
            s += "    asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n"
                 "    asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n";
        }
        if (shared) {
            (load ? sharedLoadBefore : sharedStoreBefore) = true;
        }
        loadsSinceStore = load ? true : false;
        const int parts =
            kind.space == MemorySpace::Constant ? std::max(1, kind.widthBytes / 4) : 1;
        for (int part = 0; part < parts; ++part) {
            out.expectedMemoryInstructions.push_back(expectedInstruction(kind));
        }
    }
    if (loadsSinceStore) {
        // Keeps the trailing loads: acc depends on them, and the buffers never hold a word that
        // XORs to the sentinel with the access numbers and thread number mixed in (the probe
        // checks the sentinel is not reachable by zeroing the buffers).
        s += "    if (ws_acc == ws_sentinel) ws_sink[0] = ws_acc; // never taken\n";
        out.hasSink = true;
        out.expectedMemoryInstructions.emplace_back("STG 4 (sink)");
    }
    s += "}\n";
    return out;
}

} // namespace warpscope::probe
