// Pattern and session files (docs/file-formats.md): round trips, the bare line form of
// `warpscope-cli predict`, and hostile input, each refused with a JSON pointer to the place.
// test_file_format_files.cpp: the sample files in tests/data/files, readTextFile and decks.
#include "file_format_test_support.h"

namespace warpscope {
namespace {

using namespace file_format_test;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

NamedPattern explicitPattern() {
    NamedPattern named;
    named.title = "Odd lanes inactive, \"quoted\" and caf\xC3\xA9";
    named.caption = "line one\nline two";
    named.pattern.kind = AccessKind{MemorySpace::Shared, AccessOp::Store, 8, CachePath::Default};
    for (int lane = 0; lane < kWarpSize; lane += 2) {
        named.pattern.addresses[static_cast<std::size_t>(lane)] = std::int64_t{lane} * 8;
    }
    named.pattern.addresses[30] = std::numeric_limits<std::int64_t>::max() - 7;
    return named;
}

NamedPattern expressionPattern() {
    NamedPattern named;
    named.title = "Misaligned read";
    named.pattern.kind = AccessKind{MemorySpace::Global, AccessOp::Load, 4, CachePath::CacheGlobal};
    PatternSource source;
    source.addressExpression = "(gid + offset) * 4 + stride * 0";
    source.activeExpression = "lane < limit";
    source.parameters = {Parameter{"offset", 11, 0, 0, 128}, Parameter{"stride", -3, 1, -8, 8},
                         Parameter{"limit", 32, 32, 0, 32}};
    source.blockDim = Dim3{16, 4, 2};
    source.gridDim = Dim3{8, 2, 1};
    source.blockIdx = Dim3{3, 1, 0};
    source.warpIndex = 3;
    named.pattern.source = source;
    return named;
}

Session sampleSession() {
    Session session;
    session.model = "textbook";
    session.currentEntry = 1;
    SessionEntry first{explicitPattern(), {}};
    RecordedMeasurement measurement;
    measurement.gpu = "NVIDIA H100 80GB HBM3";
    measurement.driver = "550.54.15";
    measurement.date = "2024-05-01T12:00:00Z";
    // Which device exactly and which probe (written only when known).
    measurement.gpuUuid = "GPU-1c2d3e4f-0000-1111-2222-333344445555";
    measurement.probeVersion = "0.1.0";
    // Values chosen to need all 17 significant digits, and extremes of the double range.
    measurement.metrics = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4.0},
                           {"gpu__time_duration.sum", 0.1 + 0.2},
                           {"tiny", 4.9406564584124654e-324},
                           {"huge", 1.7976931348623157e308},
                           {"negative", -123456789.125}};
    first.measurements = {measurement, RecordedMeasurement{"other GPU", "", "", "", {}, "", ""}};
    session.entries = {first, SessionEntry{expressionPattern(), {}}};
    session.viewSettings = {{"zoom", "1.5"}, {"grid.showBanks", "true"}, {"empty", ""}};
    return session;
}

// ---- Round trips ---------------------------------------------------------------------------

TEST(FileFormat, AParameterWithoutAValueStartsAtItsDefault) {
    // Presets declare parameters this way; the file format reads them the same.
    auto parsed = patternFromJsonText(
        R"({"space":"global","op":"load","width":4,"source":{"address":"s * lane",)"
        R"("parameters":[{"name":"s","default":4,"min":1,"max":8}]}})");
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    const Parameter& s = parsed->pattern.source->parameters.at(0);
    EXPECT_EQ(s.value, 4);
    EXPECT_EQ(s.defaultValue, 4);
    EXPECT_EQ(s.minimum, 1);
    EXPECT_EQ(s.maximum, 8);
    // Neither value nor default: the field that is missing is named.
    auto missing =
        patternFromJsonText(R"({"space":"global","op":"load","width":4,"source":{"address":"lane",)"
                            R"("parameters":[{"name":"s"}]}})");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().where, "/source/parameters/0/default");
}

TEST(FileFormat, ExplicitPatternRoundTrips) {
    const NamedPattern original = explicitPattern();
    const std::string text = patternToJsonText(original);
    auto read = patternFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read.value(), original);
    // Writing again gives the same bytes: the writer is stable.
    EXPECT_EQ(patternToJsonText(read.value()), text);
}

