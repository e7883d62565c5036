// Warp-wide evaluation of an expression: all 32 lanes at once, a lane-uniform value kept once
// (core/src/expression.cpp has the overview).
#include "warpscope/expression.h"

#include "expression_internal.h"

#include <algorithm>
#include <cstring>

namespace warpscope {

using namespace expression_impl;

namespace {

constexpr int kLanes = kWarpSize;
constexpr std::uint32_t kAllLanes = 0xFFFFFFFFu;

/// One value of the evaluation stack for the 32 lanes: a lane-uniform value keeps only v[0]; a
/// thread built-in not yet operated on refers to the environment's array instead of a copy.
struct LaneSlot {
    std::int64_t v[kLanes];
    const std::int64_t* ref;
    std::uint32_t poison; // lanes whose value is not valid (an error on a path they take)
    bool uniform;

    const std::int64_t* data() const { return ref != nullptr ? ref : v; }
};

/// Gives the slot its own copy of a referenced array, before lanes of it are written.
inline void materialize(LaneSlot& slot) {
    if (slot.ref != nullptr) {
        std::memcpy(slot.v, slot.ref, sizeof slot.v);
        slot.ref = nullptr;
    }
}

/// A pending && / || / ?: of the eager evaluation: its left side or condition, waiting for the
/// instruction at `target` to combine it with the other side.
struct LaneJoin {
    LaneSlot first;  // && ||: the left side; ?: the condition
    LaneSlot second; // ?: the value when true
    Op kind = Op::AndJump;
    std::int64_t target = -1; // -1: a ?: whose true branch is still being evaluated
};

inline void broadcast(LaneSlot& slot) {
    if (slot.uniform) {
        const std::int64_t value = slot.v[0];
        for (int i = 1; i < kLanes; ++i) {
            slot.v[i] = value;
        }
        slot.poison = slot.poison ? kAllLanes : 0;
        slot.uniform = false;
        slot.ref = nullptr;
    }
}

inline std::int64_t laneValue(const LaneSlot& slot, int lane) {
    return slot.uniform ? slot.v[0] : slot.data()[lane];
}

/// a = a op b over the lanes, with b given as an array (or nullptr and a scalar when uniform).
template <class F>
inline void laneBinary(LaneSlot& a, const std::int64_t* b, std::int64_t bScalar,
                       std::uint32_t bPoison, F f) {
    if (a.uniform && b == nullptr) {
        std::int64_t r = 0;
        if (!f(a.v[0], bScalar, r)) {
            a.poison = kAllLanes;
            r = 0;
        }
        a.v[0] = r;
        a.poison |= bPoison ? kAllLanes : 0;
        return;
    }
    // Failures are rare: note them per lane as bytes (no shifts in the loop), pack only if any.
    std::uint8_t failed[kLanes];
    std::uint8_t any = 0;
    if (a.uniform) {
        // A uniform left side against lanes: no need to spread it out first.
        const std::int64_t x = a.v[0];
        a.poison = a.poison ? kAllLanes : 0;
        a.uniform = false;
        a.ref = nullptr;
        for (int i = 0; i < kLanes; ++i) {
            std::int64_t r = 0;
            const auto laneFailed = static_cast<std::uint8_t>(!f(x, b[i], r));
            a.v[i] = r;
            failed[i] = laneFailed;
            any |= laneFailed;
        }
    } else if (b == nullptr) {
        const std::int64_t* x = a.data();
        a.ref = nullptr;
        for (int i = 0; i < kLanes; ++i) {
            std::int64_t r = 0;
            const auto laneFailed = static_cast<std::uint8_t>(!f(x[i], bScalar, r));
            a.v[i] = r;
            failed[i] = laneFailed;
            any |= laneFailed;
        }
    } else {
        const std::int64_t* x = a.data();
        a.ref = nullptr;
        for (int i = 0; i < kLanes; ++i) {
            std::int64_t r = 0;
            const auto laneFailed = static_cast<std::uint8_t>(!f(x[i], b[i], r));
            a.v[i] = r;
            failed[i] = laneFailed;
            any |= laneFailed;
        }
    }
    std::uint32_t bad = 0;
    if (any != 0) {
        for (int i = 0; i < kLanes; ++i) {
            bad |= static_cast<std::uint32_t>(failed[i]) << i;
        }
    }
    a.poison |= bad | bPoison;
}

inline bool safeDiv(std::int64_t a, std::int64_t b, std::int64_t& r) {
    if (b == 0 || (a == kInt64Min && b == -1)) {
        r = 0;
        return false;
    }
    r = a / b;
    return true;
}

inline bool safeMod(std::int64_t a, std::int64_t b, std::int64_t& r) {
    if (b == 0 || (a == kInt64Min && b == -1)) {
        r = 0;
        return false;
    }
    r = a % b;
    return true;
}

void applyLaneBinary(Op op, LaneSlot& a, const std::int64_t* b, std::int64_t bScalar,
                     std::uint32_t bPoison) {
    switch (op) {
    case Op::Add:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            return !__builtin_add_overflow(x, y, &r);
        });
        return;
    case Op::Sub:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            return !__builtin_sub_overflow(x, y, &r);
        });
        return;
    case Op::Mul:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            return !__builtin_mul_overflow(x, y, &r);
        });
        return;
    case Op::Div:
        laneBinary(a, b, bScalar, bPoison, safeDiv);
        return;
    case Op::Mod:
        laneBinary(a, b, bScalar, bPoison, safeMod);
        return;
    case Op::Lt:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            r = x < y;
            return true;
        });
        return;
    case Op::Eq:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            r = x == y;
            return true;
        });
        return;
    case Op::BitAnd:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            r = x & y;
            return true;
        });
        return;
    default:
        laneBinary(a, b, bScalar, bPoison, [op](std::int64_t x, std::int64_t y, std::int64_t& r) {
            if (!applyBinary(op, x, y, r)) {
                r = 0;
                return false;
            }
            return true;
        });
        return;
    }
}

