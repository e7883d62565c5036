// The probe's own answers recorded on an H200 (tests/data/probe_ldsm_h200/, written by
// scripts/gpu/ldsm_probe_check.sh): every ldmatrix/stmatrix pattern of the tables measured with
// ncu, swept through `warpscope-probe serve`, equals both the ncu row and the modern model on the
// five counters; the refusals name the field and the rule; every TMA check's dumped layout equals
// the layout model recomputed here; selfcheck's model checks all agreed.
#include "tma_check.h"

#include "warpscope/file_format.h"
#include "warpscope/matrix_access.h"
#include "warpscope/model.h"
#include "warpscope/tma_layout.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

const std::string kDir = WARPSCOPE_TEST_DATA_DIR;

std::vector<json> readLines(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::vector<json> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty()) {
            lines.push_back(json::parse(line));
        }
    }
    return lines;
}

const std::vector<std::string> kCounters = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    warpscope::kLdsmInstructionsMetric,
};

json answerWithId(const std::vector<json>& answers, const std::string& id) {
    for (const json& answer : answers) {
        if (answer.value("id", json()) == id && answer.contains("ok")) {
            return answer;
        }
    }
    ADD_FAILURE() << "no answer " << id;
    return json::object();
}

TEST(LdsmRecordedOnH200, EverySweptPatternEqualsNcuAndTheModel) {
    std::vector<json> rows;
    for (const char* table : {"/ldmatrix_designed_h200.jsonl", "/ldmatrix_validation_h200.jsonl"}) {
        for (json& row : readLines(kDir + table)) {
            if (!row.contains("format")) {
                rows.push_back(std::move(row));
            }
        }
    }
    const std::vector<json> answers = readLines(kDir + "/probe_ldsm_h200/answers.jsonl");
    const json sweep = answerWithId(answers, "sweep");
    ASSERT_TRUE(sweep.value("ok", false));
    const json& measurements = sweep["result"]["measurements"];
    ASSERT_EQ(measurements.size(), rows.size());
    ASSERT_EQ(rows.size(), 332u);
    int loads = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string name = rows[i]["name"];
        auto named = warpscope::patternFromJsonText(rows[i].dump());
        ASSERT_TRUE(named) << name;
        auto access = warpscope::resolve(named->pattern);
        ASSERT_TRUE(access) << name;
        std::map<std::string, double> model;
        for (const auto& metric :
             warpscope::modernMetrics(warpscope::predictModern(access.value()))) {
            model[metric.name] = metric.value;
        }
        loads += access.value().kind.op == warpscope::AccessOp::Load ? 1 : 0;
        const json& probe = measurements[i]["counters"];
        for (const std::string& counter : kCounters) {
            ASSERT_TRUE(probe.contains(counter)) << name << " " << counter;
            const double measured = probe[counter].get<double>();
            EXPECT_EQ(measured, rows[i]["measured"][counter].get<double>())
                << name << " " << counter << ": the probe against ncu";
            EXPECT_EQ(measured, model.at(counter))
                << name << " " << counter << ": against the model";
        }
    }
    EXPECT_GT(loads, 0);
    EXPECT_LT(loads, static_cast<int>(rows.size())); // stmatrix rows too
}

TEST(LdsmRecordedOnH200, RefusalsNameTheFieldAndTheRule) {
    const std::vector<json> answers = readLines(kDir + "/probe_ldsm_h200/answers.jsonl");
    const json three = answerWithId(answers, "refuse-matrices-3");
    EXPECT_EQ(three["error"]["code"], "bad_request");
    EXPECT_EQ(three["error"]["where"], "/pattern/matrices");
    const json unaligned = answerWithId(answers, "refuse-unaligned-row");
    EXPECT_EQ(unaligned["error"]["code"], "pattern_refused");
    EXPECT_NE(unaligned["error"]["message"].get<std::string>().find("16-byte aligned"),
              std::string::npos);
    const json outside = answerWithId(answers, "refuse-outside-shared");
    EXPECT_EQ(outside["error"]["code"], "pattern_refused");
    EXPECT_NE(outside["error"]["message"].get<std::string>().find("lane 3"), std::string::npos);
    // A single ldmatrix measure answers counters and, the latency kernels timing LDS, no latency.
    const json x4 = answerWithId(answers, "measure-ldmatrix-x4");
    EXPECT_EQ(x4["result"]["counters"][warpscope::kLdsmInstructionsMetric], 1);
    EXPECT_FALSE(x4["result"].contains("latency"));
}

TEST(LdsmRecordedOnH200, EveryTmaDumpEqualsTheLayoutModel) {
    const std::vector<json> checks = readLines(kDir + "/probe_ldsm_h200/tma_check.jsonl");
    ASSERT_EQ(checks.size(), 195u);
    int modes[4] = {0, 0, 0, 0};
    for (const json& check : checks) {
        ASSERT_TRUE(check.contains("load")) << check.dump().substr(0, 200);
        const json& load = check["load"];
        warpscope::TmaTileLoad tile;
        tile.elementBytes = load["elementBytes"];
        tile.boxInnerElements = load["box"][0];
        tile.boxRows = load["box"][1];
        tile.swizzle = warpscope::parseTmaSwizzle(load["swizzle"].get<std::string>()).value();
        tile.smemOffset = load["smemOffset"];
        auto layout = warpscope::layTmaTile(tile);
        ASSERT_TRUE(layout) << load.dump();
        warpscope::probe::TmaDump dump;
        for (const json& chunk : check["measured"]) {
            dump.chunks.push_back(chunk.is_null()
                                      ? std::nullopt
                                      : std::optional<warpscope::TmaChunkSource>(
                                            {chunk[0].get<int>(), chunk[1].get<int>()}));
        }
        dump.arrived = check["arrived"];
        dump.windowAddress = check["windowAddress"];
        const auto result = warpscope::probe::compareTmaLayout(layout.value(), dump);
        EXPECT_TRUE(result.agrees()) << load.dump() << ": " << result.differences.front();
        ++modes[static_cast<int>(tile.swizzle)];
    }
    for (int count : modes) {
        EXPECT_GE(count, 48);
    }
}

TEST(LdsmRecordedOnH200, SelfcheckModelChecksAllAgreed) {
    std::ifstream in(kDir + "/probe_ldsm_h200/selfcheck.txt");
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("model checks: 19 agree, 0 differ, 0 skipped"), std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("Self-check on NVIDIA H200"), std::string::npos);
}

} // namespace
