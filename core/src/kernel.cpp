// The kernel: resolution (parameters applied, expressions parsed, launch checked against CUDA's
// limits), one warp of one access as the per-warp models read it, and the one-access kernel of
// a pattern. The grid model is in grid_model.cpp, the JSON form in kernel_file.cpp.
#include "warpscope/kernel.h"

#include "kernel_internal.h"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

namespace warpscope {

namespace {

constexpr std::size_t kMaxKernelAccesses = 64;
constexpr std::size_t kMaxKernelBuffers = 64;

Error placed(Error error, std::string where) {
    error.where = std::move(where);
    return error;
}

Error invalidAt(std::string message, std::string where, int column = 0) {
    return Error{ErrorCode::InvalidValue, std::move(message), column, std::move(where)};
}

/// The first name the expression uses that is not one of `allowed` (parameters, the functions
/// and warpSize): a thread built-in, which sizes and launches may not use.
std::optional<std::string> firstBuiltinUsed(const Expression& expression,
                                            const std::vector<std::string>& parameters) {
    std::optional<std::string> found;
    expression.toCSource([&](std::string_view name) {
        const bool allowed =
            name == "min" || name == "max" || name == "abs" || name == "warpSize" ||
            std::find(parameters.begin(), parameters.end(), name) != parameters.end();
        if (!allowed && !found) {
            found = std::string(name);
        }
        return std::string(name);
    });
    return found;
}

/// 1-based column of the first occurrence of `name` in `text` (0 when not found).
int columnOf(const std::string& text, const std::string& name) {
    const std::size_t at = text.find(name.substr(0, name.find('.')));
    return at == std::string::npos ? 0 : static_cast<int>(at) + 1;
}

/// Parse and evaluate an expression that may use the parameters only.
Result<std::int64_t> evaluateUniform(const std::string& text, const std::vector<std::string>& names,
                                     const std::vector<std::int64_t>& values,
                                     const std::string& where) {
    auto expression = Expression::parse(text, names);
    if (!expression) {
        return placed(expression.error(), where);
    }
    if (auto builtin = firstBuiltinUsed(expression.value(), names)) {
        return invalidAt("'" + *builtin +
                             "' is a thread built-in; sizes and launch dimensions may use the "
                             "kernel's parameters only",
                         where, columnOf(text, *builtin));
    }
    auto value = expression->evaluate(ThreadEnvironment{}, values);
    if (!value) {
        return placed(value.error(), where);
    }
    return value.value();
}

std::string decimal(std::int64_t value) {
    return std::to_string(value);
}

/// A buffer lives in one space: a buffer that constant accesses read is a __constant__ array,
/// which global accesses cannot address, and all the kernel's constant buffers together fit in
/// the 64 KiB of constant memory (seed 003: "Size: 64KB"). Checked for access `index` of
/// `kernel`, which addresses buffer `bufferIndex`.
std::optional<Error> constantSpaceCheck(const Kernel& kernel,
                                        const std::vector<ResolvedBuffer>& buffers,
                                        std::size_t index, int bufferIndex) {
    const KernelAccess& access = kernel.accesses[index];
    const std::string at = "/accesses/" + std::to_string(index) + "/buffer";
    for (std::size_t j = 0; j < index; ++j) {
        const KernelAccess& earlier = kernel.accesses[j];
        const bool otherSpace = (earlier.kind.space == MemorySpace::Constant) !=
                                (access.kind.space == MemorySpace::Constant);
        if (earlier.buffer == access.buffer && otherSpace) {
            return invalidAt("the buffer '" + access.buffer +
                                 "' is read as constant memory by "
                                 "one access and as global memory by another (access " +
                                 std::to_string(j) + "); a __constant__ array is its own buffer",
                             at);
        }
    }
    if (access.kind.space != MemorySpace::Constant) {
        return std::nullopt;
    }
    // The constant buffers of the accesses up to this one, each once.
    std::int64_t total = 0;
    std::vector<std::string> counted;
    for (std::size_t j = 0; j <= index; ++j) {
        const KernelAccess& a = kernel.accesses[j];
        if (a.kind.space != MemorySpace::Constant ||
            std::find(counted.begin(), counted.end(), a.buffer) != counted.end()) {
            continue;
        }
        counted.push_back(a.buffer);
        for (const ResolvedBuffer& b : buffers) {
            total += b.name == a.buffer ? b.bytes : 0;
        }
    }
    if (total > kConstantBytes) {
        const auto& buffer = buffers[static_cast<std::size_t>(bufferIndex)];
        return invalidAt("constant memory holds 64 KiB (65536 bytes); the kernel's constant "
                         "buffers need " +
                             decimal(total) + " bytes ('" + buffer.name + "' is " +
                             decimal(buffer.bytes) + ")",
                         "/buffers/" + std::to_string(bufferIndex) + "/bytes");
    }
    return std::nullopt;
}

} // namespace

namespace detail {

std::string threadPlace(const ResolvedKernel& kernel, int access, std::int64_t blockLinear,
                        std::int64_t threadLinear, const char* field) {
    const Dim3& g = kernel.grid;
    const Dim3& b = kernel.block;
    const Dim3 block{blockLinear % g.x, (blockLinear / g.x) % g.y, blockLinear / (g.x * g.y)};
    const Dim3 thread{threadLinear % b.x, (threadLinear / b.x) % b.y, threadLinear / (b.x * b.y)};
    const auto dim = [](const Dim3& d) {
        return "(" + decimal(d.x) + ", " + decimal(d.y) + ", " + decimal(d.z) + ")";
    };
    std::string text = "/accesses/" + std::to_string(access);
    if (field != nullptr && *field != '\0') {
        text += std::string("/") + field;
    }
    const std::string& label = kernel.kernel.accesses.at(static_cast<std::size_t>(access)).label;
    if (!label.empty()) {
        text += " (" + label + ")";
    }
    return text + ", block " + dim(block) + ", thread " + dim(thread);
}

} // namespace detail

bool isValidKernelName(std::string_view name) {
    if (name.size() > kMaxKernelNameLength) {
        return false;
    }
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool word =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!word && (i == 0 || (c != '.' && c != '+' && c != '-' && c != ' '))) {
            return false;
        }
    }
    return true;
}

