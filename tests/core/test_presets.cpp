// The built-in presets (resources/presets.json): all of them parse and resolve, their words are
// there, and the presets drawn from the course notes give the notes' numbers under the textbook
// model.
#include "warpscope/matrix_access.h"
#include "warpscope/model.h"
#include "warpscope/preset.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace warpscope {
namespace {

TEST(Presets, EmbeddedListParses) {
    ASSERT_FALSE(builtinPresets().empty());
    EXPECT_GE(builtinPresets().size(), 30u);
}

TEST(Presets, IdsAreUniqueAndUsableOnCommandLines) {
    std::set<std::string> ids;
    for (const Preset& p : builtinPresets()) {
        EXPECT_FALSE(p.id.empty());
        EXPECT_EQ(p.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"),
                  std::string::npos)
            << p.id;
        EXPECT_TRUE(ids.insert(p.id).second) << "duplicate id " << p.id;
    }
}

TEST(Presets, EveryPresetHasItsWords) {
    for (const Preset& p : builtinPresets()) {
        SCOPED_TRACE(p.id);
        EXPECT_FALSE(p.topic.empty());
        EXPECT_FALSE(p.title.empty());
        EXPECT_FALSE(p.caption.empty());
        EXPECT_EQ(p.caption.find('\n'), std::string::npos) << "a caption is one line";
    }
}

TEST(Presets, TopicsAreContiguous) {
    // The picker groups by topic in display order: a topic must not come back after another.
    std::set<std::string> closed;
    std::string current;
    for (const Preset& p : builtinPresets()) {
        if (p.topic != current) {
            closed.insert(current);
            EXPECT_EQ(closed.count(p.topic), 0u) << p.topic << " is split at " << p.id;
            current = p.topic;
        }
    }
}

TEST(Presets, ParametersMakeValidSliders) {
    for (const Preset& p : builtinPresets()) {
        SCOPED_TRACE(p.id);
        if (isMatrixAccess(p.pattern.kind)) {
            // An ldmatrix / stmatrix lists its row addresses: the file format refuses the
            // expression form for it (each lane gives a row, not its own element).
            EXPECT_FALSE(p.pattern.source.has_value());
            continue;
        }
        ASSERT_TRUE(p.pattern.source.has_value()) << "presets are expressions, so they explain";
        for (const Parameter& parameter : p.pattern.source->parameters) {
            EXPECT_FALSE(parameter.name.empty());
            EXPECT_LT(parameter.minimum, parameter.maximum);
            EXPECT_EQ(parameter.value, parameter.defaultValue);
            EXPECT_GE(parameter.defaultValue, parameter.minimum);
            EXPECT_LE(parameter.defaultValue, parameter.maximum);
        }
    }
}

TEST(Presets, EveryPresetResolves) {
    for (const Preset& p : builtinPresets()) {
        const auto access = resolve(p.pattern);
        EXPECT_TRUE(access.ok()) << p.id << ": " << (access ? "" : access.error().describe());
    }
}

TEST(Presets, EveryPresetResolvesAtTheEndsOfItsSliders) {
    for (const Preset& p : builtinPresets()) {
        if (!p.pattern.source) {
            continue; // an ldmatrix / stmatrix preset lists its rows: it has no sliders
        }
        for (std::size_t i = 0; i < p.pattern.source->parameters.size(); ++i) {
            for (bool atMax : {false, true}) {
                Pattern pattern = p.pattern;
                Parameter& parameter = pattern.source->parameters[i];
                parameter.value = atMax ? parameter.maximum : parameter.minimum;
                const auto access = resolve(pattern);
                EXPECT_TRUE(access.ok())
                    << p.id << " with " << parameter.name << " = " << parameter.value << ": "
                    << (access ? "" : access.error().describe());
            }
        }
    }
}

TEST(Presets, FindPreset) {
    const Preset* p = findPreset("readsegment-offset-11");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->id, "readsegment-offset-11");
    EXPECT_EQ(p, findPreset("readsegment-offset-11")) << "the same object every time";
    EXPECT_EQ(findPreset(""), nullptr);
    EXPECT_EQ(findPreset("readsegment-offset-12"), nullptr);
    for (const Preset& preset : builtinPresets()) {
        EXPECT_EQ(findPreset(preset.id), &preset);
    }
}