void applyLaneUnary(Op op, LaneSlot& a) {
    materialize(a);
    const int lanes = a.uniform ? 1 : kLanes;
    std::uint32_t bad = 0;
    for (int i = 0; i < lanes; ++i) {
        std::int64_t r = 0;
        if (!applyUnary(op, a.v[i], r)) {
            r = 0;
            bad |= 1u << i;
        }
        a.v[i] = r;
    }
    a.poison |= a.uniform ? (bad ? kAllLanes : 0) : bad;
}

/// The array of a thread-dependent built-in, or nullptr for a uniform one.
const std::int64_t* laneVariable(const WarpEnvironment& env, std::int64_t offset) {
    if (offset == variableOffset(Lane)) {
        return env.lane;
    }
    if (offset == variableOffset(Gid)) {
        return env.gid;
    }
    if (offset == variableOffset(TidX)) {
        return env.tidX;
    }
    if (offset == variableOffset(TidY)) {
        return env.tidY;
    }
    if (offset == variableOffset(TidZ)) {
        return env.tidZ;
    }
    return nullptr;
}

/// The lanes where `taken(condition lane)` holds take `value(lane)`, poisoned where
/// `valuePoison` is; the others keep `top`'s value and poison. The condition's poison spreads to
/// every lane.
template <typename Taken, typename Value>
void joinLanes(const LaneSlot& condition, LaneSlot& top, std::uint32_t valuePoison, Taken taken,
               Value value) {
    broadcast(top);
    materialize(top);
    const std::int64_t* c = condition.data();
    std::uint32_t mask = 0;
    for (int i = 0; i < kLanes; ++i) {
        const bool t = taken(c[i]);
        mask |= static_cast<std::uint32_t>(t) << i;
        if (t) {
            top.v[i] = value(i);
        }
    }
    top.poison = condition.poison | (valuePoison & mask) | (top.poison & ~mask);
}

/// Combines a finished && / || / ?: with the value on top of the stack.
void join(LaneJoin& pending, LaneSlot& top) {
    const LaneSlot& first = pending.first;
    if (pending.kind == Op::AndJump || pending.kind == Op::OrJump) {
        const bool isAnd = pending.kind == Op::AndJump;
        if (first.uniform) {
            // The left side decides for every lane at once.
            const bool decides = isAnd ? first.v[0] == 0 : first.v[0] != 0;
            if (decides) {
                top.uniform = true;
                top.ref = nullptr;
                top.v[0] = isAnd ? 0 : 1;
                top.poison = first.poison;
            } else {
                top.poison |= first.poison ? kAllLanes : 0;
            }
            return;
        }
        // A lane whose left side decides takes 0 (&&) or 1 (||), not poisoned.
        const std::int64_t decided = isAnd ? 0 : 1;
        joinLanes(
            first, top, 0, [isAnd](std::int64_t left) { return isAnd ? left == 0 : left != 0; },
            [decided](int) { return decided; });
        return;
    }
    // ?: -- `first` the condition, `second` the value when true, `top` the value when false.
    const LaneSlot& whenTrue = pending.second;
    if (first.uniform) {
        if (first.v[0] != 0) {
            top = whenTrue;
        }
        top.poison |= first.poison ? kAllLanes : 0;
        return;
    }
    const std::uint32_t truePoison =
        whenTrue.uniform ? (whenTrue.poison ? kAllLanes : 0) : whenTrue.poison;
    joinLanes(
        first, top, truePoison, [](std::int64_t condition) { return condition != 0; },
        [&whenTrue](int lane) { return laneValue(whenTrue, lane); });
}

} // namespace

