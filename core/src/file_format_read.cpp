// Pattern, session and deck files (docs/file-formats.md): the third step of the guarded reading
// (the first two are in file_format_guard.cpp), a field-by-field reader that names the offending
// place as a JSON pointer ("/entries/3/pattern/width") and says what it expected.
#include "warpscope/file_format.h"

#include "file_format_names.h"
#include "file_format_tma.h"
#include "json_fields.h"
#include "json_guard.h"
#include "matrix_access_json.h"
#include "warpscope/experiments/experiments.h"
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

constexpr std::size_t kMaxParameters = 256;
constexpr std::size_t kMaxSessionEntries = 10000;

constexpr std::size_t kMaxDeckSlides = 1000;
constexpr std::size_t kMaxExperimentKeyBytes = 64;

using detail::asInt64;
using detail::child;
using detail::describe;
using detail::kDeckFormatName;
using detail::kPatternFormatName;
using detail::kSessionFormatName;

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

    /// A session's "experiments": an object of experiment keys, each holding a result object.
    bool readExperimentResults(const json& value, const std::string& where,
                               std::map<std::string, json>& out) {
        if (!requireObject(value, where, "experiments")) {
            return false;
        }
        for (const auto& [key, results] : value.items()) {
            const std::string at = child(where, key);
            const bool keyOk =
                !key.empty() && key.size() <= kMaxExperimentKeyBytes &&
                std::all_of(key.begin(), key.end(), [](char c) {
                    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
                });
            if (!keyOk) {
                return fail("an experiment's key is 1 to " +
                                std::to_string(kMaxExperimentKeyBytes) +
                                " lower-case letters, digits and '-' (\"transfers\", "
                                "\"l2-persistence\")",
                            at);
            }
            if (!results.is_object()) {
                return fail("an experiment's results must be a JSON object (the probe's result "
                            "as it answered it); found " +
                                describe(results),
                            at);
            }
            out[key] = results;
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
        if (const json* results = member(value, "experiments", where, false)) {
            if (!readExperimentResults(*results, child(where, "experiments"), out.experiments)) {
                return false;
            }
        }
        if (const json* tma = member(value, "tmaLoad", where, false)) {
            TmaTileLoad load;
            if (!detail::readTmaLoad(*this, *tma, child(where, "tmaLoad"), load)) {
                return false;
            }
            out.tmaLoad = load;
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
                        return fail("unknown view \"" + name +
                                        "\"; a slide shows warp, bank, block, sweep, metrics, "
                                        "grid, notes, " +
                                        experiments::experimentKeyList(),
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

} // namespace

Result<NamedPattern> patternFromJsonText(std::string_view text) {
    auto parsed = detail::parseGuardedJson(text);
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

Result<Session> sessionFromJsonText(std::string_view text) {
    auto parsed = detail::parseGuardedJson(text);
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

Result<Deck> deckFromJsonText(std::string_view text) {
    auto parsed = detail::parseGuardedJson(text);
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

} // namespace warpscope