std::string invalidKernelNameMessage(std::string_view name) {
    // The name itself is shown only as far as it is harmless: printable ASCII, cut short.
    std::string shown;
    for (char c : name.substr(0, kMaxKernelNameLength)) {
        shown += (c >= 0x20 && c < 0x7f) ? c : '?';
    }
    if (name.size() > kMaxKernelNameLength) {
        shown += "...";
    }
    return "'" + shown + "' cannot be a kernel name: use up to " +
           std::to_string(kMaxKernelNameLength) +
           " letters, digits, spaces, '_', '.', '+' or '-', starting with a letter, a digit or "
           "'_'";
}

Result<ResolvedKernel> resolveKernel(const Kernel& kernel) {
    ResolvedKernel out;
    out.kernel = kernel;
    // The name reaches the generated CUDA source (the probe's kernel_source and measure_kernel).
    if (!isValidKernelName(kernel.name)) {
        return invalidAt(invalidKernelNameMessage(kernel.name), "/name");
    }

    // Parameters.
    std::vector<std::string> names;
    for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
        const Parameter& p = kernel.parameters[i];
        const std::string where = "/parameters/" + std::to_string(i) + "/name";
        if (!isValidParameterName(p.name)) {
            return invalidAt("'" + p.name +
                                 "' cannot be a parameter name (a C identifier that is not a "
                                 "built-in name)",
                             where);
        }
        if (std::find(names.begin(), names.end(), p.name) != names.end()) {
            return invalidAt("the parameter '" + p.name + "' is declared twice", where);
        }
        names.push_back(p.name);
        out.parameterValues.push_back(p.value);
    }

    // Buffers.
    if (kernel.buffers.size() > kMaxKernelBuffers) {
        return invalidAt("a kernel has at most " + std::to_string(kMaxKernelBuffers) +
                             " buffers; found " + std::to_string(kernel.buffers.size()),
                         "/buffers");
    }
    for (std::size_t i = 0; i < kernel.buffers.size(); ++i) {
        const KernelBuffer& buffer = kernel.buffers[i];
        const std::string at = "/buffers/" + std::to_string(i);
        if (!isValidParameterName(buffer.name)) {
            return invalidAt("'" + buffer.name +
                                 "' cannot be a buffer name (a C identifier that is not a "
                                 "built-in name)",
                             at + "/name");
        }
        if (std::find(names.begin(), names.end(), buffer.name) != names.end()) {
            return invalidAt("the buffer '" + buffer.name +
                                 "' has the name of a parameter or of another buffer",
                             at + "/name");
        }
        auto bytes =
            evaluateUniform(buffer.bytesExpression, names, out.parameterValues, at + "/bytes");
        if (!bytes) {
            return bytes.error();
        }
        if (bytes.value() < 1 || bytes.value() > kMaxBufferBytes) {
            return invalidAt("a buffer holds 1 to 2^40 bytes; '" + buffer.bytesExpression +
                                 "' is " + decimal(bytes.value()),
                             at + "/bytes");
        }
        out.buffers.push_back(ResolvedBuffer{buffer.name, bytes.value()});
        names.push_back(buffer.name); // so that a later buffer cannot reuse it
    }
    names.resize(kernel.parameters.size());

    // Launch.
    std::array<std::int64_t, 3> grid{};
    std::array<std::int64_t, 3> block{};
    static constexpr const char* kAxis[3] = {"x", "y", "z"};
    for (std::size_t axis = 0; axis < 3; ++axis) {
        for (auto [texts, values, limits, what] :
             {std::tuple{&kernel.launch.grid, &grid, &kMaxGridDim, "grid"},
              std::tuple{&kernel.launch.block, &block, &kMaxBlockDim, "block"}}) {
            const std::string where = std::string("/") + what + "/" + std::to_string(axis);
            auto value = evaluateUniform((*texts)[axis], names, out.parameterValues, where);
            if (!value) {
                return value.error();
            }
            const std::int64_t limit = (*limits)[axis];
            if (value.value() < 1 || value.value() > limit) {
                return invalidAt(std::string(what) + "." + kAxis[axis] + " must be between 1 and " +
                                     decimal(limit) + " (CUDA's limit); '" + (*texts)[axis] +
                                     "' is " + decimal(value.value()),
                                 where);
            }
            (*values)[axis] = value.value();
        }
    }
    out.grid = Dim3{grid[0], grid[1], grid[2]};
    out.block = Dim3{block[0], block[1], block[2]};
    if (out.block.count() > kMaxThreadsPerBlock) {
        return invalidAt("a block holds at most " + decimal(kMaxThreadsPerBlock) +
                             " threads (CUDA's limit); " + decimal(block[0]) + " x " +
                             decimal(block[1]) + " x " + decimal(block[2]) + " is " +
                             decimal(out.block.count()),
                         "/block");
    }
    std::int64_t threads = 0;
    if (__builtin_mul_overflow(grid[0], grid[1], &threads) ||
        __builtin_mul_overflow(threads, grid[2], &threads) ||
        __builtin_mul_overflow(threads, out.block.count(), &threads) || threads > kMaxGridThreads) {
        return invalidAt("the launch has more than 2^48 threads, more than warpscope models",
                         "/grid");
    }

    // Accesses.
    if (kernel.accesses.empty()) {
        return invalidAt("a kernel needs at least one access", "/accesses");
    }
    if (kernel.accesses.size() > kMaxKernelAccesses) {
        return invalidAt("a kernel has at most " + std::to_string(kMaxKernelAccesses) +
                             " accesses; found " + std::to_string(kernel.accesses.size()),
                         "/accesses");
    }
    for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
        const KernelAccess& access = kernel.accesses[i];
        const std::string at = "/accesses/" + std::to_string(i);
        ResolvedAccess resolved;
        resolved.access = access;
        if (!isValidWidth(access.kind.widthBytes)) {
            return invalidAt("width must be 1, 2, 4, 8 or 16 bytes, not " +
                                 std::to_string(access.kind.widthBytes),
                             at + "/width");
        }
        if (access.kind.space == MemorySpace::Constant && access.kind.op != AccessOp::Load) {
            return invalidAt("constant memory is read-only in a kernel (the host writes it with "
                             "cudaMemcpyToSymbol); a constant access must be a load",
                             at + "/op");
        }
        const bool texture = access.kind.space == MemorySpace::Texture;
        if (!isValidWidthFor(access.kind.space, access.kind.widthBytes)) {
            return invalidAt(texture ? "a texture read is 4 bytes wide (one 32-bit texel), not " +
                                           std::to_string(access.kind.widthBytes)
                                     : "a local access is 1, 2 or 4 bytes wide (within one "
                                       "interleaved word), not " +
                                           std::to_string(access.kind.widthBytes),
                             at + "/width");
        }
        if (texture && access.kind.op != AccessOp::Load) {
            return invalidAt("a texture is read only: a texture access is a load", at + "/op");
        }
        if (!texture && !access.textureRowBytes.empty()) {
            return invalidAt("only a texture access has a row_bytes", at + "/row_bytes");
        }
        if (auto error = checkCopyKind(access.kind)) {
            return invalidAt(error->message, at + "/" + error->where);
        }
        if (access.kind.space == MemorySpace::Global ||
            access.kind.space == MemorySpace::Constant || texture) {
            const auto found =
                std::find_if(out.buffers.begin(), out.buffers.end(),
                             [&](const ResolvedBuffer& b) { return b.name == access.buffer; });
            if (found == out.buffers.end()) {
                return invalidAt(access.buffer.empty()
                                     ? std::string("a ") + toString(access.kind.space) +
                                           " access names its buffer"
                                     : "no buffer is called '" + access.buffer + "'",
                                 at + "/buffer");
            }
            resolved.bufferIndex = static_cast<int>(found - out.buffers.begin());
            if (auto error = constantSpaceCheck(kernel, out.buffers, i, resolved.bufferIndex)) {
                return *error;
            }
        } else if (!access.buffer.empty()) {
            return invalidAt(access.kind.space == MemorySpace::Local
                                 ? "a local access addresses the thread's own array and names "
                                   "no buffer"
                                 : "a shared access addresses the block's shared array and names "
                                   "no buffer",
                             at + "/buffer");
        }
        if (texture) {
            auto row = evaluateUniform(access.textureRowBytes.empty() ? std::string("0")
                                                                      : access.textureRowBytes,
                                       names, out.parameterValues, at + "/row_bytes");
            if (!row) {
                return row.error();
            }
            const std::int64_t bytes =
                out.buffers[static_cast<std::size_t>(resolved.bufferIndex)].bytes;
            if (row.value() < 32 || row.value() % 32 != 0 || row.value() > bytes ||
                bytes % row.value() != 0) {
                return invalidAt("a texture's row_bytes must be a positive multiple of 32 that "
                                 "divides its buffer's " +
                                     decimal(bytes) + " bytes; '" + access.textureRowBytes +
                                     "' is " + decimal(row.value()),
                                 at + "/row_bytes");
            }
            resolved.textureRowBytes = row.value();
        }
        auto address = Expression::parse(access.addressExpression, names);
        if (!address) {
            return placed(address.error(), at + "/address");
        }
        auto active = Expression::parse(access.activeExpression, names);
        if (!active) {
            return placed(active.error(), at + "/active");
        }
        resolved.address = std::move(address).value();
        resolved.active = std::move(active).value();
        if (access.kind.op == AccessOp::CopyAsync) {
            if (access.sharedAddressExpression.empty()) {
                return invalidAt("an async copy needs a shared address (where each thread's "
                                 "element lands in the block's shared array)",
                                 at + "/shared_address");
            }
            auto shared = Expression::parse(access.sharedAddressExpression, names);
            if (!shared) {
                return placed(shared.error(), at + "/shared_address");
            }
            resolved.sharedAddress = std::move(shared).value();
        } else if (!access.sharedAddressExpression.empty()) {
            return invalidAt("only an async copy (copy_async) has a shared address",
                             at + "/shared_address");
        }
        out.accesses.push_back(std::move(resolved));
    }
    return out;
}

