// The pattern language's compiler: a one-pass recursive-descent parser that emits the stack
// machine's program, folding constants and checking each operator as C would (core/src/
// expression.cpp has the overview).
#include "expression_lexer.h"

#include <algorithm>
#include <utility>

namespace warpscope::expression_impl {
namespace {

class Compiler : private Lexer {
public:
    Compiler(std::string_view text, const std::vector<std::string>& parameterNames)
        : Lexer(text), m_parameterNames(parameterNames) {}

    Result<std::shared_ptr<const detail::Node>> compile() {
        auto node = std::make_shared<detail::Node>();
        m_node = node.get();
        node->parameterNames = m_parameterNames;
        if (!advance()) {
            return *m_error;
        }
        if (m_token.kind == Tok::End) {
            return Error{ErrorCode::Syntax, "empty expression", m_token.column, {}};
        }
        Operand result;
        if (!parseConditional(result)) {
            return *m_error;
        }
        if (m_token.kind != Tok::End) {
            return Error{ErrorCode::Syntax,
                         "unexpected " + describe(m_token) + " after a complete expression",
                         m_token.column,
                         {}};
        }
        computeMaxStack(*node);
        return std::shared_ptr<const detail::Node>(std::move(node));
    }

private:
    /// What the parser knows about a compiled subexpression: where its code starts, and its value
    /// when it is a constant (its code is then exactly one Const instruction).
    struct Operand {
        std::size_t start = 0;
        bool isConst = false;
        std::int64_t value = 0;
    };

    // -- code emission

    std::size_t emit(Op op, int column, std::int64_t arg = 0) {
        m_node->code.push_back(Instr{op, Src::Stack, column, arg});
        return m_node->code.size() - 1;
    }

    /// Emit a binary operator (or min/max) whose right operand `rhs` was just compiled: a lone
    /// constant, variable or parameter becomes the instruction's own operand.
    void emitBinary(Op op, int column, const Operand& rhs) {
        auto& code = m_node->code;
        const Instr last = code.back();
        if (rhs.start + 1 == code.size() &&
            (last.op == Op::Const || last.op == Op::Var || last.op == Op::Param)) {
            code.pop_back();
            const Src src =
                last.op == Op::Const ? Src::Const : (last.op == Op::Var ? Src::Var : Src::Param);
            code.push_back(Instr{op, src, column, last.arg});
            return;
        }
        emit(op, column);
    }

    Operand emitConst(std::size_t start, std::int64_t value) {
        m_node->code.resize(start);
        emit(Op::Const, 0, value);
        return Operand{start, true, value};
    }

    void patchJump(std::size_t at) {
        m_node->code[at].arg = static_cast<std::int64_t>(m_node->code.size());
    }

    bool enter(int column) {
        if (++m_nesting > kMaxNesting) {
            return fail(ErrorCode::Syntax,
                        "expression nested too deeply (more than " + std::to_string(kMaxNesting) +
                            " levels)",
                        column);
        }
        return true;
    }
    void leave() { --m_nesting; }

    // -- grammar

    /// conditional := binary ( '?' conditional ':' conditional )?
    bool parseConditional(Operand& out) {
        Operand condition;
        if (!parseBinary(condition)) {
            return false;
        }
        if (!isPunct("?")) {
            out = condition;
            return true;
        }
        const int questionColumn = m_token.column;
        if (!enter(questionColumn) || !advance()) {
            return false;
        }
        const std::size_t jumpToElse = emit(Op::JumpIfZero, questionColumn);
        Operand whenTrue;
        if (!parseConditional(whenTrue)) {
            return false;
        }
        if (!isPunct(":")) {
            return fail(ErrorCode::Syntax,
                        "expected ':' of the '?' at column " + std::to_string(questionColumn) +
                            ", found " + describe(m_token),
                        m_token.column);
        }
        if (!advance()) {
            return false;
        }
        const std::size_t jumpToEnd = emit(Op::Jump, questionColumn);
        patchJump(jumpToElse);
        Operand whenFalse;
        if (!parseConditional(whenFalse)) { // right-associative
            return false;
        }
        patchJump(jumpToEnd);
        leave();
        if (condition.isConst) {
            const Operand& chosen = condition.value != 0 ? whenTrue : whenFalse;
            if (chosen.isConst) {
                out = emitConst(condition.start, chosen.value);
                return true;
            }
        }
        out = Operand{condition.start, false, 0};
        return true;
    }