std::uint32_t Expression::evaluateWarp(const WarpEnvironment& env,
                                       const std::int64_t* parameterValues,
                                       std::size_t parameterCount, std::int64_t* out) const {
    if (!m_root || parameterCount < m_root->requiredParameters) {
        return kAllLanes;
    }
    const detail::Node& node = *m_root;
    // Deep expressions are rare: the stack and joins live on the heap only for them.
    constexpr std::size_t kInlineSlots = 12;
    std::array<LaneSlot, kInlineSlots> inlineStack;
    std::array<LaneJoin, 6> inlineJoins;
    std::vector<LaneSlot> heapStack;
    std::vector<LaneJoin> heapJoins;
    LaneSlot* stack = inlineStack.data();
    LaneJoin* joins = inlineJoins.data();
    const std::size_t depth = node.maxStack + 1;
    if (depth > kInlineSlots) {
        heapStack.resize(depth);
        stack = heapStack.data();
    }
    if (node.jumpCount > inlineJoins.size()) {
        heapJoins.resize(node.jumpCount);
        joins = heapJoins.data();
    }
    std::size_t sp = 0;
    std::size_t jp = 0;
    const std::size_t n = node.code.size();
    for (std::size_t pc = 0; pc <= n; ++pc) {
        while (jp > 0 && joins[jp - 1].target == static_cast<std::int64_t>(pc)) {
            join(joins[jp - 1], stack[sp - 1]);
            --jp;
        }
        if (pc == n) {
            break;
        }
        const Instr& in = node.code[pc];
        switch (in.op) {
        case Op::Const:
        case Op::Param: {
            LaneSlot& slot = stack[sp++];
            slot.uniform = true;
            slot.ref = nullptr;
            slot.poison = 0;
            slot.v[0] =
                in.op == Op::Const ? in.arg : parameterValues[static_cast<std::size_t>(in.arg)];
            break;
        }
        case Op::Var: {
            LaneSlot& slot = stack[sp++];
            slot.poison = 0;
            if (const std::int64_t* values = laneVariable(env, in.arg)) {
                slot.uniform = false;
                slot.ref = values;
            } else {
                slot.uniform = true;
                slot.ref = nullptr;
                slot.v[0] = readVariable(env.uniform, in.arg);
            }
            break;
        }
        case Op::Neg:
        case Op::BitNot:
        case Op::Not:
        case Op::Abs:
        case Op::ToBool:
            applyLaneUnary(in.op, stack[sp - 1]);
            break;
        case Op::Swizzle: {
            LaneSlot& slot = stack[sp - 1];
            materialize(slot);
            const Swizzle swizzle = unpackSwizzle(in.arg);
            for (int i = 0, lanes = slot.uniform ? 1 : kLanes; i < lanes; ++i) {
                slot.v[i] = swizzle.apply(slot.v[i]);
            }
            break;
        }
        case Op::AndJump:
        case Op::OrJump:
        case Op::JumpIfZero: {
            LaneJoin& pending = joins[jp++];
            pending.first = stack[--sp];
            pending.kind = in.op;
            pending.target = in.op == Op::JumpIfZero ? -1 : in.arg;
            break;
        }
        case Op::Jump: {
            // The end of a ?:'s true branch: keep its value, evaluate the false branch.
            LaneJoin& pending = joins[jp - 1];
            pending.second = stack[--sp];
            pending.target = in.arg;
            break;
        }
        default: { // binary operators
            const std::int64_t* b = nullptr;
            std::int64_t bScalar = 0;
            std::uint32_t bPoison = 0;
            LaneSlot* bSlot = nullptr;
            switch (in.src) {
            case Src::Stack:
                bSlot = &stack[--sp];
                if (bSlot->uniform) {
                    bScalar = bSlot->v[0];
                    bPoison = bSlot->poison ? kAllLanes : 0;
                } else {
                    b = bSlot->data();
                    bPoison = bSlot->poison;
                }
                break;
            case Src::Const:
                bScalar = in.arg;
                break;
            case Src::Var:
                b = laneVariable(env, in.arg);
                if (b == nullptr) {
                    bScalar = readVariable(env.uniform, in.arg);
                }
                break;
            case Src::Param:
                bScalar = parameterValues[static_cast<std::size_t>(in.arg)];
                break;
            }
            applyLaneBinary(in.op, stack[sp - 1], b, bScalar, bPoison);
            break;
        }
        }
    }
    const LaneSlot& result = stack[0];
    if (result.uniform) {
        for (int i = 0; i < kLanes; ++i) {
            out[i] = result.v[0];
        }
        return result.poison ? kAllLanes : 0;
    }
    std::memcpy(out, result.data(), sizeof result.v);
    return result.poison;
}

} // namespace warpscope
