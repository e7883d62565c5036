// libFuzzer target for the pattern and session file readers (core/src/file_format.cpp): any bytes
// must give a value or an Error, never a crash, a hang or undefined behaviour; and whatever is
// accepted must write out and read back to the same text (the writers round-trip).
// Seeds: fuzz/corpus/file-format/.
#include "fuzz_check.h"
#include "warpscope/file_format.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    if (auto pattern = warpscope::patternFromJsonText(text)) {
        const std::string written = warpscope::patternToJsonText(pattern.value());
        auto again = warpscope::patternFromJsonText(written);
        check(again.ok());
        check(again.value() == pattern.value());
        check(warpscope::patternToJsonText(again.value()) == written);
    } else {
        check(!pattern.error().message.empty());
    }

    if (auto session = warpscope::sessionFromJsonText(text)) {
        const std::string written = warpscope::sessionToJsonText(session.value());
        auto again = warpscope::sessionFromJsonText(written);
        check(again.ok());
        // Compared as text: a NaN metric (written as null) is not equal to itself.
        check(warpscope::sessionToJsonText(again.value()) == written);
    } else {
        check(!session.error().message.empty());
    }
    return 0;
}