static Result<std::array<LaneThread, kWarpSize>> kernelWarpThreads(const ResolvedKernel& kernel,
                                                                   std::int64_t blockLinear,
                                                                   std::int64_t warpInBlock,
                                                                   ThreadEnvironment& env) {
    if (blockLinear < 0 || blockLinear >= kernel.grid.count()) {
        return invalidAt("block " + decimal(blockLinear) + " is outside the grid of " +
                             decimal(kernel.grid.count()) + " blocks",
                         "block");
    }
    if (warpInBlock < 0 || warpInBlock >= kernel.warpsPerBlock()) {
        return invalidAt("warp " + decimal(warpInBlock) + " is outside the block's " +
                             decimal(kernel.warpsPerBlock()) + " warps",
                         "warp");
    }
    const Dim3& g = kernel.grid;
    const Dim3& b = kernel.block;
    env.bdim = b;
    env.gdim = g;
    env.bid = Dim3{blockLinear % g.x, (blockLinear / g.x) % g.y, blockLinear / (g.x * g.y)};
    env.warp = warpInBlock;
    const std::int64_t threadsPerBlock = b.count();
    std::array<LaneThread, kWarpSize> threads{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        LaneThread& t = threads[static_cast<std::size_t>(lane)];
        const std::int64_t linear = warpInBlock * kWarpSize + lane;
        t.linearThreadIndex = linear;
        t.existsInBlock = linear < threadsPerBlock;
        t.threadIdx = Dim3{linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y)};
        t.globalIndex = blockLinear * threadsPerBlock + linear;
    }
    return threads;
}

