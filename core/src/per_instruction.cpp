// Per-instruction truth: reading the recorded rows and naming the hardware's difference
// (per_instruction.h).
#include "warpscope/per_instruction.h"

#include "json_guard.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>

namespace warpscope {

namespace {

using nlohmann::json;

std::string grouped(std::uint64_t value) {
    std::string digits = std::to_string(value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return out;
}

/// `place` is "line 3" (a JSON-lines file) or "rows/2" (an array of rows in an answer).
Error rowError(const std::string& place, const std::string& field, const std::string& message) {
    Error error;
    error.code = ErrorCode::FileFormat;
    error.where = place + (field.empty() ? "" : ": " + field);
    error.message = message;
    return error;
}

/// A count field: a non-negative whole number (ncu writes some as 135916.0), or absent/null.
Result<std::optional<std::uint64_t>> countField(const json& object, const char* key,
                                                const std::string& line, const std::string& where) {
    if (!object.is_object() || !object.contains(key) || object.at(key).is_null()) {
        return std::optional<std::uint64_t>{};
    }
    const json& value = object.at(key);
    if (!value.is_number()) {
        return rowError(line, where + "/" + key, "must be a number");
    }
    const double number = value.get<double>();
    if (!(number >= 0.0) || number > 9.0e15 || std::floor(number) != number) {
        return rowError(line, where + "/" + key, "must be a whole number from 0 to 9e15");
    }
    return std::optional<std::uint64_t>(static_cast<std::uint64_t>(number));
}

const char* stringOr(const json& object, const char* key, const char* fallback) {
    if (object.contains(key) && object.at(key).is_string()) {
        return object.at(key).get_ref<const std::string&>().c_str();
    }
    return fallback;
}

/// One row object (a line of the recorded file, or an element of an answer's rows) and the
/// accesses its hardware counter adds up.
Result<std::pair<PerInstructionRow, std::vector<int>>> rowFromObject(const json& object,
                                                                     const std::string& place) {
    if (!object.is_object()) {
        return rowError(place, "", "each row must be a JSON object");
    }
    PerInstructionRow row;
    if (!object.contains("kernel") || !object.at("kernel").is_string()) {
        return rowError(place, "/kernel", "must be the kernel's name (a string)");
    }
    row.kernel = object.at("kernel").get<std::string>();
    if (!object.contains("access") || !object.at("access").is_number_integer() ||
        object.at("access").get<std::int64_t>() < 0 ||
        object.at("access").get<std::int64_t>() > 4096) {
        return rowError(place, "/access", "must be the access's index, 0 to 4096");
    }
    row.access = object.at("access").get<int>();
    row.label = stringOr(object, "label", "");
    row.space = stringOr(object, "space", "");
    row.op = stringOr(object, "op", "");
    row.mapping = stringOr(object, "mapping", "unmapped");
    row.sass = stringOr(object, "sass", "");
    std::vector<AccessCount> kinds;
    if (row.space == "global") {
        kinds = {AccessCount::Requests, AccessCount::Sectors};
    } else if (row.space == "shared") {
        kinds = {AccessCount::Wavefronts, AccessCount::Conflicts};
    } else {
        return rowError(place, "/space", "must be \"global\" or \"shared\"");
    }
    const json empty = json::object();
    const json& predicted = object.contains("predicted") ? object.at("predicted") : empty;
    const json& instruction = object.contains("instruction") ? object.at("instruction") : empty;
    const json& hardware = object.contains("hardware") ? object.at("hardware") : empty;
    for (AccessCount kind : kinds) {
        const char* key = accessCountName(kind);
        AccessCountComparison comparison;
        comparison.count = kind;
        auto p = countField(predicted, key, place, "/predicted");
        if (!p) {
            return p.error();
        }
        if (!p.value()) {
            return rowError(place, std::string("/predicted/") + key,
                            "the model's count is missing");
        }
        comparison.predicted = *p.value();
        auto i = countField(instruction, key, place, "/instruction");
        if (!i) {
            return i.error();
        }
        comparison.instruction = i.value();
        auto h = countField(hardware, key, place, "/hardware");
        if (!h) {
            return h.error();
        }
        comparison.hardware = h.value();
        row.counts.push_back(comparison);
    }
    if (object.contains("sassPatched")) {
        auto w = countField(object.at("sassPatched"), "wavefronts", place, "/sassPatched");
        auto c = countField(object.at("sassPatched"), "conflicts", place, "/sassPatched");
        if (!w) {
            return w.error();
        }
        if (!c) {
            return c.error();
        }
        row.sassPatchedWavefronts = w.value();
        row.sassPatchedConflicts = c.value();
    }
    std::vector<int> shared;
    if (object.contains("hardwareShared") && object.at("hardwareShared").is_array()) {
        for (const json& index : object.at("hardwareShared")) {
            if (!index.is_number_integer()) {
                return rowError(place, "/hardwareShared", "must list the accesses' indices");
            }
            shared.push_back(index.get<int>());
        }
    }
    if (shared.empty()) {
        shared.push_back(row.access);
    }
    auto executed = countField(instruction, "executed", place, "/instruction");
    if (!executed) {
        return executed.error();
    }
    row.executed = executed.value();
    auto pcOffset = countField(object, "pcOffset", place, "");
    if (!pcOffset) {
        return pcOffset.error();
    }
    row.pcOffset = pcOffset.value();
    return std::pair<PerInstructionRow, std::vector<int>>(std::move(row), std::move(shared));
}

/// Each hardware counter adds up the accesses of one space and op: compare it with the sum of
/// those accesses' own instruction counts.
void fillHardwareSums(std::vector<PerInstructionRow>& rows,
                      const std::vector<std::vector<int>>& sharing) {
    std::map<std::pair<std::string, int>, const PerInstructionRow*> byAccess;
    for (const PerInstructionRow& row : rows) {
        byAccess[{row.kernel, row.access}] = &row;
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t c = 0; c < rows[r].counts.size(); ++c) {
            std::uint64_t sum = 0;
            for (int index : sharing[r]) {
                const auto found = byAccess.find({rows[r].kernel, index});
                if (found != byAccess.end() && c < found->second->counts.size() &&
                    found->second->counts[c].instruction) {
                    sum += *found->second->counts[c].instruction;
                }
            }
            rows[r].counts[c].instructionSumOfHardware = sum;
            rows[r].counts[c].accessesInHardware = static_cast<int>(sharing[r].size());
        }
    }
}

/// The rows read one object at a time, then completed with their hardware sums.
class RowCollector {
public:
    std::optional<Error> add(const json& object, const std::string& place) {
        auto row = rowFromObject(object, place);
        if (!row) {
            return row.error();
        }
        m_rows.push_back(std::move(row.value().first));
        m_sharing.push_back(std::move(row.value().second));
        return std::nullopt;
    }
    std::vector<PerInstructionRow> finish() && {
        fillHardwareSums(m_rows, m_sharing);
        return std::move(m_rows);
    }

private:
    std::vector<PerInstructionRow> m_rows;
    std::vector<std::vector<int>> m_sharing; // per row: the accesses its hardware counter adds up
};

} // namespace

const char* accessCountName(AccessCount count) {
    switch (count) {
    case AccessCount::Requests:
        return "requests";
    case AccessCount::Sectors:
        return "sectors";
    case AccessCount::Wavefronts:
        return "wavefronts";
    case AccessCount::Conflicts:
        return "conflicts";
    }
    return "counts";
}

std::int64_t AccessCountComparison::hardwareExcess() const {
    if (!hardware || !instruction) {
        return 0;
    }
    return static_cast<std::int64_t>(*hardware) -
           static_cast<std::int64_t>(instructionSumOfHardware);
}

std::string excessExplanation(const AccessCountComparison& comparison) {
    const std::string name = accessCountName(comparison.count);
    if (!comparison.instruction) {
        return "no instruction-level count: no SASS instruction was matched to this access";
    }
    if (!comparison.hardware) {
        return "no hardware count was collected";
    }
    const std::int64_t excess = comparison.hardwareExcess();
    const bool alone = comparison.accessesInHardware <= 1;
    if (excess == 0) {
        return alone ? "equal to the instruction's own count"
                     : "equal to the sum of the " + std::to_string(comparison.accessesInHardware) +
                           " instructions' own counts";
    }
    if (excess > 0) {
        const std::string amount = grouped(static_cast<std::uint64_t>(excess));
        // Nsight Compute's hardware counters count every shared (or global) access the SM's L1
        // serves, the SASS-patched ones only what each instruction's own addresses cause
        // (docs/models.md, "Shared wavefronts the hardware counts beyond the instructions'").
        if (alone) {
            return amount + " extra " + name + " not caused by this access's addresses";
        }
        return amount + " extra " + name + " in the counter of these " +
               std::to_string(comparison.accessesInHardware) +
               " accesses, not caused by their addresses";
    }
    const std::string amount = grouped(static_cast<std::uint64_t>(-excess));
    return amount + " fewer " + name + " than the " +
           (alone ? std::string("instruction's own count")
                  : "sum of the " + std::to_string(comparison.accessesInHardware) +
                        " instructions' own counts") +
           " (the hardware counter missed them)";
}

Result<std::vector<PerInstructionRow>> perInstructionRowsFromJsonText(std::string_view arrayText) {
    auto parsed = detail::parseGuardedJson(arrayText);
    if (!parsed) {
        return parsed.error();
    }
    if (!parsed.value().is_array()) {
        return rowError("rows", "", "must be an array of per-access rows");
    }
    RowCollector rows;
    for (std::size_t i = 0; i < parsed.value().size(); ++i) {
        if (auto error = rows.add(parsed.value()[i], "rows/" + std::to_string(i))) {
            return *error;
        }
    }
    return std::move(rows).finish();
}

Result<std::vector<PerInstructionRow>> perInstructionRowsFromJsonLines(std::string_view text) {
    RowCollector rows;
    std::size_t lineNumber = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        auto parsed = detail::parseGuardedJson(line);
        if (!parsed) {
            // The guarded reader counts lines within this one line: say which line it is.
            Error error = parsed.error();
            std::string within = error.where;
            if (within.rfind("line 1, ", 0) == 0) {
                within = within.substr(8);
            }
            error.where = "line " + std::to_string(lineNumber) +
                          (within.empty() || within == "line 1" ? "" : ", " + within);
            return error;
        }
        if (auto error = rows.add(parsed.value(), "line " + std::to_string(lineNumber))) {
            return *error;
        }
    }
    return std::move(rows).finish();
}
} // namespace warpscope

