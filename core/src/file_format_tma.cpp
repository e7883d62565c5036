// A session's TMA tile load as JSON (file_format_tma.h).
#include "file_format_tma.h"

#include <array>
#include <cstdint>

namespace warpscope::detail {

namespace {

// cuTensorMapEncodeTiled's limits, as core's TMA layout states them (tma_layout.cpp).
constexpr std::int64_t kMaxBoxDim = 256;

bool readIntIn(JsonFieldReader& reader, const nlohmann::json& object, const char* key,
               const std::string& where, std::int64_t low, std::int64_t high, const char* rule,
               std::int64_t& out) {
    const nlohmann::json* value = reader.member(object, key, where, true);
    const std::string at = child(where, key);
    if (value == nullptr || !reader.readInt64(*value, at, key, out)) {
        return false;
    }
    if (out < low || out > high) {
        return reader.fail(std::string(key) + " must be " + rule + "; found " + describe(*value),
                           at);
    }
    return true;
}

} // namespace

nlohmann::ordered_json tmaLoadToJson(const TmaTileLoad& load) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    out["swizzle"] = toString(load.swizzle);
    out["elementBytes"] = load.elementBytes;
    out["box"] = nlohmann::ordered_json::array({load.boxInnerElements, load.boxRows});
    out["smemOffset"] = load.smemOffset;
    return out;
}

bool readTmaLoad(JsonFieldReader& reader, const nlohmann::json& value, const std::string& where,
                 TmaTileLoad& out) {
    if (!reader.requireObject(value, where, "a TMA tile load")) {
        return false;
    }
    std::string swizzleName;
    if (!reader.stringMember(value, "swizzle", where, true, swizzleName)) {
        return false;
    }
    const auto swizzle = parseTmaSwizzle(swizzleName);
    if (!swizzle) {
        return reader.fail("swizzle must be one of none, 32B, 64B, 128B, 128B_ATOM_32B, "
                           "128B_ATOM_32B_FLIP_8B and 128B_ATOM_64B (CUtensorMapSwizzle's "
                           "modes); found \"" +
                               swizzleName + "\"",
                           child(where, "swizzle"));
    }
    std::int64_t elementBytes = 0;
    if (!readIntIn(reader, value, "elementBytes", where, 1, 8,
                   "1, 2, 4 or 8 (cuTensorMapEncodeTiled's element sizes)", elementBytes)) {
        return false;
    }
    if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8) {
        return reader.fail("elementBytes must be 1, 2, 4 or 8 (cuTensorMapEncodeTiled's element "
                           "sizes); found " +
                               std::to_string(elementBytes),
                           child(where, "elementBytes"));
    }
    const nlohmann::json* box = reader.member(value, "box", where, true);
    const std::string boxAt = child(where, "box");
    if (box == nullptr) {
        return false;
    }
    if (!box->is_array() || box->size() != 2) {
        return reader.fail(
            "box must be [inner elements, rows], two integers; found " + describe(*box), boxAt);
    }
    std::array<std::int64_t, 2> dims{};
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const std::string at = child(boxAt, i);
        if (!reader.readInt64((*box)[i], at, i == 0 ? "the box's inner elements" : "the box's rows",
                              dims[i])) {
            return false;
        }
        if (dims[i] < 1 || dims[i] > kMaxBoxDim) {
            return reader.fail(std::string(i == 0 ? "the box's inner elements" : "the box's rows") +
                                   " must be 1 to 256 (cuTensorMapEncodeTiled's box limit); "
                                   "found " +
                                   std::to_string(dims[i]),
                               at);
        }
    }
    std::int64_t offset = 0;
    if (!readIntIn(reader, value, "smemOffset", where, 0, kTmaSharedLimitBytes,
                   "a shared-memory address from 0 to 232448 (227 KiB, the most a block of "
                   "compute capability 9.0 can use)",
                   offset)) {
        return false;
    }
    out = TmaTileLoad{static_cast<int>(elementBytes), static_cast<int>(dims[0]),
                      static_cast<int>(dims[1]), *swizzle, offset};
    return true;
}

} // namespace warpscope::detail
