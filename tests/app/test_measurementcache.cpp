// Measuring ahead of a drag and the cache of measurements: what a key distinguishes, that an
// entry of another device or probe build is never shown, that values measured ahead show their
// overlay at once (marked as from the cache), and that a measure-ahead sweep the drag left
// behind is cancelled. The GPU is the probe's fake backend (WARPSCOPE_FAKE_PROBE).
#include "probefixture.h"
#include "windowfixture.h"

#include "document/patterndocument.h"
#include "gpu/gpurunner.h"
#include "gpu/measurementcache.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "panels/messagebar.h"
#include "views/warpview.h"

#include <warpscope/pattern.h>

#include <QFile>
#include <QTemporaryDir>

#include <chrono>
#include <thread>

namespace warpscope::app::test {
namespace {

constexpr int kCacheWaitMs = 20000;

WarpAccess coalesced(int offset, int width = 4) {
    WarpAccess access;
    access.kind.space = MemorySpace::Global;
    access.kind.op = AccessOp::Load;
    access.kind.widthBytes = width;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        access.addresses[static_cast<std::size_t>(lane)] = (lane + offset) * width;
    }
    return access;
}

ProbeMeasurement measuredSectors(double sectors) {
    ProbeMeasurement m;
    m.countersMeasured = true;
    m.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = sectors;
    m.gpuName = QStringLiteral("NVIDIA H100 80GB HBM3");
    return m;
}

GpuInfo h100() {
    GpuInfo gpu;
    gpu.name = QStringLiteral("NVIDIA H100 80GB HBM3");
    gpu.computeCapability = QStringLiteral("9.0");
    gpu.driverVersion = QStringLiteral("13.0");
    gpu.smCount = 132;
    return gpu;
}

TEST(MeasurementCache, KeysTellEveryPartOfTheAccessApart) {
    const QString origin = MeasurementCache::originOf(h100(), QStringLiteral("warpscope-probe"),
                                                      QStringLiteral("0.1 cuda 13.0"));
    const ProbeMeasureOptions options;
    const std::string base = MeasurementCache::keyOf(coalesced(11), options, origin);
    std::vector<WarpAccess> others;
    others.push_back(coalesced(12));
    others.push_back(coalesced(11, 8));
    WarpAccess store = coalesced(11);
    store.kind.op = AccessOp::Store;
    others.push_back(store);
    WarpAccess shared = coalesced(11);
    shared.kind.space = MemorySpace::Shared;
    others.push_back(shared);
    WarpAccess cg = coalesced(11);
    cg.kind.cache = CachePath::CacheGlobal;
    others.push_back(cg);
    WarpAccess inactive = coalesced(11);
    inactive.addresses[31].reset();
    others.push_back(inactive);
    for (const WarpAccess& other : others) {
        EXPECT_NE(MeasurementCache::keyOf(other, options, origin), base);
    }
    ProbeMeasureOptions noLatency;
    noLatency.latency = false;
    EXPECT_NE(MeasurementCache::keyOf(coalesced(11), noLatency, origin), base);
    // Two counters read are another measurement than all of them.
    const ProbeMeasureOptions kindOnly = withCountersOf(options, coalesced(11).kind);
    EXPECT_NE(MeasurementCache::keyOf(coalesced(11), kindOnly, origin), base);
    ProbeMeasureOptions grid;
    grid.grid = true;
    EXPECT_TRUE(MeasurementCache::keyOf(coalesced(11), grid, origin).empty());
    EXPECT_EQ(MeasurementCache::keyOf(coalesced(11), options, origin), base);
}

TEST(MeasurementCache, APatternIsMeasuredWithItsKindsTwoCounters) {
    const ProbeMeasureOptions all;
    const ProbeMeasureOptions load = withCountersOf(all, coalesced(11).kind);
    EXPECT_EQ(load.counterNames,
              (std::vector<std::string>{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}));
    AccessKind sharedStore = coalesced(11).kind;
    sharedStore.space = MemorySpace::Shared;
    sharedStore.op = AccessOp::Store;
    EXPECT_EQ(
        withCountersOf(all, sharedStore).counterNames,
        (std::vector<std::string>{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}));
    // Kinds the replay does not measure, and no counters at all, are left as they are.
    AccessKind local = coalesced(11).kind;
    local.space = MemorySpace::Local;
    EXPECT_TRUE(withCountersOf(all, local).counterNames.empty());
    ProbeMeasureOptions timingOnly;
    timingOnly.counters = false;
    EXPECT_TRUE(withCountersOf(timingOnly, coalesced(11).kind).counterNames.empty());
}

TEST(MeasurementCache, AnotherDeviceOrProbeBuildNeverGetsTheEntry) {
    MeasurementCache cache;
    const ProbeMeasureOptions options;
    const QString here = MeasurementCache::originOf(h100(), QStringLiteral("warpscope-probe"),
                                                    QStringLiteral("build 1"));
    cache.put(coalesced(11), options, here, measuredSectors(5));
    const auto found = cache.find(coalesced(11), options, here);
    ASSERT_TRUE(found.has_value());
    EXPECT_TRUE(found->fromCache);
    EXPECT_EQ(found->counter("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 5.0);

    GpuInfo other = h100();
    other.name = QStringLiteral("NVIDIA H200");
    EXPECT_FALSE(cache.find(coalesced(11), options,
                            MeasurementCache::originOf(other, QStringLiteral("warpscope-probe"),
                                                       QStringLiteral("build 1"))));
    EXPECT_FALSE(cache.find(coalesced(11), options,
                            MeasurementCache::originOf(h100(), QStringLiteral("warpscope-probe"),
                                                       QStringLiteral("build 2"))));
    EXPECT_FALSE(cache.find(coalesced(11), options,
                            MeasurementCache::originOf(h100(), QStringLiteral("ssh gpu2 probe"),
                                                       QStringLiteral("build 1"))));
    GpuInfo driver = h100();
    driver.driverVersion = QStringLiteral("12.8");
    EXPECT_FALSE(cache.find(coalesced(11), options,
                            MeasurementCache::originOf(driver, QStringLiteral("warpscope-probe"),
                                                       QStringLiteral("build 1"))));
    // A second GPU of the same kind in the same machine is another device.
    GpuInfo twin = h100();
    twin.index = 1;
    twin.uuid = QStringLiteral("GPU-twin");
    EXPECT_FALSE(cache.find(coalesced(11), options,
                            MeasurementCache::originOf(twin, QStringLiteral("warpscope-probe"),
                                                       QStringLiteral("build 1"))));
}

TEST(MeasurementCache, KeepsAtMostItsCapacityOldestFirstAndNoRecordedOnes) {
    MeasurementCache cache(3);
    const ProbeMeasureOptions options;
    const QString here = QStringLiteral("here");
    for (int i = 0; i < 5; ++i) {
        cache.put(coalesced(i), options, here, measuredSectors(i));
    }
    EXPECT_EQ(cache.size(), 3);
    EXPECT_FALSE(cache.contains(coalesced(0), options, here));
    EXPECT_FALSE(cache.contains(coalesced(1), options, here));
    EXPECT_TRUE(cache.contains(coalesced(4), options, here));
    ProbeMeasurement recorded = measuredSectors(9);
    recorded.recorded = true;
    cache.put(coalesced(20), options, here, recorded);
    EXPECT_FALSE(cache.contains(coalesced(20), options, here));
}

/// The window's stride-2 preset with auto-run on against the fake GPU, settled.
class MeasureAheadTest : public ::testing::Test {
protected:
    void open(const QString& command) {
        MainWindowOptions options = quietOptions();
        options.probeCommand = command;
        window = std::make_unique<MainWindow>(options);
        window->resize(1400, 900);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
        gpu()->setAutoRun(true);
        settle();
        ASSERT_NE(window->measurements()->find(window->document()->pattern()), nullptr);
    }
    GpuRunner* gpu() const { return window->gpuRunner(); }
    void settle() {
        ASSERT_TRUE(QTest::qWaitFor(
            [&] { return !gpu()->isMeasuring() && !gpu()->isMeasuringAhead(); }, kCacheWaitMs));
    }
    void setStride(std::int64_t value) {
        Pattern pattern = window->document()->pattern();
        pattern.source->parameters.front().value = value;
        window->document()->editPattern(pattern, QStringLiteral("drag"),
                                        static_cast<int>(EditMerge::FirstParameter));
    }
    const ProbeMeasurement* shown() const {
        return window->measurements()->find(window->document()->pattern());
    }
    std::unique_ptr<MainWindow> window;
};

TEST_F(MeasureAheadTest, ValuesMeasuredAheadShowAtOnceMarkedAsFromTheCache) {
    REQUIRE_FAKE_PROBE();
    open(fakeProbe());
    // The GPU idle after the first answer measured the neighbours on both sides.
    EXPECT_GE(gpu()->aheadSweepsSent(), 1);
    EXPECT_GE(gpu()->cache().size(), 3);
    // A drag upwards: each value's overlay is there as soon as the edit is made.
    for (std::int64_t stride = 3; stride <= 6; ++stride) {
        setStride(stride);
        const ProbeMeasurement* m = shown();
        ASSERT_NE(m, nullptr) << "stride " << stride << " was not shown at once";
        EXPECT_TRUE(m->fromCache);
        EXPECT_TRUE(
            window->warpView()->measurementMark().text.contains(QStringLiteral("from the cache")))
            << qPrintable(window->warpView()->measurementMark().text);
        EXPECT_FALSE(window->warpView()->measurementMark().mismatch);
    }
    // The cached counters are what the GPU gives for that value now: the two the overlay
    // compares, the only ones asked for.
    const std::map<std::string, double> cached = shown()->counters;
    EXPECT_EQ(cached.size(), 2u);
    EXPECT_EQ(cached.count("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 1u);
    settle();
    window->runOnGpu(); // Run measures afresh
    settle();
    ASSERT_NE(shown(), nullptr);
    EXPECT_FALSE(shown()->fromCache);
    EXPECT_EQ(shown()->counters, cached);
}

TEST_F(MeasureAheadTest, ADragMeasuresTheValuesAheadOfItAsOneSweep) {
    REQUIRE_FAKE_PROBE();
    open(fakeProbe());
    gpu()->setMeasureAhead(8);
    const int before = gpu()->aheadSweepsSent();
    setStride(40); // nothing cached there: measured at once, then the 8 values above it
    EXPECT_TRUE(gpu()->isMeasuring());
    EXPECT_FALSE(gpu()->isMeasuringAhead()); // the value itself goes first
    ASSERT_TRUE(QTest::qWaitFor([&] { return gpu()->isMeasuringAhead(); }, kCacheWaitMs));
    EXPECT_EQ(gpu()->aheadSweepsSent(), before + 1);
    settle();
    for (std::int64_t stride = 41; stride <= 48; ++stride) {
        setStride(stride);
        ASSERT_NE(shown(), nullptr) << "stride " << stride;
        EXPECT_TRUE(shown()->fromCache) << "stride " << stride;
    }
    // Halfway through what was measured ahead, the next values were asked for.
    EXPECT_GE(gpu()->aheadSweepsSent(), before + 2);
    settle();
    setStride(49);
    ASSERT_NE(shown(), nullptr);
    EXPECT_TRUE(shown()->fromCache);
}

TEST_F(MeasureAheadTest, AnotherProbeBuildOrDeviceNeverShowsTheCachedEntry) {
    REQUIRE_FAKE_PROBE();
    open(fakeProbe());
    setStride(3);
    ASSERT_NE(shown(), nullptr);
    ASSERT_TRUE(shown()->fromCache);
    // Another probe (here: the same program reached through a different command) is another
    // origin: what the old one measured is not shown as the new one's.
    window->probeClient()->setCommand(fakeProbe(), {QStringLiteral("serve")});
    window->probeClient()->restart();
    setStride(4);
    EXPECT_EQ(shown(), nullptr);
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown() != nullptr; }, kCacheWaitMs));
    EXPECT_FALSE(shown()->fromCache);
}

TEST_F(MeasureAheadTest, ASweepTheDragLeftBehindIsCancelled) {
    REQUIRE_FAKE_PROBE();
    qputenv("WARPSCOPE_FAKE_PROBE", "slow"); // 20 ms per pattern of a sweep
    open(fakeProbe());
    qunsetenv("WARPSCOPE_FAKE_PROBE");
    gpu()->setMeasureAhead(24);
    const int cancelled = gpu()->aheadSweepsCancelled();
    setStride(30); // measured at once; then the 24 values above it as a sweep (0.5 s here)
    ASSERT_TRUE(QTest::qWaitFor([&] { return gpu()->isMeasuringAhead(); }, kCacheWaitMs));
    setStride(60); // the drag jumps away and turns: nothing of that sweep is wanted now
    setStride(59);
    EXPECT_GT(gpu()->aheadSweepsCancelled(), cancelled);
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown() != nullptr; }, kCacheWaitMs));
    EXPECT_EQ(window->document()->pattern().source->parameters.front().value, 59);
}

} // namespace
} // namespace warpscope::app::test

