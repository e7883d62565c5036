// The JSON of a whole kernel's measurement (kernel_measurement.h).
#include "warpscope/protocol/kernel_measurement.h"

#include "../json_guard.h"
#include "answer_reader.h"

namespace warpscope::protocol {

using json = nlohmann::json;
using warpscope::detail::child;
using warpscope::detail::describe;

const char* l2FlushName(KernelMeasureOptions::Flush flush) {
    switch (flush) {
    case KernelMeasureOptions::Flush::Dirty:
        return "dirty";
    case KernelMeasureOptions::Flush::None:
        return "none";
    case KernelMeasureOptions::Flush::Clean:
        break;
    }
    return "clean";
}

json toRequestJson(const KernelMeasureOptions& options) {
    json object{{"counters", options.counters},
                {"warm", !options.cold},
                {"repetitions", options.repetitions}};
    if (options.perInstruction) {
        object["per_instruction"] = true;
    }
    return object;
}

namespace {

using Flush = KernelMeasureOptions::Flush;

json dimJson(const std::array<std::int64_t, 3>& d) {
    return json::array({d[0], d[1], d[2]});
}

json optionalJson(const std::optional<double>& value) {
    return value ? json(*value) : json(nullptr);
}

double spreadOf(const Stats& stats) {
    return stats.median > 0.0 ? 100.0 * (stats.max - stats.min) / stats.median : 0.0;
}

/// `value` as a share of `ceiling` in percent; empty when either is unknown.
std::optional<double> shareOf(const std::optional<double>& value,
                              const std::optional<double>& ceiling) {
    if (!value || !ceiling || !(*ceiling > 0.0)) {
        return std::nullopt;
    }
    return 100.0 * *value / *ceiling;
}

std::string timingLabel(const KernelMeasurement& m) {
    if (!m.cold) {
        return "warm: no flush between launches (data may be in L2)";
    }
    return m.flush == Flush::Dirty ? "cold: L2 filled with dirty unrelated lines before each launch"
                                   : "cold: L2 flushed before each launch";
}

json accessJson(const KernelAccessMeasurement& a) {
    return json{{"label", a.label},
                {"space", a.space},
                {"op", a.op},
                {"width", a.width},
                {"requests", numberJson(a.requests)},
                {"sectors", numberJson(a.sectors)},
                {"wavefronts", numberJson(a.wavefronts)},
                {"bankConflicts", numberJson(a.bankConflicts)},
                {"bytesRequested", numberJson(a.bytesRequested)},
                {"activeThreads", numberJson(a.activeThreads)},
                {"constantAddresses", numberJson(a.constantAddresses)}};
}

json bufferJson(const KernelBufferMeasurement& b) {
    return json{{"name", b.name},
                {"bytes", b.bytes},
                {"sectorsRead", b.sectorsRead},
                {"sectorsWritten", b.sectorsWritten},
                {"l2SectorsRead", b.l2SectorsRead},
                {"l2SectorsWritten", b.l2SectorsWritten}};
}

json timingJson(const KernelMeasurement& m) {
    json kernelMs(nullptr);
    if (m.kernelMs) {
        kernelMs = json{{"median", m.kernelMs->median},
                        {"min", m.kernelMs->min},
                        {"max", m.kernelMs->max},
                        {"samples", m.kernelMs->samples},
                        {"spreadPct", m.spreadPct ? *m.spreadPct : spreadOf(*m.kernelMs)}};
    }
    json samples = json::array();
    for (double ms : m.samplesMs) {
        samples.push_back(ms);
    }
    return json{{"kernelMs", std::move(kernelMs)},
                {"samplesMs", std::move(samples)},
                {"cold", m.cold},
                {"label", timingLabel(m)}};
}

// The reader. Every read keeps the first error (AnswerReader); the callers check it once.

class KernelReader : public detail::AnswerReader {
public:
    /// A number, absent or null leaving `out` empty.
    void number(const json& object, std::string_view key, const std::string& where,
                std::optional<double>& out) {
        const json* value = find(object, key);
        if (value == nullptr || value->is_null()) {
            return;
        }
        double read = 0.0;
        if (optionalNumber(object, key, where, read)) {
            out = read;
        }
    }

