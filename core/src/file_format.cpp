// Pattern and session files (docs/file-formats.md). Reading is done in three guarded steps so that
// no input can crash the program or make it allocate without bound:
//   1. a byte scan: size limit, UTF-8 check and nesting-depth limit, each error with line/column;
//   2. nlohmann's SAX parser into a bounded DOM builder (no exceptions; duplicate keys and
//      over-long strings refused; syntax errors keep their line and column);
//   3. a field-by-field reader that names the offending place as a JSON pointer
//      ("/entries/3/pattern/width") and says what it expected.
// Writers use a fixed key order and 2-space indentation, so files diff cleanly and round-trip.
#include "warpscope/file_format.h"

#include "json_fields.h"
#include "json_guard.h"
#include "matrix_access_json.h"
#include "warpscope/expression.h"
#include "warpscope/file_open.h"
#include "warpscope/json_depth.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/matrix_access.h"
#include "warpscope/preset.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <system_error>
#include <utility>
#include <vector>

namespace warpscope {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr std::size_t kMaxDepth = 64;
constexpr std::size_t kMaxStringBytes = 64u * 1024u;
constexpr std::size_t kMaxParameters = 256;
constexpr std::size_t kMaxSessionEntries = 10000;

constexpr const char* kPatternFormatName = "warpscope-pattern";
constexpr const char* kSessionFormatName = "warpscope-session";
constexpr const char* kDeckFormatName = "warpscope-deck";
constexpr std::size_t kMaxDeckSlides = 1000;

using detail::asInt64;
using detail::child;
using detail::describe;
using detail::escapePointerToken;
using detail::fileError;
std::string lineColumn(std::size_t line, std::size_t column) {
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// 1-based line and byte column of the byte at `offset` (clamped to the text).
std::pair<std::size_t, std::size_t> lineColumnOf(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return {line, offset - lineStart + 1};
}

// ---- Step 1: the byte scan -----------------------------------------------------------------

/// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not valid
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        length = 3;
        if (b0 == 0xE0) {
            low = 0xA0; // overlong
        } else if (b0 == 0xED) {
            high = 0x9F; // surrogates
        }
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        length = 4;
        if (b0 == 0xF0) {
            low = 0x90; // overlong
        } else if (b0 == 0xF4) {
            high = 0x8F; // above U+10FFFF
        }
    } else {
        return 0;
    }
    if (i + length > text.size()) {
        return 0;
    }
    const unsigned char b1 = byte(i + 1);
    if (b1 < low || b1 > high) {
        return 0;
    }
    for (std::size_t k = 2; k < length; ++k) {
        const unsigned char b = byte(i + k);
        if (b < 0x80 || b > 0xBF) {
            return 0;
        }
    }
    return length;
}

/// Refuses what must never reach the JSON parser: too many bytes, text that is not UTF-8, and
/// nesting deeper than kMaxDepth.
std::optional<Error> scanText(std::string_view text) {
    if (text.size() > maxFileBytes()) {
        return fileError("the text is " + std::to_string(text.size()) +
                             " bytes; warpscope reads files of at most " +
                             std::to_string(maxFileBytes() / (1024u * 1024u)) +
                             " MiB (WARPSCOPE_MAX_FILE_MIB raises the cap)",
                         "");
    }
    JsonDepthScanner depth(kMaxDepth);
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8SequenceLength(text, i);
        if (length == 0) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[i]));
            const std::string place = lineColumn(line, i - lineStart + 1);
            return fileError("the text is not valid UTF-8 (byte " + std::string(hex) + ")", place);
        }
        const char c = text[i];
        if (!depth.step(c)) {
            const std::string place = lineColumn(line, i - lineStart + 1);
            return fileError("the JSON is nested more than " + std::to_string(kMaxDepth) +
                                 " levels deep",
                             place);
        }
        if (c == '\n') {
            ++line;
            lineStart = i + 1;
        }
        i += length;
    }
    return std::nullopt;
}

// ---- Step 2: the bounded DOM builder -------------------------------------------------------

/// A SAX handler building a nlohmann::json like nlohmann's own DOM parser, but which refuses
/// duplicate keys, over-long strings and too deep nesting, and never throws.
class BoundedDomBuilder {
public:
    BoundedDomBuilder(json& root, std::string_view text) : m_root(root), m_text(text) {}

