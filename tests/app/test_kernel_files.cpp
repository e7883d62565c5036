// Kernel files in the app: the CLI's own kernel file (docs/file-formats.md, "Kernel files") opens
// as a session of that kernel, from File > Open and from the command line; a session's kernel is
// exported in that form, and what is written parses back to the same kernel (and warpscope-cli
// analyze-kernel reads it).
#include "windowfixture.h"

#include "document/kernelfile.h"
#include "document/sessionfile.h"
#include "panels/kernelpanel.h"
#include "panels/messagebar.h"
#include "panels/patterneditor.h"
#include "shell/commandline.h"

#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QTemporaryDir>

namespace warpscope::app::test {

namespace {

/// The transpose kernel preset's kernel: parameters, expressions in the launch and the buffers.
const Kernel& naiveCol() {
    const KernelPreset* preset = findKernelPreset("transpose-naivecol");
    if (preset == nullptr) {
        ADD_FAILURE() << "no kernel preset transpose-naivecol";
        static const Kernel none{};
        return none;
    }
    return preset->kernel;
}

QString writeText(const QTemporaryDir& dir, const QString& name, const std::string& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text.data(), static_cast<qint64>(text.size()));
    return path;
}

std::string readText(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return file.readAll().toStdString();
}

using KernelFileTest = WindowTest;

} // namespace

// The file form, as `warpscope-cli analyze-kernel` reads it, opens with every access, buffer and
// launch expression; Save then writes a new session and never over the kernel file.
TEST_F(KernelFileTest, TheCliKernelFileOpensAsASessionOfThatKernel) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const Kernel& kernel = naiveCol();
    const std::string text = kernelToJsonText(kernel);
    ASSERT_NE(text.find("\"warpscope-kernel\""), std::string::npos);
    const QString path = writeText(dir, QStringLiteral("naivecol.json"), text);

    ASSERT_TRUE(window->openSession(path)) << window->messageBar()->text().toStdString();
    ASSERT_TRUE(document().kernel().has_value());
    EXPECT_EQ(*document().kernel(), kernel);
    EXPECT_EQ(document().current().title, kernel.name);
    EXPECT_EQ(window->editor()->kernelPanel()->accessList()->count(),
              static_cast<int>(kernel.accesses.size()));
    // Save would ask for a new name rather than write a session into the kernel file.
    EXPECT_TRUE(window->currentFile().isEmpty());
    EXPECT_EQ(readText(path), text);
}

// The line form (no "format"), as predict-kernel reads it, opens too, titled by the file's name
// when the kernel has none.
TEST_F(KernelFileTest, TheLineFormOpensTitledByTheFileName) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string line =
        R"({"grid": [8], "block": [128], "buffers": [{"name": "in", "bytes": 4096}],)"
        R"( "accesses": [{"op": "load", "width": 4, "buffer": "in", "address": "4 * gid"}]})";
    const QString path = writeText(dir, QStringLiteral("my_copy.json"), line + "\n");
    ASSERT_TRUE(window->openSession(path)) << window->messageBar()->text().toStdString();
    ASSERT_TRUE(document().kernel().has_value());
    EXPECT_EQ(document().kernel()->launch.grid[0], "8");
    EXPECT_EQ(document().current().title, "my_copy");
}

// A kernel file with a mistake is refused with the kernel reader's message and its JSON pointer,
// not with "format must be warpscope-session".
TEST_F(KernelFileTest, ABadKernelFileNamesItsMistake) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string text =
        R"({"format": "warpscope-kernel", "version": 1, "grid": [1], "block": [32],)"
        R"( "buffers": [{"name": "in", "bytes": 4096}],)"
        R"( "accesses": [{"op": "load", "width": 3, "buffer": "in", "address": "4 * gid"}]})";
    const QString path = writeText(dir, QStringLiteral("bad.json"), text);
    auto read = readSessionFile(path);
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().where.find("/accesses/0/width"), std::string::npos)
        << read.error().describe();
    EXPECT_EQ(read.error().describe().find("warpscope-session"), std::string::npos)
        << read.error().describe();
    EXPECT_FALSE(window->openSession(path));
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("/accesses/0/width")))
        << window->messageBar()->text().toStdString();
}

// tests/data/files/kernel_outgrown_buffer.json (the screenshot docs/app.md shows): a buffer of
// 172 bytes, sized for one block, under a launch of 640 blocks. Opened, the kernel panel names
// the access and the first thread that reads past the end.
TEST_F(KernelFileTest, AnOpenedKernelFileShowsItsProblemInTheKernelPanel) {
    const QString path =
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/files/kernel_outgrown_buffer.json");
    ASSERT_TRUE(window->openSession(path)) << window->messageBar()->text().toStdString();
    ASSERT_TRUE(document().kernel().has_value());
    KernelPanel* panel = window->editor()->kernelPanel();
    const auto problem = [panel] {
        for (QLabel* label : panel->findChildren<QLabel*>()) {
            if (label->isVisible() && label->text().contains(QStringLiteral("past the end"))) {
                return label->text();
            }
        }
        return QString();
    };
    ASSERT_TRUE(QTest::qWaitFor([&] { return !problem().isEmpty(); }, 10000));
    const QString text = problem();
    EXPECT_TRUE(text.contains(
        QStringLiteral("Access 1 (load data), block (1, 0, 0), thread (0, 0, 0): address 172 + 4 "
                       "bytes is past the end of 'data' (172 bytes)")))
        << text.toStdString();
    // (639 * 32 + 31 + 11) * 4 + 4: the last thread's address and width.
    EXPECT_TRUE(text.contains(QStringLiteral("at least 81,964"))) << text.toStdString();
    EXPECT_FALSE(panel->accessList()->item(0)->icon().isNull()); // marked in the list
}

