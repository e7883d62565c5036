// Kernel JSON (docs/file-formats.md, "Kernel files"): the line form `warpscope-cli predict-kernel`
// reads and the file form with "format": "warpscope-kernel". Text goes through the same guarded
// reader as pattern and session files; every field is checked and every error names its place
// as a JSON pointer.
#include "json_fields.h"
#include "json_guard.h"
#include "warpscope/kernel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <utility>

namespace warpscope {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr const char* kKernelFormatName = "warpscope-kernel";
constexpr std::size_t kMaxParameters = 256;
constexpr std::size_t kMaxEntries = 64; // buffers, accesses

using detail::asInt64;
using detail::child;
using detail::describe;

class KernelReader : public detail::JsonFieldReader {
public:
    bool readKernel(const json& value, const std::string& where, Kernel& out) {
        if (!value.is_object()) {
            return fail("a kernel must be a JSON object; found " + describe(value), where);
        }
        // The line form has no "format"; the file form has it and a "version".
        if (!readHeader(value, where, kKernelFormatName, kKernelFormatVersion, false)) {
            return false;
        }
        if (const json* name = find(value, "name")) {
            if (!readString(*name, child(where, "name"), "name", out.name)) {
                return false;
            }
            if (!isValidKernelName(out.name)) {
                return fail(invalidKernelNameMessage(out.name), child(where, "name"));
            }
        }
        if (const json* parameters = find(value, "parameters")) {
            if (!readParameters(*parameters, child(where, "parameters"), out.parameters)) {
                return false;
            }
        }
        if (const json* buffers = find(value, "buffers")) {
            if (!readBuffers(*buffers, child(where, "buffers"), out.buffers)) {
                return false;
            }
        }
        if (const json* grid = find(value, "grid")) {
            if (!readLaunchDim(*grid, child(where, "grid"), "grid", out.launch.grid)) {
                return false;
            }
        }
        if (const json* block = find(value, "block")) {
            if (!readLaunchDim(*block, child(where, "block"), "block", out.launch.block)) {
                return false;
            }
        }
        const json* accesses = find(value, "accesses");
        if (accesses == nullptr) {
            return fail("the field \"accesses\" is missing", child(where, "accesses"));
        }
        return readAccesses(*accesses, child(where, "accesses"), out.accesses);
    }

private:
    /// An integer or an expression string, kept as the expression's text.
    bool readExpression(const json& value, const std::string& where, std::string_view what,
                        std::string& out) {
        if (const auto number = asInt64(value)) {
            out = std::to_string(*number);
            return true;
        }
        if (value.is_string()) {
            out = value.get<std::string>();
            if (out.empty()) {
                return fail(std::string(what) + " must not be empty", where);
            }
            return true;
        }
        return fail(std::string(what) + " must be an integer or an expression string; found " +
                        describe(value),
                    where);
    }

    bool readParameters(const json& value, const std::string& where, std::vector<Parameter>& out) {
        if (!value.is_object() && !value.is_array()) {
            return fail("parameters must be an object {\"name\": value, ...} or an array of "
                        "{\"name\", \"value\", \"min\", \"max\", \"default\"}; found " +
                            describe(value),
                        where);
        }
        if (value.size() > kMaxParameters) {
            return fail("at most " + std::to_string(kMaxParameters) +
                            " parameters are allowed; found " + std::to_string(value.size()),
                        where);
        }
        std::set<std::string> seen;
        if (value.is_object()) {
            for (const auto& [name, number] : value.items()) {
                Parameter p;
                p.name = name;
                if (!checkName(name, child(where, name), "a parameter") ||
                    !readInt64(number, child(where, name), "a parameter's value", p.value)) {
                    return false;
                }
                p.defaultValue = p.value;
                p.minimum = std::min<std::int64_t>(0, p.value);
                p.maximum = std::max<std::int64_t>(0, p.value);
                out.push_back(std::move(p));
            }
            return true;
        }
        for (std::size_t i = 0; i < value.size(); ++i) {
            const json& entry = value[i];
            const std::string at = child(where, i);
            Parameter p;
            if (!entry.is_object()) {
                return fail("a parameter must be an object; found " + describe(entry), at);
            }
            const json* name = find(entry, "name");
            if (name == nullptr) {
                return fail("the field \"name\" is missing", child(at, "name"));
            }
            if (!readString(*name, child(at, "name"), "name", p.name) ||
                !checkName(p.name, child(at, "name"), "a parameter")) {
                return false;
            }
            if (!seen.insert(p.name).second) {
                return fail("the parameter \"" + p.name + "\" is declared twice",
                            child(at, "name"));
            }
            const json* number = find(entry, "value");
            const char* key = "value";
            if (number == nullptr) {
                number = find(entry, "default");
                key = "default";
            }
            if (number == nullptr) {
                return fail("a parameter needs \"value\" (or \"default\")", child(at, "value"));
            }
            if (!readInt64(*number, child(at, key), key, p.value)) {
                return false;
            }
            p.defaultValue = p.value;
            if (!optionalInt64(entry, "default", at, p.defaultValue)) {
                return false;
            }
            p.minimum = std::min<std::int64_t>({0, p.value, p.defaultValue});
            p.maximum = std::max<std::int64_t>({0, p.value, p.defaultValue});
            if (!optionalInt64(entry, "min", at, p.minimum) ||
                !optionalInt64(entry, "max", at, p.maximum) || !checkParameterRange(p, at, key)) {
                return false;
            }
            out.push_back(std::move(p));
        }
        return true;
    }

