// A session's TMA tile load (docs/file-formats.md, "Session file"): the tile view's box, element
// size, swizzle mode and shared-memory offset round-trip through a session file, and a hostile
// value is refused with a JSON pointer to the field and the rule it breaks.
#include "file_format_test_support.h"

namespace warpscope {
namespace {

Session sessionWithTma(const TmaTileLoad& load) {
    Session session;
    NamedPattern named;
    named.title = "TMA 128B tile";
    named.pattern.kind = AccessKind{MemorySpace::Shared, AccessOp::Load, 16, CachePath::Default};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        named.pattern.addresses[static_cast<std::size_t>(lane)] = std::int64_t{lane} * 16;
    }
    session.entries.push_back(SessionEntry{named, {}});
    session.tmaLoad = load;
    return session;
}

/// The session file of sessionWithTma() with its "tmaLoad" object replaced by `tma` (raw JSON).
std::string sessionTextWithTma(const std::string& tma) {
    std::string text = sessionToJsonText(sessionWithTma(TmaTileLoad{}));
    const std::size_t at = text.find("\"tmaLoad\"");
    EXPECT_NE(at, std::string::npos) << text;
    const std::size_t end = text.find('}', at);
    return text.substr(0, at) + "\"tmaLoad\": " + tma + text.substr(end + 1);
}

TEST(SessionTma, EveryFieldRoundTrips) {
    // Not the defaults, so that a field the writer or reader drops shows.
    const TmaTileLoad load{4, 8, 200, TmaSwizzle::Span32, 1408};
    const Session original = sessionWithTma(load);
    const std::string text = sessionToJsonText(original);
    EXPECT_NE(text.find("\"tmaLoad\": {\n    \"swizzle\": \"32B\",\n    \"elementBytes\": 4,\n"
                        "    \"box\": [\n      8,\n      200\n    ],\n    \"smemOffset\": 1408\n"),
              std::string::npos)
        << text;
    auto read = sessionFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    ASSERT_TRUE(read->tmaLoad.has_value());
    EXPECT_EQ(*read->tmaLoad, load);
    EXPECT_EQ(read.value(), original);
    EXPECT_EQ(sessionToJsonText(read.value()), text);
}

TEST(SessionTma, ALoadTheLayoutRefusesIsStillKept) {
    // The tile view shows a 128B_ATOM mode or an unaligned offset with the reason core refuses
    // it; the session keeps what the user chose.
    for (const TmaTileLoad& load : {TmaTileLoad{2, 64, 16, TmaSwizzle::Span128Atom64, 0},
                                    TmaTileLoad{1, 256, 1, TmaSwizzle::None, 16}}) {
        auto read = sessionFromJsonText(sessionToJsonText(sessionWithTma(load)));
        ASSERT_TRUE(read.ok()) << read.error().describe();
        ASSERT_TRUE(read->tmaLoad.has_value());
        EXPECT_EQ(*read->tmaLoad, load);
    }
}

TEST(SessionTma, ASessionWithoutOneHasNone) {
    Session session = sessionWithTma(TmaTileLoad{});
    session.tmaLoad.reset();
    const std::string text = sessionToJsonText(session);
    EXPECT_EQ(text.find("tmaLoad"), std::string::npos) << text;
    auto read = sessionFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_FALSE(read->tmaLoad.has_value());
}

struct HostileTma {
    const char* tma;
    const char* where;
    const char* says;
};

TEST(SessionTma, HostileValuesAreRefusedNamingTheField) {
    const HostileTma rows[] = {
        {R"({"swizzle": "256B", "elementBytes": 2, "box": [64, 16], "smemOffset": 0})",
         "/tmaLoad/swizzle", "swizzle must be one of none, 32B"},
        {R"({"swizzle": "128B", "elementBytes": 3, "box": [64, 16], "smemOffset": 0})",
         "/tmaLoad/elementBytes", "elementBytes must be 1, 2, 4 or 8"},
        {R"({"swizzle": "128B", "elementBytes": -2, "box": [64, 16], "smemOffset": 0})",
         "/tmaLoad/elementBytes", "elementBytes must be 1, 2, 4 or 8"},
        {R"({"swizzle": "128B", "elementBytes": 2, "box": [0, 16], "smemOffset": 0})",
         "/tmaLoad/box/0", "must be 1 to 256"},
        {R"({"swizzle": "128B", "elementBytes": 2, "box": [64, 2147483648], "smemOffset": 0})",
         "/tmaLoad/box/1", "must be 1 to 256"},
        {R"({"swizzle": "128B", "elementBytes": 2, "box": [64], "smemOffset": 0})", "/tmaLoad/box",
         "two integers"},
        {R"({"swizzle": "128B", "elementBytes": 2, "box": [64, 16], "smemOffset": -128})",
         "/tmaLoad/smemOffset", "smemOffset must be a shared-memory address from 0 to 232448"},
        {R"({"swizzle": "128B", "elementBytes": 2, "box": [64, 16], "smemOffset": 1e300})",
         "/tmaLoad/smemOffset", "smemOffset"},
        {R"({"swizzle": "128B", "elementBytes": 2, "box": [64, 16]})", "/tmaLoad/smemOffset",
         "the field \"smemOffset\" is missing"},
        {R"("128B")", "/tmaLoad", "a TMA tile load"},
    };
    for (const HostileTma& row : rows) {
        SCOPED_TRACE(row.tma);
        auto read = sessionFromJsonText(sessionTextWithTma(row.tma));
        ASSERT_FALSE(read.ok()) << "accepted";
        EXPECT_EQ(read.error().code, ErrorCode::FileFormat);
        EXPECT_EQ(read.error().where, row.where) << read.error().describe();
        EXPECT_NE(read.error().message.find(row.says), std::string::npos)
            << read.error().describe();
    }
}

} // namespace
} // namespace warpscope
