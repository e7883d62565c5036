// The experiments' shared field reads (result_fields.h).
#include "result_fields.h"

#include "../json_fields.h"

#include <limits>

namespace warpscope::experiments::detail {

using json = nlohmann::json;
using warpscope::detail::child;
using warpscope::detail::describe;

bool requiredNumber(AnswerReader& reader, const json& object, std::string_view key,
                    const std::string& where, double least, double& out) {
    const json* value = reader.member(object, key, where, true);
    if (value == nullptr) {
        return false;
    }
    if (!value->is_number() || !(value->get<double>() >= least)) {
        const std::string bound = least == std::numeric_limits<double>::lowest()
                                      ? std::string()
                                      : " of at least " + describe(json(least));
        return reader.fail("\"" + std::string(key) + "\" must be a number" + bound + "; found " +
                               describe(*value),
                           child(where, key));
    }
    out = value->get<double>();
    return true;
}

bool requiredInt(AnswerReader& reader, const json& object, std::string_view key,
                 const std::string& where, std::int64_t least, std::int64_t most,
                 std::int64_t& out) {
    const json* value = reader.member(object, key, where, true);
    if (value == nullptr) {
        return false;
    }
    const auto integer = warpscope::detail::asInt64(*value);
    if (!integer || *integer < least || *integer > most) {
        return reader.fail("\"" + std::string(key) + "\" must be an integer from " +
                               std::to_string(least) + " to " + std::to_string(most) + "; found " +
                               describe(*value),
                           child(where, key));
    }
    out = *integer;
    return true;
}

bool requiredPositiveInt64(AnswerReader& reader, const json& object, std::string_view key,
                           const std::string& where, std::int64_t& out) {
    if (reader.member(object, key, where, true) == nullptr ||
        !reader.optionalInt64(object, key, where, out)) {
        return false;
    }
    if (out <= 0) {
        return reader.fail("\"" + std::string(key) + "\" must be positive; found " +
                               std::to_string(out),
                           child(where, key));
    }
    return true;
}

const json* arrayMember(AnswerReader& reader, const json& object, std::string_view key,
                        const std::string& where, bool required) {
    const json* value = reader.member(object, key, where, required);
    if (value == nullptr) {
        return nullptr;
    }
    if (!value->is_array()) {
        reader.fail("\"" + std::string(key) + "\" must be an array; found " + describe(*value),
                    child(where, key));
        return nullptr;
    }
    return value;
}

} // namespace warpscope::experiments::detail
