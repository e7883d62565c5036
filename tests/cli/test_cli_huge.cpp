// warpscope-cli analyze-kernel on huge grids, run as a user runs it: the estimate is printed
// before any walk; a launch over the grid model's budget is refused at once, naming the
// estimate, the limit and the variable that raises it; a long walk shows its progress on stderr
// (a terminal, or --progress) and stops cleanly on Ctrl+C (SIGINT) with a message.
#include "cli_run.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::clitest {
namespace {

using Clock = std::chrono::steady_clock;

std::string kernelJson(const std::string& gridX, int blockX) {
    return R"({"grid": [)" + gridX + R"(, 1, 1], "block": [)" + std::to_string(blockX) +
           R"(, 1, 1], "buffers": [{"name": "data", "bytes": 4096}], "accesses": [{"op": )"
           R"("load", "space": "global", "width": 4, "buffer": "data", "address": "lane * 4"}]})";
}

/// A kernel file in a directory of its own, removed afterwards.
class KernelFile {
public:
    explicit KernelFile(const std::string& json) {
        char pattern[] = "/tmp/warpscope-cli-huge-XXXXXX";
        const char* made = ::mkdtemp(pattern);
        m_dir = made != nullptr ? made : "/tmp";
        m_path = m_dir + "/kernel.json";
        std::ofstream(m_path) << json;
    }
    ~KernelFile() {
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }
    KernelFile(const KernelFile&) = delete;
    KernelFile& operator=(const KernelFile&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_dir;
    std::string m_path;
};

/// warpscope-cli running as a child: its stdout and stderr readable as they come. stderr is a
/// pipe, or a pseudo-terminal when `terminal` (as when a user runs it).
class Running {
public:
    Running(const std::vector<std::string>& args, const std::vector<std::string>& environment,
            bool terminal = false) {
        int outPipe[2] = {-1, -1};
        int errPipe[2] = {-1, -1};
        if (::pipe(outPipe) != 0) {
            return;
        }
        if (terminal ? ::openpty(&errPipe[0], &errPipe[1], nullptr, nullptr, nullptr) != 0
                     : ::pipe(errPipe) != 0) {
            return;
        }
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(outPipe[1], STDOUT_FILENO);
            ::dup2(errPipe[1], STDERR_FILENO);
            const int devNull = ::open("/dev/null", O_RDONLY);
            ::dup2(devNull, STDIN_FILENO);
            for (const std::string& setting : environment) {
                ::putenv(const_cast<char*>(setting.c_str()));
            }
            std::vector<char*> argv;
            argv.push_back(const_cast<char*>(WARPSCOPE_CLI_PATH));
            for (const std::string& arg : args) {
                argv.push_back(const_cast<char*>(arg.c_str()));
            }
            argv.push_back(nullptr);
            ::execv(WARPSCOPE_CLI_PATH, argv.data());
            ::_exit(127);
        }
        ::close(outPipe[1]);
        ::close(errPipe[1]);
        m_out = outPipe[0];
        m_err = errPipe[0];
    }

    ~Running() {
        if (m_pid > 0 && !m_status) {
            ::kill(m_pid, SIGKILL); // a CLI that ignored what it was told must not outlive the test
            ::waitpid(m_pid, nullptr, 0);
        }
        for (const int fd : {m_out, m_err}) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;

    bool started() const { return m_pid > 0; }

    /// Reads stdout and stderr until `stream`'s text holds `needle` or `seconds` pass.
    bool waitFor(bool fromErr, const std::string& needle, double seconds) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        while ((fromErr ? err : out).find(needle) == std::string::npos) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0 || !pump(static_cast<int>(left.count()))) {
                return (fromErr ? err : out).find(needle) != std::string::npos;
            }
        }
        return true;
    }

    /// Waits up to `seconds` for the process to end, reading what it writes; its exit status
    /// (128 + N for signal N), or nothing when it is still running.
    std::optional<int> waitExit(double seconds) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        while (!m_status) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                break;
            }
            if (Clock::now() > deadline) {
                break;
            }
            pump(20);
        }
        while (m_status && pump(0)) {
        }
        return m_status;
    }

    void interrupt() const { ::kill(m_pid, SIGINT); }

    std::string out;
    std::string err;

private:
    /// One poll of both streams; false when neither can give more.
    bool pump(int milliseconds) {
        pollfd fds[2] = {{m_out, POLLIN, 0}, {m_err, POLLIN, 0}};
        if (::poll(fds, 2, milliseconds) <= 0) {
            return false;
        }
        bool any = false;
        char buffer[4096];
        for (int i = 0; i < 2; ++i) {
            if ((fds[i].revents & (POLLIN | POLLHUP)) != 0) {
                const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
                if (got > 0) {
                    (i == 0 ? out : err).append(buffer, static_cast<std::size_t>(got));
                    any = true;
                }
            }
        }
        return any;
    }

    pid_t m_pid = -1;
    int m_out = -1;
    int m_err = -1;
    std::optional<int> m_status;
};