Result<WarpAccess> resolveWarp(const ResolvedKernel& kernel, int access, std::int64_t blockLinear,
                               std::int64_t warpInBlock) {
    if (access < 0 || static_cast<std::size_t>(access) >= kernel.accesses.size()) {
        return invalidAt("access " + std::to_string(access) + " does not exist; the kernel has " +
                             std::to_string(kernel.accesses.size()),
                         "/accesses");
    }
    const ResolvedAccess& resolved = kernel.accesses[static_cast<std::size_t>(access)];
    ThreadEnvironment env;
    auto threads = kernelWarpThreads(kernel, blockLinear, warpInBlock, env);
    if (!threads) {
        return threads.error();
    }
    WarpAccess out;
    out.kind = resolved.access.kind;
    const int width = out.kind.widthBytes;
    if (resolved.sharedAddress) {
        out.sharedAddresses = LaneAddresses{};
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const LaneThread& t = threads.value()[static_cast<std::size_t>(lane)];
        if (!t.existsInBlock) {
            continue;
        }
        env.lane = lane;
        env.tid = t.threadIdx;
        env.gid = t.globalIndex;
        auto isActive = resolved.active.evaluate(env, kernel.parameterValues);
        if (!isActive) {
            return placed(isActive.error(), detail::threadPlace(kernel, access, blockLinear,
                                                                t.linearThreadIndex, "active"));
        }
        if (isActive.value() == 0) {
            continue;
        }
        auto address = resolved.address.evaluate(env, kernel.parameterValues);
        if (!address) {
            return placed(address.error(), detail::threadPlace(kernel, access, blockLinear,
                                                               t.linearThreadIndex, "address"));
        }
        const std::int64_t value = address.value();
        const auto offender = [&](ErrorCode code, std::string message) {
            return Error{
                code, std::move(message), 0,
                detail::threadPlace(kernel, access, blockLinear, t.linearThreadIndex, "address")};
        };
        if (value < 0) {
            return offender(ErrorCode::NegativeAddress,
                            "address " + decimal(value) + " is negative");
        }
        if (value > std::numeric_limits<std::int64_t>::max() - 16) {
            return offender(ErrorCode::Overflow, "address " + decimal(value) + " is too large");
        }
        if (value % width != 0) {
            return offender(ErrorCode::Misaligned, "address " + decimal(value) +
                                                       " is not a multiple of the " +
                                                       std::to_string(width) +
                                                       "-byte element width (the GPU would fault)");
        }
        out.addresses[static_cast<std::size_t>(lane)] = value;
        if (!resolved.sharedAddress) {
            continue;
        }
        auto shared = resolved.sharedAddress->evaluate(env, kernel.parameterValues);
        const auto sharedPlace = [&] {
            return detail::threadPlace(kernel, access, blockLinear, t.linearThreadIndex,
                                       "shared_address");
        };
        if (!shared) {
            return placed(shared.error(), sharedPlace());
        }
        const std::int64_t at = shared.value();
        if (at < 0) {
            return Error{ErrorCode::NegativeAddress,
                         "shared address " + decimal(at) + " is negative", 0, sharedPlace()};
        }
        if (at > std::numeric_limits<std::int64_t>::max() - 16) {
            return Error{ErrorCode::Overflow, "shared address " + decimal(at) + " is too large", 0,
                         sharedPlace()};
        }
        if (at % width != 0) {
            return Error{ErrorCode::Misaligned,
                         "shared address " + decimal(at) + " is not a multiple of the " +
                             std::to_string(width) +
                             "-byte element width (cp.async needs both sides aligned)",
                         0, sharedPlace()};
        }
        (*out.sharedAddresses)[static_cast<std::size_t>(lane)] = at;
    }
    out.threads = threads.value();
    return interleaveLocal(out);
}