namespace warpscope::app::test {
namespace {

std::unique_ptr<MainWindow> windowWarmingUp(const char* gpuPresent) {
    qputenv("WARPSCOPE_GPU_PRESENT", gpuPresent);
    MainWindowOptions options = quietOptions();
    options.probeCommand = fakeProbe();
    options.warmUpGpu = true;
    auto window = std::make_unique<MainWindow>(options);
    window->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    return window;
}

TEST(FirstRun, WithAGpuTheProbeIsSetUpInTheBackgroundWhenTheWindowOpens) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWarmingUp("1");
    qunsetenv("WARPSCOPE_GPU_PRESENT");
    ProbeClient* probe = window->probeClient();
    // Started from the window's constructor, before any event loop ran (the check the test
    // below relies on).
    EXPECT_NE(probe->state(), ProbeClient::State::Stopped);
    // Nobody pressed Run: the probe is started, the GPU set up, one measurement kept in the cache.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return probe->state() == ProbeClient::State::Ready &&
                   !window->gpuRunner()->isMeasuring();
        },
        kCacheWaitMs));
    EXPECT_EQ(window->gpuRunner()->cache().size(), 1);
    EXPECT_EQ(window->measurements()->size(), 0); // nothing shown that was not asked for
    window->runOnGpu(); // the first Run: the probe is up, so it is one measurement
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
        kCacheWaitMs));
    EXPECT_FALSE(window->measurements()->find(window->document()->pattern())->fromCache);
}

