// The built-in kernel presets: resources/kernels.json, compiled into the core as a string by
// resources/CMakeLists.txt and parsed once. Each entry's "kernel" is a kernel object in the form
// kernel files use (docs/file-formats.md), so a preset can be saved as a file as it is.
#include "warpscope/kernel_preset.h"

#include "json_guard.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <utility>

namespace warpscope::detail {
extern const char* const kKernelPresetsJson; // generated from resources/kernels.json
} // namespace warpscope::detail

namespace warpscope {

namespace {

using json = nlohmann::json;

Error presetError(std::string message, std::string where) {
    return Error{ErrorCode::FileFormat, std::move(message), 0, std::move(where)};
}

std::string child(const std::string& where, std::string_view key) {
    return where + "/" + std::string(key);
}

std::string child(const std::string& where, std::size_t index) {
    return where + "/" + std::to_string(index);
}

class Reader {
public:
    std::optional<Error> error;

    bool fail(std::string message, std::string where) {
        if (!error) {
            error = presetError(std::move(message), std::move(where));
        }
        return false;
    }

    bool text(const json& object, std::string_view key, const std::string& where, bool required,
              std::string& out) {
        const auto it = object.find(std::string(key));
        if (it == object.end()) {
            return !required ||
                   fail("the field \"" + std::string(key) + "\" is missing", child(where, key));
        }
        if (!it->is_string()) {
            return fail(std::string(key) + " must be a string", child(where, key));
        }
        out = it->get<std::string>();
        return true;
    }

    bool integer(const json& value, const std::string& where, std::int64_t& out) {
        if (!value.is_number_integer()) {
            return fail("must be an integer", where);
        }
        out = value.get<std::int64_t>();
        return true;
    }

    bool preset(const json& value, const std::string& where, KernelPreset& out) {
        if (!value.is_object()) {
            return fail("a kernel preset must be an object", where);
        }
        if (!text(value, "id", where, true, out.id) ||
            !text(value, "topic", where, true, out.topic) ||
            !text(value, "title", where, true, out.title) ||
            !text(value, "caption", where, false, out.caption) ||
            !text(value, "source", where, true, out.source) ||
            !text(value, "notesGpu", where, false, out.notesGpu)) {
            return false;
        }
        const auto kernel = value.find("kernel");
        if (kernel == value.end()) {
            return fail("the field \"kernel\" is missing", child(where, "kernel"));
        }
        auto parsed = kernelFromJson(*kernel, child(where, "kernel"));
        if (!parsed) {
            error = parsed.error();
            return false;
        }
        out.kernel = std::move(parsed).value();
        if (out.kernel.name.empty()) {
            out.kernel.name = out.id;
        }
        if (const auto sweeps = value.find("sweeps"); sweeps != value.end()) {
            const std::string at = child(where, "sweeps");
            if (!sweeps->is_array()) {
                return fail("sweeps must be an array", at);
            }
            for (std::size_t i = 0; i < sweeps->size(); ++i) {
                const json& entry = (*sweeps)[i];
                KernelSweep sweep;
                if (!entry.is_object() ||
                    !text(entry, "parameter", child(at, i), true, sweep.parameter)) {
                    return fail("a sweep is {\"parameter\", \"values\"}", child(at, i));
                }
                const auto values = entry.find("values");
                if (values == entry.end() || !values->is_array()) {
                    return fail("values must be an array", child(child(at, i), "values"));
                }
                for (std::size_t v = 0; v < values->size(); ++v) {
                    std::int64_t number = 0;
                    if (!integer((*values)[v], child(child(child(at, i), "values"), v), number)) {
                        return false;
                    }
                    sweep.values.push_back(number);
                }
                out.sweeps.push_back(std::move(sweep));
            }
        }
        if (const auto references = value.find("references"); references != value.end()) {
            const std::string at = child(where, "references");
            if (!references->is_array()) {
                return fail("references must be an array", at);
            }
            for (std::size_t i = 0; i < references->size(); ++i) {
                const json& entry = (*references)[i];
                const std::string rAt = child(at, i);
                KernelReference reference;
                if (!entry.is_object() || !text(entry, "label", rAt, true, reference.label) ||
                    !text(entry, "quantity", rAt, true, reference.quantity) ||
                    !text(entry, "unit", rAt, false, reference.unit)) {
                    return fail("a reference is {\"label\", \"quantity\", \"value\", \"unit\"}",
                                rAt);
                }
                const auto number = entry.find("value");
                if (number == entry.end() || !number->is_number()) {
                    return fail("value must be a number", child(rAt, "value"));
                }
                reference.value = number->get<double>();
                if (const auto parameters = entry.find("parameters"); parameters != entry.end()) {
                    if (!parameters->is_object()) {
                        return fail("parameters must be an object", child(rAt, "parameters"));
                    }
                    for (const auto& [name, v] : parameters->items()) {
                        std::int64_t n = 0;
                        if (!integer(v, child(child(rAt, "parameters"), name), n)) {
                            return false;
                        }
                        reference.parameters[name] = n;
                    }
                }
                out.references.push_back(std::move(reference));
            }
        }
        return true;
    }
};

} // namespace

Result<std::vector<KernelPreset>> parseKernelPresets(std::string_view jsonText) {
    auto document = detail::parseGuardedJson(jsonText);
    if (!document) {
        return document.error();
    }
    if (!document->is_array()) {
        return presetError("the kernel preset list must be a JSON array", "");
    }
    Reader reader;
    std::vector<KernelPreset> presets;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < document->size(); ++i) {
        KernelPreset preset;
        const std::string where = child(std::string(), i);
        if (!reader.preset((*document)[i], where, preset)) {
            return *reader.error;
        }
        if (!ids.insert(preset.id).second) {
            return presetError("the id \"" + preset.id + "\" is used twice", child(where, "id"));
        }
        presets.push_back(std::move(preset));
    }
    return presets;
}

const std::vector<KernelPreset>& builtinKernelPresets() {
    // The embedded list is checked by the tests (test_kernel.cpp); should it ever be broken, the
    // program runs with no kernel presets rather than failing.
    static const std::vector<KernelPreset> presets = [] {
        auto parsed = parseKernelPresets(detail::kKernelPresetsJson);
        return parsed ? std::move(parsed).value() : std::vector<KernelPreset>{};
    }();
    return presets;
}

const KernelPreset* findKernelPreset(std::string_view id) {
    const std::vector<KernelPreset>& presets = builtinKernelPresets();
    const auto it = std::find_if(presets.begin(), presets.end(),
                                 [&](const KernelPreset& p) { return p.id == id; });
    return it == presets.end() ? nullptr : &*it;
}

} // namespace warpscope