Result<Kernel> kernelFromPatternUnsized(const Pattern& pattern) {
    if (!pattern.source) {
        return invalidAt("a pattern that lists its 32 addresses has no kernel; only an "
                         "expression pattern (with a source) becomes one",
                         "source");
    }
    const PatternSource& source = *pattern.source;
    Kernel kernel;
    kernel.name = "pattern";
    kernel.parameters = source.parameters;
    kernel.launch.grid = {decimal(source.gridDim.x), decimal(source.gridDim.y),
                          decimal(source.gridDim.z)};
    kernel.launch.block = {decimal(source.blockDim.x), decimal(source.blockDim.y),
                           decimal(source.blockDim.z)};
    KernelAccess access;
    access.kind = pattern.kind;
    access.addressExpression = source.addressExpression;
    access.activeExpression = source.activeExpression;
    access.sharedAddressExpression = source.sharedAddressExpression;
    access.label = std::string(toString(pattern.kind.op));
    if (pattern.kind.space == MemorySpace::Global || pattern.kind.space == MemorySpace::Texture) {
        access.buffer = "data";
        kernel.buffers.push_back(KernelBuffer{"data", decimal(kMaxBufferBytes)});
    } else if (pattern.kind.space == MemorySpace::Constant) {
        access.buffer = "data";
        kernel.buffers.push_back(KernelBuffer{"data", decimal(kConstantBytes)});
    }
    if (pattern.kind.space == MemorySpace::Texture) {
        // A pattern has no 2-D shape: its texture is rows of 32 bytes (the single-warp model
        // reads byte addresses, as a global load would).
        access.textureRowBytes = "32";
    }
    kernel.accesses.push_back(access);
    return kernel;
}