TEST(FileFormat, ExpressionPatternRoundTrips) {
    const NamedPattern original = expressionPattern();
    const std::string text = patternToJsonText(original);
    auto read = patternFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read.value(), original);
    EXPECT_EQ(text.find("\"addresses\""), std::string::npos) << "derived addresses not written";
}

TEST(FileFormat, SessionRoundTrips) {
    const Session original = sampleSession();
    const std::string text = sessionToJsonText(original);
    auto read = sessionFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read.value(), original);
    EXPECT_EQ(sessionToJsonText(read.value()), text);
}

TEST(FileFormat, SessionKeepsEachExperimentsResultsAsAnObject) {
    Session original = sampleSession();
    original.experiments["transfers"] = nlohmann::json::parse(
        R"({"curves":[{"mode":"h2d_pinned","points":[{"bytes":4096,"ms":0.01}]}],"machine":"x"})");
    original.experiments["l2-persistence"] = nlohmann::json::parse(R"({"points":[],"n":1e-3})");
    // An experiment this build does not know is kept as it is (a newer warpscope's).
    original.experiments["next-experiment"] = nlohmann::json::object();
    const std::string text = sessionToJsonText(original);
    const auto written = nlohmann::json::parse(text);
    ASSERT_TRUE(written.contains("experiments")) << text;
    EXPECT_TRUE(written["experiments"]["transfers"].is_object())
        << "the results are JSON, not JSON text in a string";
    EXPECT_EQ(written["experiments"]["transfers"]["curves"][0]["points"][0]["bytes"], 4096);
    EXPECT_EQ(written["viewSettings"].size(), original.viewSettings.size())
        << "no results among the view settings";
    auto read = sessionFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read->experiments, original.experiments);
    EXPECT_EQ(read.value(), original);
    EXPECT_EQ(sessionToJsonText(read.value()), text);
}

TEST(FileFormat, SessionWithoutResultsWritesNoExperiments) {
    const std::string text = sessionToJsonText(sampleSession());
    EXPECT_EQ(text.find("\"experiments\""), std::string::npos)
        << "a session without results is written as before";
}

TEST(FileFormat, EmptySessionRoundTrips) {
    const Session original;
    auto read = sessionFromJsonText(sessionToJsonText(original));
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read.value(), original);
}

TEST(FileFormat, WriterUsesFixedKeyOrderAndTwoSpaces) {
    const std::string text = patternToJsonText(explicitPattern());
    EXPECT_EQ(
        text.rfind("{\n  \"format\": \"warpscope-pattern\",\n  \"version\": 1,\n  \"title\": ", 0),
        0u)
        << text;
    EXPECT_LT(text.find("\"title\""), text.find("\"caption\""));
    EXPECT_LT(text.find("\"caption\""), text.find("\"space\""));
    EXPECT_LT(text.find("\"space\""), text.find("\"op\""));
    EXPECT_LT(text.find("\"op\""), text.find("\"width\""));
    EXPECT_LT(text.find("\"width\""), text.find("\"cache\""));
    EXPECT_LT(text.find("\"cache\""), text.find("\"addresses\""));
    EXPECT_EQ(text.back(), '\n');

    const std::string session = sessionToJsonText(sampleSession());
    EXPECT_EQ(session.rfind("{\n  \"format\": \"warpscope-session\",\n  \"version\": 1,", 0), 0u);
}

TEST(FileFormat, NaNMetricIsWrittenAsNullAndReadBack) {
    Session session;
    NamedPattern named = explicitPattern();
    session.entries.push_back(SessionEntry{
        named, {RecordedMeasurement{"", "", "", "", {{"missing", std::nan("")}}, "", ""}}});
    const std::string text = sessionToJsonText(session);
    EXPECT_NE(text.find("\"missing\": null"), std::string::npos) << text;
    auto read = sessionFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_TRUE(std::isnan(read->entries[0].measurements[0].metrics.at("missing")));
}

// ---- Accepted forms ------------------------------------------------------------------------

