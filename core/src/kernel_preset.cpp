// The built-in kernel presets: resources/kernels.json, compiled into the core as a string by
// resources/CMakeLists.txt and parsed once. Each entry's "kernel" is a kernel object in the form
// kernel files use (docs/file-formats.md), so a preset can be saved as a file as it is.
#include "warpscope/kernel_preset.h"

#include "json_guard.h"
#include "preset_list.h"

#include <nlohmann/json.hpp>

#include <utility>

namespace warpscope {

namespace {

using json = nlohmann::json;

using detail::child;

class KernelPresetReader : public detail::JsonFieldReader {
public:
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
        if (!stringMember(value, "id", where, true, out.id) ||
            !stringMember(value, "topic", where, true, out.topic) ||
            !stringMember(value, "title", where, true, out.title) ||
            !stringMember(value, "caption", where, false, out.caption) ||
            !stringMember(value, "source", where, true, out.source) ||
            !stringMember(value, "notesGpu", where, false, out.notesGpu)) {
            return false;
        }
        const auto kernel = value.find("kernel");
        if (kernel == value.end()) {
            return fail("the field \"kernel\" is missing", child(where, "kernel"));
        }
        auto parsed = kernelFromJson(*kernel, child(where, "kernel"));
        if (!parsed) {
            m_error = parsed.error();
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
                    !stringMember(entry, "parameter", child(at, i), true, sweep.parameter)) {
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
                if (!entry.is_object() ||
                    !stringMember(entry, "label", rAt, true, reference.label) ||
                    !stringMember(entry, "quantity", rAt, true, reference.quantity) ||
                    !stringMember(entry, "unit", rAt, false, reference.unit)) {
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
    KernelPresetReader reader;
    return detail::readPresetList<KernelPreset>(*document, "kernel preset list", reader);
}

const std::vector<KernelPreset>& builtinKernelPresets() {
    // Checked by test_kernel.cpp.
    static const std::vector<KernelPreset> presets =
        detail::entriesOrNone(parseKernelPresets(detail::kKernelPresetsJson));
    return presets;
}

const KernelPreset* findKernelPreset(std::string_view id) {
    return detail::findById(builtinKernelPresets(), id);
}

} // namespace warpscope