TEST(Presets, FigurePresetsNameTheirSource) {
    for (const char* id :
         {"cached-aligned-coalesced", "cached-misaligned", "uncached-scattered",
          "store-three-segments", "readsegment-offset-11", "writesegment-offset-11",
          "shared-tile-column-padded", "bank-offset-32"}) {
        const Preset* p = findPreset(id);
        ASSERT_NE(p, nullptr) << id;
        // Cited by what they are ("the lecture slides, Figure 4-9"), never by a file name.
        EXPECT_EQ(p->source.rfind("the ", 0), 0u) << id << ": " << p->source;
        EXPECT_EQ(p->source.find("seed "), std::string::npos) << id << ": " << p->source;
    }
}

// ---- The notes' numbers ------------------------------------------------------------------------

constexpr double kAny = std::numeric_limits<double>::quiet_NaN();

struct FigureRow {
    const char* id;
    const char* source; // where the expected numbers come from
    bool defaultLoadsCached;
    SharedBankMode bankMode;
    TextbookRule rule;
    std::vector<int> transactionSizes; // empty: check only the count
    int transactions;
    double efficiencyPct; // kAny for shared memory
    int degree;           // shared memory only; 0 otherwise
};

constexpr auto Four = SharedBankMode::FourByte;
constexpr auto Eight = SharedBankMode::EightByte;
constexpr auto Cached = TextbookRule::CachedLoad;
constexpr auto Uncached = TextbookRule::UncachedLoad;
constexpr auto Stores = TextbookRule::Store;
constexpr auto Shared = TextbookRule::SharedMemory;

