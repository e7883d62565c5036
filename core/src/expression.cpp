// The pattern language: a one-pass parser that compiles an expression into a small stack-machine
// program, and the interpreter that runs it for one thread. Semantics follow CUDA C on signed
// 64-bit values; everything C leaves undefined is an Error naming the column (docs/
// pattern-language.md is the user's reference).
//
// The parts: expression_internal.h (the program's instructions, names, arithmetic and tokens),
// expression_names.cpp, expression_lexer.h, expression_compiler.cpp, expression_csource.cpp (the
// expression as C), this file (parsing's checks and one thread's interpreter) and
// expression_warp.cpp (all 32 lanes at once).
#include "warpscope/expression.h"

#include "expression_internal.h"

#include <algorithm>

namespace warpscope {

using namespace expression_impl;

const std::vector<std::string>& builtinNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        list.reserve(kVariables.size() + 1 + kFunctions.size());
        for (const VariableName& v : kVariables) {
            list.emplace_back(v.name);
        }
        list.emplace_back(kWarpSizeName);
        for (const FunctionName& f : kFunctions) {
            list.emplace_back(f.name);
        }
        return list;
    }();
    return names;
}

bool isValidParameterName(std::string_view name) {
    if (!isIdentifier(name)) {
        return false;
    }
    const auto& names = builtinNames();
    if (std::find(names.begin(), names.end(), name) != names.end()) {
        return false;
    }
    return std::find(kDottedBases.begin(), kDottedBases.end(), name) == kDottedBases.end();
}

Result<Expression> Expression::parse(std::string_view text,
                                     const std::vector<std::string>& parameterNames) {
    if (text.size() > kMaxTextLength) {
        return Error{ErrorCode::Syntax,
                     "expression is longer than " + std::to_string(kMaxTextLength) + " characters",
                     static_cast<int>(kMaxTextLength) + 1,
                     {}};
    }
    for (std::size_t i = 0; i < parameterNames.size(); ++i) {
        const std::string& name = parameterNames[i];
        if (!isValidParameterName(name)) {
            return Error{ErrorCode::InvalidValue,
                         quotedText(name) +
                             " cannot be a parameter name (a C identifier that is not "
                             "a built-in name or function)",
                         0,
                         {}};
        }
        if (std::find(parameterNames.begin(),
                      parameterNames.begin() + static_cast<std::ptrdiff_t>(i),
                      name) != parameterNames.begin() + static_cast<std::ptrdiff_t>(i)) {
            return Error{ErrorCode::InvalidValue,
                         "parameter " + quotedText(name) + " is declared twice",
                         0,
                         {}};
        }
    }
    auto program = compileExpression(text, parameterNames);
    if (!program) {
        return program.error();
    }
    Expression expression;
    expression.m_text = std::string(text);
    expression.m_root = std::move(program).value();
    return expression;
}

bool Expression::isUniform() const {
    return !m_root || m_root->uniform;
}

Result<std::int64_t> Expression::evaluate(const ThreadEnvironment& env,
                                          const std::vector<std::int64_t>& parameterValues) const {
    if (!m_root) {
        return Error{ErrorCode::Syntax, "empty expression", 1, {}};
    }
    const detail::Node& node = *m_root;
    if (parameterValues.size() < node.requiredParameters) {
        return Error{ErrorCode::InvalidValue,
                     "parameter " + quotedText(node.parameterNames[parameterValues.size()]) +
                         " has no value",
                     0,
                     {}};
    }
    std::array<std::int64_t, kInlineStack> inlineStack;
    std::unique_ptr<std::int64_t[]> heapStack;
    std::int64_t* stack = inlineStack.data();
    if (node.maxStack > kInlineStack) {
        heapStack = std::make_unique<std::int64_t[]>(node.maxStack);
        stack = heapStack.get();
    }
    std::size_t sp = 0;
    const std::int64_t* params = parameterValues.data();
    const Instr* const code = node.code.data();
    const Instr* const end = code + node.code.size();

    for (const Instr* ip = code; ip != end;) {
        const Instr& in = *ip++;
        switch (in.op) {
        case Op::Const:
            stack[sp++] = in.arg;
            break;
        case Op::Var:
            stack[sp++] = readVariable(env, in.arg);
            break;
        case Op::Param:
            stack[sp++] = params[in.arg];
            break;
        case Op::Neg:
        case Op::BitNot:
        case Op::Not:
        case Op::Abs:
        case Op::ToBool: {
            std::int64_t& a = stack[sp - 1];
            if (!applyUnary(in.op, a, a)) {
                return unaryError(in.op, a, in.column);
            }
            break;
        }
        case Op::Swizzle:
            stack[sp - 1] = unpackSwizzle(in.arg).apply(stack[sp - 1]);
            break;
        case Op::AndJump:
            if (stack[--sp] == 0) {
                stack[sp++] = 0;
                ip = code + in.arg;
            }
            break;
        case Op::OrJump:
            if (stack[--sp] != 0) {
                stack[sp++] = 1;
                ip = code + in.arg;
            }
            break;
        case Op::JumpIfZero:
            if (stack[--sp] == 0) {
                ip = code + in.arg;
            }
            break;
        case Op::Jump:
            ip = code + in.arg;
            break;
        default: { // binary operators
            std::int64_t b = 0;
            switch (in.src) {
            case Src::Stack:
                b = stack[--sp];
                break;
            case Src::Const:
                b = in.arg;
                break;
            case Src::Var:
                b = readVariable(env, in.arg);
                break;
            case Src::Param:
                b = params[in.arg];
                break;
            }
            std::int64_t& a = stack[sp - 1];
            std::int64_t r = 0;
            bool ok = false;
            // The common operators inline; the rest through applyBinary().
            if (in.op == Op::Add) {
                ok = !__builtin_add_overflow(a, b, &r);
            } else if (in.op == Op::Mul) {
                ok = !__builtin_mul_overflow(a, b, &r);
            } else {
                ok = applyBinary(in.op, a, b, r);
            }
            if (!ok) {
                return binaryError(in.op, a, b, in.column);
            }
            a = r;
            break;
        }
        }
    }
    return stack[0];
}

} // namespace warpscope
