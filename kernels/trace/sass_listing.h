// The SASS of a traced kernel, read from nvdisasm's listing of its module's cubin: each
// instruction's byte offset in its function, its text, and the source file and line that
// nvdisasm's line information (-g) gives when the program was built with -lineinfo.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace warpscope::trace {

struct SassInstruction {
    std::string text; // "LDG.E R2, desc[UR4][R2.64]"
    std::string sourceFile;
    std::int64_t sourceLine = 0;
};

/// Offset in the function -> instruction, for the function named `function` (its mangled name,
/// as the listing's ".text.NAME:" labels give it). Empty when the listing lacks it.
std::map<std::uint64_t, SassInstruction> parseSassListing(std::string_view listing,
                                                          std::string_view function);

} // namespace warpscope::trace
