// The shared field reads of the protocol's answer types (answer_reader.h).
#include "answer_reader.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace warpscope::protocol::detail {

using warpscope::detail::child;
using warpscope::detail::describe;

bool AnswerReader::optionalNumber(const json& object, std::string_view key,
                                  const std::string& where, double& out) {
    const json* value = find(object, key);
    if (value == nullptr || value->is_null()) {
        return !m_error;
    }
    if (!value->is_number()) {
        return fail(std::string(key) + " must be a number; found " + describe(*value),
                    child(where, key));
    }
    out = value->get<double>();
    return !m_error;
}

bool AnswerReader::optionalInt(const json& object, std::string_view key, const std::string& where,
                               int& out) {
    std::int64_t value = out;
    if (!optionalInt64(object, key, where, value)) {
        return false;
    }
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
        return fail(std::string(key) + " is out of range; found " + std::to_string(value),
                    child(where, key));
    }
    out = static_cast<int>(value);
    return !m_error;
}

bool AnswerReader::optionalBool(const json& object, std::string_view key, const std::string& where,
                                bool& out) {
    const json* value = find(object, key);
    if (value == nullptr) {
        return !m_error;
    }
    if (!value->is_boolean()) {
        return fail(std::string(key) + " must be true or false; found " + describe(*value),
                    child(where, key));
    }
    out = value->get<bool>();
    return !m_error;
}

const nlohmann::json* AnswerReader::optionalObject(const json& object, std::string_view key,
                                                   const std::string& where) {
    const json* value = find(object, key);
    if (value == nullptr) {
        return nullptr;
    }
    if (!value->is_object()) {
        fail(std::string(key) + " must be a JSON object; found " + describe(*value),
             child(where, key));
        return nullptr;
    }
    return value;
}

bool AnswerReader::numberMap(const json& object, std::string_view key, const std::string& where,
                             std::map<std::string, double>& out) {
    const json* map = optionalObject(object, key, where);
    if (map == nullptr) {
        return !m_error;
    }
    const std::string at = child(where, key);
    for (const auto& [name, value] : map->items()) {
        if (!value.is_number()) {
            return fail("the value of \"" + name + "\" must be a number; found " + describe(value),
                        child(at, name));
        }
        out[name] = value.get<double>();
    }
    return !m_error;
}

bool AnswerReader::optionalStats(const json& object, std::string_view key, const std::string& where,
                                 std::optional<Stats>& out) {
    const json* value = optionalObject(object, key, where);
    if (value == nullptr) {
        return !m_error;
    }
    const std::string at = child(where, key);
    Stats stats;
    if (!optionalNumber(*value, "median", at, stats.median) ||
        !optionalNumber(*value, "min", at, stats.min) ||
        !optionalNumber(*value, "max", at, stats.max) ||
        !optionalInt(*value, "samples", at, stats.samples)) {
        return false;
    }
    out = stats;
    return true;
}

} // namespace warpscope::protocol::detail