const std::vector<FigureRow>& figureRows() {
    static const std::vector<FigureRow> rows = {
        {"cached-aligned-coalesced",
         "seed 002, figure 4-9",
         true,
         Four,
         Cached,
         {128},
         1,
         100.0,
         0},
        {"cached-permuted", "seed 002, figure 4-10", true, Four, Cached, {128}, 1, 100.0, 0},
        {"cached-misaligned", "seed 002, figure 4-11", true, Four, Cached, {128, 128}, 2, 50.0, 0},
        {"cached-same-address", "seed 002, figure 4-12", true, Four, Cached, {128}, 1, 3.125, 0},
        {"cached-scattered", "seed 002, figure 4-13", true, Four, Cached, {}, 32, 3.125, 0},
        {"uncached-aligned-coalesced",
         "seed 002, figure 4-14",
         true,
         Four,
         Uncached,
         {32, 32, 32, 32},
         4,
         100.0,
         0},
        {"uncached-permuted",
         "seed 002, figure 4-15",
         true,
         Four,
         Uncached,
         {32, 32, 32, 32},
         4,
         100.0,
         0},
        {"uncached-misaligned", "seed 002, figure 4-16", true, Four, Uncached, {}, 5, 80.0, 0},
        {"uncached-scattered", "seed 002, figure 4-18", true, Four, Uncached, {}, 32, 12.5, 0},
        {"store-coalesced", "seed 002, figure 4-19", true, Four, Stores, {128}, 1, 100.0, 0},
        {"store-three-segments",
         "seed 002, figure 4-20",
         true,
         Four,
         Stores,
         {32, 32, 32},
         3,
         100.0,
         0},
        {"store-64-bytes", "seed 002, figure 4-21", true, Four, Stores, {64}, 1, 100.0, 0},
        {"readsegment-offset-0",
         "seed 002, readSegment: 100 %",
         true,
         Four,
         Cached,
         {128},
         1,
         100.0,
         0},
        {"readsegment-offset-11",
         "seed 002, readSegment: ~49.81 %, transactions doubled",
         true,
         Four,
         Cached,
         {128, 128},
         2,
         50.0,
         0},
        {"readsegment-offset-128",
         "seed 002, readSegment: 100 %",
         true,
         Four,
         Cached,
         {128},
         1,
         100.0,
         0},
        {"readsegment-offset-0",
         "seed 002, readSegment with -dlcm=cg: 100 %",
         false,
         Four,
         Uncached,
         {},
         4,
         100.0,
         0},
        {"readsegment-offset-11",
         "seed 002, readSegment with -dlcm=cg: 80 %",
         false,
         Four,
         Uncached,
         {},
         5,
         80.0,
         0},
        {"readsegment-offset-128",
         "seed 002, readSegment with -dlcm=cg: 100 %",
         false,
         Four,
         Uncached,
         {},
         4,
         100.0,
         0},
        {"writesegment-offset-0",
         "seed 002, writeSegment: 100 %",
         true,
         Four,
         Stores,
         {128},
         1,
         100.0,
         0},
        {"writesegment-offset-11",
         "seed 002, writeSegment: one 4- and one 1-segment, 80 %",
         true,
         Four,
         Stores,
         {128, 32},
         2,
         80.0,
         0},
        {"writesegment-offset-128",
         "seed 002, writeSegment: 100 %",
         true,
         Four,
         Stores,
         {128},
         1,
         100.0,
         0},
        {"stride-2", "derived: 2 lines, half used", true, Four, Cached, {}, 2, 50.0, 0},
        {"stride-4", "derived: 4 lines, a quarter used", true, Four, Cached, {}, 4, 25.0, 0},
        {"stride-32", "derived: one line per lane", true, Four, Cached, {}, 32, 3.125, 0},
        {"aos-read-x",
         "seed 002, figure 4-22: AoS loads y with x",
         true,
         Four,
         Cached,
         {},
         2,
         50.0,
         0},
        {"soa-read-x",
         "seed 002, figure 4-22: SoA is coalesced",
         true,
         Four,
         Cached,
         {128},
         1,
         100.0,
         0},
        {"transpose-row-read", "derived: two half lines", true, Four, Cached, {}, 2, 50.0, 0},
        {"transpose-row-read",
         "derived: four full segments",
         false,
         Four,
         Uncached,
         {},
         4,
         100.0,
         0},
        {"transpose-column-read",
         "derived: 16 lines, 8 bytes each",
         true,
         Four,
         Cached,
         {},
         16,
         6.25,
         0},
        {"transpose-column-read",
         "derived: 16 segments, 8 bytes each",
         false,
         Four,
         Uncached,
         {},
         16,
         25.0,
         0},
        {"transpose-row-write",
         "seed 002, figure 4-21 twice",
         true,
         Four,
         Stores,
         {64, 64},
         2,
         100.0,
         0},
        {"transpose-column-write",
         "derived: 16 one-segment stores",
         true,
         Four,
         Stores,
         {},
         16,
         25.0,
         0},
        {"shared-tile-row",
         "seed 003: successive words in successive banks",
         true,
         Four,
         Shared,
         {},
         1,
         kAny,
         1},
        {"shared-tile-column",
         "seed README: stride of 32 words, 32-way",
         true,
         Four,
         Shared,
         {},
         32,
         kAny,
         32},
        {"shared-tile-column-padded",
         "seed 003: [TILE_DIM][TILE_DIM+1] removes the conflict",
         true,
         Four,
         Shared,
         {},
         1,
         kAny,
         1},
        {"shared-tile-column-swizzled",
         "derived: c ^ r is a permutation of the banks",
         true,
         Four,
         Shared,
         {},
         1,
         kAny,
         1},
        {"shared-broadcast", "seed 003: broadcast", true, Four, Shared, {}, 1, kAny, 1},
        {"bank-offset-0", "seed 004: offset 0 is a broadcast", true, Four, Shared, {}, 1, kAny, 1},
        {"bank-offset-1",
         "seed 004: offset 1 is conflict-free",
         true,
         Four,
         Shared,
         {},
         1,
         kAny,
         1},
        {"bank-offset-32",
         "seed 004: offset 32 is a 32-way conflict",
         true,
         Four,
         Shared,
         {},
         32,
         kAny,
         32},
        {"shared-double-row",
         "seed 003/004: 8-byte banks of compute capability 3.x",
         true,
         Eight,
         Shared,
         {},
         1,
         kAny,
         1},
        {"shared-double-row",
         "reading: 256 bytes through 4-byte banks take two passes",
         true,
         Four,
         Shared,
         {},
         2,
         kAny,
         2},
    };
    return rows;
}

class FigurePresets : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FigurePresets, GiveTheNotesNumbers) {
    const FigureRow& row = figureRows()[GetParam()];
    SCOPED_TRACE(std::string(row.id) + " (" + row.source + ")");
    const Preset* preset = findPreset(row.id);
    ASSERT_NE(preset, nullptr);
    const auto access = resolve(preset->pattern);
    ASSERT_TRUE(access.ok()) << access.error().describe();