namespace warpscope {

namespace {

/// Width in columns: ✓ is three bytes of UTF-8 and one column.
std::size_t columns(const std::string& text) {
    std::size_t count = 0;
    for (unsigned char c : text) {
        count += (c & 0xC0) != 0x80 ? 1 : 0;
    }
    return count;
}

std::string padRight(const std::string& text, std::size_t width) {
    const std::size_t used = columns(text);
    return used < width ? text + std::string(width - used, ' ') : text;
}

std::string padLeft(const std::string& text, std::size_t width) {
    const std::size_t used = columns(text);
    return used < width ? std::string(width - used, ' ') + text : text;
}

} // namespace

std::string perInstructionTableText(const std::vector<PerInstructionRow>& rows,
                                    std::string_view kernel) {
    std::string out;
    for (const PerInstructionRow& row : rows) {
        if (row.kernel != kernel) {
            continue;
        }
        if (out.empty()) {
            out = padRight("access", 34) + padRight("count", 11) + padLeft("model", 12) +
                  padLeft("instruction", 15) + padLeft("hardware", 13) + "  difference\n";
        }
        std::string name = std::to_string(row.access) + " " + row.space + " " + row.op;
        if (!row.label.empty()) {
            name += " (" + row.label + ")";
        }
        if (name.size() > 33) {
            name = name.substr(0, 30) + "...";
        }
        for (const AccessCountComparison& c : row.counts) {
            const std::string instruction =
                c.instruction ? grouped(*c.instruction) + (c.modelEqualsInstruction() ? " ✓" : "  ")
                              : std::string("-  ");
            out += padRight(name, 34) + padRight(accessCountName(c.count), 11) +
                   padLeft(grouped(c.predicted), 12) + padLeft(instruction, 15) +
                   padLeft(c.hardware ? grouped(*c.hardware) : std::string("-"), 13) + "  " +
                   excessExplanation(c) + "\n";
            name.clear();
        }
        out +=
            "    SASS: " + (row.sass.empty() ? std::string("(no instruction matched)") : row.sass) +
            " (matched by " + row.mapping + ")\n";
    }
    return out;
}

} // namespace warpscope
