// Pattern, session and deck files (docs/file-formats.md): the writers. They use a fixed key order
// and 2-space indentation, so files diff cleanly and round-trip through the readers of
// file_format_read.cpp.
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

using ordered_json = nlohmann::ordered_json;

using detail::kDeckFormatName;
using detail::kPatternFormatName;
using detail::kSessionFormatName;

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

std::string patternToJsonText(const NamedPattern& pattern) {
    return dumpPretty(patternToJson(pattern, true));
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
    if (!session.experiments.empty()) {
        // Written only when there are results, so that sessions without any stay as they were.
        ordered_json results = ordered_json::object();
        for (const auto& [key, value] : session.experiments) {
            results[key] = ordered_json(value);
        }
        out["experiments"] = std::move(results);
    }
    if (session.tmaLoad) {
        out["tmaLoad"] = detail::tmaLoadToJson(*session.tmaLoad);
    }
    return dumpPretty(out);
}

const std::vector<std::string>& deckViewNames() {
    // The app's own views, then every experiment of core's table (a new experiment's view is a
    // deck's view without an edit here).
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all = {"warp",    "bank", "block", "sweep",
                                        "metrics", "grid", "notes"};
        for (const experiments::Experiment& experiment : experiments::experiments()) {
            all.emplace_back(experiment.key);
        }
        return all;
    }();
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

Result<std::string> readTextFile(const std::string& path) {
    return readRegularFile(path, maxFileBytes());
}

} // namespace warpscope
