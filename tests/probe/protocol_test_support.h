// Helpers shared by the probe protocol's in-process tests (test_protocol*.cpp): serving a text
// to the FakeBackend, request lines, and a live server fed line by line from another thread.
#pragma once

#include "fake_backend.h"
#include "kernel_codegen.h"
#include "kernel_request.h"
#include "probe_protocol.h"

#include "warpscope/model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <future>
#include <istream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace protocol_test {

using namespace warpscope::probe;
using json = nlohmann::json;
using namespace std::chrono_literals;

// ---- Helpers
// -------------------------------------------------------------------------------------

struct Served {
    int status = -1;
    std::vector<json> lines;
    std::string text;
};

inline ServeOptions everyProgressLine() {
    ServeOptions options;
    options.probeVersion = "9.9.9-test";
    options.progressInterval = 0ms;
    return options;
}

inline Served serveText(Backend& backend, const std::string& input,
                        const ServeOptions& options = everyProgressLine()) {
    std::istringstream in(input);
    std::ostringstream out;
    Served served;
    served.status = serve(in, out, backend, options);
    served.text = out.str();
    std::istringstream lines(served.text);
    std::string line;
    while (std::getline(lines, line)) {
        served.lines.push_back(json::parse(line, nullptr, false));
    }
    return served;
}

inline std::string addressList(int stride, int width = 4) {
    std::string text = "[";
    for (int lane = 0; lane < 32; ++lane) {
        text += (lane ? "," : "") + std::to_string(lane * stride * width);
    }
    return text + "]";
}

/// A bare-form global load with lane addresses lane * stride * 4.
inline std::string stridedPattern(int stride) {
    return R"({"space":"global","op":"load","width":4,"cache":"default","addresses":)" +
           addressList(stride) + "}";
}

inline const std::string kCoalesced = stridedPattern(1);

const char* const kExpressionPattern =
    R"({"space":"global","op":"load","width":4,"source":{"address":"lane * 4 + o * 4","parameters":[{"name":"o","value":11}]}})";

inline std::string request(const json& id, const std::string& op, const std::string& fields = "") {
    return R"({"id":)" + id.dump() + R"(,"op":")" + op + "\"" +
           (fields.empty() ? "" : "," + fields) + "}\n";
}

/// An input stream fed by the test while serve() reads it, as a live pipe would be.
class LiveInput : public std::streambuf {
public:
    void push(const std::string& text) {
        std::lock_guard lock(m_mutex);
        m_data += text;
        m_changed.notify_all();
    }
    void close() {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_changed.notify_all();
    }

protected:
    int_type underflow() override {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_position < m_data.size() || m_closed; });
        if (m_position >= m_data.size()) {
            return traits_type::eof();
        }
        m_current = m_data[m_position++];
        setg(&m_current, &m_current, &m_current + 1);
        return traits_type::to_int_type(m_current);
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::string m_data;
    std::size_t m_position = 0;
    bool m_closed = false;
    char m_current = 0;
};

/// An output stream whose lines the test can wait for while serve() runs.
class LiveOutput : public std::streambuf {
public:
    /// Waits until a complete line satisfies `match`; returns it (or null after the timeout).
    json waitFor(const std::function<bool(const json&)>& match,
                 std::chrono::milliseconds timeout = 10s) {
        std::unique_lock lock(m_mutex);
        json found;
        m_changed.wait_for(lock, timeout, [&] {
            for (const json& line : m_lines) {
                if (match(line)) {
                    found = line;
                    return true;
                }
            }
            return false;
        });
        return found;
    }
    std::vector<json> lines() {
        std::lock_guard lock(m_mutex);
        return m_lines;
    }

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) {
            return traits_type::not_eof(c);
        }
        std::lock_guard lock(m_mutex);
        if (c == '\n') {
            m_lines.push_back(json::parse(m_partial, nullptr, false));
            m_partial.clear();
            m_changed.notify_all();
        } else {
            m_partial.push_back(traits_type::to_char_type(c));
        }
        return c;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::string m_partial;
    std::vector<json> m_lines;
};

/// serve() on a thread over a live input; the input is closed and serve() awaited however the
/// test ends, so a failing assertion cannot leave it blocked.
class LiveServer {
public:
    explicit LiveServer(Backend& backend) : m_in(&input), m_out(&output) {
        m_status = std::async(std::launch::async, [this, &backend] {
            return serve(m_in, m_out, backend, everyProgressLine());
        });
    }
    ~LiveServer() {
        input.close();
        if (m_status.valid()) {
            m_status.wait();
        }
    }
    LiveServer(const LiveServer&) = delete;
    LiveServer& operator=(const LiveServer&) = delete;

    /// Ends the input and returns serve()'s status, or -1 when it does not return in 10 s.
    int finish() {
        input.close();
        if (m_status.wait_for(10s) != std::future_status::ready) {
            return -1;
        }
        return m_status.get();
    }

    LiveInput input;
    LiveOutput output;

private:
    std::istream m_in;
    std::ostream m_out;
    std::future<int> m_status;
};

inline std::function<bool(const json&)> responseTo(const json& id) {
    return [id](const json& line) {
        return line.is_object() && line.contains("ok") && line.value("id", json()) == id;
    };
}

} // namespace protocol_test