    bool null() { return addValue(json(nullptr)); }
    bool boolean(bool value) { return addValue(json(value)); }
    bool number_integer(json::number_integer_t value) { return addValue(json(value)); }
    bool number_unsigned(json::number_unsigned_t value) { return addValue(json(value)); }
    bool number_float(json::number_float_t value, const json::string_t& /*text*/) {
        return addValue(json(value));
    }
    bool string(json::string_t& value) {
        if (value.size() > kMaxStringBytes) {
            return fail("a string of " + std::to_string(value.size()) +
                            " bytes is longer than the 64 KiB allowed",
                        childPointer());
        }
        return addValue(json(std::move(value)));
    }
    bool binary(json::binary_t& /*value*/) {
        return fail("binary values are not JSON", childPointer()); // unreachable for JSON input
    }
    bool start_object(std::size_t /*elements*/) { return open(json::value_t::object); }
    bool start_array(std::size_t /*elements*/) { return open(json::value_t::array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& value) {
        const std::string where = containerPointer() + "/" + escapePointerToken(value);
        if (value.size() > kMaxStringBytes) {
            return fail("a key of " + std::to_string(value.size()) +
                            " bytes is longer than the 64 KiB allowed",
                        containerPointer());
        }
        if (m_stack.back()->contains(value)) {
            // nlohmann would silently keep the last one; a file meaning two things is refused.
            return fail("the key \"" + value + "\" appears twice in the same object", where);
        }
        m_key = std::move(value);
        return true;
    }
    bool parse_error(std::size_t position, const std::string& lastToken,
                     const nlohmann::detail::exception& exception) {
        // `position` counts the bytes read, so the offending byte is the one before it.
        std::size_t offset = position > 0 ? position - 1 : 0;
        if (exception.id == 406) {
            // out_of_range.406: a number such as 1e400 that no double holds. Point at its start.
            offset = position >= lastToken.size() ? position - lastToken.size() : 0;
            const auto [line, column] = lineColumnOf(m_text, offset);
            const std::string place = lineColumn(line, column);
            return fail("the number " + lastToken + " is too large to represent", place);
        }
        // nlohmann's message reads "[json.exception.parse_error.101] parse error at line L,
        // column C: what"; keep only "what" and put our own line and column on it.
        std::string what = exception.what();
        if (const std::size_t colon = what.find(": "); colon != std::string::npos) {
            what = what.substr(colon + 2);
        } else if (const std::size_t bracket = what.find("] "); bracket != std::string::npos) {
            what = what.substr(bracket + 2);
        }
        const auto [line, column] = lineColumnOf(m_text, offset);
        const std::string place = lineColumn(line, column);
        return fail("the text is not valid JSON: " + what, place);
    }

    const std::optional<Error>& error() const { return m_error; }

private:
    bool fail(std::string message, std::string where) {
        if (!m_error) {
            m_error = fileError(std::move(message), std::move(where));
        }
        return false;
    }

    std::string containerPointer() const {
        std::string pointer;
        for (const std::string& token : m_tokens) {
            // Appended in two steps: "/" + token builds a temporary that GCC 12 at -O2 wrongly
            // reports as an overlapping memcpy (-Wrestrict).
            pointer += '/';
            pointer += escapePointerToken(token);
        }
        return pointer;
    }

    /// Pointer of the value about to be added.
    std::string childPointer() const {
        if (m_stack.empty()) {
            return "";
        }
        const json& parent = *m_stack.back();
        return containerPointer() + "/" +
               (parent.is_array() ? std::to_string(parent.size()) : escapePointerToken(m_key));
    }

    json* place(json value) {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        json& parent = *m_stack.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        json& slot = parent[m_key];
        slot = std::move(value);
        return &slot;
    }

    bool addValue(json value) {
        place(std::move(value));
        return true;
    }

    bool open(json::value_t type) {
        if (m_stack.size() >= kMaxDepth) {
            // The byte scan already refuses this; kept so the builder is safe on its own.
            return fail("the JSON is nested more than " + std::to_string(kMaxDepth) +
                            " levels deep",
                        containerPointer());
        }
        std::string token;
        if (!m_stack.empty()) {
            const json& parent = *m_stack.back();
            token = parent.is_array() ? std::to_string(parent.size()) : m_key;
        }
        json* container = place(json(type));
        if (!m_stack.empty()) {
            m_tokens.push_back(std::move(token));
        }
        m_stack.push_back(container);
        return true;
    }

    bool close() {
        m_stack.pop_back();
        if (!m_tokens.empty() && m_stack.size() == m_tokens.size()) {
            m_tokens.pop_back();
        }
        return true;
    }

    json& m_root;
    std::string_view m_text;
    std::vector<json*> m_stack;
    std::vector<std::string> m_tokens; // one per open container below the root
    std::string m_key;
    std::optional<Error> m_error;
};

Result<json> parseJson(std::string_view text) {
    if (auto error = scanText(text)) {
        return *error;
    }
    json root;
    BoundedDomBuilder builder(root, text);
    const bool ok = json::sax_parse(text.data(), text.data() + text.size(), &builder);
    if (builder.error()) {
        return *builder.error();
    }
    if (!ok) {
        return fileError("the text is not valid JSON", "");
    }
    return root;
}

// ---- Step 3: field-by-field reading --------------------------------------------------------

/// The file readers: the shared field reads of json_fields.h and the files' own objects.
class FieldReader : public detail::JsonFieldReader {
public:
    bool readInt(const json& value, const std::string& where, std::string_view name, int& out) {
        std::int64_t wide = 0;
        if (!readInt64(value, where, name, wide)) {
            return false;
        }
        if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
            return fail(std::string(name) + " is out of range; found " + describe(value), where);
        }
        out = static_cast<int>(wide);
        return true;
    }