    struct PendingOp {
        const BinaryInfo* info = nullptr;
        int column = 0;
        std::size_t jumpAt = 0; // the AndJump / OrJump of && and ||
    };

    /// Operator-precedence parsing with explicit stacks, so that a long chain of operators does
    /// not recurse. Precedences on the operator stack strictly increase, so 16 slots suffice.
    bool parseBinary(Operand& out) {
        std::array<Operand, 16> operands;
        std::array<PendingOp, 16> pending;
        std::size_t operandCount = 0;
        std::size_t pendingCount = 0;

        auto reduce = [&] {
            const PendingOp op = pending[--pendingCount];
            const Operand rhs = operands[--operandCount];
            const Operand lhs = operands[operandCount - 1];
            Operand& result = operands[operandCount - 1];
            const Op code = op.info->op;
            if (code == Op::LogicalAnd || code == Op::LogicalOr) {
                const bool isAnd = code == Op::LogicalAnd;
                // Short-circuit: a constant left side that decides alone makes the right dead.
                if (lhs.isConst && ((isAnd && lhs.value == 0) || (!isAnd && lhs.value != 0))) {
                    result = emitConst(lhs.start, isAnd ? 0 : 1);
                    return;
                }
                std::int64_t folded = 0;
                if (lhs.isConst && rhs.isConst && applyBinary(code, lhs.value, rhs.value, folded)) {
                    result = emitConst(lhs.start, folded);
                    return;
                }
                emit(Op::ToBool, op.column);
                patchJump(op.jumpAt);
                result = Operand{lhs.start, false, 0};
                return;
            }
            std::int64_t folded = 0;
            if (lhs.isConst && rhs.isConst && applyBinary(code, lhs.value, rhs.value, folded)) {
                result = emitConst(lhs.start, folded);
                return;
            }
            // A constant that would fail (1 / 0) stays code: it may sit in a branch never taken.
            emitBinary(code, op.column, rhs);
            result = Operand{lhs.start, false, 0};
        };

        if (!parseUnary(operands[operandCount++])) {
            return false;
        }
        while (const BinaryInfo* info = findBinary(m_token)) {
            while (pendingCount > 0 &&
                   pending[pendingCount - 1].info->precedence >= info->precedence) {
                reduce();
            }
            PendingOp op{info, m_token.column, 0};
            if (info->op == Op::LogicalAnd) {
                op.jumpAt = emit(Op::AndJump, op.column);
            } else if (info->op == Op::LogicalOr) {
                op.jumpAt = emit(Op::OrJump, op.column);
            }
            pending[pendingCount++] = op;
            if (!advance()) {
                return false;
            }
            if (!parseUnary(operands[operandCount++])) {
                return false;
            }
        }
        while (pendingCount > 0) {
            reduce();
        }
        out = operands[0];
        return true;
    }

    /// unary := ( '-' | '+' | '~' | '!' )* primary, read without recursion.
    bool parseUnary(Operand& out) {
        struct Prefix {
            char symbol;
            int column;
        };
        std::vector<Prefix> prefixes;
        while (isPunct("-") || isPunct("+") || isPunct("~") || isPunct("!")) {
            prefixes.push_back(Prefix{m_token.text[0], m_token.column});
            if (!advance()) {
                return false;
            }
        }
        if (!parsePrimary(out)) {
            return false;
        }
        for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) {
            if (it->symbol == '+') {
                continue; // +x is x
            }
            const Op op = it->symbol == '-' ? Op::Neg : (it->symbol == '~' ? Op::BitNot : Op::Not);
            std::int64_t folded = 0;
            if (out.isConst && applyUnary(op, out.value, folded)) {
                out = emitConst(out.start, folded);
            } else {
                emit(op, it->column);
                out.isConst = false;
            }
        }
        return true;
    }