TEST(FileFormat, BarePredictLineIsAPattern) {
    // The exact line form docs/cli.md gives for `warpscope-cli predict`.
    std::string line = "{\"space\":\"global\",\"op\":\"load\",\"width\":4,\"cache\":\"default\","
                       "\"addresses\":[0,4,8,null";
    for (int lane = 4; lane < kWarpSize; ++lane) {
        line += "," + std::to_string(lane * 4);
    }
    line += "]}";
    auto read = patternFromJsonText(line);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read->title, "");
    EXPECT_EQ(read->pattern.kind, (AccessKind{MemorySpace::Global, AccessOp::Load, 4}));
    EXPECT_FALSE(read->pattern.source.has_value());
    EXPECT_EQ(read->pattern.addresses[2], 8);
    EXPECT_FALSE(read->pattern.addresses[3].has_value());
    EXPECT_EQ(read->pattern.addresses[31], 124);
}

TEST(FileFormat, CacheIsOptionalAndUnknownFieldsAreIgnored) {
    auto read = patternFromJsonText(
        "{\"space\":\"shared\",\"op\":\"st\",\"width\":16,\"future\":{\"a\":[1,2]},\"addresses\":" +
        addressList(16) + "}");
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read->pattern.kind,
              (AccessKind{MemorySpace::Shared, AccessOp::Store, 16, CachePath::Default}));
}

TEST(FileFormat, SourceFormTakesDefaults) {
    auto read = patternFromJsonText(
        R"({"space":"global","op":"load","width":4,"source":{"address":"lane*4"}})");
    ASSERT_TRUE(read.ok()) << read.error().describe();
    ASSERT_TRUE(read->pattern.source.has_value());
    PatternSource expected;
    expected.addressExpression = "lane*4";
    EXPECT_EQ(*read->pattern.source, expected);
}

TEST(FileFormat, Dim3AcceptsObjectsAndShortArrays) {
    auto read = patternFromJsonText(
        R"({"space":"global","op":"load","width":4,"source":{"address":"lane*4",
            "blockDim":{"x":8,"y":4},"gridDim":[5],"blockIdx":{"z":0},"warp":0}})");
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read->pattern.source->blockDim, (Dim3{8, 4, 1}));
    EXPECT_EQ(read->pattern.source->gridDim, (Dim3{5, 1, 1}));
    EXPECT_EQ(read->pattern.source->blockIdx, (Dim3{0, 0, 0}));
}

TEST(FileFormat, ParameterDefaultsMakeAValidRange) {
    auto read = patternFromJsonText(
        R"({"space":"global","op":"load","width":4,"source":{"address":"lane*4+o",
            "parameters":[{"name":"o","value":12}]}})");
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read->pattern.source->parameters.at(0), (Parameter{"o", 12, 12, 0, 12}));
}

// ---- Refused input -------------------------------------------------------------------------

struct BadInput {
    const char* name;
    std::string text;
    std::string where;           // the JSON pointer (or line and column) the error must name
    std::string messageContains; // part of the message a person reads
};

class BadPattern : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadPattern, IsRefusedWithItsPlace) {
    const BadInput& row = GetParam();
    auto read = patternFromJsonText(row.text);
    ASSERT_FALSE(read.ok()) << row.name << " was accepted";
    EXPECT_EQ(read.error().code, ErrorCode::FileFormat);
    EXPECT_EQ(read.error().where, row.where) << read.error().describe();
    EXPECT_NE(read.error().message.find(row.messageContains), std::string::npos)
        << read.error().message;
}

/// "line 1, column N" of the first occurrence of `needle` in one-line `text`.
std::string columnOf(const std::string& text, const std::string& needle) {
    return "line 1, column " + std::to_string(text.find(needle) + 1);
}

// Test names from the rows' names ("address -4" -> "address__4").
std::string rowName(const ::testing::TestParamInfo<BadInput>& row) {
    std::string name;
    for (const char* c = row.param.name; *c; ++c) {
        name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
    }
    return name;
}