    bool readDim3(const json& value, const std::string& where, std::string_view name, Dim3& out) {
        std::int64_t* axes[3] = {&out.x, &out.y, &out.z};
        if (value.is_array()) {
            if (value.empty() || value.size() > 3) {
                return fail(std::string(name) + " must be an array of 1 to 3 integers [x, y, z]; " +
                                "found " + std::to_string(value.size()) + " entries",
                            where);
            }
            for (std::size_t i = 0; i < value.size(); ++i) {
                if (!readInt64(value[i], child(where, i), name, *axes[i])) {
                    return false;
                }
            }
            return true;
        }
        if (value.is_object()) {
            const char* names[3] = {"x", "y", "z"};
            for (std::size_t i = 0; i < 3; ++i) {
                if (!optionalInt64(value, names[i], where, *axes[i])) {
                    return false;
                }
            }
            return true;
        }
        return fail(std::string(name) +
                        " must be [x, y, z] or {\"x\": .., \"y\": .., \"z\": ..}; " + "found " +
                        describe(value),
                    where);
    }

    bool readParameter(const json& value, const std::string& where, Parameter& out) {
        if (!requireObject(value, where, "a parameter")) {
            return false;
        }
        const json* name = member(value, "name", where, true);
        if (name == nullptr || !readString(*name, child(where, "name"), "name", out.name)) {
            return false;
        }
        if (!checkName(out.name, child(where, "name"), "a parameter")) {
            return false;
        }
        // "value" may be left out when "default" is given (presets do): the value starts there.
        const bool hasValue = value.contains("value");
        const json* number = member(value, hasValue ? "value" : "default", where, true);
        if (number == nullptr || !readInt64(*number, child(where, hasValue ? "value" : "default"),
                                            hasValue ? "value" : "default", out.value)) {
            return false;
        }
        // Defaults that always make a valid slider: reset to the value the file gives, range
        // spanning 0 and that value.
        out.defaultValue = out.value;
        if (!optionalInt64(value, "default", where, out.defaultValue)) {
            return false;
        }
        out.minimum = std::min<std::int64_t>({0, out.value, out.defaultValue});
        out.maximum = std::max<std::int64_t>({0, out.value, out.defaultValue});
        if (!optionalInt64(value, "min", where, out.minimum) ||
            !optionalInt64(value, "max", where, out.maximum)) {
            return false;
        }
        return checkParameterRange(out, where, hasValue ? "value" : nullptr);
    }