    bool readBuffers(const json& value, const std::string& where, std::vector<KernelBuffer>& out) {
        if (!value.is_array()) {
            return fail("buffers must be an array of {\"name\", \"bytes\"}; found " +
                            describe(value),
                        where);
        }
        if (value.size() > kMaxEntries) {
            return fail("a kernel has at most " + std::to_string(kMaxEntries) + " buffers; found " +
                            std::to_string(value.size()),
                        where);
        }
        std::set<std::string> seen;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const json& entry = value[i];
            const std::string at = child(where, i);
            if (!entry.is_object()) {
                return fail("a buffer must be an object {\"name\", \"bytes\"}; found " +
                                describe(entry),
                            at);
            }
            KernelBuffer buffer;
            const json* name = find(entry, "name");
            const json* bytes = find(entry, "bytes");
            if (name == nullptr) {
                return fail("the field \"name\" is missing", child(at, "name"));
            }
            if (!readString(*name, child(at, "name"), "name", buffer.name) ||
                !checkName(buffer.name, child(at, "name"), "a buffer")) {
                return false;
            }
            if (!seen.insert(buffer.name).second) {
                return fail("the buffer \"" + buffer.name + "\" is declared twice",
                            child(at, "name"));
            }
            if (bytes == nullptr) {
                return fail("the field \"bytes\" is missing", child(at, "bytes"));
            }
            if (!readExpression(*bytes, child(at, "bytes"), "bytes", buffer.bytesExpression)) {
                return false;
            }
            out.push_back(std::move(buffer));
        }
        return true;
    }

    bool readLaunchDim(const json& value, const std::string& where, std::string_view what,
                       std::array<std::string, 3>& out) {
        out = {"1", "1", "1"};
        if (!value.is_array()) {
            return readExpression(value, where, what, out[0]);
        }
        if (value.empty() || value.size() > 3) {
            return fail(std::string(what) + " must be an array of 1 to 3 entries [x, y, z]; " +
                            "found " + std::to_string(value.size()) + " entries",
                        where);
        }
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (!readExpression(value[i], child(where, i), what, out[i])) {
                return false;
            }
        }
        return true;
    }

    bool readAccesses(const json& value, const std::string& where, std::vector<KernelAccess>& out) {
        if (!value.is_array() || value.empty()) {
            return fail("accesses must be a non-empty array; found " + describe(value), where);
        }
        if (value.size() > kMaxEntries) {
            return fail("a kernel has at most " + std::to_string(kMaxEntries) +
                            " accesses; found " + std::to_string(value.size()),
                        where);
        }
        for (std::size_t i = 0; i < value.size(); ++i) {
            KernelAccess access;
            if (!readAccess(value[i], child(where, i), access)) {
                return false;
            }
            out.push_back(std::move(access));
        }
        return true;
    }

    bool readAccess(const json& value, const std::string& where, KernelAccess& out) {
        if (!value.is_object()) {
            return fail("an access must be an object; found " + describe(value), where);
        }
        AccessKind& kind = out.kind;
        if (!readAccessKind(value, where, false, kind)) {
            return false;
        }
        if (kind.space != MemorySpace::Global) {
            kind.cache = CachePath::Default; // only global loads have a cache operator
        }
        const json* buffer = find(value, "buffer");
        if (kind.space == MemorySpace::Global || kind.space == MemorySpace::Constant ||
            kind.space == MemorySpace::Texture) {
            if (buffer == nullptr) {
                return fail(kind.space == MemorySpace::Texture
                                ? "a texture access names the buffer its texture is laid over"
                                : std::string("a ") + toString(kind.space) +
                                      " access names its buffer",
                            child(where, "buffer"));
            }
            if (!readString(*buffer, child(where, "buffer"), "buffer", out.buffer)) {
                return false;
            }
        } else if (buffer != nullptr) {
            return fail(kind.space == MemorySpace::Local
                            ? "a local access addresses the thread's own array and has no "
                              "\"buffer\""
                            : "a shared access addresses the block's shared array and has no "
                              "\"buffer\"",
                        child(where, "buffer"));
        }
        const json* row = find(value, "row_bytes");
        if (kind.space == MemorySpace::Texture) {
            if (row == nullptr) {
                return fail("a texture access gives the bytes of one texture row "
                            "(\"row_bytes\")",
                            child(where, "row_bytes"));
            }
            if (!readExpression(*row, child(where, "row_bytes"), "row_bytes",
                                out.textureRowBytes)) {
                return false;
            }
        } else if (row != nullptr) {
            return fail("only a texture access has \"row_bytes\"", child(where, "row_bytes"));
        }
        const json* address = find(value, "address");
        if (address == nullptr) {
            return fail("the field \"address\" is missing", child(where, "address"));
        }
        if (!readExpression(*address, child(where, "address"), "address", out.addressExpression)) {
            return false;
        }
        if (const json* active = find(value, "active")) {
            if (!readExpression(*active, child(where, "active"), "active", out.activeExpression)) {
                return false;
            }
        }
        const json* shared = find(value, "shared_address");
        if (kind.op == AccessOp::CopyAsync) {
            if (shared == nullptr) {
                return fail("an async copy (copy_async) needs \"shared_address\": where each "
                            "thread's element lands in the block's shared array",
                            child(where, "shared_address"));
            }
            if (!readExpression(*shared, child(where, "shared_address"), "shared_address",
                                out.sharedAddressExpression)) {
                return false;
            }
        } else if (shared != nullptr) {
            return fail("only an async copy (op \"copy_async\") has a \"shared_address\"",
                        child(where, "shared_address"));
        }
        if (const json* label = find(value, "label")) {
            if (!readString(*label, child(where, "label"), "label", out.label)) {
                return false;
            }
        }
        return true;
    }
};