    const json* array(const json& object, std::string_view key, const std::string& where) {
        const json* value = find(object, key);
        if (value != nullptr && !value->is_array()) {
            fail(std::string(key) + " must be an array; found " + describe(*value),
                 child(where, key));
            return nullptr;
        }
        return value;
    }

    void dims(const json& object, std::string_view key, const std::string& where,
              std::array<std::int64_t, 3>& out) {
        const json* list = array(object, key, where);
        if (list == nullptr) {
            return;
        }
        const std::string at = child(where, key);
        if (list->size() != 3) {
            fail(std::string(key) + " must be [x, y, z]; found " + std::to_string(list->size()) +
                     " numbers",
                 at);
            return;
        }
        for (std::size_t i = 0; i < 3; ++i) {
            readInt64((*list)[i], child(at, i), key, out[i]);
        }
    }

    void parameters(const json& object, const std::string& where,
                    std::map<std::string, std::int64_t>& out) {
        const json* map = optionalObject(object, "parameters", where);
        if (map == nullptr) {
            return;
        }
        const std::string at = child(where, "parameters");
        for (const auto& [name, value] : map->items()) {
            std::int64_t read = 0;
            if (!readInt64(value, child(at, name), "a parameter's value", read)) {
                return;
            }
            out[name] = read;
        }
    }

    void strings(const json& object, std::string_view key, const std::string& where,
                 std::vector<std::string>& out) {
        const json* list = array(object, key, where);
        for (std::size_t i = 0; list != nullptr && i < list->size() && !error(); ++i) {
            std::string text;
            readString((*list)[i], child(child(where, key), i), key, text);
            out.push_back(std::move(text));
        }
    }

    void access(const json& value, const std::string& at, KernelAccessMeasurement& a) {
        if (!requireObject(value, at, "an access")) {
            return;
        }
        optionalString(value, "label", at, a.label);
        optionalString(value, "space", at, a.space);
        optionalString(value, "op", at, a.op);
        optionalInt(value, "width", at, a.width);
        optionalNumber(value, "requests", at, a.requests);
        optionalNumber(value, "sectors", at, a.sectors);
        optionalNumber(value, "wavefronts", at, a.wavefronts);
        optionalNumber(value, "bankConflicts", at, a.bankConflicts);
        optionalNumber(value, "bytesRequested", at, a.bytesRequested);
        optionalNumber(value, "activeThreads", at, a.activeThreads);
        optionalNumber(value, "constantAddresses", at, a.constantAddresses);
    }

    void buffer(const json& value, const std::string& at, KernelBufferMeasurement& b) {
        if (!requireObject(value, at, "a buffer")) {
            return;
        }
        optionalString(value, "name", at, b.name);
        optionalInt64(value, "bytes", at, b.bytes);
        optionalInt64(value, "sectorsRead", at, b.sectorsRead);
        optionalInt64(value, "sectorsWritten", at, b.sectorsWritten);
        optionalInt64(value, "l2SectorsRead", at, b.l2SectorsRead);
        optionalInt64(value, "l2SectorsWritten", at, b.l2SectorsWritten);
    }

