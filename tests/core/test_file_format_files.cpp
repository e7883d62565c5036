// Pattern and session files: the sample files in tests/data/files, readTextFile, and lecture decks.
#include "file_format_test_support.h"

namespace warpscope {
namespace {

using namespace file_format_test;

// ---- Sample files in tests/data/files ------------------------------------------------------

TEST(FileFormat, GoodSampleFilesLoad) {
    for (const char* name :
         {"good_pattern_coalesced.json", "good_pattern_inactive_lanes.json",
          "good_pattern_expression.json", "good_pattern_expression_minimal.json"}) {
        auto text = readTextFile(dataPath(name));
        ASSERT_TRUE(text.ok()) << text.error().describe();
        auto pattern = patternFromJsonText(text.value());
        EXPECT_TRUE(pattern.ok()) << name << ": " << pattern.error().describe();
    }
    auto coalesced =
        patternFromJsonText(readTextFile(dataPath("good_pattern_coalesced.json")).value());
    ASSERT_TRUE(coalesced.ok());
    EXPECT_EQ(coalesced->title, "Aligned and coalesced");
    EXPECT_EQ(coalesced->pattern.addresses[31], 124);

    auto minimal =
        patternFromJsonText(readTextFile(dataPath("good_pattern_expression_minimal.json")).value());
    ASSERT_TRUE(minimal.ok());
    EXPECT_EQ(minimal->pattern.source->blockDim, (Dim3{32, 32, 1}));
    EXPECT_EQ(minimal->pattern.source->warpIndex, 1);

    auto session = sessionFromJsonText(readTextFile(dataPath("good_session.json")).value());
    ASSERT_TRUE(session.ok()) << session.error().describe();
    EXPECT_EQ(session->model, "textbook");
    EXPECT_EQ(session->currentEntry, 1);
    ASSERT_EQ(session->entries.size(), 2u);
    EXPECT_EQ(session->entries[0].measurements.at(0).metrics.at(
                  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
              4.0);
    EXPECT_EQ(session->viewSettings.at("zoom"), "1.5");
}

TEST(FileFormat, BadSampleFilesNameThePlace) {
    struct Row {
        const char* file;
        bool session;
        const char* where;
    };
    const Row rows[] = {
        {"bad_truncated.json", false, "line 5, column 12"},
        {"bad_newer_version.json", false, "/version"},
        {"bad_wrong_format.json", false, "/format"},
        {"bad_31_addresses.json", false, "/addresses"},
        {"bad_negative_address.json", false, "/addresses/1"},
        {"bad_width_3.json", false, "/width"},
        {"bad_not_utf8.json", false, "line 1, column 55"},
        {"bad_session_entry_width.json", true, "/entries/3/pattern/width"},
    };
    for (const Row& row : rows) {
        auto text = readTextFile(dataPath(row.file));
        ASSERT_TRUE(text.ok()) << text.error().describe();
        const Error error = row.session ? sessionFromJsonText(text.value()).error()
                                        : patternFromJsonText(text.value()).error();
        EXPECT_EQ(error.code, ErrorCode::FileFormat) << row.file;
        EXPECT_EQ(error.where, row.where) << row.file << ": " << error.describe();
    }
}

// ---- readTextFile --------------------------------------------------------------------------

TEST(FileFormat, ReadTextFileNamesThePath) {
    const std::string missing = dataPath("does_not_exist.json");
    auto read = readTextFile(missing);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, ErrorCode::Io);
    EXPECT_EQ(read.error().where, missing);

    auto directory = readTextFile(std::string(WARPSCOPE_TEST_DATA_DIR));
    ASSERT_FALSE(directory.ok());
    EXPECT_EQ(directory.error().code, ErrorCode::Io);
    EXPECT_NE(directory.error().message.find("directory"), std::string::npos);
}

TEST(FileFormat, ReadTextFileIsBinarySafeAndLimited) {
    const auto dir = std::filesystem::temp_directory_path();
    const std::string small = (dir / "warpscope_test_binary.bin").string();
    const std::string bytes("a\0b\r\n\xFF", 6);
    {
        std::ofstream out(small, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    auto read = readTextFile(small);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read.value(), bytes);
    std::filesystem::remove(small);

    const std::string big = (dir / "warpscope_test_big.bin").string();
    { std::ofstream out(big, std::ios::binary); }
    std::filesystem::resize_file(big, 17u * 1024u * 1024u); // sparse: costs no disk
    auto tooBig = readTextFile(big);
    std::filesystem::remove(big);
    ASSERT_FALSE(tooBig.ok());
    EXPECT_EQ(tooBig.error().code, ErrorCode::Io);
    EXPECT_EQ(tooBig.error().where, big);
    EXPECT_NE(tooBig.error().message.find("16 MiB"), std::string::npos);
}

// ---- Decks -----------------------------------------------------------------------------------

TEST(FileFormat, DeckSlidesFromPresetsAndWrittenPatterns) {
    const std::string text = R"({"format": "warpscope-deck", "version": 1, "title": "Memory",
        "slides": [
          {"preset": "readsegment-offset-11", "views": ["warp", "metrics"]},
          {"pattern": )" + bareWith("\"title\": \"mine\"") +
                             R"(, "caption": "my words"},
          {"preset": "shared-tile-column", "title": "Columns conflict"}]})";
    const auto deck = deckFromJsonText(text);
    ASSERT_TRUE(deck.ok()) << deck.error().describe();
    ASSERT_EQ(deck.value().slides.size(), 3u);
    const DeckSlide& first = deck.value().slides[0];
    EXPECT_EQ(first.presetId, "readsegment-offset-11");
    EXPECT_EQ(first.title, first.pattern.title);
    EXPECT_FALSE(first.title.empty());
    EXPECT_EQ(first.views, (std::vector<std::string>{"warp", "metrics"}));
    const DeckSlide& second = deck.value().slides[1];
    EXPECT_TRUE(second.presetId.empty());
    EXPECT_EQ(second.title, "mine");
    EXPECT_EQ(second.caption, "my words");
    EXPECT_EQ(second.views, std::vector<std::string>{"warp"}); // global: the warp view
    const DeckSlide& third = deck.value().slides[2];
    EXPECT_EQ(third.title, "Columns conflict");
    EXPECT_EQ(third.views, std::vector<std::string>{"bank"}); // shared: the bank view

