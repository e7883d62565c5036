// libFuzzer target for the CUDA source the probe generates for a whole kernel
// (kernels/protocol/kernel_codegen.cpp): a kernel's name and its accesses' labels come from outside
// (a kernel file, a session, a request) and are written into the source as comments, so they must
// not change what the compiler reads. Any bytes become a name and labels (split at NUL bytes) on
// one of three kernel presets; the source generated with them must tokenize exactly as the source
// generated with plain ones: the same tokens, comments removed and newlines kept, after the
// compiler's own line splicing (a backslash at the end of a line continues it, even a comment).
// A name that is no identifier must be refused by resolveKernel, and the comment must hold even
// when it is not (the name is set on the resolved kernel too). No GPU or compiler is needed: the
// GPU machine's check is tests/probe/check_kernel_sass.py. Seeds: fuzz/corpus/kernel-codegen/.
#include "fuzz_check.h"
#include "kernel_codegen.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

/// Phase 2 of translation: a backslash followed by a newline joins the two lines.
std::string spliceLines(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
            ++i;
            continue;
        }
        out += text[i];
    }
    return out;
}

/// The tokens a C++ compiler sees, roughly but strictly enough: comments removed, string and
/// character literals whole, identifiers and numbers whole, every other character alone, and
/// each newline outside a comment a token of its own (so a directive's line is kept). An
/// unterminated comment or literal is a token that no well-formed source has.
std::vector<std::string> tokens(std::string_view raw) {
    const std::string text = spliceLines(raw);
    std::vector<std::string> out;
    std::size_t i = 0;
    const std::size_t n = text.size();
    auto isWord = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.';
    };
    while (i < n) {
        const char c = text[i];
        if (c == '\n') {
            out.emplace_back("\n");
            ++i;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++i;
        } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
            while (i < n && text[i] != '\n') {
                ++i;
            }
        } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
            const std::size_t end = text.find("*/", i + 2);
            if (end == std::string::npos) {
                out.emplace_back("<unterminated comment>");
                return out;
            }
            out.emplace_back(" "); // a comment is one space
            i = end + 2;
        } else if (c == '"' || c == '\'') {
            std::size_t j = i + 1;
            while (j < n && text[j] != c && text[j] != '\n') {
                j += text[j] == '\\' ? 2 : 1;
            }
            if (j >= n || text[j] != c) {
                out.emplace_back("<unterminated literal>");
                return out;
            }
            out.emplace_back(text.substr(i, j + 1 - i));
            i = j + 1;
        } else if (isWord(c)) {
            std::size_t j = i;
            while (j < n && isWord(text[j])) {
                ++j;
            }
            out.emplace_back(text.substr(i, j - i));
            i = j;
        } else {
            out.emplace_back(1, c);
            ++i;
        }
    }
    return out;
}

/// Removes the " " tokens of comments next to each other or to a newline, so that a comment
/// that is one space or none at all compares equal (plain labels give fewer comments).
std::vector<std::string> withoutCommentSpaces(std::vector<std::string> list) {
    std::vector<std::string> out;
    for (std::string& t : list) {
        if (t != " ") {
            out.push_back(std::move(t));
        }
    }
    return out;
}

std::vector<std::string_view> splitAtNul(std::string_view text) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '\0') {
            parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

const char* const kPresets[] = {"readoffset", "texture-tiles", "constant-divergent",
                                "transpose-tiled-padded"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const warpscope::KernelPreset* preset =
        warpscope::findKernelPreset(kPresets[data[0] % (sizeof(kPresets) / sizeof(*kPresets))]);
    check(preset != nullptr);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::vector<std::string_view> parts = splitAtNul(text);

    warpscope::Kernel plain = preset->kernel;
    auto baseline = warpscope::resolveKernel(plain);
    check(baseline.ok());
    const auto expected = withoutCommentSpaces(
        tokens(warpscope::probe::generateKernelSource(baseline.value()).source));

    warpscope::Kernel hostile = plain;
    hostile.name = std::string(parts[0]);
    for (std::size_t i = 0; i < hostile.accesses.size(); ++i) {
        hostile.accesses[i].label = std::string(parts[(i + 1) % parts.size()]);
    }
    // Through the front door: a name that is no identifier is refused with a message.
    auto resolved = warpscope::resolveKernel(hostile);
    if (resolved) {
        const auto got = withoutCommentSpaces(
            tokens(warpscope::probe::generateKernelSource(resolved.value()).source));
        check(got == expected);
    } else {
        check(!resolved.error().message.empty());
    }
    // And past it: whatever the name and labels, the generated source reads the same.
    warpscope::ResolvedKernel forced = baseline.value();
    forced.kernel.name = hostile.name;
    forced.kernel.accesses = hostile.accesses;
    const auto got =
        withoutCommentSpaces(tokens(warpscope::probe::generateKernelSource(forced).source));
    check(got == expected);
    return 0;
}
