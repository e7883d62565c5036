// --transfers (and the other recorded-measurement options: --streams, --l2-persistence,
// --kernel-measurements) given a FIFO with no writer, a device or a folder: the window answers
// within 2 s with a message naming the file and what is wrong, and stays usable (a preset loads,
// recorded results load). Headless, `--export` with such a file exits with that message instead
// of blocking on the FIFO.
#include "panels/messagebar.h"
#include "windowfixture.h"

#include <warpscope/experiments/l2_persistence.h>
#include <warpscope/experiments/streams.h>
#include <warpscope/experiments/transfers.h>

#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <functional>
#include <sys/stat.h>

namespace warpscope::app::test {
namespace {

using Loader = std::function<bool(MainWindow&, const QString&)>;

struct RecordedOption {
    const char* option;
    Loader load;
};

const std::vector<RecordedOption>& recordedOptions() {
    static const std::vector<RecordedOption> options = {
        {"--transfers",
         [](MainWindow& w, const QString& p) {
             return w.experimentTab(experiments::TransfersExperiment::key)->loadResults(p);
         }},
        {"--streams",
         [](MainWindow& w, const QString& p) {
             return w.experimentTab(experiments::StreamsExperiment::key)->loadResults(p);
         }},
        {"--l2-persistence",
         [](MainWindow& w, const QString& p) {
             return w.experimentTab(experiments::L2PersistenceExperiment::key)->loadResults(p);
         }},
        {"--kernel-measurements",
         [](MainWindow& w, const QString& p) { return w.importKernelMeasurements(p, {}); }},
    };
    return options;
}

class TransfersSpecialFiles : public WindowTest {};

TEST_F(TransfersSpecialFiles, AFifoADeviceOrAFolderIsRefusedWithin2sAndTheWindowStaysUsable) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString fifo = temp.filePath(QStringLiteral("transfers.json"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const RecordedOption& option : recordedOptions()) {
        for (const QString& path : {fifo, QStringLiteral("/dev/zero"), temp.path()}) {
            SCOPED_TRACE(std::string(option.option) + " " + path.toStdString());
            QElapsedTimer timer;
            timer.start();
            EXPECT_FALSE(option.load(*window, path));
            EXPECT_LT(timer.elapsed(), 2000);
            const QString message = window->messageBar()->text();
            EXPECT_TRUE(message.contains(QStringLiteral("not a regular file")))
                << qPrintable(message);
            EXPECT_TRUE(message.contains(QFileInfo(path).fileName())) << qPrintable(message);
        }
    }
    // Still usable: an edit, and recorded results from a regular file.
    loadPreset("stride-2");
    const Pattern before = document().pattern();
    loadPreset("stride-4");
    EXPECT_NE(document().pattern(), before);
    EXPECT_TRUE(window->experimentTab(experiments::TransfersExperiment::key)
                    ->loadResults(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json")))
        << qPrintable(window->messageBar()->text());
}

// The same through the program: the export answers with the message and exit status 1 rather
// than blocking on the FIFO (a blocked run would be killed at the deadline below).
TEST(TransfersSpecialFilesHeadless, ExportWithAFifoEndsWithAClearMessage) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString fifo = temp.filePath(QStringLiteral("transfers.json"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(WARPSCOPE_APP_BINARY),
                  {QStringLiteral("--no-settings"), QStringLiteral("--preset"),
                   QStringLiteral("transfers"), QStringLiteral("--transfers"), fifo,
                   QStringLiteral("--export"), temp.filePath(QStringLiteral("out.svg"))});
    ASSERT_TRUE(process.waitForStarted(10000));
    // Generous for a debug build's start on a loaded machine; the read itself is at once.
    const bool finished = process.waitForFinished(60000);
    if (!finished) {
        process.kill();
        process.waitForFinished();
    }
    ASSERT_TRUE(finished) << "warpscope --transfers FIFO --export blocked";
    const QString err = QString::fromUtf8(process.readAllStandardError());
    EXPECT_NE(process.exitCode(), 0);
    EXPECT_TRUE(err.contains(QStringLiteral("transfers.json"))) << qPrintable(err);
    EXPECT_TRUE(err.contains(QStringLiteral("not a regular file"))) << qPrintable(err);
}

} // namespace
} // namespace warpscope::app::test
