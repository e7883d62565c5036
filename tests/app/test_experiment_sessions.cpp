// An experiment's results in a session (issue 29): kept typed, as the probe's result object under
// the session file's "experiments" object by the experiment's key, never as JSON text among the
// view settings; a session written by the previous version (results as text under the
// experiment's session key in the view settings) still opens with its results; a hostile
// "experiments" value is refused, or its results left out, naming the JSON pointer.
#include "experimentfixture.h"
#include "experiments/experimentregistry.h"
#include "experiments/experimenttab.h"
#include "experiments/streamsview.h"
#include "panels/messagebar.h"
#include "views/experimentview.h"
#include "windowfixture.h"

#include <warpscope/file_format.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <string>

namespace warpscope::app::test {
namespace {

/// Writes `text` to `path`; the test fails when it cannot.
void writeSessionText(const QString& path, const std::string& text) {
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << qPrintable(path);
    file.write(QByteArray::fromStdString(text));
}

/// Every experiment's example results loaded into `window`'s tabs.
void loadEveryExample(MainWindow& window) {
    for (const AppExperiment& experiment : appExperiments()) {
        ASSERT_TRUE(window.openMeasurements(exampleFile(experiment)))
            << qPrintable(window.messageBar()->text());
        ASSERT_TRUE(window.experimentTab(experiment.tableKey())->hasResults())
            << experiment.row->key;
    }
}

/// Each tab of `reopened` shows the answer the same tab of `window` shows.
void expectSameResults(const MainWindow& window, const MainWindow& reopened) {
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        const QJsonObject* before =
            experiment.answer(window.experimentTab(experiment.tableKey())->view());
        const QJsonObject* after =
            experiment.answer(reopened.experimentTab(experiment.tableKey())->view());
        ASSERT_NE(before, nullptr);
        ASSERT_NE(after, nullptr) << "no results after reopening";
        EXPECT_EQ(*after, *before);
    }
}

TEST_F(WindowTest, ExperimentResultsAreKeptAsObjectsUnderTheSessionsExperiments) {
    loadEveryExample(*window);
    const Session session = window->currentSession();
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        const auto results = session.experiments.find(std::string(experiment.tableKey()));
        ASSERT_NE(results, session.experiments.end());
        EXPECT_TRUE(results->second.is_object());
        EXPECT_EQ(session.viewSettings.count(std::string(experiment.row->sessionKey)), 0u)
            << "results as text among the view settings";
    }

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("experiments.warpscope"));
    ASSERT_TRUE(window->saveSession(path)) << qPrintable(window->messageBar()->text());
    const QJsonObject file = QJsonDocument::fromJson(readWholeFile(path)).object();
    for (const AppExperiment& experiment : appExperiments()) {
        EXPECT_TRUE(
            file.value(QStringLiteral("experiments")).toObject().value(experiment.key()).isObject())
            << "the file holds /experiments/" << experiment.row->key << " as a JSON object";
    }

    MainWindow reopened(quietOptions());
    ASSERT_TRUE(reopened.openSession(path)) << qPrintable(reopened.messageBar()->text());
    expectSameResults(*window, reopened);
}

TEST_F(WindowTest, SessionOfThePreviousVersionOpensWithItsResultsAndIsSavedTyped) {
    loadEveryExample(*window);
    // What the previous version wrote: each experiment's answer as compact JSON text in the view
    // settings, under its session key ("transfers.results"), and no "experiments".
    Session old = window->currentSession();
    for (const auto& [key, results] : old.experiments) {
        old.viewSettings[std::string(experiments::experiment(key).sessionKey)] = results.dump();
    }
    old.experiments.clear();
    QTemporaryDir dir;
    const QString oldPath = dir.filePath(QStringLiteral("old.warpscope"));
    writeSessionText(oldPath, sessionToJsonText(old));
    ASSERT_EQ(readWholeFile(oldPath).indexOf("\"experiments\""), -1);

    MainWindow reopened(quietOptions());
    ASSERT_TRUE(reopened.openSession(oldPath)) << qPrintable(reopened.messageBar()->text());
    expectSameResults(*window, reopened);

    // Saved again, the results move to "experiments"; the old text is not written twice.
    const Session saved = reopened.currentSession();
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        EXPECT_EQ(saved.experiments.count(std::string(experiment.tableKey())), 1u);
        EXPECT_EQ(saved.viewSettings.count(std::string(experiment.row->sessionKey)), 0u);
    }
}

TEST_F(WindowTest, SessionWithoutResultsLeavesTheTabsWithout) {
    loadEveryExample(*window);
    Session none = window->currentSession();
    none.experiments.clear();
    window->applyExperimentResults(none);
    for (const ExperimentTab* tab : window->experimentTabs()) {
        EXPECT_FALSE(tab->hasResults()) << tab->experiment().row->key;
    }
}

TEST_F(WindowTest, HostileExperimentsInASessionAreRefusedNamingTheirPointer) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hostile.warpscope"));
    // The window's own session, with "experiments" (or "viewSettings") as each case has it.
    const nlohmann::json base = nlohmann::json::parse(sessionToJsonText(window->currentSession()));
    const auto sessionWith = [&](const char* key, const char* value) {
        nlohmann::json session = base;
        session[key] = nlohmann::json::parse(value);
        return session.dump();
    };

    // Not an object: the whole session is refused, naming the place.
    writeSessionText(path, sessionWith("experiments", R"({"transfers":"{\"curves\":[]}"})"));
    EXPECT_FALSE(window->openSession(path));
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("/experiments/transfers")))
        << qPrintable(window->messageBar()->text());

    // An object the experiment's reader refuses: the session opens, the results are left out
    // with a warning naming where they are and what in them is wrong.
    writeSessionText(
        path, sessionWith("experiments", R"({"streams":{"asyncEngineCount":2,"stages":3}})"));
    ASSERT_TRUE(window->openSession(path)) << qPrintable(window->messageBar()->text());
    const ExperimentTab* streams = window->experimentTab(experiments::StreamsExperiment::key);
    EXPECT_FALSE(streams->hasResults());
    EXPECT_EQ(window->messageBar()->level(), MessageBar::Level::Warning);
    const QString warning = window->messageBar()->text();
    EXPECT_TRUE(warning.contains(QStringLiteral("/experiments/streams"))) << qPrintable(warning);
    EXPECT_TRUE(warning.contains(QStringLiteral("/stages"))) << qPrintable(warning);

    // The same refusal for the previous version's text, naming its place among the settings.
    writeSessionText(path,
                     sessionWith("viewSettings", R"({"streams.results":"{\"not\": \"results\""})"));
    ASSERT_TRUE(window->openSession(path)) << qPrintable(window->messageBar()->text());
    EXPECT_FALSE(streams->hasResults());
    EXPECT_TRUE(
        window->messageBar()->text().contains(QStringLiteral("/viewSettings/streams.results")))
        << qPrintable(window->messageBar()->text());
}

} // namespace
} // namespace warpscope::app::test