    /// "timing"'s members, or an older answer's top-level kernelMs and cold.
    void timing(const json& object, const std::string& at, KernelMeasurement& m) {
        // null: not timed.
        const json* kernelMs = find(object, "kernelMs");
        if (kernelMs != nullptr && !kernelMs->is_null() &&
            optionalObject(object, "kernelMs", at) != nullptr) {
            const std::string statsAt = child(at, "kernelMs");
            std::optional<double> median;
            number(*kernelMs, "median", statsAt, median);
            Stats stats;
            optionalNumber(*kernelMs, "min", statsAt, stats.min);
            optionalNumber(*kernelMs, "max", statsAt, stats.max);
            optionalInt(*kernelMs, "samples", statsAt, stats.samples);
            number(*kernelMs, "spreadPct", statsAt, m.spreadPct);
            if (median) { // a record without a median was not timed
                stats.median = *median;
                m.kernelMs = stats;
            }
        }
        if (const json* samples = array(object, "samplesMs", at)) {
            for (std::size_t i = 0; i < samples->size() && !error(); ++i) {
                const json& sample = (*samples)[i];
                if (!sample.is_number()) {
                    fail("a sample must be a number; found " + describe(sample),
                         child(child(at, "samplesMs"), i));
                    return;
                }
                m.samplesMs.push_back(sample.get<double>());
            }
        }
        optionalBool(object, "cold", at, m.cold);
        std::string label; // follows from cold and the flush
        optionalString(object, "label", at, label);
    }

    void flush(const json& value, const std::string& where, KernelMeasurement& m) {
        bool countersCold = true;
        optionalBool(value, "countersCold", where, countersCold);
        std::string name;
        if (!optionalString(value, "l2Flush", where, name)) {
            return;
        }
        if (name.empty()) { // older answers: countersCold alone
            m.flush = countersCold ? Flush::Clean : Flush::None;
        } else if (name == "clean" || name == "dirty" || name == "none") {
            m.flush = name == "clean" ? Flush::Clean : name == "dirty" ? Flush::Dirty : Flush::None;
        } else {
            fail("l2Flush must be \"clean\", \"dirty\" or \"none\"; found \"" + name + "\"",
                 child(where, "l2Flush"));
        }
    }

    void perInstruction(const json& value, const std::string& where, KernelMeasurement& m) {
        const json* object = optionalObject(value, "perInstruction", where);
        if (object == nullptr) {
            return;
        }
        const std::string at = child(where, "perInstruction");
        KernelPerInstruction p;
        optionalBool(*object, "measured", at, p.measured);
        optionalString(*object, "source", at, p.source);
        optionalString(*object, "unavailableReason", at, p.unavailableReason);
        optionalNumber(*object, "ms", at, p.ms);
        // The rows' own reader (perInstructionRowsFromJsonText) reads what is in them.
        if (const json* rows = array(*object, "rows", at)) {
            p.rows = *rows;
        }
        m.perInstruction = std::move(p);
    }

