// The JSON fields of ldmatrix / stmatrix patterns (matrix_access_json.h).
#include "matrix_access_json.h"

#include "json_fields.h"
#include "warpscope/matrix_access.h"

namespace warpscope::detail {

namespace {

const nlohmann::json* field(const nlohmann::json& object, const char* key) {
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
}

} // namespace

bool hasMatrixOp(const nlohmann::json& object) {
    const nlohmann::json* op = object.is_object() ? field(object, "op") : nullptr;
    return op != nullptr && op->is_string() &&
           matrixOpFromString(op->get_ref<const std::string&>()).has_value();
}

std::optional<Error> readMatrixKind(const nlohmann::json& object, const std::string& where,
                                    AccessKind& out) {
    const std::string& opText = object.at("op").get_ref<const std::string&>();
    out = AccessKind{};
    out.op = *matrixOpFromString(opText);

    const nlohmann::json* space = field(object, "space");
    if (space == nullptr) {
        return fileError("the field \"space\" is missing: an " + opText +
                             " pattern works on \"shared\" memory",
                         where);
    }
    if (!space->is_string() || space->get_ref<const std::string&>() != "shared") {
        return fileError("an " + opText +
                             " works on shared memory: space must be \"shared\"; "
                             "found " +
                             describe(*space),
                         child(where, "space"));
    }
    out.space = MemorySpace::Shared;

    const nlohmann::json* matrices = field(object, "matrices");
    if (matrices == nullptr) {
        return fileError("the field \"matrices\" is missing: an " + opText +
                             " moves 1, 2 or 4 matrices (.x1, .x2, .x4)",
                         where);
    }
    const std::optional<std::int64_t> count = asInt64(*matrices);
    if (!count || (*count != 1 && *count != 2 && *count != 4)) {
        return fileError("matrices must be 1, 2 or 4 (" + opText + " .x1, .x2, .x4); found " +
                             describe(*matrices),
                         child(where, "matrices"));
    }
    out.matrices = static_cast<int>(*count);

    const nlohmann::json* width = field(object, "width");
    if (width == nullptr) {
        return fileError("the field \"width\" is missing: an " + opText +
                             " row is 16 bytes (\"width\": 16)",
                         where);
    }
    const std::optional<std::int64_t> widthValue = asInt64(*width);
    if (!widthValue || *widthValue != kMatrixRowBytes) {
        return fileError("each lane of an " + opText +
                             " gives one 16-byte row (8 elements of 16 bits): width must be 16; "
                             "found " +
                             describe(*width),
                         child(where, "width"));
    }
    out.widthBytes = kMatrixRowBytes;

    if (const nlohmann::json* transpose = field(object, "transpose")) {
        if (!transpose->is_boolean()) {
            return fileError("transpose must be true or false (" + opText + " .trans); found " +
                                 describe(*transpose),
                             child(where, "transpose"));
        }
        out.transpose = transpose->get<bool>();
    }
    if (const nlohmann::json* cache = field(object, "cache")) {
        if (!cache->is_string() || cache->get_ref<const std::string&>() != "default") {
            return fileError("an " + opText +
                                 " has no cache operator: cache must be "
                                 "\"default\" or left out; found " +
                                 describe(*cache),
                             child(where, "cache"));
        }
    }
    return std::nullopt;
}

std::optional<Error> checkNoMatrixFields(const nlohmann::json& object, const std::string& where) {
    for (const char* key : {"matrices", "transpose"}) {
        if (object.is_object() && field(object, key) != nullptr) {
            return fileError(std::string("only an ldmatrix or stmatrix (\"op\": \"ldmatrix\" or "
                                         "\"stmatrix\") has \"") +
                                 key + "\"",
                             child(where, key));
        }
    }
    return std::nullopt;
}

void writeMatrixFields(const AccessKind& kind, nlohmann::ordered_json& out) {
    if (isMatrixAccess(kind)) {
        out["matrices"] = kind.matrices;
        out["transpose"] = kind.transpose;
    }
}

} // namespace warpscope::detail