    const auto again = deckFromJsonText(deckToJsonText(deck.value()));
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(again.value(), deck.value());
}

// Slides of whole kernels: a kernel preset's first access, the grid and notes views, the notes
// table a "notes" view charts; they round-trip, and a wrong kernel id names its place.
TEST(FileFormat, DeckSlidesOfKernels) {
    const std::string text = R"({"format": "warpscope-deck", "version": 1, "slides": [
          {"kernel": "transpose-naivecol-cg", "views": ["grid", "warp"]},
          {"kernel": "readsegment", "views": ["notes"], "notes": "readsegment",
           "title": "Offsets"}]})";
    const auto deck = deckFromJsonText(text);
    ASSERT_TRUE(deck.ok()) << deck.error().describe();
    ASSERT_EQ(deck.value().slides.size(), 2u);
    const DeckSlide& grid = deck.value().slides[0];
    EXPECT_EQ(grid.kernelPresetId, "transpose-naivecol-cg");
    EXPECT_TRUE(grid.presetId.empty());
    EXPECT_TRUE(grid.notesExperiment.empty());
    EXPECT_EQ(grid.views, (std::vector<std::string>{"grid", "warp"}));
    // The single-warp views show the kernel's first access, block 0, warp 0.
    const KernelPreset* naiveCol = findKernelPreset("transpose-naivecol-cg");
    ASSERT_NE(naiveCol, nullptr);
    EXPECT_EQ(grid.title, naiveCol->title);
    ASSERT_TRUE(grid.pattern.pattern.source.has_value());
    EXPECT_EQ(grid.pattern.pattern.source->addressExpression,
              naiveCol->kernel.accesses.front().addressExpression);
    const DeckSlide& notes = deck.value().slides[1];
    EXPECT_EQ(notes.notesExperiment, "readsegment");
    EXPECT_EQ(notes.title, "Offsets");
    const auto again = deckFromJsonText(deckToJsonText(deck.value()));
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(again.value(), deck.value());

    const std::string head = R"({"format": "warpscope-deck", "version": 1, "slides": )";
    auto bad = deckFromJsonText(head + R"([{"kernel": "no-such-kernel"}]})");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "/slides/0/kernel");
    EXPECT_NE(bad.error().message.find("no-such-kernel"), std::string::npos);
    bad = deckFromJsonText(head + R"([{"kernel": "readsegment", "preset": "stride-2"}]})");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("exactly one"), std::string::npos);
    bad = deckFromJsonText(head + R"([{"kernel": "readsegment", "notes": 7}]})");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().where.find("/slides/0"), std::string::npos) << bad.error().describe();
}

TEST(FileFormat, BadDecksNameThePlace) {
    const auto errorOf = [](const std::string& text) {
        const auto deck = deckFromJsonText(text);
        return deck.ok() ? std::string("accepted") : deck.error().describe();
    };
    const std::string head = R"({"format": "warpscope-deck", "version": 1, "slides": )";
    EXPECT_NE(errorOf(head + "[]}").find("/slides"), std::string::npos);
    EXPECT_NE(errorOf(head + R"([{"preset": "no-such"}]})").find("/slides/0/preset"),
              std::string::npos);
    EXPECT_NE(errorOf(head + R"([{"preset": "stride-2", "views": ["warp", "pie"]}]})")
                  .find("/slides/0/views/1"),
              std::string::npos);
    EXPECT_NE(errorOf(head + R"([{"preset": "stride-2", "views": ["warp", "warp"]}]})")
                  .find("listed twice"),
              std::string::npos);
    EXPECT_NE(errorOf(head + R"([{"title": "nothing"}]})").find("either"), std::string::npos);
    EXPECT_NE(errorOf(head + R"([{"preset": "stride-2", "pattern": {}}]})").find("either"),
              std::string::npos);
    EXPECT_NE(errorOf(head + R"([{"pattern": {"space": "global"}}]})").find("/slides/0/pattern"),
              std::string::npos);
    EXPECT_NE(
        errorOf(R"({"format": "warpscope-session", "version": 1, "slides": []})").find("/format"),
        std::string::npos);
    EXPECT_NE(errorOf(R"({"format": "warpscope-deck", "version": 2, "slides": []})").find("newer"),
              std::string::npos);
}

} // namespace
} // namespace warpscope