    bool parsePrimary(Operand& out) {
        out = Operand{m_node->code.size(), false, 0};
        switch (m_token.kind) {
        case Tok::Number: {
            const std::int64_t value = m_token.value;
            out = emitConst(out.start, value);
            return advance();
        }
        case Tok::Name:
            return parseName(out);
        case Tok::Punct:
            if (isPunct("(")) {
                const int openColumn = m_token.column;
                if (!enter(openColumn) || !advance()) {
                    return false;
                }
                if (!parseConditional(out)) {
                    return false;
                }
                if (!isPunct(")")) {
                    return fail(ErrorCode::Syntax,
                                "missing ')' for the '(' at column " + std::to_string(openColumn) +
                                    ", found " + describe(m_token),
                                m_token.column);
                }
                leave();
                return advance();
            }
            break;
        case Tok::End:
            break;
        }
        return fail(ErrorCode::Syntax, "expected a value, found " + describe(m_token),
                    m_token.column);
    }

    bool parseName(Operand& out) {
        const std::string name = m_token.text;
        const int column = m_token.column;
        if (!advance()) {
            return false;
        }
        const bool called = isPunct("(");
        if (const FunctionName* function = findFunction(name)) {
            if (!called) {
                return fail(ErrorCode::Syntax,
                            "'" + name + "' is a function: write " + std::string(function->usage),
                            column);
            }
            return parseCall(*function, column, out);
        }
        if (called) {
            if (findVariable(name) || name == kWarpSizeName || isParameter(name)) {
                return fail(ErrorCode::Syntax, "'" + name + "' is not a function", column);
            }
            return unknownName(name, column, true);
        }
        if (auto var = findVariable(name)) {
            emit(Op::Var, column, variableOffset(*var));
            if (isThreadDependent(*var)) {
                m_node->uniform = false;
            }
            return true;
        }
        if (name == kWarpSizeName) {
            out = emitConst(out.start, kWarpSize);
            return true;
        }
        for (std::size_t i = 0; i < m_parameterNames.size(); ++i) {
            if (m_parameterNames[i] == name) {
                emit(Op::Param, column, static_cast<std::int64_t>(i));
                m_node->requiredParameters = std::max(m_node->requiredParameters, i + 1);
                return true;
            }
        }
        return unknownName(name, column, false);
    }

    bool isParameter(const std::string& name) const {
        return std::find(m_parameterNames.begin(), m_parameterNames.end(), name) !=
               m_parameterNames.end();
    }

    bool unknownName(const std::string& name, int column, bool isCall) {
        std::string message =
            std::string(isCall ? "unknown function " : "unknown name ") + quotedText(name);
        if (auto suggestion = suggestName(name, m_parameterNames, isCall)) {
            message += "; did you mean '" + *suggestion + "'?";
        } else if (!isCall) {
            message += " (not a built-in name or a parameter)";
        }
        return fail(ErrorCode::UnknownName, std::move(message), column);
    }

    bool parseCall(const FunctionName& function, int column, Operand& out) {
        if (!enter(column) || !advance()) { // past '('
            return false;
        }
        std::array<Operand, kMaxArity> args;
        std::array<int, kMaxArity> argColumns{};
        int count = 0;
        if (!isPunct(")")) {
            while (true) {
                Operand arg;
                const int argColumn = m_token.column;
                if (!parseConditional(arg)) {
                    return false;
                }
                if (count < kMaxArity) {
                    args[static_cast<std::size_t>(count)] = arg;
                    argColumns[static_cast<std::size_t>(count)] = argColumn;
                }
                ++count;
                if (count > function.arity) {
                    return fail(ErrorCode::Syntax,
                                std::string(function.name) + "() takes " +
                                    std::to_string(function.arity) + " argument" +
                                    (function.arity == 1 ? "" : "s"),
                                column);
                }
                if (isPunct(",")) {
                    if (!advance()) {
                        return false;
                    }
                    continue;
                }
                if (isPunct(")")) {
                    break;
                }
                return fail(ErrorCode::Syntax,
                            "expected ',' or ')' in the call of " + std::string(function.name) +
                                "(), found " + describe(m_token),
                            m_token.column);
            }
        }
        if (count != function.arity) {
            return fail(ErrorCode::Syntax,
                        std::string(function.name) + "() takes " + std::to_string(function.arity) +
                            " argument" + (function.arity == 1 ? "" : "s") + ", not " +
                            std::to_string(count),
                        column);
        }
        leave();
        if (!advance()) { // past ')'
            return false;
        }
        if (function.op == Op::Swizzle) {
            return finishSwizzle(args, argColumns, column, out);
        }
        std::int64_t folded = 0;
        if (function.arity == 1) {
            if (args[0].isConst && applyUnary(function.op, args[0].value, folded)) {
                out = emitConst(out.start, folded);
                return true;
            }
        } else if (args[0].isConst && args[1].isConst &&
                   applyBinary(function.op, args[0].value, args[1].value, folded)) {
            out = emitConst(out.start, folded);
            return true;
        }
        if (function.arity == 2) {
            emitBinary(function.op, column, args[1]);
        } else {
            emit(function.op, column);
        }
        out.isConst = false;
        return true;
    }