/// A launch dimension as written: a plain decimal integer as a number, anything else as text.
ordered_json expressionToJson(const std::string& text) {
    if (!text.empty() && text.size() < 19 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        (text.size() == 1 || text[0] != '0')) {
        return ordered_json(std::stoll(text));
    }
    return ordered_json(text);
}

ordered_json kernelToOrderedJson(const Kernel& kernel) {
    ordered_json out = ordered_json::object();
    out["format"] = kKernelFormatName;
    out["version"] = kKernelFormatVersion;
    out["name"] = kernel.name;
    out["parameters"] = detail::parametersToJson(kernel.parameters);
    ordered_json buffers = ordered_json::array();
    for (const KernelBuffer& b : kernel.buffers) {
        ordered_json buffer = ordered_json::object();
        buffer["name"] = b.name;
        buffer["bytes"] = expressionToJson(b.bytesExpression);
        buffers.push_back(std::move(buffer));
    }
    out["buffers"] = std::move(buffers);
    for (auto [key, dims] :
         {std::pair{"grid", &kernel.launch.grid}, std::pair{"block", &kernel.launch.block}}) {
        ordered_json dim = ordered_json::array();
        for (const std::string& text : *dims) {
            dim.push_back(expressionToJson(text));
        }
        out[key] = std::move(dim);
    }
    ordered_json accesses = ordered_json::array();
    for (const KernelAccess& a : kernel.accesses) {
        ordered_json access = ordered_json::object();
        if (!a.label.empty()) {
            access["label"] = a.label;
        }
        access["op"] = toString(a.kind.op);
        access["space"] = toString(a.kind.space);
        access["width"] = a.kind.widthBytes;
        if (a.kind.space == MemorySpace::Global) {
            access["buffer"] = a.buffer;
            access["cache"] = toString(a.kind.cache);
        } else if (a.kind.space == MemorySpace::Constant) {
            access["buffer"] = a.buffer;
        }
        if (a.kind.space == MemorySpace::Texture) {
            access["buffer"] = a.buffer;
            access["row_bytes"] = expressionToJson(a.textureRowBytes);
        }
        access["address"] = a.addressExpression;
        if (a.kind.op == AccessOp::CopyAsync) {
            access["shared_address"] = a.sharedAddressExpression;
        }
        access["active"] = a.activeExpression;
        accesses.push_back(std::move(access));
    }
    out["accesses"] = std::move(accesses);
    return out;
}

} // namespace

nlohmann::json kernelToJson(const Kernel& kernel) {
    // Through text, so that a string holding invalid UTF-8 (set by a caller, never by the reader)
    // cannot make the conversion throw.
    return json::parse(kernelToJsonText(kernel));
}

std::string kernelToJsonText(const Kernel& kernel) {
    return kernelToOrderedJson(kernel).dump(2, ' ', false, ordered_json::error_handler_t::replace) +
           "\n";
}

Result<Kernel> kernelFromJson(const nlohmann::json& object, const std::string& where) {
    KernelReader reader;
    Kernel kernel;
    if (!reader.readKernel(object, where, kernel)) {
        return *reader.error();
    }
    return kernel;
}

Result<Kernel> kernelFromJsonText(std::string_view text) {
    auto parsed = detail::parseGuardedJson(text);
    if (!parsed) {
        return parsed.error();
    }
    return kernelFromJson(parsed.value(), "");
}

} // namespace warpscope
