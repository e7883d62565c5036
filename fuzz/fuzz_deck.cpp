// libFuzzer target for the lecture deck reader (core/src/file_format.cpp, deckFromJsonText): any
// bytes must give a Deck or an Error, never a crash, a hang or undefined behaviour; and a deck
// that was accepted must write out and read back to the same deck (the writer round-trips).
// Seeds: fuzz/corpus/deck/.
#include "fuzz_check.h"
#include "warpscope/file_format.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto deck = warpscope::deckFromJsonText(text);
    if (!deck) {
        check(!deck.error().message.empty());
        return 0;
    }
    check(!deck->slides.empty());
    for (const warpscope::DeckSlide& slide : deck->slides) {
        check(!slide.views.empty());
    }
    const std::string written = warpscope::deckToJsonText(deck.value());
    auto again = warpscope::deckFromJsonText(written);
    check(again.ok());
    check(warpscope::deckToJsonText(again.value()) == written);
    return 0;
}
