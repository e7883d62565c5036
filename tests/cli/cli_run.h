// Runs warpscope-cli as a user does, as a process: arguments, a text on its stdin, its stdout,
// stderr and exit status captured. One runner for every CLI test file. `timeout` stops a CLI that
// hangs after 20 s (status 124), so a regression fails the test instead of stalling the suite.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace warpscope::clitest {

struct CliRun {
    int status = -1;
    std::string out;
    std::string err;
    double seconds = 0.0;
};

inline std::string shellQuote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

inline std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Runs `warpscope-cli ARGS < input`.
inline CliRun runCli(const std::vector<std::string>& args, const std::string& input = "") {
    char pattern[] = "/tmp/warpscope-cli-test-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    const std::filesystem::path dir =
        made != nullptr ? made : std::filesystem::temp_directory_path();
    const std::string inPath = (dir / "in").string();
    const std::string errPath = (dir / "err").string();
    {
        std::ofstream in(inPath, std::ios::binary);
        in << input;
    }
    std::string command = "timeout 20 " + shellQuote(WARPSCOPE_CLI_PATH);
    for (const std::string& arg : args) {
        command += " " + shellQuote(arg);
    }
    command += " < " + shellQuote(inPath) + " 2> " + shellQuote(errPath);
    CliRun run;
    const auto start = std::chrono::steady_clock::now();
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        char buffer[4096];
        std::size_t got = 0;
        while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
            run.out.append(buffer, got);
        }
        const int status = ::pclose(pipe);
        run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.err = readAll(errPath);
    if (made != nullptr) {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
    return run;
}

} // namespace warpscope::clitest