std::string deepArrays(std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

INSTANTIATE_TEST_SUITE_P(
    FileFormat, BadPattern,
    ::testing::Values(
        BadInput{"empty", "", "line 1, column 1", "not valid JSON"},
        BadInput{"truncated", "{\n  \"space\": \"global\",\n  \"op\": ", "line 3, column 9",
                 "unexpected end of input"},
        BadInput{"trailing garbage", bareWith("") + " x",
                 "line 1, column " + std::to_string(bareWith("").size() + 2), "not valid JSON"},
        BadInput{"not an object", "[1,2]", "", "must be a JSON object"},
        BadInput{"wrong format name",
                 R"({"format":"warpscope-session","version":1,"space":"global"})", "/format",
                 "format must be \"warpscope-pattern\""},
        BadInput{"newer version", bareWith("\"format\":\"warpscope-pattern\",\"version\":3"),
                 "/version", "written by a newer warpscope (version 3); this one reads version 2"},
        BadInput{"version missing", bareWith("\"format\":\"warpscope-pattern\""), "/version",
                 "missing"},
        BadInput{"version zero", bareWith("\"format\":\"warpscope-pattern\",\"version\":0"),
                 "/version", "1 or more"},
        BadInput{"31 addresses", bareWith("", addressList(4, 31)), "/addresses",
                 "exactly 32 entries"},
        BadInput{"33 addresses", bareWith("", addressList(4, 33)), "/addresses",
                 "exactly 32 entries"},
        BadInput{"address -4", bareWith("", "[0,-4" + addressList(4).substr(4)), "/addresses/1",
                 "found -4"},
        BadInput{"address is a string", bareWith("", "[\"0\"" + addressList(4).substr(2)),
                 "/addresses/0", "found \"0\""},
        BadInput{"address 1e400", bareWith("", "[1e400" + addressList(4).substr(2)),
                 columnOf(bareWith("", "[1e400" + addressList(4).substr(2)), "1e400"),
                 "the number 1e400 is too large to represent"},
        BadInput{"address 2^64", bareWith("", "[18446744073709551616" + addressList(4).substr(2)),
                 "/addresses/0", "non-negative integer"},
        BadInput{"address 2^63", bareWith("", "[9223372036854775808" + addressList(4).substr(2)),
                 "/addresses/0", "fits in 64 bits"},
        BadInput{"address 4.5", bareWith("", "[4.5" + addressList(4).substr(2)), "/addresses/0",
                 "found 4.5"},
        BadInput{"addresses not an array", bareWith("", "{}"), "/addresses", "array"},
        BadInput{"width 3", R"({"space":"global","op":"load","width":3,"addresses":[]})", "/width",
                 "width must be one of 1, 2, 4, 8, 16; found 3"},
        BadInput{"width as string", R"({"space":"global","op":"load","width":"4"})", "/width",
                 "found \"4\""},
        BadInput{"width 2^64", R"({"space":"global","op":"load","width":18446744073709551616})",
                 "/width", "width must be one of"},
        BadInput{"width 2^32+4", R"({"space":"global","op":"load","width":4294967300})", "/width",
                 "found 4294967300"},
        BadInput{"width missing", R"({"space":"global","op":"load","addresses":[]})", "/width",
                 "missing"},
        BadInput{"space unknown", R"({"space":"surface","op":"load","width":4})", "/space",
                 "space must be"},
        BadInput{"op unknown", R"({"space":"global","op":"atomic","width":4})", "/op",
                 "\"store\" or \"copy_async\""},
        BadInput{"cache unknown", R"({"space":"global","op":"load","width":4,"cache":"cs"})",
                 "/cache", "\"nc\""},
        BadInput{"title a number", bareWith("\"title\":5"), "/title", "must be a string"},
        BadInput{"neither form", R"({"space":"global","op":"load","width":4})", "",
                 "needs \"addresses\""},
        BadInput{"both forms", bareWith("\"source\":{\"address\":\"lane*4\"}"), "/source",
                 "not both"},
        BadInput{"duplicate key", R"({"space":"global","op":"load","width":4,"width":8})", "/width",
                 "appears twice"},
        BadInput{"duplicate key deeper",
                 R"({"space":"global","op":"load","width":4,"x":{"a~b/c":1,"a~b/c":2}})",
                 "/x/a~0b~1c", "appears twice"},
        BadInput{"source address missing",
                 R"({"space":"global","op":"load","width":4,"source":{"active":"1"}})",
                 "/source/address", "missing"},
        BadInput{"parameter above max",
                 R"({"space":"global","op":"load","width":4,"source":{"address":"o",
                 "parameters":[{"name":"o","value":0},{"name":"p","value":200,"min":0,"max":128}]}})",
                 "/source/parameters/1/value", "between min and max"},
        BadInput{"parameter min above max",
                 R"({"space":"global","op":"load","width":4,"source":{"address":"o",
                 "parameters":[{"name":"o","value":5,"min":10,"max":0}]}})",
                 "/source/parameters/0/min", "must not be above max"},
        BadInput{"parameter twice",
                 R"({"space":"global","op":"load","width":4,"source":{"address":"o",
                 "parameters":[{"name":"o","value":0},{"name":"o","value":1}]}})",
                 "/source/parameters/1/name", "declared twice"},
        BadInput{"parameter named like a built-in",
                 R"({"space":"global","op":"load","width":4,"source":{"address":"lane",
                 "parameters":[{"name":"lane","value":0}]}})",
                 "/source/parameters/0/name", "cannot be a parameter name"},
        BadInput{"blockDim four entries",
                 R"({"space":"global","op":"load","width":4,"source":{"address":"lane",
                 "blockDim":[1,2,3,4]}})",
                 "/source/blockDim", "1 to 3 integers"},
        BadInput{"blockDim string entry",
                 R"({"space":"global","op":"load","width":4,"source":{"address":"lane",
                 "blockDim":{"x":"32"}}})",
                 "/source/blockDim/x", "must be an integer"},
        BadInput{"warp a float",
                 R"({"space":"global","op":"load","width":4,"source":{"address":"lane",
                 "warp":0.5}})",
                 "/source/warp", "found 0.5"},
        BadInput{"invalid UTF-8 in a string", "{\"title\":\"caf\xE9\"}", "line 1, column 14",
                 "not valid UTF-8 (byte 0xE9)"},
        BadInput{"overlong UTF-8", "{\"title\":\"\xC0\xAF\"}", "line 1, column 11",
                 "not valid UTF-8"},
        BadInput{"UTF-8 surrogate", "\n{\"title\":\"\xED\xA0\x80\"}", "line 2, column 11",
                 "not valid UTF-8"},
        BadInput{"escaped lone surrogate", R"({"title":"\ud800"})", "line 1, column 17",
                 "surrogate"},
        BadInput{"nesting 65 deep", deepArrays(65), "line 1, column 65", "nested more than 64"},
        BadInput{"depth bomb 100000", deepArrays(100000), "line 1, column 65",
                 "nested more than 64"},
        BadInput{"unclosed depth bomb", std::string(100000, '{'), "line 1, column 65",
                 "nested more than 64"},
        BadInput{"long string", "{\"title\":\"" + std::string(64 * 1024 + 1, 'a') + "\"}", "/title",
                 "longer than the 64 KiB"}),
    rowName);