TEST(FirstRun, ASetUpThatFindsNoDeviceStaysQuietUntilRun) {
    REQUIRE_FAKE_PROBE();
    qputenv("WARPSCOPE_FAKE_PROBE", "no_device");
    auto window = windowWarmingUp("1");
    qunsetenv("WARPSCOPE_GPU_PRESENT");
    qunsetenv("WARPSCOPE_FAKE_PROBE");
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return window->probeClient()->state() == ProbeClient::State::NoGpu &&
                   !window->gpuRunner()->isMeasuring();
        },
        kCacheWaitMs));
    EXPECT_TRUE(window->messageBar()->text().isEmpty()) << qPrintable(window->messageBar()->text());
    window->runOnGpu();
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("0 CUDA devices")))
        << qPrintable(window->messageBar()->text());
}

/// What reached the fake probe's backend (WARPSCOPE_FAKE_PROBE_LOG), waiting up to 10 s, without
/// running the event loop, until it holds `until`.
QString requestsReaching(const QString& log, const QString& until) {
    QString requests;
    for (int i = 0; i < 200 && !requests.contains(until); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QFile file(log);
        if (file.open(QIODevice::ReadOnly)) {
            requests = QString::fromUtf8(file.readAll());
        }
    }
    return requests;
}

TEST(FirstRun, TheProbeIsAskedForTheDeviceAndTheWarmUpWhileTheWindowIsStillBuilding) {
    REQUIRE_FAKE_PROBE();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString log = dir.filePath(QStringLiteral("requests.txt"));
    qputenv("WARPSCOPE_FAKE_PROBE_LOG", log.toLocal8Bit());
    qputenv("WARPSCOPE_GPU_PRESENT", "1");
    MainWindowOptions options = quietOptions();
    options.probeCommand = fakeProbe();
    options.warmUpGpu = true;
    auto window = std::make_unique<MainWindow>(options);
    qunsetenv("WARPSCOPE_GPU_PRESENT");
    // No event loop has run since the window began: the probe has its start's requests and
    // the warm-up measurement already (QProcess alone would write them only from the event
    // loop, after the window has built and painted itself).
    const QString requests = requestsReaching(log, QStringLiteral("measure"));
    qunsetenv("WARPSCOPE_FAKE_PROBE_LOG");
    EXPECT_TRUE(requests.startsWith(QStringLiteral("device_info\nmeasure")))
        << qPrintable(requests);
    // The warm-up reads the counters the first Run of this pattern's kind asks for, so that the
    // probe opens and first-starts that counter session, not another.
    const std::vector<std::string> names =
        window->gpuRunner()->optionsFor(window->document()->pattern().kind).counterNames;
    ASSERT_EQ(names.size(), 2U);
    EXPECT_TRUE(requests.contains(
        QStringLiteral("measure %1,%2")
            .arg(QString::fromStdString(names[0]), QString::fromStdString(names[1]))))
        << qPrintable(requests);
    // With the event loop running, the warm-up's answer goes to the cache only.
    window->show();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return window->probeClient()->state() == ProbeClient::State::Ready &&
                   !window->gpuRunner()->isMeasuring();
        },
        kCacheWaitMs));
    EXPECT_EQ(window->gpuRunner()->cache().size(), 1);
    EXPECT_EQ(window->measurements()->size(), 0);
    EXPECT_GT(window->gpuRunner()->warmUpMs(), 0.0);
}

