// analyze-kernel's grid walk with its estimate, progress and Ctrl+C (grid_walk.h).
#include "grid_walk.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>

namespace warpscope::cli {

namespace {

/// Set by the SIGINT handler, polled by the grid model every 1024 warps. A lock-free atomic is
/// safe to store to from a signal handler.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onInterrupt(int) {
    interrupted.store(true);
}

/// SIGINT sets `interrupted` while this lives; the handler resets itself after one signal, so
/// a second Ctrl+C ends the process the usual way.
class InterruptGuard {
public:
    InterruptGuard() {
        interrupted.store(false);
        struct sigaction action {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        m_installed = ::sigaction(SIGINT, &action, &m_previous) == 0;
    }
    ~InterruptGuard() {
        if (m_installed) {
            ::sigaction(SIGINT, &m_previous, nullptr);
        }
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    struct sigaction m_previous {};
    bool m_installed = false;
};

int percentOf(std::int64_t done, std::int64_t total) {
    return total > 0 ? static_cast<int>(done * 100 / total) : 100;
}

std::string mebibytes(std::int64_t bytes) {
    return groupDigits((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

/// Progress on stderr: on a terminal one line rewritten in place, a few times a second;
/// otherwise (--progress into a file or pipe) a line per step of at least a second.
class ProgressLine {
public:
    explicit ProgressLine(std::int64_t totalWarps)
        : m_total(totalWarps), m_terminal(::isatty(STDERR_FILENO) == 1),
          m_start(std::chrono::steady_clock::now()) {
        write(0);
    }

    void report(std::int64_t done) {
        const auto now = std::chrono::steady_clock::now();
        if (now - m_last <
            (m_terminal ? std::chrono::milliseconds(200) : std::chrono::seconds(1))) {
            return;
        }
        write(done);
    }

    /// Clears a terminal's line (the report that follows starts on a clean line).
    void finish() const {
        if (m_terminal) {
            std::fputs("\r\033[K", stderr);
            std::fflush(stderr);
        }
    }

private:
    void write(std::int64_t done) {
        m_last = std::chrono::steady_clock::now();
        const auto seconds =
            std::chrono::duration_cast<std::chrono::seconds>(m_last - m_start).count();
        const std::string text = "warpscope-cli: grid model " +
                                 std::to_string(percentOf(done, m_total)) + " % (" +
                                 groupDigits(done) + " of " + groupDigits(m_total) + " warps, " +
                                 std::to_string(seconds) + " s); Ctrl+C stops";
        if (m_terminal) {
            std::fputs(("\r\033[K" + text).c_str(), stderr);
        } else {
            std::fputs((text + "\n").c_str(), stderr);
        }
        std::fflush(stderr);
    }

    std::int64_t m_total;
    bool m_terminal;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace

std::string groupDigits(std::int64_t value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

std::string estimateLine(const ResolvedKernel& kernel, const GridEstimate& estimate) {
    const std::size_t accesses = kernel.accesses.size();
    return "Grid model: " + groupDigits(estimate.threadAccesses) + " thread-accesses (" +
           groupDigits(kernel.grid.count()) + " blocks x " + groupDigits(kernel.block.count()) +
           " threads x " + std::to_string(accesses) + (accesses == 1 ? " access" : " accesses") +
           "); footprint memory at least " + mebibytes(estimate.memoryBytes);
}

bool progressWanted(bool asked) {
    return asked || ::isatty(STDERR_FILENO) == 1;
}

Result<GridPrediction> walkGrid(const ResolvedKernel& kernel, bool showProgress) {
    InterruptGuard guard;
    GridOptions options;
    options.cancelled = &interrupted;
    const std::int64_t totalWarps = kernel.warpCount();
    std::int64_t reached = 0;
    std::optional<ProgressLine> line;
    if (showProgress) {
        line.emplace(totalWarps);
    }
    options.progress = [&](std::int64_t done, std::int64_t) {
        reached = done;
        if (line) {
            line->report(done);
        }
    };
    auto prediction = predictGrid(kernel, options);
    if (line) {
        line->finish();
    }
    if (!prediction && prediction.error().code == ErrorCode::Cancelled) {
        Error error = prediction.error();
        error.message = "interrupted (Ctrl+C) after " + groupDigits(reached) + " of " +
                        groupDigits(totalWarps) + " warps (" +
                        std::to_string(percentOf(reached, totalWarps)) +
                        " %); the grid model stopped and printed no totals";
        return error;
    }
    return prediction;
}

} // namespace warpscope::cli