    /// swizzle(x, B, M, S): B, M and S must be constants (their code, one Const each, is dropped
    /// and packed into the instruction); an error points at the first argument that is wrong.
    bool finishSwizzle(const std::array<Operand, kMaxArity>& args,
                       const std::array<int, kMaxArity>& argColumns, int column, Operand& out) {
        static constexpr std::array<std::string_view, 3> kRoles = {
            "B (the number of bits XORed)", "M (the lowest bit XORed)",
            "S (how far above them the bits XORed in lie)"};
        for (std::size_t i = 1; i < 4; ++i) {
            if (!args[i].isConst) {
                return fail(ErrorCode::InvalidValue,
                            "swizzle(x, B, M, S): " + std::string(kRoles[i - 1]) +
                                " must be a constant (a number or an expression of numbers)",
                            argColumns[i]);
            }
        }
        if (auto problem = checkSwizzle(args[1].value, args[2].value, args[3].value)) {
            return fail(ErrorCode::InvalidValue, problem->message,
                        argColumns[static_cast<std::size_t>(problem->argument)]);
        }
        const Swizzle swizzle{static_cast<int>(args[1].value), static_cast<int>(args[2].value),
                              static_cast<int>(args[3].value)};
        if (args[0].isConst) {
            out = emitConst(out.start, swizzle.apply(args[0].value));
            return true;
        }
        m_node->code.resize(args[1].start); // drop the constants' pushes
        emit(Op::Swizzle, column, packSwizzle(swizzle));
        out.isConst = false;
        return true;
    }

    /// The deepest the evaluation stack gets. Jumps only go forward, so one pass in order sees
    /// every instruction's stack depth before it runs.
    static void computeMaxStack(detail::Node& node) {
        const std::size_t n = node.code.size();
        std::vector<std::int64_t> depthAt(n + 1, -1);
        depthAt[0] = 0;
        std::int64_t maxDepth = 0;
        for (std::size_t pc = 0; pc < n; ++pc) {
            std::int64_t d = std::max<std::int64_t>(depthAt[pc], 0);
            const Instr& in = node.code[pc];
            auto reach = [&](std::size_t target, std::int64_t depth) {
                if (depthAt[target] < 0) {
                    depthAt[target] = depth;
                }
            };
            switch (in.op) {
            case Op::Const:
            case Op::Var:
            case Op::Param:
                ++d;
                break;
            case Op::AndJump:
            case Op::OrJump:
                reach(static_cast<std::size_t>(in.arg), d);
                --d;
                break;
            case Op::JumpIfZero:
                --d;
                reach(static_cast<std::size_t>(in.arg), d);
                break;
            case Op::Jump:
                reach(static_cast<std::size_t>(in.arg), d);
                maxDepth = std::max(maxDepth, d);
                continue; // no fall-through
            default:      // unary operators keep the depth; binary ones pop their right operand
                if (!isUnaryOp(in.op) && in.src == Src::Stack) {
                    --d;
                }
                break;
            }
            maxDepth = std::max(maxDepth, d);
            reach(pc + 1, d);
        }
        node.maxStack = static_cast<std::size_t>(maxDepth);
        node.jumpCount = static_cast<std::size_t>(
            std::count_if(node.code.begin(), node.code.end(), [](const Instr& in) {
                return in.op == Op::AndJump || in.op == Op::OrJump || in.op == Op::JumpIfZero;
            }));
    }

    const std::vector<std::string>& m_parameterNames;
    int m_nesting = 0;
    detail::Node* m_node = nullptr;
};

} // namespace

Result<std::shared_ptr<const detail::Node>>
compileExpression(std::string_view text, const std::vector<std::string>& parameterNames) {
    return Compiler(text, parameterNames).compile();
}

std::vector<Token> tokenizeExpression(std::string_view text) {
    return Lexer(text).tokenize();
}

} // namespace warpscope::expression_impl