    bool readSource(const json& value, const std::string& where, PatternSource& out) {
        if (!requireObject(value, where, "source")) {
            return false;
        }
        const json* address = member(value, "address", where, true);
        if (address == nullptr ||
            !readString(*address, child(where, "address"), "address", out.addressExpression)) {
            return false;
        }
        if (!optionalString(value, "active", where, out.activeExpression)) {
            return false;
        }
        if (!optionalString(value, "shared_address", where, out.sharedAddressExpression)) {
            return false;
        }
        if (const json* parameters = member(value, "parameters", where, false)) {
            const std::string at = child(where, "parameters");
            if (!parameters->is_array()) {
                return fail("parameters must be an array; found " + describe(*parameters), at);
            }
            if (parameters->size() > kMaxParameters) {
                return fail("at most " + std::to_string(kMaxParameters) +
                                " parameters are allowed; found " +
                                std::to_string(parameters->size()),
                            at);
            }
            std::set<std::string> seen;
            for (std::size_t i = 0; i < parameters->size(); ++i) {
                Parameter parameter;
                if (!readParameter((*parameters)[i], child(at, i), parameter)) {
                    return false;
                }
                if (!seen.insert(parameter.name).second) {
                    return fail("the parameter \"" + parameter.name + "\" is declared twice",
                                child(child(at, i), "name"));
                }
                out.parameters.push_back(std::move(parameter));
            }
        }
        for (auto [key, dim] :
             {std::pair{"blockDim", &out.blockDim}, std::pair{"gridDim", &out.gridDim},
              std::pair{"blockIdx", &out.blockIdx}}) {
            if (const json* field = member(value, key, where, false)) {
                if (!readDim3(*field, child(where, key), key, *dim)) {
                    return false;
                }
            }
        }
        return optionalInt64(value, "warp", where, out.warpIndex);
    }

    bool readPattern(const json& value, const std::string& where, NamedPattern& out) {
        if (!requireObject(value, where, "a pattern")) {
            return false;
        }
        if (!readHeader(value, where, kPatternFormatName, kPatternFormatVersion, false) ||
            !optionalString(value, "title", where, out.title) ||
            !optionalString(value, "caption", where, out.caption)) {
            return false;
        }
        if (const json* kernel = member(value, "kernel", where, false)) {
            auto parsed = kernelFromJson(*kernel, child(where, "kernel"));
            if (!parsed) {
                if (!m_error) {
                    m_error = parsed.error();
                }
                return false;
            }
            out.kernel = std::move(parsed).value();
            if (!value.contains("space") && !value.contains("addresses") &&
                !value.contains("source")) {
                // A kernel alone: the pattern is its first access, block 0, warp 0.
                auto derived = patternFromKernel(*out.kernel, 0);
                if (!derived) {
                    return fail("the kernel does not resolve: " + derived.error().describe(),
                                child(where, "kernel"));
                }
                out.pattern = std::move(derived).value();
                return true;
            }
        }
        const bool matrix = detail::hasMatrixOp(value);
        if (matrix) {
            if (auto error = detail::readMatrixKind(value, where, out.pattern.kind)) {
                return fail(error->message, error->where);
            }
        } else if (!readAccessKind(value, where, true, out.pattern.kind)) {
            return false;
        } else if (auto error = detail::checkNoMatrixFields(value, where)) {
            return fail(error->message, error->where);
        }

        const json* addresses = member(value, "addresses", where, false);
        const json* source = member(value, "source", where, false);
        if (addresses != nullptr && source != nullptr) {
            return fail("a pattern gives either \"addresses\" or \"source\", not both",
                        child(where, "source"));
        }
        if (addresses == nullptr && source == nullptr) {
            return fail("a pattern needs \"addresses\" (32 lane addresses) or \"source\" (an "
                        "address expression)",
                        where);
        }
        const bool copy = out.pattern.kind.op == AccessOp::CopyAsync;
        if (matrix && source != nullptr) {
            return fail("an ldmatrix or stmatrix pattern lists its 32 row addresses "
                        "(\"addresses\"); the expression form is not supported for it",
                        child(where, "source"));
        }
        if (source != nullptr) {
            PatternSource parsed;
            if (!readSource(*source, child(where, "source"), parsed)) {
                return false;
            }
            if (copy && parsed.sharedAddressExpression.empty()) {
                return fail("an async copy (copy_async) needs \"shared_address\": where each "
                            "lane's element lands in shared memory",
                            child(child(where, "source"), "shared_address"));
            }
            if (!copy && !parsed.sharedAddressExpression.empty()) {
                return fail("only an async copy (op \"copy_async\") has a \"shared_address\"",
                            child(child(where, "source"), "shared_address"));
            }
            out.pattern.source = std::move(parsed);
            return true;
        }
        if (copy) {
            return fail("an async copy (copy_async) is written with a \"source\" that gives its "
                        "shared address; a list of addresses has only the global side",
                        child(where, "addresses"));
        }
        const std::string at = child(where, "addresses");
        if (!addresses->is_array()) {
            return fail("addresses must be an array of 32 entries; found " + describe(*addresses),
                        at);
        }
        if (addresses->size() != static_cast<std::size_t>(kWarpSize)) {
            return fail("addresses must have exactly 32 entries, one per lane; found " +
                            std::to_string(addresses->size()),
                        at);
        }
        for (std::size_t lane = 0; lane < addresses->size(); ++lane) {
            const json& entry = (*addresses)[lane];
            if (entry.is_null()) {
                continue; // inactive lane
            }
            const std::optional<std::int64_t> address = asInt64(entry);
            if (!address || *address < 0) {
                return fail("an address must be a non-negative integer that fits in 64 bits, or "
                            "null for an inactive lane; found " +
                                describe(entry),
                            child(at, lane));
            }
            out.pattern.addresses[lane] = *address;
        }
        return true;
    }

