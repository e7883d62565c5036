// Autosave's guards, each in a test that fails without it: the crashed run's file is kept until
// the user decides (no later autosave overwrites it), a lock left by a process that really died
// does not stop the next start from autosaving, a second instance never touches the first one's
// file, Discard removes the file and autosave resumes, a corrupt autosave is refused with its
// reason and kept, and the timer writes the edits without a call.
#include "document/autosaver.h"
#include "document/sessionfile.h"
#include "panels/messagebar.h"
#include "windowfixture.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QLockFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

namespace warpscope::app::test {
namespace {

MainWindowOptions autosaveOptions(const QString& directory, int intervalMs = 60000) {
    MainWindowOptions options = quietOptions();
    options.autosave = true;
    options.autosaveDirectory = directory;
    options.autosaveIntervalMs = intervalMs;
    return options;
}

QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// A run that autosaved `preset` and then crashed (the window gone without a close event).
Pattern crashAfterAutosaving(const QString& directory, const char* preset) {
    auto window = std::make_unique<MainWindow>(autosaveOptions(directory));
    EXPECT_TRUE(window->autosaver()->isActive());
    EXPECT_TRUE(window->loadPresetById(QString::fromLatin1(preset)));
    EXPECT_TRUE(window->autosaver()->saveNow());
    EXPECT_TRUE(QFile::exists(window->autosaver()->filePath()));
    return window->document()->pattern();
}

// The guard in Autosaver::saveNow: while the crashed run's file waits for the user's answer, the
// new run's edits and its timer must not overwrite it.
TEST(Autosave, TheCrashedRunsFileIsKeptWhileTheUserDecides) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const Pattern crashed = crashAfterAutosaving(dir.path(), "readsegment-offset-11");
    MainWindow second(autosaveOptions(dir.path()));
    ASSERT_TRUE(second.autosaver()->hasRecoveryFile());
    const QString path = second.autosaver()->filePath();
    const QByteArray left = contents(path);
    ASSERT_FALSE(left.isEmpty());
    // New edits, autosaved (as the timer would) before the user answers the offer.
    ASSERT_TRUE(second.loadPresetById(QStringLiteral("stride-2")));
    ASSERT_TRUE(second.loadPresetById(QStringLiteral("stride-4")));
    EXPECT_TRUE(second.autosaver()->saveNow());
    EXPECT_EQ(contents(path), left) << "the new run's autosave overwrote the crashed run's file";
    // Restore still brings back what the crashed run had.
    ASSERT_TRUE(second.messageBar()->trigger(QStringLiteral("Restore")));
    EXPECT_EQ(second.document()->pattern(), crashed);
}

// A real crash: the process holding autosave.lock is killed, so the lock stays behind with a
// dead process id. The next start must take it over (and find the autosave), not give up.
TEST(Autosave, AStaleLockLeftByAKilledProcessIsTakenOver) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    crashAfterAutosaving(dir.path(), "readsegment-offset-11");
    const QString lockPath = dir.path() + QStringLiteral("/autosave.lock");
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        QLockFile lock(lockPath);
        if (!lock.tryLock(0)) {
            ::_exit(3);
        }
        ::raise(SIGKILL); // no destructor, no unlock: the lock file stays
        ::_exit(4);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the child did not take the lock and die (status " << status << ")";
    ASSERT_TRUE(QFile::exists(lockPath)) << "the killed process left no lock";

    MainWindow next(autosaveOptions(dir.path()));
    EXPECT_TRUE(next.autosaver()->isActive()) << "a dead process's lock kept autosave off";
    EXPECT_TRUE(next.autosaver()->hasRecoveryFile());
    EXPECT_TRUE(next.messageBar()->text().contains(QStringLiteral("did not close cleanly")))
        << qPrintable(next.messageBar()->text());
}

// Two instances at once: the second one never autosaves, so the first one's file stays its own.
TEST(Autosave, ASecondInstanceLeavesTheFirstInstancesFileAlone) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow first(autosaveOptions(dir.path()));
    ASSERT_TRUE(first.autosaver()->isActive());
    ASSERT_TRUE(first.loadPresetById(QStringLiteral("readsegment-offset-11")));
    ASSERT_TRUE(first.autosaver()->saveNow());
    const QByteArray firsts = contents(first.autosaver()->filePath());
    ASSERT_FALSE(firsts.isEmpty());

    MainWindow second(autosaveOptions(dir.path()));
    EXPECT_FALSE(second.autosaver()->isActive());
    EXPECT_FALSE(second.autosaver()->hasRecoveryFile())
        << "the running first instance's autosave was offered as a crashed run's";
    ASSERT_TRUE(second.loadPresetById(QStringLiteral("stride-4")));
    EXPECT_FALSE(second.autosaver()->saveNow());
    EXPECT_EQ(contents(first.autosaver()->filePath()), firsts);
    // The second one closing cleanly does not remove the first one's file either.
    second.close();
    EXPECT_EQ(contents(first.autosaver()->filePath()), firsts);
}

