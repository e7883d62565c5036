// ldmatrix / stmatrix accesses: their names, the lanes that give rows, their phases, and their
// validation (warpscope/matrix_access.h).
#include "warpscope/matrix_access.h"

#include <limits>
#include <string>

namespace warpscope {

namespace {

Error invalid(ErrorCode code, std::string message, std::string where) {
    return Error{code, std::move(message), 0, std::move(where)};
}

bool validMatrixCount(int matrices) {
    return matrices == 1 || matrices == 2 || matrices == 4;
}

std::string instruction(const AccessKind& kind) {
    return kind.op == AccessOp::Store ? "stmatrix" : "ldmatrix";
}

} // namespace

bool isMatrixAccess(const AccessKind& kind) {
    return kind.matrices != 0;
}

const char* opName(const AccessKind& kind) {
    if (!isMatrixAccess(kind)) {
        return toString(kind.op);
    }
    return kind.op == AccessOp::Store ? "stmatrix" : "ldmatrix";
}

std::optional<AccessOp> matrixOpFromString(std::string_view text) {
    if (text == "ldmatrix") {
        return AccessOp::Load;
    }
    if (text == "stmatrix") {
        return AccessOp::Store;
    }
    return std::nullopt;
}

std::uint32_t matrixRowLanes(int matrices) {
    const int rows = kMatrixRows * (validMatrixCount(matrices) ? matrices : 0);
    return rows >= kWarpSize ? ~0u : (1u << rows) - 1u;
}

std::vector<std::uint32_t> matrixPhases(int matrices) {
    // Measured on the H200 (docs/models.md, "ldmatrix and stmatrix"): every matrix is served on
    // its own, never together with another one, even when two matrices name the same rows.
    const int count = validMatrixCount(matrices) ? matrices : 0;
    std::vector<std::uint32_t> phases;
    phases.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        phases.push_back(0xffu << (kMatrixRows * i));
    }
    return phases;
}

std::optional<Error> checkMatrixKind(const AccessKind& kind) {
    if (!isMatrixAccess(kind)) {
        return std::nullopt;
    }
    const std::string name = instruction(kind);
    if (!validMatrixCount(kind.matrices)) {
        return invalid(ErrorCode::InvalidValue,
                       "an " + name + " moves 1, 2 or 4 matrices (.x1, .x2, .x4), not " +
                           std::to_string(kind.matrices),
                       "matrices");
    }
    if (kind.space != MemorySpace::Shared) {
        return invalid(ErrorCode::InvalidValue,
                       "an " + name +
                           " works on shared memory: its space must be \"shared\", "
                           "not \"" +
                           toString(kind.space) + "\"",
                       "space");
    }
    if (kind.op != AccessOp::Load && kind.op != AccessOp::Store) {
        return invalid(ErrorCode::InvalidValue,
                       "a matrix access is an ldmatrix (a load) or an stmatrix (a store)", "op");
    }
    if (kind.widthBytes != kMatrixRowBytes) {
        return invalid(ErrorCode::InvalidValue,
                       "each lane of an " + name +
                           " gives one 16-byte row (8 elements of 16 bits): width must be 16, "
                           "not " +
                           std::to_string(kind.widthBytes),
                       "width");
    }
    if (kind.cache != CachePath::Default) {
        return invalid(ErrorCode::InvalidValue,
                       "an " + name + " has no cache operator: cache must be \"default\"", "cache");
    }
    return std::nullopt;
}

Result<WarpAccess> validateMatrix(WarpAccess access) {
    if (auto error = checkMatrixKind(access.kind)) {
        return *error;
    }
    if (access.sharedAddresses) {
        return invalid(ErrorCode::InvalidValue,
                       "only an async copy (copy_async) has shared addresses", "shared address");
    }
    const std::string name = instruction(access.kind);
    const int rows = kMatrixRows * access.kind.matrices;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        const std::string where = "lane " + std::to_string(lane);
        if (lane >= rows) {
            if (address) {
                return invalid(ErrorCode::InvalidValue,
                               "an " + name + " of " + std::to_string(access.kind.matrices) +
                                   (access.kind.matrices == 1 ? " matrix" : " matrices") +
                                   " takes row addresses from lanes 0-" + std::to_string(rows - 1) +
                                   " only (PTX ISA); give lane " + std::to_string(lane) + " null",
                               where);
            }
            continue;
        }
        if (!address) {
            return invalid(ErrorCode::InvalidValue,
                           "lane " + std::to_string(lane) + " gives row " +
                               std::to_string(lane % kMatrixRows) + " of matrix " +
                               std::to_string(lane / kMatrixRows) +
                               ": it needs an address (every lane executes an " + name + ")",
                           where);
        }
        if (*address < 0) {
            return invalid(ErrorCode::NegativeAddress,
                           "row address " + std::to_string(*address) + " is negative", where);
        }
        if (*address > std::numeric_limits<std::int64_t>::max() - kMatrixRowBytes) {
            return invalid(ErrorCode::Overflow,
                           "row address " + std::to_string(*address) + " is too large", where);
        }
        if (*address % kMatrixRowBytes != 0) {
            return invalid(ErrorCode::Misaligned,
                           "row address " + std::to_string(*address) +
                               " is not 16-byte aligned: each lane of an " + name +
                               " gives the start of a 16-byte row",
                           where);
        }
    }
    return access;
}

bool isWellFormedMatrix(const WarpAccess& access) {
    if (checkMatrixKind(access.kind) || access.sharedAddresses) {
        return false;
    }
    const std::uint32_t rows = matrixRowLanes(access.kind.matrices);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        const bool row = ((rows >> lane) & 1u) != 0;
        if (address.has_value() != row ||
            (address && (*address < 0 ||
                         *address > std::numeric_limits<std::int64_t>::max() - kMatrixRowBytes ||
                         *address % kMatrixRowBytes != 0))) {
            return false;
        }
    }
    return true;
}

} // namespace warpscope