    TextbookOptions options;
    options.defaultLoadsCached = row.defaultLoadsCached;
    options.bankMode = row.bankMode;
    const TextbookPrediction p = predictTextbook(access.value(), options);
    EXPECT_EQ(p.rule, row.rule);
    EXPECT_EQ(static_cast<int>(p.transactions.size()), row.transactions);
    if (!row.transactionSizes.empty()) {
        std::vector<int> sizes;
        for (const Transaction& t : p.transactions) {
            sizes.push_back(t.sizeBytes);
        }
        EXPECT_EQ(sizes, row.transactionSizes);
    }
    if (!std::isnan(row.efficiencyPct)) {
        EXPECT_NEAR(p.efficiency * 100.0, row.efficiencyPct, 1e-9);
    }
    EXPECT_EQ(p.bankConflictDegree, row.degree);
}

INSTANTIATE_TEST_SUITE_P(Textbook, FigurePresets,
                         ::testing::Range(std::size_t{0}, figureRows().size()));

TEST(Presets, OffsetSliderMovesReadSegment) {
    // The three readSegment presets are one kernel: moving offset 0's slider to 11 gives 11's
    // numbers (seed 002: transactions double).
    Pattern pattern = findPreset("readsegment-offset-0")->pattern;
    ASSERT_EQ(pattern.source->parameters.size(), 1u);
    pattern.source->parameters[0].value = 11;
    const auto access = resolve(pattern);
    ASSERT_TRUE(access.ok()) << access.error().describe();
    EXPECT_EQ(predictTextbook(access.value()).transactions.size(), 2u);
}

TEST(Presets, PaddedTileIsConflictFreeForEveryColumn) {
    // Seed 003: padding to 33 columns removes the conflict of every column read, not just one;
    // each warp of the 32x32 block reads one column.
    for (const char* id : {"shared-tile-column-padded", "shared-tile-column-swizzled"}) {
        for (std::int64_t warp = 0; warp < 32; ++warp) {
            Pattern pattern = findPreset(id)->pattern;
            pattern.source->warpIndex = warp;
            const auto access = resolve(pattern);
            ASSERT_TRUE(access.ok()) << access.error().describe();
            EXPECT_EQ(predictTextbook(access.value()).bankConflictDegree, 1)
                << id << ", warp " << warp;
        }
    }
    for (std::int64_t warp = 0; warp < 32; ++warp) {
        Pattern pattern = findPreset("shared-tile-column")->pattern;
        pattern.source->warpIndex = warp;
        const auto access = resolve(pattern);
        ASSERT_TRUE(access.ok()) << access.error().describe();
        EXPECT_EQ(predictTextbook(access.value()).bankConflictDegree, 32) << "warp " << warp;
    }
}

// ---- The parser's errors -----------------------------------------------------------------------

constexpr const char* kMinimalPattern =
    R"("pattern": {"space": "global", "op": "load", "width": 4, "source": {"address": "lane * 4"}})";

std::string entry(const std::string& id, const std::string& pattern = kMinimalPattern) {
    return R"({"id": ")" + id + R"(", "topic": "t", "title": "T", "caption": "c", )" + pattern +
           "}";
}

TEST(PresetParser, ReadsAMinimalEntry) {
    const auto parsed = parsePresets("[" + entry("a-1") + "]");
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    ASSERT_EQ(parsed->size(), 1u);
    const Preset& p = parsed->front();
    EXPECT_EQ(p.id, "a-1");
    EXPECT_EQ(p.source, "");
    EXPECT_EQ(p.pattern.kind,
              (AccessKind{MemorySpace::Global, AccessOp::Load, 4, CachePath::Default}));
    ASSERT_TRUE(p.pattern.source.has_value());
    EXPECT_EQ(p.pattern.source->addressExpression, "lane * 4");
    EXPECT_EQ(p.pattern.source->activeExpression, "1");
    EXPECT_EQ(p.pattern.source->blockDim, (Dim3{32, 1, 1}));
}

