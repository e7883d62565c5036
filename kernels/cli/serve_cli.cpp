// `warpscope-probe serve`: the protocol server on stdin/stdout (docs/protocol.md).
#include "serve_cli.h"

#include "probe_protocol.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <streambuf>

#include <unistd.h>

namespace warpscope::probe {

namespace {

/// An output stream buffer over a file descriptor: the protocol's private copy of stdout.
class FdOutBuf : public std::streambuf {
public:
    explicit FdOutBuf(int fd) : m_fd(fd) { setp(m_buffer, m_buffer + sizeof m_buffer); }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain() {
        const char* next = pbase();
        while (next < pptr()) {
            const ssize_t written = ::write(m_fd, next, static_cast<std::size_t>(pptr() - next));
            if (written < 0) {
                if (errno == EINTR) {
                    continue;
                }
                setp(m_buffer, m_buffer + sizeof m_buffer); // the caller is gone: drop it
                return false;
            }
            next += written;
        }
        setp(m_buffer, m_buffer + sizeof m_buffer);
        return true;
    }

    int m_fd;
    char m_buffer[1 << 16];
};

} // namespace

int serveCommand(const BackendFactory& makeBackend) {
    // A caller that goes away must not kill the probe mid-answer; writes then just fail.
    std::signal(SIGPIPE, SIG_IGN);
    // stdout carries protocol lines only. Keep a private copy of it for them and point file
    // descriptor 1 at stderr, so whatever a library prints (the driver, CUPTI) cannot corrupt
    // the stream.
    std::cout.flush();
    std::fflush(stdout);
    const int protocolFd = ::dup(STDOUT_FILENO);
    std::unique_ptr<FdOutBuf> buffer;
    std::unique_ptr<std::ostream> protocolStream;
    std::ostream* protocol = &std::cout;
    if (protocolFd >= 0 && ::dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) {
        buffer = std::make_unique<FdOutBuf>(protocolFd);
        protocolStream = std::make_unique<std::ostream>(buffer.get());
        protocol = protocolStream.get();
    }
    auto backend = makeBackend();
    ServeOptions options;
    options.probeVersion = WARPSCOPE_VERSION;
    // Progress is written at most every 50 ms; tests that stop a batch part-way set 0 so that
    // every finished item shows before the batch stalls (docs/testing.md, "Under load").
    if (const char* interval = std::getenv("WARPSCOPE_PROBE_PROGRESS_INTERVAL_MS")) {
        options.progressInterval =
            std::chrono::milliseconds(std::clamp(std::atoi(interval), 0, 1000));
    }
    const int status = serve(std::cin, *protocol, *backend, options);
    protocol->flush();
    if (status == kServeExitFatal) {
        // The reader thread may still be blocked on stdin: leave without unwinding (no
        // destructors run while it reads). Everything written has been flushed.
        std::fflush(nullptr);
        std::_Exit(status);
    }
    return status;
}

} // namespace warpscope::probe