    bool measurement(const json& value, const std::string& where, KernelMeasurement& m) {
        if (!requireObject(value, where, "a kernel's measurement")) {
            return false;
        }
        optionalString(value, "kernel", where, m.kernelName);
        parameters(value, where, m.parameters);
        dims(value, "grid", where, m.grid);
        dims(value, "block", where, m.block);
        optionalInt64(value, "threads", where, m.threads);
        optionalInt64(value, "warps", where, m.warps);
        optionalInt64(value, "sharedBytesPerBlock", where, m.sharedBytesPerBlock);
        optionalInt64(value, "deviceBytes", where, m.deviceBytes);
        strings(value, "memoryInstructions", where, m.memoryInstructions);
        numberMap(value, "predicted", where, m.predicted);
        if (const json* list = array(value, "accesses", where)) {
            m.accesses.resize(list->size());
            for (std::size_t i = 0; i < list->size() && !error(); ++i) {
                access((*list)[i], child(child(where, "accesses"), i), m.accesses[i]);
            }
        }
        if (const json* list = array(value, "buffers", where)) {
            m.buffers.resize(list->size());
            for (std::size_t i = 0; i < list->size() && !error(); ++i) {
                buffer((*list)[i], child(child(where, "buffers"), i), m.buffers[i]);
            }
        }
        numberMap(value, "counters", where, m.counters);
        optionalBool(value, "countersMeasured", where, m.countersMeasured);
        optionalString(value, "countersUnavailableReason", where, m.countersUnavailableReason);
        flush(value, where, m);
        if (const json* timingObject = optionalObject(value, "timing", where)) {
            timing(*timingObject, child(where, "timing"), m);
        } else {
            timing(value, where, m);
        }
        number(value, "bytesRequested", where, m.bytesRequested);
        number(value, "effectiveBandwidthGBs", where, m.effectiveBandwidthGBs);
        number(value, "copyBandwidthGBs", where, m.copyBandwidthGBs);
        number(value, "theoreticalBandwidthGBs", where, m.theoreticalBandwidthGBs);
        number(value, "shareOfCopyBandwidthPct", where, m.shareOfCopyBandwidthPct);
        number(value, "shareOfTheoreticalBandwidthPct", where, m.shareOfTheoreticalBandwidthPct);
        perInstruction(value, where, m);
        return !error();
    }
};

} // namespace

json toJson(const KernelMeasurement& m) {
    json parameters = json::object();
    for (const auto& [name, value] : m.parameters) {
        parameters[name] = value;
    }
    json instructions = json::array();
    for (const std::string& instruction : m.memoryInstructions) {
        instructions.push_back(instruction);
    }
    json accesses = json::array();
    for (const KernelAccessMeasurement& access : m.accesses) {
        accesses.push_back(accessJson(access));
    }
    json buffers = json::array();
    for (const KernelBufferMeasurement& buffer : m.buffers) {
        buffers.push_back(bufferJson(buffer));
    }
    const std::optional<double> shareOfCopy =
        m.shareOfCopyBandwidthPct ? m.shareOfCopyBandwidthPct
                                  : shareOf(m.effectiveBandwidthGBs, m.copyBandwidthGBs);
    const std::optional<double> shareOfTheoretical =
        m.shareOfTheoreticalBandwidthPct
            ? m.shareOfTheoreticalBandwidthPct
            : shareOf(m.effectiveBandwidthGBs, m.theoreticalBandwidthGBs);
    json answer{
        {"kernel", m.kernelName},
        {"parameters", std::move(parameters)},
        {"grid", dimJson(m.grid)},
        {"block", dimJson(m.block)},
        {"threads", m.threads},
        {"warps", m.warps},
        {"sharedBytesPerBlock", m.sharedBytesPerBlock},
        {"deviceBytes", m.deviceBytes},
        {"memoryInstructions", std::move(instructions)},
        {"predicted", numbersJson(m.predicted)},
        {"accesses", std::move(accesses)},
        {"buffers", std::move(buffers)},
        {"counters", numbersJson(m.counters)},
        {"countersMeasured", m.countersMeasured},
        {"countersUnavailableReason", m.countersUnavailableReason},
        {"countersCold", m.flush != Flush::None},
        {"l2Flush", l2FlushName(m.flush)},
        {"timing", timingJson(m)},
        {"bytesRequested", m.bytesRequested ? numberJson(*m.bytesRequested) : json(nullptr)},
        {"effectiveBandwidthGBs", optionalJson(m.effectiveBandwidthGBs)},
        {"copyBandwidthGBs", optionalJson(m.copyBandwidthGBs)},
        {"theoreticalBandwidthGBs", optionalJson(m.theoreticalBandwidthGBs)},
        {"shareOfCopyBandwidthPct", optionalJson(shareOfCopy)},
        {"shareOfTheoreticalBandwidthPct", optionalJson(shareOfTheoretical)},
    };
    if (m.perInstruction) {
        const KernelPerInstruction& p = *m.perInstruction;
        answer["perInstruction"] = json{{"measured", p.measured},
                                        {"source", p.source},
                                        {"unavailableReason", p.unavailableReason},
                                        {"ms", p.ms},
                                        {"rows", p.rows.is_array() ? p.rows : json::array()}};
    }
    return answer;
}

Result<KernelMeasurement> kernelMeasurementFromJson(const json& value, const std::string& pointer) {
    KernelReader reader;
    KernelMeasurement measurement;
    if (!reader.measurement(value, pointer, measurement)) {
        return *reader.error();
    }
    return measurement;
}

Result<KernelMeasurement> kernelMeasurementFromJsonText(std::string_view text) {
    return warpscope::detail::readGuardedJsonText(text, &kernelMeasurementFromJson);
}

} // namespace warpscope::protocol