TEST(PresetParser, ReadsAddressesAndParameters) {
    std::string addresses = "[null";
    for (int lane = 1; lane < 32; ++lane) {
        addresses += ", " + std::to_string(lane * 8);
    }
    addresses += "]";
    const auto parsed = parsePresets(
        "[" +
        entry("b", R"("pattern": {"space": "shared", "op": "store", "width": 8, "addresses": )" +
                       addresses + "}") +
        "," + entry("c", R"("pattern": {"space": "global", "op": "load", "width": 4, "cache": "cg",
              "source": {"address": "s * lane", "parameters": [{"name": "s", "default": 4,
              "min": 1, "max": 8}], "blockDim": [16, 16], "warp": 3}})") +
        "]");
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    const Pattern& b = (*parsed)[0].pattern;
    EXPECT_FALSE(b.source.has_value());
    EXPECT_FALSE(b.addresses[0].has_value());
    EXPECT_EQ(b.addresses[31], 248);
    const Pattern& c = (*parsed)[1].pattern;
    EXPECT_EQ(c.kind.cache, CachePath::CacheGlobal);
    ASSERT_EQ(c.source->parameters.size(), 1u);
    EXPECT_EQ(c.source->parameters[0], (Parameter{"s", 4, 4, 1, 8}));
    EXPECT_EQ(c.source->blockDim, (Dim3{16, 16, 1}));
    EXPECT_EQ(c.source->warpIndex, 3);
}

struct BadPresetRow {
    const char* name;
    std::string text;
    const char* where;
};

TEST(PresetParser, NamesTheBadField) {
    const std::vector<BadPresetRow> rows = {
        {"not JSON", "[{", ""},
        {"not an array", "{}", ""},
        {"entry not an object", "[3]", "/0"},
        {"missing id", R"([{"topic": "t", "title": "T", "caption": "c"}])", "/0/id"},
        {"bad id", "[" + entry("Has Space") + "]", "/0/id"},
        {"duplicate id", "[" + entry("x") + "," + entry("x") + "]", "/1/id"},
        {"empty title",
         R"([{"id": "x", "topic": "t", "title": "", "caption": "c", )" +
             std::string(kMinimalPattern) + "}]",
         "/0/title"},
        {"missing pattern", R"([{"id": "x", "topic": "t", "title": "T", "caption": "c"}])",
         "/0/pattern"},
        {"bad space",
         "[" + entry("x", R"("pattern": {"space": "surface", "op": "load", "width": 4,
                              "source": {"address": "0"}})") +
             "]",
         "/0/pattern/space"},
        {"bad width",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load", "width": 3,
                              "source": {"address": "0"}})") +
             "]",
         "/0/pattern/width"},
        {"huge width",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load",
                              "width": 4294967300, "source": {"address": "0"}})") +
             "]",
         "/0/pattern/width"},
        {"bad cache",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load", "width": 4,
                              "cache": "xx", "source": {"address": "0"}})") +
             "]",
         "/0/pattern/cache"},
        {"neither addresses nor source",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load", "width": 4})") + "]",
         "/0/pattern"},
        {"one address instead of 32",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load", "width": 4,
                              "addresses": [0]})") +
             "]",
         "/0/pattern/addresses"},
        {"parameter out of range",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load", "width": 4,
                              "source": {"address": "0", "parameters": [
                              {"name": "a", "default": 9, "min": 0, "max": 4}]}})") +
             "]",
         "/0/pattern/source/parameters/0/default"},
        {"bad blockDim",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load", "width": 4,
                              "source": {"address": "0", "blockDim": [1, 2, 3, 4]}})") +
             "]",
         "/0/pattern/source/blockDim"},
        {"warp beyond 64 bits",
         "[" + entry("x", R"("pattern": {"space": "global", "op": "load", "width": 4,
                              "source": {"address": "0", "warp": 18446744073709551615}})") +
             "]",
         "/0/pattern/source/warp"},
    };
    for (const BadPresetRow& row : rows) {
        const auto parsed = parsePresets(row.text);
        ASSERT_FALSE(parsed.ok()) << row.name;
        EXPECT_EQ(parsed.error().code, ErrorCode::FileFormat) << row.name;
        EXPECT_EQ(parsed.error().where, row.where) << row.name;
        EXPECT_FALSE(parsed.error().message.empty()) << row.name;
    }
}

} // namespace
} // namespace warpscope