    bool readMeasurement(const json& value, const std::string& where, RecordedMeasurement& out) {
        if (!requireObject(value, where, "a measurement") ||
            !optionalString(value, "gpu", where, out.gpu) ||
            !optionalString(value, "computeCapability", where, out.computeCapability) ||
            !optionalString(value, "driver", where, out.driver) ||
            !optionalString(value, "date", where, out.date) ||
            !optionalString(value, "gpuUuid", where, out.gpuUuid) ||
            !optionalString(value, "probeVersion", where, out.probeVersion)) {
            return false;
        }
        const json* metrics = member(value, "metrics", where, false);
        if (metrics == nullptr) {
            return true;
        }
        const std::string at = child(where, "metrics");
        if (!requireObject(*metrics, at, "metrics")) {
            return false;
        }
        for (const auto& [name, number] : metrics->items()) {
            if (number.is_null()) {
                // What a writer makes of a value that is not a number (NaN, infinity).
                out.metrics[name] = std::numeric_limits<double>::quiet_NaN();
                continue;
            }
            if (!number.is_number() ||
                (number.is_number_float() && !std::isfinite(number.get<double>()))) {
                return fail("a metric value must be a number; found " + describe(number),
                            child(at, name));
            }
            out.metrics[name] = number.get<double>();
        }
        return true;
    }

    bool readSession(const json& value, Session& out) {
        const std::string where;
        if (!requireObject(value, where, "a session file") ||
            !readHeader(value, where, kSessionFormatName, kSessionFormatVersion, true)) {
            return false;
        }
        if (const json* model = member(value, "model", where, false)) {
            if (!model->is_string() || (model->get_ref<const std::string&>() != "modern" &&
                                        model->get_ref<const std::string&>() != "textbook")) {
                return fail("model must be \"modern\" or \"textbook\"; found " + describe(*model),
                            child(where, "model"));
            }
            out.model = model->get<std::string>();
        }
        if (const json* entries = member(value, "entries", where, false)) {
            const std::string at = child(where, "entries");
            if (!entries->is_array()) {
                return fail("entries must be an array; found " + describe(*entries), at);
            }
            if (entries->size() > kMaxSessionEntries) {
                return fail("a session holds at most " + std::to_string(kMaxSessionEntries) +
                                " entries; found " + std::to_string(entries->size()),
                            at);
            }
            out.entries.reserve(entries->size());
            for (std::size_t i = 0; i < entries->size(); ++i) {
                const json& entry = (*entries)[i];
                const std::string entryAt = child(at, i);
                SessionEntry parsed;
                if (!requireObject(entry, entryAt, "a session entry")) {
                    return false;
                }
                const json* pattern = member(entry, "pattern", entryAt, true);
                if (pattern == nullptr ||
                    !readPattern(*pattern, child(entryAt, "pattern"), parsed.pattern)) {
                    return false;
                }
                if (const json* measurements = member(entry, "measurements", entryAt, false)) {
                    const std::string mAt = child(entryAt, "measurements");
                    if (!measurements->is_array()) {
                        return fail(
                            "measurements must be an array; found " + describe(*measurements), mAt);
                    }
                    for (std::size_t m = 0; m < measurements->size(); ++m) {
                        RecordedMeasurement measurement;
                        if (!readMeasurement((*measurements)[m], child(mAt, m), measurement)) {
                            return false;
                        }
                        parsed.measurements.push_back(std::move(measurement));
                    }
                }
                out.entries.push_back(std::move(parsed));
            }
        }
        if (const json* current = member(value, "currentEntry", where, false)) {
            if (!readInt(*current, child(where, "currentEntry"), "currentEntry",
                         out.currentEntry)) {
                return false;
            }
            const int count = static_cast<int>(out.entries.size());
            if (out.currentEntry < 0 || (count > 0 && out.currentEntry >= count) ||
                (count == 0 && out.currentEntry != 0)) {
                return fail("currentEntry must be between 0 and " +
                                std::to_string(std::max(count - 1, 0)) + "; found " +
                                std::to_string(out.currentEntry),
                            child(where, "currentEntry"));
            }
        }
        if (const json* settings = member(value, "viewSettings", where, false)) {
            const std::string at = child(where, "viewSettings");
            if (!requireObject(*settings, at, "viewSettings")) {
                return false;
            }
            for (const auto& [key, setting] : settings->items()) {
                std::string text;
                if (!readString(setting, child(at, key), "a view setting", text)) {
                    return false;
                }
                out.viewSettings[key] = std::move(text);
            }
        }
        return true;
    }

