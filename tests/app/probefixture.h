// What the app tests that start a probe share: the fake probe's path, its script variable, and a
// shown window that starts the given probe command.
#pragma once

#include "windowfixture.h"

#include <QString>
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