TEST(FileFormat, BracketsInsideStringsDoNotCountAsNesting) {
    auto read = patternFromJsonText(bareWith("\"title\":\"" + std::string(1000, '[') + "\\\"\"," +
                                             "\"caption\":\"" + std::string(1000, '{') + "\""));
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read->title, std::string(1000, '[') + "\"");
}

TEST(FileFormat, NestingOf64IsAccepted) {
    // 64 levels of an ignored field: depth 1 is the pattern object itself.
    auto read = patternFromJsonText(bareWith("\"future\":" + deepArrays(63)));
    ASSERT_TRUE(read.ok()) << read.error().describe();
}

TEST(FileFormat, TextAboveTheSizeLimitIsRefusedBeforeParsing) {
    const std::string big(17u * 1024u * 1024u, ' ');
    auto pattern = patternFromJsonText(big);
    ASSERT_FALSE(pattern.ok());
    EXPECT_EQ(pattern.error().code, ErrorCode::FileFormat);
    EXPECT_NE(pattern.error().message.find("at most 16 MiB"), std::string::npos);
    auto session = sessionFromJsonText(big);
    ASSERT_FALSE(session.ok());
    EXPECT_NE(session.error().message.find("at most 16 MiB"), std::string::npos);
}

class BadSession : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadSession, IsRefusedWithItsPlace) {
    const BadInput& row = GetParam();
    auto read = sessionFromJsonText(row.text);
    ASSERT_FALSE(read.ok()) << row.name << " was accepted";
    EXPECT_EQ(read.error().code, ErrorCode::FileFormat);
    EXPECT_EQ(read.error().where, row.where) << read.error().describe();
    EXPECT_NE(read.error().message.find(row.messageContains), std::string::npos)
        << read.error().message;
}