TEST(FirstRun, APresetLoadedAsTheWindowOpensTakesTheWarmUpsPlaceAndAnswersTheFirstRun) {
    REQUIRE_FAKE_PROBE();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString log = dir.filePath(QStringLiteral("requests.txt"));
    qputenv("WARPSCOPE_FAKE_PROBE_LOG", log.toLocal8Bit());
    qputenv("WARPSCOPE_FAKE_PROBE_SETUP_MS", "3000"); // a GPU's set-up: device_info takes a while
    qputenv("WARPSCOPE_GPU_PRESENT", "1");
    MainWindowOptions options = quietOptions();
    options.probeCommand = fakeProbe();
    options.warmUpGpu = true;
    auto window = std::make_unique<MainWindow>(options);
    qunsetenv("WARPSCOPE_GPU_PRESENT");
    qunsetenv("WARPSCOPE_FAKE_PROBE_SETUP_MS");
    // As `warpscope --preset` and the GPU benchmark do: a preset loaded before the window shows,
    // while the probe is still setting up the device. The warm-up of the default pattern waits
    // in its queue and is replaced by one of the preset.
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("readsegment-offset-11")));
    const QString title = QString::fromStdString(window->document()->current().title);
    window->show();
    window->runOnGpu(); // Run pressed at once: answered by the warm-up, not by a measure after it
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
        kCacheWaitMs));
    qunsetenv("WARPSCOPE_FAKE_PROBE_LOG");
    QFile file(log);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 2) << qPrintable(lines.join(QLatin1Char('\n')));
    EXPECT_EQ(lines[0], QStringLiteral("device_info"));
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("measure ")) &&
                lines[1].endsWith(QStringLiteral(" | ") + title))
        << qPrintable(lines[1]);
    EXPECT_EQ(window->gpuRunner()->supersededCount(), 1); // the Run waited for the warm-up
}

TEST(FirstRun, WithoutAGpuNothingIsStarted) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWarmingUp("0");
    qunsetenv("WARPSCOPE_GPU_PRESENT");
    // The warm-up decides in the window's constructor (with a GPU the probe is Starting by the
    // time it returns, as the test above shows): nothing asked for, nothing queued.
    EXPECT_EQ(window->probeClient()->state(), ProbeClient::State::Stopped);
    EXPECT_EQ(window->probeClient()->pendingJobs(), 0);
    EXPECT_FALSE(window->gpuRunner()->isMeasuring());
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    EXPECT_EQ(window->probeClient()->state(), ProbeClient::State::Stopped);
    EXPECT_EQ(window->probeClient()->processId(), 0);
}

} // namespace
} // namespace warpscope::app::test