// Discard: the crashed run's file goes, and the new run's edits are autosaved from then on.
TEST(Autosave, DiscardRemovesTheCrashedFileAndAutosaveResumes) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    crashAfterAutosaving(dir.path(), "readsegment-offset-11");
    MainWindow second(autosaveOptions(dir.path()));
    ASSERT_TRUE(second.autosaver()->hasRecoveryFile());
    const QString path = second.autosaver()->filePath();
    const Pattern before = second.document()->pattern();
    ASSERT_TRUE(second.messageBar()->trigger(QStringLiteral("Discard")));
    EXPECT_FALSE(QFile::exists(path));
    EXPECT_FALSE(second.autosaver()->hasRecoveryFile());
    EXPECT_EQ(second.document()->pattern(), before); // nothing restored
    ASSERT_TRUE(second.loadPresetById(QStringLiteral("stride-4")));
    ASSERT_TRUE(second.autosaver()->saveNow());
    auto saved = readSessionFile(path);
    ASSERT_TRUE(saved) << saved.error().describe();
    ASSERT_FALSE(saved->entries.empty());
    EXPECT_EQ(saved->entries.at(static_cast<std::size_t>(saved->currentEntry)).pattern.pattern,
              second.document()->pattern());
}

// A corrupt autosave: Restore says why it cannot, changes nothing, and keeps the file (the user
// may want it), which no autosave then overwrites.
TEST(Autosave, ACorruptAutosaveIsRefusedWithItsReasonAndKept) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path =
        dir.path() + QStringLiteral("/autosave.") + QString::fromLatin1(kSessionSuffix);
    const QByteArray corrupt("{\"format\": \"warpscope-session\", \"version\": 1, \"entries\": [");
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(corrupt);
    }
    MainWindow window(autosaveOptions(dir.path()));
    ASSERT_TRUE(window.autosaver()->hasRecoveryFile());
    const Pattern before = window.document()->pattern();
    ASSERT_TRUE(window.messageBar()->trigger(QStringLiteral("Restore")));
    const QString message = window.messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("cannot be restored"))) << qPrintable(message);
    EXPECT_GT(message.size(), QStringLiteral("The autosaved session cannot be restored: ").size())
        << "no reason given: " << qPrintable(message);
    EXPECT_EQ(window.document()->pattern(), before);
    ASSERT_TRUE(window.loadPresetById(QStringLiteral("stride-2")));
    EXPECT_TRUE(window.autosaver()->saveNow());
    EXPECT_EQ(contents(path), corrupt);
}

// The timer: an edit is written within a few intervals without anyone calling saveNow, and what
// it wrote reads back as the edit.
TEST(Autosave, TheTimerWritesTheEditsOnItsOwn) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow window(autosaveOptions(dir.path(), 50));
    ASSERT_TRUE(window.autosaver()->isActive());
    const QString path = window.autosaver()->filePath();
    EXPECT_FALSE(QFile::exists(path));
    ASSERT_TRUE(window.loadPresetById(QStringLiteral("readsegment-offset-11")));
    ASSERT_TRUE(QTest::qWaitFor([&] { return QFile::exists(path); }, 10000));
    const Pattern first = window.document()->pattern();
    const auto savedIs = [&](const Pattern& pattern) {
        auto saved = readSessionFile(path);
        return saved.ok() && !saved->entries.empty() &&
               saved->entries.at(static_cast<std::size_t>(saved->currentEntry)).pattern.pattern ==
                   pattern;
    };
    ASSERT_TRUE(QTest::qWaitFor([&] { return savedIs(first); }, 10000));
    // A second edit replaces it, still without a call.
    ASSERT_TRUE(window.loadPresetById(QStringLiteral("stride-4")));
    const Pattern second = window.document()->pattern();
    ASSERT_NE(second, first);
    ASSERT_TRUE(QTest::qWaitFor([&] { return savedIs(second); }, 10000));
}

} // namespace
} // namespace warpscope::app::test