Result<Kernel> kernelFromPattern(const Pattern& pattern) {
    auto unsized = kernelFromPatternUnsized(pattern);
    if (!unsized || pattern.kind.space == MemorySpace::Shared ||
        pattern.kind.space == MemorySpace::Local) {
        return unsized;
    }
    Kernel kernel = std::move(unsized).value();
    // Size "data" to the largest address any thread of the grid touches.
    auto resolved = resolveKernel(kernel);
    if (!resolved) {
        return resolved.error();
    }
    constexpr std::int64_t kMaxSizingWarps = std::int64_t{1} << 24;
    if (resolved->warpCount() > kMaxSizingWarps) {
        return invalidAt("the pattern's grid has " + decimal(resolved->warpCount()) +
                             " warps; warpscope sizes a pattern's buffer by evaluating at most "
                             "2^24, so write it as a kernel with its buffer's size",
                         "gdim");
    }
    auto extent = gridAddressExtent(resolved.value(), 0);
    if (!extent) {
        return extent.error();
    }
    std::int64_t bytes = std::max<std::int64_t>(extent.value(), 1);
    if (pattern.kind.space == MemorySpace::Texture) {
        bytes = (bytes + 31) / 32 * 32; // whole rows of the pattern's texture
    }
    kernel.buffers[0].bytesExpression = decimal(bytes);
    return kernel;
}

Result<Pattern> patternFromKernel(const Kernel& kernel, int access) {
    auto resolved = resolveKernel(kernel);
    if (!resolved) {
        return resolved.error();
    }
    if (access < 0 || static_cast<std::size_t>(access) >= kernel.accesses.size()) {
        return invalidAt("access " + std::to_string(access) + " does not exist", "/accesses");
    }
    const KernelAccess& a = kernel.accesses[static_cast<std::size_t>(access)];
    Pattern pattern;
    pattern.kind = a.kind;
    PatternSource source;
    source.addressExpression = a.addressExpression;
    source.activeExpression = a.activeExpression;
    source.sharedAddressExpression = a.sharedAddressExpression;
    source.parameters = kernel.parameters;
    source.blockDim = resolved->block;
    source.gridDim = resolved->grid;
    pattern.source = std::move(source);
    return pattern;
}

} // namespace warpscope
