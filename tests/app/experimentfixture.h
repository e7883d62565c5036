// What the tests of the chart tabs (Transfers, Streams, L2 persistence, the notes) share: results
// recorded in tests/data read in, a figure exported in every format, the app run headless, and
// Measure on an experiment tab through the fake probe.
#pragma once

#include "experiments/experimentregistry.h"
#include "gpu/experimentresults.h"
#include "probefixture.h"

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <optional>
#include <string_view>

namespace warpscope::app::test {

/// The whole of the file at `path`; empty, and the test fails, when it cannot be read.
inline QByteArray readWholeFile(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << "cannot read " << qPrintable(path);
    return file.readAll();
}

/// `tests/data/...` of core's table as a path.
inline QString exampleFile(const AppExperiment& experiment) {
    const std::string_view file = experiment.row->exampleFile;
    const std::string_view prefix = "tests/data/";
    EXPECT_EQ(file.substr(0, prefix.size()), prefix);
    return QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/") +
           QString::fromUtf8(file.substr(prefix.size()).data(),
                             qsizetype(file.size() - prefix.size()));
}

/// The results recorded in `path` as the app reads a recorded file (readRecordedResults,
/// gpu/experimentresults.h); empty results, and the test fails with the reader's error, when it
/// cannot.
template <class Results> Results recordedResultsIn(const QString& path) {
    QString error;
    std::optional<Results> results = readRecordedResults<Results>(readWholeFile(path), &error);
    EXPECT_TRUE(results.has_value()) << qPrintable(path) << ": " << qPrintable(error);
    return results.value_or(Results{});
}

/// Writes `view`'s figure at `size` as `<stem>.svg`, `.png` and `.pdf` in `dir`, checks the PNG's
/// size and the PDF's header, and returns the SVG's text.
template <class View>
QByteArray exportEveryFormat(View* view, const QTemporaryDir& dir, const QString& stem,
                             QSize size = QSize(1280, 720)) {
    QString error;
    const QString svg = dir.filePath(stem + QStringLiteral(".svg"));
    EXPECT_TRUE(view->exportFigure(svg, size, &error)) << qPrintable(error);
    const QString png = dir.filePath(stem + QStringLiteral(".png"));
    EXPECT_TRUE(view->exportFigure(png, size, &error)) << qPrintable(error);
    EXPECT_EQ(QImage(png).size(), size);
    const QString pdf = dir.filePath(stem + QStringLiteral(".pdf"));
    EXPECT_TRUE(view->exportFigure(pdf, size, &error)) << qPrintable(error);
    EXPECT_TRUE(readWholeFile(pdf).startsWith("%PDF-"));
    return readWholeFile(svg);
}

/// Runs the app (WARPSCOPE_APP_BINARY) on the offscreen platform with `arguments`, expecting it
/// to end within `timeoutMs` with `exitCode`; returns what it wrote to stderr.
inline QByteArray runAppHeadless(const QStringList& arguments, int exitCode = 0,
                                 int timeoutMs = 60000) {
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(WARPSCOPE_APP_BINARY), arguments);
    const bool finished = app.waitForFinished(timeoutMs);
    EXPECT_TRUE(finished) << "the app did not end within " << timeoutMs
                          << " ms: " << qPrintable(arguments.join(QLatin1Char(' ')));
    const QByteArray standardError = app.readAllStandardError();
    if (finished) {
        EXPECT_EQ(app.exitCode(), exitCode) << standardError.toStdString();
    }
    return standardError;
}

/// A window that measured on the experiment tab `view` (Measure: `run`) through the fake probe
/// (`script`: its WARPSCOPE_FAKE_PROBE, none for a GPU that answers): Measure is disabled while
/// it runs and enabled again once the answer came, within `timeoutMs`. Call it only where
/// fakeProbe() is not empty (REQUIRE_FAKE_PROBE).
template <class View>
std::unique_ptr<MainWindow> measureOnFakeProbe(std::string_view key, const char* script = nullptr,
                                               int timeoutMs = 60000) {
    std::unique_ptr<FakeScript> fake;
    if (script != nullptr) {
        fake = std::make_unique<FakeScript>(script);
    }
    auto window = windowWithProbe(fakeProbe());
    View* tab = window->template experimentView<View>(key);
    window->experimentTab(key)->run();
    EXPECT_FALSE(tab->runButton()->isEnabled());
    EXPECT_TRUE(QTest::qWaitFor([&] { return tab->runButton()->isEnabled(); }, timeoutMs))
        << "no answer within " << timeoutMs << " ms";
    return window;
}

/// Measure on experiment `key`'s tab where the fake probe finds no GPU: no results, and the
/// status line says so. Returns the window for the tab's own checks.
template <class View> std::unique_ptr<MainWindow> expectMeasureWithoutGpu(std::string_view key) {
    auto window = measureOnFakeProbe<View>(key, "no_device", 20000);
    View* tab = window->template experimentView<View>(key);
    EXPECT_FALSE(tab->results());
    EXPECT_TRUE(tab->statusLabel()->text().contains(QStringLiteral("no GPU to measure on")))
        << qPrintable(tab->statusLabel()->text());
    return window;
}

} // namespace warpscope::app::test