// grid.x = 2^31 - 1 (CUDA's largest) of 256 threads: 549,755,813,632 thread-accesses, far above
// the default budget of 2^32.
TEST(CliHuge, AnalyzeKernelPrintsTheEstimateAtOnceThenRefusesOverTheBudget) {
    const KernelFile file(kernelJson("2147483647", 256));
    const CliRun run = runCli({"analyze-kernel", file.path()});
    EXPECT_LT(run.seconds, 2.0) << "refused before any walk";
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.out.find("Grid model: 549,755,813,632 thread-accesses (2,147,483,647 blocks x "
                           "256 threads x 1 access)"),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("Launch: grid (2147483647, 1, 1), block (256, 1, 1)"), std::string::npos)
        << run.out;
    // The refusal names the estimate, the limit and how to raise it.
    EXPECT_NE(run.err.find("549755813632 thread-accesses"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("limit of 4294967296"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("WARPSCOPE_GRID_WORK_LIMIT"), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("Totals"), std::string::npos) << "nothing was computed";
}

// Under a raised budget the same kind of launch is walked: 2^26 blocks of 1024 threads would
// take minutes. --progress shows it on stderr at once; Ctrl+C stops it within 2 s with a
// message, and the exit status says it was interrupted.
TEST(CliHuge, ProgressWithTheFlagAndCtrlCStopsTheWalkWithAMessage) {
    const KernelFile file(kernelJson("67108864", 1024));
    Running cli({"analyze-kernel", file.path(), "--progress"},
                {"WARPSCOPE_GRID_WORK_LIMIT=1099511627776"});
    ASSERT_TRUE(cli.started());
    ASSERT_TRUE(cli.waitFor(false, "Grid model: 68,719,476,736 thread-accesses", 2.0))
        << "stdout: " << cli.out << "\nstderr: " << cli.err;
    ASSERT_TRUE(cli.waitFor(true, "grid model 0 % (0 of 2,147,483,648 warps", 2.0))
        << "stderr: " << cli.err;
    EXPECT_EQ(cli.err.find('\r'), std::string::npos) << "not a terminal: one line per report";
    const auto start = Clock::now();
    cli.interrupt();
    const std::optional<int> status = cli.waitExit(2.0);
    ASSERT_TRUE(status.has_value()) << "still running 2 s after Ctrl+C; stderr: " << cli.err;
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 2.0);
    EXPECT_EQ(*status, 130) << cli.err; // 128 + SIGINT, as a shell reports an interrupt
    EXPECT_NE(cli.err.find("interrupted (Ctrl+C) after "), std::string::npos) << cli.err;
    EXPECT_NE(cli.err.find(" of 2,147,483,648 warps"), std::string::npos) << cli.err;
    EXPECT_EQ(cli.out.find("Totals"), std::string::npos) << cli.out;
}

// On a terminal the progress comes without the flag, one line rewritten in place.
TEST(CliHuge, ProgressOnATerminalWithoutTheFlag) {
    const KernelFile file(kernelJson("67108864", 1024));
    Running cli({"analyze-kernel", file.path()}, {"WARPSCOPE_GRID_WORK_LIMIT=1099511627776"}, true);
    ASSERT_TRUE(cli.started());
    ASSERT_TRUE(cli.waitFor(true, "grid model 0 %", 2.0)) << "stderr: " << cli.err;
    EXPECT_NE(cli.err.find("\033[K"), std::string::npos) << "rewritten in place";
    cli.interrupt();
    ASSERT_TRUE(cli.waitExit(2.0).has_value()) << cli.err;
}

// Into a pipe and without the flag, a kernel's walk prints nothing on stderr.
TEST(CliHuge, NoProgressIntoAPipeWithoutTheFlag) {
    const CliRun run = runCli({"analyze-kernel", "transpose-naivecol"});
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.err, "");
    EXPECT_NE(run.out.find("Grid model: "), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("Totals"), std::string::npos) << run.out;
}

TEST(CliHuge, ProgressIsAnOptionOfAnalyzeKernelOnly) {
    const CliRun run = runCli({"predict-kernel", "--progress"});
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("unknown option '--progress' for predict-kernel"), std::string::npos)
        << run.err;
}

} // namespace
} // namespace warpscope::clitest