// The window's command line takes a kernel file as its file to open.
TEST_F(KernelFileTest, TheCommandLineOpensAKernelFile) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path =
        writeText(dir, QStringLiteral("naivecol.json"), kernelToJsonText(naiveCol()));
    CommandLine options;
    ASSERT_FALSE(CommandLine::parse({QStringLiteral("warpscope"), path}, options).has_value());
    EXPECT_EQ(options.sessionFile, path);
    MainWindow opened(quietOptions());
    ASSERT_TRUE(opened.openSession(options.sessionFile));
    ASSERT_TRUE(opened.document()->kernel().has_value());
    EXPECT_EQ(*opened.document()->kernel(), naiveCol());
}

// File > Export Kernel File writes the open entry's kernel in the CLI's form: it parses back to
// the same kernel, opens again as the same kernel, and analyze-kernel reads it.
TEST_F(KernelFileTest, ASessionsKernelExportsToTheCliForm) {
    auto* action = window->findChild<QAction*>(QStringLiteral("exportKernelFileAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_TRUE(action->text().contains(QStringLiteral("Kernel File")));

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ASSERT_TRUE(window->showKernelPreset(QStringLiteral("transpose-naivecol")));
    // An edit made in the app, so the export is of the session, not of the preset.
    ASSERT_FALSE(document().setLaunchField(3, QStringLiteral("bx * 2")).has_value());
    ASSERT_TRUE(document().kernel().has_value());
    const Kernel edited = *document().kernel();
    ASSERT_EQ(edited.launch.block[0], "bx * 2");

    const QString path = dir.filePath(QStringLiteral("exported.json"));
    ASSERT_FALSE(writeKernelFile(path, edited).has_value());
    const std::string text = readText(path);
    EXPECT_NE(text.find("\"format\": \"warpscope-kernel\""), std::string::npos);
    auto back = kernelFromJsonText(text);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back.value(), edited);

    MainWindow reopened(quietOptions());
    ASSERT_TRUE(reopened.openSession(path));
    ASSERT_TRUE(reopened.document()->kernel().has_value());
    EXPECT_EQ(*reopened.document()->kernel(), edited);

    // A plain pattern exports as its one-access kernel.
    loadPreset("readsegment-offset-11");
    auto plain = document().kernelOrPatternKernel();
    ASSERT_TRUE(plain.ok());
    const QString plainPath = dir.filePath(QStringLiteral("plain.json"));
    ASSERT_FALSE(writeKernelFile(plainPath, plain.value()).has_value());
    auto plainBack = kernelFromJsonText(readText(plainPath));
    ASSERT_TRUE(plainBack.ok());
    EXPECT_EQ(plainBack.value(), plain.value());

#ifdef WARPSCOPE_CLI_BINARY
    QProcess cli;
    cli.start(QStringLiteral(WARPSCOPE_CLI_BINARY), {QStringLiteral("analyze-kernel"), path});
    ASSERT_TRUE(cli.waitForFinished(60000));
    EXPECT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    // The edited launch: block (bx * 2) = 32 threads in x.
    EXPECT_TRUE(out.contains(QStringLiteral("block (32, 16, 1)"))) << out.toStdString();
#endif
}

} // namespace warpscope::app::test

namespace warpscope::app::test {

// Not a check: the picture of the kernel problem that docs/app.md shows, taken in a real window.
// Run under Xvfb at 1920x1080 with the xcb platform, WARPSCOPE_SCREENSHOT naming the PNG and
// QT_QPA_PLATFORM=xcb in the environment:
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/dev/tests/app/warpscope-kernel-tests
//     --gtest_also_run_disabled_tests --gtest_filter='*DISABLED_Screenshot*'
TEST_F(KernelFileTest, DISABLED_ScreenshotOfAnOutgrownBuffer) {
    const QString out = qEnvironmentVariable("WARPSCOPE_SCREENSHOT");
    ASSERT_FALSE(out.isEmpty()) << "set WARPSCOPE_SCREENSHOT to the PNG to write";
    window->resize(1920, 1040);
    ASSERT_TRUE(window->openSession(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/files/kernel_outgrown_buffer.json")));
    KernelPanel* panel = window->editor()->kernelPanel();
    const auto shown = [panel] {
        for (QLabel* label : panel->findChildren<QLabel*>()) {
            if (label->isVisible() && label->text().contains(QStringLiteral("past the end"))) {
                return true;
            }
        }
        return false;
    };
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown(); }, 10000));
    QTest::qWait(500); // the docks settle and paint
    ASSERT_TRUE(window->grab().save(out));
}

} // namespace warpscope::app::test
