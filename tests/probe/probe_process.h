// Runs warpscope-probe (or the fake probe the tests build) as a child process with pipes on its
// stdin, stdout and stderr, the way the app and scripts run it. POSIX only; every wait has a
// timeout so a hanging probe fails the test instead of hanging it.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::probe::testing {

#ifdef WARPSCOPE_FAKE_PROBE_PATH
/// The fake probe the process tests run: the real command line over the scripted backend.
inline const std::string kFakeProbe = WARPSCOPE_FAKE_PROBE_PATH;
#endif

class ProbeProcess {
public:
    using Clock = std::chrono::steady_clock;

    /// Starts `program` with `args`; `environment` entries ("NAME=value") are added to ours.
    ProbeProcess(const std::string& program, const std::vector<std::string>& args,
                 const std::vector<std::string>& environment = {}) {
        // Everything the child needs is built before fork(): after it, only exec-safe calls.
        std::vector<std::string> env;
        for (char** entry = environ; *entry != nullptr; ++entry) {
            env.emplace_back(*entry);
        }
        env.insert(env.end(), environment.begin(), environment.end());
        std::vector<char*> envp;
        for (std::string& entry : env) {
            envp.push_back(entry.data());
        }
        envp.push_back(nullptr);
        std::vector<std::string> argStrings;
        argStrings.push_back(program);
        argStrings.insert(argStrings.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& arg : argStrings) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);

        int in[2], out[2], err[2];
        if (::pipe(in) != 0 || ::pipe(out) != 0 || ::pipe(err) != 0) {
            return;
        }
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(in[0], STDIN_FILENO);
            ::dup2(out[1], STDOUT_FILENO);
            ::dup2(err[1], STDERR_FILENO);
            for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) {
                ::close(fd);
            }
            ::execve(program.c_str(), argv.data(), envp.data());
            ::_exit(127);
        }
        ::close(in[0]);
        ::close(out[1]);
        ::close(err[1]);
        m_stdin = in[1];
        m_stdout = out[0];
        m_stderr = err[0];
        ::signal(SIGPIPE, SIG_IGN);
    }

    ~ProbeProcess() {
        closeStdin();
        if (m_pid > 0 && !m_status) {
            ::kill(m_pid, SIGKILL);
            int status = 0;
            ::waitpid(m_pid, &status, 0);
        }
        for (int fd : {m_stdout, m_stderr}) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }

    ProbeProcess(const ProbeProcess&) = delete;
    ProbeProcess& operator=(const ProbeProcess&) = delete;

    bool started() const { return m_pid > 0; }

    bool writeLine(const std::string& line) {
        const std::string text = line + "\n";
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(m_stdin, text.data() + done, text.size() - done);
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                return false;
            }
            done += static_cast<std::size_t>(n);
        }
        return true;
    }

    void closeStdin() {
        if (m_stdin >= 0) {
            ::close(m_stdin);
            m_stdin = -1;
        }
    }

    /// The next stdout line, or nullopt at end of output or after `timeout`.
    std::optional<std::string> readLine(std::chrono::milliseconds timeout) {
        const auto deadline = Clock::now() + timeout;
        for (;;) {
            const std::size_t newline = m_outBuffer.find('\n');
            if (newline != std::string::npos) {
                std::string line = m_outBuffer.substr(0, newline);
                m_outBuffer.erase(0, newline + 1);
                return line;
            }
            if (m_stdout < 0 || !pump(deadline)) {
                return std::nullopt;
            }
        }
    }

    /// Waits for the exit (reading the rest of stdout and stderr); nullopt on timeout.
    std::optional<int> waitExit(std::chrono::milliseconds timeout) {
        const auto deadline = Clock::now() + timeout;
        while (m_stdout >= 0 || m_stderr >= 0) {
            if (!pump(deadline)) {
                if (Clock::now() >= deadline) {
                    return std::nullopt;
                }
            }
        }
        while (!m_status) {
            int status = 0;
            const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
            if (done == m_pid) {
                m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                break;
            }
            if (Clock::now() >= deadline) {
                return std::nullopt;
            }
            ::usleep(5000);
        }
        return m_status;
    }

    /// Everything read from stdout after the last line handed out, and all of stderr.
    const std::string& pendingStdout() const { return m_outBuffer; }
    const std::string& stderrText() const { return m_errBuffer; }

private:
    /// Reads what is available on stdout and stderr until something arrives or the deadline;
    /// false when nothing more can come (both closed) or the deadline passed.
    bool pump(Clock::time_point deadline) {
        pollfd fds[2];
        nfds_t count = 0;
        if (m_stdout >= 0) {
            fds[count++] = pollfd{m_stdout, POLLIN, 0};
        }
        if (m_stderr >= 0) {
            fds[count++] = pollfd{m_stderr, POLLIN, 0};
        }
        if (count == 0) {
            return false;
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) {
            return false;
        }
        const int ready = ::poll(fds, count, static_cast<int>(left.count()));
        if (ready <= 0) {
            return ready < 0 && errno == EINTR;
        }
        for (nfds_t i = 0; i < count; ++i) {
            if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) {
                continue;
            }
            char chunk[65536];
            const ssize_t n = ::read(fds[i].fd, chunk, sizeof chunk);
            const bool isOut = fds[i].fd == m_stdout;
            if (n <= 0) {
                ::close(fds[i].fd);
                (isOut ? m_stdout : m_stderr) = -1;
            } else {
                (isOut ? m_outBuffer : m_errBuffer).append(chunk, static_cast<std::size_t>(n));
            }
        }
        return true;
    }

    pid_t m_pid = -1;
    int m_stdin = -1;
    int m_stdout = -1;
    int m_stderr = -1;
    std::string m_outBuffer;
    std::string m_errBuffer;
    std::optional<int> m_status;
};

/// Runs a probe command to its end with no input; the exit status (nullopt on timeout), stdout
/// and stderr.
struct CommandResult {
    std::optional<int> exitStatus;
    std::string out;
    std::string err;
};

inline CommandResult runCommand(const std::string& program, const std::vector<std::string>& args,
                                const std::vector<std::string>& environment = {},
                                std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    ProbeProcess process(program, args, environment);
    process.closeStdin();
    CommandResult result;
    result.exitStatus = process.waitExit(timeout);
    result.out = process.pendingStdout();
    result.err = process.stderrText();
    return result;
}

/// Sends one request line and reads lines until the response with the request's id (skipping
/// progress lines and anything that is not JSON); null when none comes within `timeout`.
inline nlohmann::json askProbe(ProbeProcess& probe, const std::string& line,
                               std::chrono::milliseconds timeout) {
    const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
    const nlohmann::json id =
        request.is_object() ? request.value("id", nlohmann::json()) : nlohmann::json();
    if (!probe.writeLine(line)) {
        return nlohmann::json();
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            return nlohmann::json();
        }
        auto text = probe.readLine(left);
        if (!text) {
            return nlohmann::json();
        }
        nlohmann::json response = nlohmann::json::parse(*text, nullptr, false);
        if (response.is_object() && response.contains("ok") && response["id"] == id) {
            return response;
        }
    }
}

} // namespace warpscope::probe::testing