    bool readDeck(const json& value, Deck& out) {
        const std::string where;
        if (!requireObject(value, where, "a deck file") ||
            !readHeader(value, where, kDeckFormatName, kDeckFormatVersion, true) ||
            !optionalString(value, "title", where, out.title)) {
            return false;
        }
        const json* slides = member(value, "slides", where, true);
        if (slides == nullptr) {
            return false;
        }
        const std::string at = child(where, "slides");
        if (!slides->is_array() || slides->empty()) {
            return fail("slides must be a non-empty array; found " + describe(*slides), at);
        }
        if (slides->size() > kMaxDeckSlides) {
            return fail("a deck holds at most " + std::to_string(kMaxDeckSlides) +
                            " slides; found " + std::to_string(slides->size()),
                        at);
        }
        for (std::size_t i = 0; i < slides->size(); ++i) {
            const json& slide = (*slides)[i];
            const std::string slideAt = child(at, i);
            DeckSlide parsed;
            if (!requireObject(slide, slideAt, "a slide")) {
                return false;
            }
            const json* preset = member(slide, "preset", slideAt, false);
            const json* pattern = member(slide, "pattern", slideAt, false);
            const json* kernel = member(slide, "kernel", slideAt, false);
            if ((preset != nullptr) + (pattern != nullptr) + (kernel != nullptr) != 1) {
                return fail("a slide has either \"preset\" (a built-in preset's id), "
                            "\"pattern\" (a pattern object) or \"kernel\" (a kernel preset's "
                            "id): exactly one of them",
                            slideAt);
            }
            if (!optionalString(slide, "notes", slideAt, parsed.notesExperiment)) {
                return false;
            }
            if (kernel != nullptr) {
                if (!readString(*kernel, child(slideAt, "kernel"), "kernel",
                                parsed.kernelPresetId)) {
                    return false;
                }
                const KernelPreset* found = findKernelPreset(parsed.kernelPresetId);
                auto first = found != nullptr ? patternFromKernel(found->kernel, 0)
                                              : Result<Pattern>(Error{});
                if (found == nullptr || !first) {
                    return fail("no kernel preset is called \"" + parsed.kernelPresetId +
                                    "\" (resources/kernels.json lists them)",
                                child(slideAt, "kernel"));
                }
                parsed.pattern = NamedPattern{found->title, found->caption, first.value()};
            } else if (preset != nullptr) {
                if (!readString(*preset, child(slideAt, "preset"), "preset", parsed.presetId)) {
                    return false;
                }
                const Preset* found = findPreset(parsed.presetId);
                if (found == nullptr) {
                    return fail("no built-in preset is called \"" + parsed.presetId +
                                    "\" (warpscope-cli presets lists them)",
                                child(slideAt, "preset"));
                }
                parsed.pattern = NamedPattern{found->title, found->caption, found->pattern};
            } else if (!readPattern(*pattern, child(slideAt, "pattern"), parsed.pattern)) {
                return false;
            }
            parsed.title = parsed.pattern.title;
            parsed.caption = parsed.pattern.caption;
            if (!optionalString(slide, "title", slideAt, parsed.title) ||
                !optionalString(slide, "caption", slideAt, parsed.caption)) {
                return false;
            }
            if (const json* views = member(slide, "views", slideAt, false)) {
                const std::string viewsAt = child(slideAt, "views");
                if (!views->is_array() || views->empty() || views->size() > 5) {
                    return fail("views must be an array of 1 to 5 view names; found " +
                                    describe(*views),
                                viewsAt);
                }
                for (std::size_t v = 0; v < views->size(); ++v) {
                    std::string name;
                    if (!readString((*views)[v], child(viewsAt, v), "a view", name)) {
                        return false;
                    }
                    const auto& known = deckViewNames();
                    if (std::find(known.begin(), known.end(), name) == known.end()) {
                        return fail(
                            "unknown view \"" + name +
                                "\"; a slide shows warp, bank, block, sweep, metrics, grid, notes, "
                                "transfers, streams or l2-persistence",
                            child(viewsAt, v));
                    }
                    if (std::find(parsed.views.begin(), parsed.views.end(), name) !=
                        parsed.views.end()) {
                        return fail("the view \"" + name + "\" is listed twice", child(viewsAt, v));
                    }
                    parsed.views.push_back(std::move(name));
                }
            } else {
                parsed.views = {parsed.pattern.pattern.kind.space == MemorySpace::Shared ? "bank"
                                                                                         : "warp"};
            }
            out.slides.push_back(std::move(parsed));
        }
        return true;
    }
};

