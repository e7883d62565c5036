// `warpscope-probe experiment NAME [options]` (kernels/cli/experiment_commands.h) over the fake
// backend, as a process: the same output as the experiment's own command (kept as an alias), with
// and without --json, the usage lists every experiment, and a missing or unknown NAME is bad
// usage naming the experiments there are.
#include "probe_process.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using warpscope::probe::testing::CommandResult;
using warpscope::probe::testing::runCommand;

using warpscope::probe::testing::kFakeProbe;

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

TEST(ProbeExperimentCommand, AnswersAsTheExperimentsOwnCommand) {
    const std::vector<std::vector<std::string>> runs{
        {"l2-persistence", "--windows", "8M,16M", "--hit-ratios", "1", "--repetitions", "2"},
        {"streams", "--bytes", "1M", "--streams", "1,2", "--repetitions", "2"},
        {"transfers", "--sizes", "4K,64K", "--modes", "h2d_pinned,sum_device", "--repetitions",
         "2"}};
    for (const std::vector<std::string>& run : runs) {
        for (const bool asJson : {false, true}) {
            const std::vector<std::string> options =
                asJson ? with({"--json"}, {run.begin() + 1, run.end()})
                       : std::vector<std::string>(run.begin() + 1, run.end());
            const CommandResult alias = runCommand(kFakeProbe, with({run.front()}, options));
            const CommandResult generic =
                runCommand(kFakeProbe, with({"experiment", run.front()}, options));
            ASSERT_EQ(alias.exitStatus, 0) << run.front() << "\n" << alias.err;
            EXPECT_EQ(generic.exitStatus, 0) << run.front() << "\n" << generic.err;
            EXPECT_FALSE(alias.out.empty()) << run.front();
            EXPECT_EQ(generic.out, alias.out) << run.front() << (asJson ? " --json" : "");
            EXPECT_EQ(generic.err, alias.err) << run.front(); // the same progress lines
        }
    }
}

TEST(ProbeExperimentCommand, RefusesAMissingOrUnknownNameNamingTheExperiments) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"experiment"},
                                                 {"experiment", "--json"},
                                                 {"experiment", "measure_transfers"},
                                                 {"experiment", "transfer"}}) {
        const CommandResult result = runCommand(kFakeProbe, args);
        EXPECT_EQ(result.exitStatus, 2) << args.back() << "\n" << result.err;
        EXPECT_NE(result.err.find("transfers, streams and l2-persistence"), std::string::npos)
            << result.err;
        EXPECT_TRUE(result.out.empty()) << result.out;
    }
    // The experiment's own options are read as its command reads them.
    const CommandResult bad =
        runCommand(kFakeProbe, {"experiment", "l2-persistence", "--hit-ratios", "2"});
    EXPECT_EQ(bad.exitStatus, 2) << bad.err;
    const CommandResult stray = runCommand(kFakeProbe, {"experiment", "streams", "--frob", "1"});
    EXPECT_EQ(stray.exitStatus, 2) << stray.err;
    EXPECT_NE(stray.err.find("--frob"), std::string::npos) << stray.err;
}

TEST(ProbeExperimentCommand, TheUsageListsEveryExperimentAndItsParagraph) {
    const CommandResult help = runCommand(kFakeProbe, {"--help"});
    ASSERT_EQ(help.exitStatus, 0);
    for (const char* part :
         {"warpscope-probe experiment NAME [options]", "warpscope-probe transfers [options]",
          "warpscope-probe streams [options]", "warpscope-probe l2-persistence [options]",
          "\ntransfers  Measures host and device transfers", "\nstreams    The course notes'",
          "\nl2-persistence\n", "\nexperiment NAME [options]\n", "\ntma-check"}) {
        EXPECT_NE(help.out.find(part), std::string::npos) << part << "\n" << help.out;
    }
}

} // namespace