std::string sessionWithEntries(std::size_t count, const std::string& last) {
    std::string text = R"({"format":"warpscope-session","version":1,"entries":[)";
    const std::string good = "{\"pattern\":" + bareWith("") + "}";
    for (std::size_t i = 0; i + 1 < count; ++i) {
        text += good + ",";
    }
    return text + last + "]}";
}

INSTANTIATE_TEST_SUITE_P(
    FileFormat, BadSession,
    ::testing::Values(
        BadInput{"format missing", R"({"version":1})", "/format", "missing"},
        BadInput{"pattern file as session", patternToJsonText(explicitPattern()), "/format",
                 "\"warpscope-session\""},
        BadInput{"newer version", R"({"format":"warpscope-session","version":7})", "/version",
                 "written by a newer warpscope (version 7); this one reads version 2"},
        BadInput{"width of entry 3",
                 sessionWithEntries(
                     4, "{\"pattern\":" + replaced(bareWith(""), "\"width\":4", "\"width\":\"4\"") +
                            "}"),
                 "/entries/3/pattern/width", "width must be one of 1, 2, 4, 8, 16"},
        BadInput{"entry without pattern", sessionWithEntries(2, "{}"), "/entries/1/pattern",
                 "missing"},
        BadInput{"too many entries", sessionWithEntries(10001, "{}"), "/entries",
                 "at most 10000 entries"},
        BadInput{"model unknown", R"({"format":"warpscope-session","version":1,"model":"both"})",
                 "/model", "\"modern\" or \"textbook\""},
        BadInput{"currentEntry past the end",
                 replaced(sessionWithEntries(2, "{\"pattern\":" + bareWith("") + "}"),
                          "\"version\":1,", "\"version\":1,\"currentEntry\":2,"),
                 "/currentEntry", "between 0 and 1"},
        BadInput{"metric a string",
                 sessionWithEntries(1, "{\"pattern\":" + bareWith("") +
                                           ",\"measurements\":[{\"metrics\":{\"a/b\":\"4\"}}]}"),
                 "/entries/0/measurements/0/metrics/a~1b", "must be a number"},
        BadInput{
            "metric infinite",
            sessionWithEntries(1, "{\"pattern\":" + bareWith("") +
                                      ",\"measurements\":[{\"metrics\":{\"t\":-1e999}}]}"),
            columnOf(sessionWithEntries(1, "{\"pattern\":" + bareWith("") +
                                               ",\"measurements\":[{\"metrics\":{\"t\":-1e999}}]}"),
                     "-1e999"),
            "too large"},
        BadInput{"view setting not a string",
                 R"({"format":"warpscope-session","version":1,"viewSettings":{"zoom":1.5}})",
                 "/viewSettings/zoom", "must be a string"},
        BadInput{"experiments an array",
                 R"({"format":"warpscope-session","version":2,"experiments":[{}]})", "/experiments",
                 "experiments must be a JSON object; found an array"},
        BadInput{"experiment results as text",
                 R"({"format":"warpscope-session","version":2,"experiments":)"
                 R"({"streams":{},"transfers":"{\"curves\":[]}"}})",
                 "/experiments/transfers", "results must be a JSON object"},
        BadInput{"experiment results null",
                 R"({"format":"warpscope-session","version":2,"experiments":{"streams":null}})",
                 "/experiments/streams", "found null"},
        BadInput{"experiment key with a slash",
                 R"({"format":"warpscope-session","version":2,"experiments":{"a/B":{}}})",
                 "/experiments/a~1B", "lower-case letters, digits and '-'"},
        BadInput{"experiment key empty",
                 R"({"format":"warpscope-session","version":2,"experiments":{"":{}}})",
                 "/experiments/", "an experiment's key is 1 to 64"}),
    rowName);

TEST(FileFormat, SessionOfTenThousandEntriesIsAccepted) {
    auto read =
        sessionFromJsonText(sessionWithEntries(10000, "{\"pattern\":" + bareWith("") + "}"));
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read->entries.size(), 10000u);
}

} // namespace
} // namespace warpscope