// ---- Writers -------------------------------------------------------------------------------

ordered_json dim3ToJson(const Dim3& dim) {
    return ordered_json::array({dim.x, dim.y, dim.z});
}

/// The oldest format version that holds the pattern: 2 with a kernel, else 1 (so that files
/// without kernels still open in warpscope versions that read only version 1).
int patternVersion(const NamedPattern& named) {
    return named.kernel ? 2 : 1;
}

ordered_json patternToJson(const NamedPattern& named, bool withHeader) {
    ordered_json out = ordered_json::object();
    if (withHeader) {
        out["format"] = kPatternFormatName;
        out["version"] = patternVersion(named);
    }
    out["title"] = named.title;
    out["caption"] = named.caption;
    const Pattern& pattern = named.pattern;
    out["space"] = toString(pattern.kind.space);
    out["op"] = opName(pattern.kind);
    detail::writeMatrixFields(pattern.kind, out);
    out["width"] = pattern.kind.widthBytes;
    out["cache"] = toString(pattern.kind.cache);
    if (pattern.source) {
        // The addresses of an expression pattern are derived, so they are not written.
        const PatternSource& source = *pattern.source;
        ordered_json src = ordered_json::object();
        src["address"] = source.addressExpression;
        src["active"] = source.activeExpression;
        if (!source.sharedAddressExpression.empty()) {
            src["shared_address"] = source.sharedAddressExpression;
        }
        src["parameters"] = detail::parametersToJson(source.parameters);
        src["blockDim"] = dim3ToJson(source.blockDim);
        src["gridDim"] = dim3ToJson(source.gridDim);
        src["blockIdx"] = dim3ToJson(source.blockIdx);
        src["warp"] = source.warpIndex;
        out["source"] = std::move(src);
    } else {
        ordered_json addresses = ordered_json::array();
        for (const auto& address : pattern.addresses) {
            addresses.push_back(address ? ordered_json(*address) : ordered_json(nullptr));
        }
        out["addresses"] = std::move(addresses);
    }
    if (named.kernel) {
        out["kernel"] = ordered_json::parse(kernelToJsonText(*named.kernel));
    }
    return out;
}

std::string dumpPretty(const ordered_json& value) {
    // `replace` so that a string holding invalid UTF-8 (set by a caller, never by our reader)
    // cannot make the writer throw.
    return value.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

} // namespace

namespace detail {

Result<nlohmann::json> parseGuardedJson(std::string_view text) {
    return parseJson(text);
}

} // namespace detail

std::string patternToJsonText(const NamedPattern& pattern) {
    return dumpPretty(patternToJson(pattern, true));
}

