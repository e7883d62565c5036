// What the app tests that start a probe share: the fake probe's path, its script variable, and a
// shown window that starts the given probe command.
#pragma once

#include "windowfixture.h"

#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace warpscope::app::test {

/// The fake probe built with the tests (tests/probe/fake_probe_main.cpp); empty in a build
/// without it.
inline QString fakeProbe() {
#ifdef WARPSCOPE_FAKE_PROBE_PATH
    return QStringLiteral(WARPSCOPE_FAKE_PROBE_PATH);
#else
    return {};
#endif
}

/// Skips the test in a build without the fake probe.
#define REQUIRE_FAKE_PROBE()                                                                       \
    if (fakeProbe().isEmpty()) {                                                                   \
        GTEST_SKIP() << "this build has no warpscope-probe-fake (the probe needs CUDA at build "   \
                        "time)";                                                                   \
    }

/// Sets WARPSCOPE_FAKE_PROBE for the probes started while it lives.
class FakeScript {
public:
    explicit FakeScript(const char* script) { qputenv("WARPSCOPE_FAKE_PROBE", script); }
    ~FakeScript() { qunsetenv("WARPSCOPE_FAKE_PROBE"); }
    FakeScript(const FakeScript&) = delete;
    FakeScript& operator=(const FakeScript&) = delete;
};

/// The gate of the fake probe's "gated" script (WARPSCOPE_FAKE_PROBE_GATE): a batch's patterns
/// from the fourth on wait until open() (or the end of the test) creates the gate file, so a test
/// can act on a batch that is surely still under way, on a machine however loaded.
class FakeGate {
public:
    FakeGate() : m_path(m_dir.path() + QStringLiteral("/gate")) {
        qputenv("WARPSCOPE_FAKE_PROBE_GATE", m_path.toLocal8Bit());
        // Every finished item's progress is written (not one per 50 ms), so the three items
        // before the gate show before the batch stalls on it.
        qputenv("WARPSCOPE_PROBE_PROGRESS_INTERVAL_MS", "0");
    }
    ~FakeGate() {
        open();
        qunsetenv("WARPSCOPE_FAKE_PROBE_GATE");
        qunsetenv("WARPSCOPE_PROBE_PROGRESS_INTERVAL_MS");
    }
    FakeGate(const FakeGate&) = delete;
    FakeGate& operator=(const FakeGate&) = delete;
    void open() {
        QFile file(m_path);
        if (!file.exists() && file.open(QIODevice::WriteOnly)) {
            file.write("open\n");
        }
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

/// A quiet main window, shown, whose probe command is `command` (timeoutMs 0: the default).
inline std::unique_ptr<MainWindow> windowWithProbe(const QString& command, int timeoutMs = 0) {
    MainWindowOptions options = quietOptions();
    options.probeCommand = command;
    options.probeTimeoutMs = timeoutMs;
    auto window = std::make_unique<MainWindow>(options);
    window->resize(1600, 1000);
    window->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    return window;
}

} // namespace warpscope::app::test
