// Tests of the command line the scripts use (screenshots, benchmark).
#include "harness/harnessmodes.h"
#include "qtmessagerecorder.h"
#include "shell/applicationsetup.h"
#include "shell/commandline.h"

#include <QtGlobal>

#include <gtest/gtest.h>

namespace warpscope::app::test {
namespace {

std::optional<QString> parse(QStringList arguments, CommandLine& out) {
    arguments.prepend(QStringLiteral("warpscope"));
    return CommandLine::parse(arguments, out);
}

TEST(CommandLine, AcceptsTheScreenshotOptions) {
    CommandLine options;
    const auto error = parse({QStringLiteral("--preset"), QStringLiteral("readsegment-offset-11"),
                              QStringLiteral("--view"), QStringLiteral("bank"),
                              QStringLiteral("--size"), QStringLiteral("1920x1080"),
                              QStringLiteral("--screenshot"), QStringLiteral("out.png")},
                             options);
    ASSERT_FALSE(error.has_value()) << error->toStdString();
    EXPECT_EQ(options.presetId, QStringLiteral("readsegment-offset-11"));
    EXPECT_EQ(options.view, QStringLiteral("bank"));
    EXPECT_EQ(options.windowSize, QSize(1920, 1080));
    EXPECT_EQ(options.screenshotPath, QStringLiteral("out.png"));
    EXPECT_TRUE(options.noSettings); // scripted runs leave the user's settings alone
}

TEST(CommandLine, RefusesBadValuesWithAMessage) {
    const QStringList bad[] = {
        {QStringLiteral("--view"), QStringLiteral("sideways")},
        {QStringLiteral("--size"), QStringLiteral("wide")},
        {QStringLiteral("--size"), QStringLiteral("10x10")},
        {QStringLiteral("--theme"), QStringLiteral("purple")},
        {QStringLiteral("--iterations"), QStringLiteral("3")},
        {QStringLiteral("a.warpscope"), QStringLiteral("b.warpscope")},
        {QStringLiteral("--no-such-option")},
    };
    for (const QStringList& arguments : bad) {
        CommandLine options;
        const auto error = parse(arguments, options);
        EXPECT_TRUE(error.has_value()) << arguments.join(QLatin1Char(' ')).toStdString();
        if (error) {
            EXPECT_FALSE(error->isEmpty());
        }
    }
}

// The product runs the harness's modes only when main hands them over: without them, each mode's
// option is named as missing; with harnessModes() (what main.cpp passes) none is.
TEST(CommandLine, HarnessModesComeFromMainOnly) {
    const std::pair<QStringList, QString> modes[] = {
        {{QStringLiteral("--benchmark")}, QStringLiteral("--benchmark")},
        {{QStringLiteral("--benchmark-gpu")}, QStringLiteral("--benchmark-gpu")},
        {{QStringLiteral("--screenshot"), QStringLiteral("out.png")},
         QStringLiteral("--screenshot")},
        {{QStringLiteral("--quit-after-first-frame")}, QStringLiteral("--quit-after-first-frame")},
    };
    for (const auto& [arguments, option] : modes) {
        CommandLine options;
        ASSERT_FALSE(parse(arguments, options).has_value());
        EXPECT_EQ(missingHarnessMode(options, HarnessModes{}), option);
        EXPECT_EQ(missingHarnessMode(options, harnessModes()), std::nullopt);
    }
    CommandLine window;
    ASSERT_FALSE(
        parse({QStringLiteral("--preset"), QStringLiteral("readsegment-offset-11")}, window)
            .has_value());
    EXPECT_EQ(missingHarnessMode(window, HarnessModes{}), std::nullopt);
}

// The "no Qt warning" assertions are only worth something if warnings are recorded.
TEST(QtMessageRecorder, RecordsWarningsAndIgnoresDebugOutput) {
    clearRecordedQtWarnings();
    qDebug("a debug line is not a warning");
    EXPECT_TRUE(recordedQtWarnings().isEmpty());
    qWarning("something went wrong");
    ASSERT_EQ(recordedQtWarnings().size(), 1);
    EXPECT_TRUE(recordedQtWarnings().front().endsWith(QStringLiteral("something went wrong")));
    clearRecordedQtWarnings();
}

} // namespace
} // namespace warpscope::app::test