Result<NamedPattern> patternFromJsonText(std::string_view text) {
    auto parsed = parseJson(text);
    if (!parsed) {
        return parsed.error();
    }
    FieldReader reader;
    NamedPattern pattern;
    if (!reader.readPattern(parsed.value(), "", pattern)) {
        return *reader.error();
    }
    return pattern;
}

Result<NamedPattern> patternFromJson(const nlohmann::json& object, const std::string& where) {
    FieldReader reader;
    NamedPattern pattern;
    if (!reader.readPattern(object, where, pattern)) {
        return *reader.error();
    }
    return pattern;
}

std::string sessionToJsonText(const Session& session) {
    ordered_json out = ordered_json::object();
    out["format"] = kSessionFormatName;
    int version = 1;
    for (const SessionEntry& entry : session.entries) {
        version = std::max(version, patternVersion(entry.pattern));
    }
    out["version"] = version;
    out["model"] = session.model;
    out["currentEntry"] = session.currentEntry;
    ordered_json entries = ordered_json::array();
    for (const SessionEntry& entry : session.entries) {
        ordered_json e = ordered_json::object();
        e["pattern"] = patternToJson(entry.pattern, false);
        ordered_json measurements = ordered_json::array();
        for (const RecordedMeasurement& m : entry.measurements) {
            ordered_json measurement = ordered_json::object();
            measurement["gpu"] = m.gpu;
            if (!m.computeCapability.empty()) {
                measurement["computeCapability"] = m.computeCapability;
            }
            measurement["driver"] = m.driver;
            measurement["date"] = m.date;
            if (!m.gpuUuid.empty()) {
                measurement["gpuUuid"] = m.gpuUuid;
            }
            if (!m.probeVersion.empty()) {
                measurement["probeVersion"] = m.probeVersion;
            }
            ordered_json metrics = ordered_json::object();
            for (const auto& [name, value] : m.metrics) {
                // nlohmann writes NaN and infinities as null; the reader takes null as NaN.
                metrics[name] = value;
            }
            measurement["metrics"] = std::move(metrics);
            measurements.push_back(std::move(measurement));
        }
        e["measurements"] = std::move(measurements);
        entries.push_back(std::move(e));
    }
    out["entries"] = std::move(entries);
    ordered_json settings = ordered_json::object();
    for (const auto& [key, value] : session.viewSettings) {
        settings[key] = value;
    }
    out["viewSettings"] = std::move(settings);
    return dumpPretty(out);
}

Result<Session> sessionFromJsonText(std::string_view text) {
    auto parsed = parseJson(text);
    if (!parsed) {
        return parsed.error();
    }
    FieldReader reader;
    Session session;
    if (!reader.readSession(parsed.value(), session)) {
        return *reader.error();
    }
    return session;
}

const std::vector<std::string>& deckViewNames() {
    static const std::vector<std::string> names = {"warp",           "bank",   "block", "sweep",
                                                   "metrics",        "grid",   "notes", "transfers",
                                                   "l2-persistence", "streams"};
    return names;
}

std::string deckToJsonText(const Deck& deck) {
    ordered_json out = ordered_json::object();
    out["format"] = kDeckFormatName;
    out["version"] = kDeckFormatVersion;
    out["title"] = deck.title;
    ordered_json slides = ordered_json::array();
    for (const DeckSlide& slide : deck.slides) {
        ordered_json s = ordered_json::object();
        if (!slide.kernelPresetId.empty()) {
            s["kernel"] = slide.kernelPresetId;
        } else if (!slide.presetId.empty()) {
            s["preset"] = slide.presetId;
        } else {
            s["pattern"] = patternToJson(slide.pattern, false);
        }
        s["title"] = slide.title;
        s["caption"] = slide.caption;
        s["views"] = slide.views;
        if (!slide.notesExperiment.empty()) {
            s["notes"] = slide.notesExperiment;
        }
        slides.push_back(std::move(s));
    }
    out["slides"] = std::move(slides);
    return dumpPretty(out);
}

Result<Deck> deckFromJsonText(std::string_view text) {
    auto parsed = parseJson(text);
    if (!parsed) {
        return parsed.error();
    }
    FieldReader reader;
    Deck deck;
    if (!reader.readDeck(parsed.value(), deck)) {
        return *reader.error();
    }
    return deck;
}

Result<std::string> readTextFile(const std::string& path) {
    return readRegularFile(path, maxFileBytes());
}

} // namespace warpscope
