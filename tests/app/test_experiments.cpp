// The experiments as one unit in the app (app/src/experiments): the registry has a row for every
// row of core's table, the window one tab per row, and the command line, the start-up, File ▸ Open
// Measurements…, the export and sessions reach each experiment through them alike: `--view KEY`
// starts on its tab as `--view grid` does, `--KEY FILE` loads its results, `--export --view KEY`
// draws what `--export --preset KEY` draws, and a session keeps its results.
#include "experimentfixture.h"
#include "experiments/experimentregistry.h"
#include "experiments/experimenttab.h"
#include "export/figureexportdialog.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "views/experimentview.h"
#include "windowfixture.h"

#include <warpscope/experiments/experiments.h>
#include <warpscope/experiments/transfers.h>

#include <QComboBox>
#include <QJsonDocument>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string_view>

namespace warpscope::app::test {
namespace {

TEST(ExperimentRegistry, OneRowPerRowOfCoresTableWithEveryPartFilledIn) {
    ASSERT_EQ(appExperiments().size(), experiments::experiments().size());
    std::set<QString> titles;
    for (const experiments::Experiment& row : experiments::experiments()) {
        const AppExperiment& experiment = appExperiment(row.key);
        EXPECT_EQ(experiment.row, &row);
        EXPECT_EQ(findAppExperiment(experiment.key()), &experiment);
        EXPECT_NE(experiment.createView, nullptr);
        EXPECT_NE(experiment.showAnswer, nullptr);
        EXPECT_NE(experiment.showRecorded, nullptr);
        EXPECT_NE(experiment.results, nullptr);
        EXPECT_NE(experiment.setResults, nullptr);
        EXPECT_NE(experiment.answer, nullptr);
        ASSERT_NE(experiment.texts, nullptr);
        const ExperimentTexts texts = experiment.texts();
        EXPECT_TRUE(titles.insert(texts.tabTitle).second) << qPrintable(texts.tabTitle);
        for (const QString& text :
             {texts.running, texts.cancelled, texts.measured, texts.resultsOptionHelp}) {
            EXPECT_FALSE(text.isEmpty()) << row.key;
        }
        for (const QString& text : {texts.unreadableAnswer, texts.failed, texts.modelOnly,
                                    texts.pressMeasure, texts.unreadableSession}) {
            EXPECT_TRUE(text.contains(QStringLiteral("%1"))) << qPrintable(text);
        }
        EXPECT_NE(experiment.resultKeys[0], nullptr) << row.key;
    }
    EXPECT_EQ(findAppExperiment(u"warp"), nullptr);
    EXPECT_EQ(findAppExperiment(u""), nullptr);
}

// Every sentence of every tab, as the experiments' rows wrote them out before one
// experimentTexts() made them from a few words each: a word in the wrong place, a lost capital or
// a placeholder filled too early fails here.
TEST(ExperimentRegistry, TabTextsAreWholeSentencesForEachExperiment) {
    struct Expected {
        std::string_view key;
        std::array<const char*, 10> texts; // in ExperimentTexts' order
    };
    const std::array<Expected, 3> table{{
        {"transfers",
         {"Transfers",
          "Show recorded host and device transfer results (a measure_transfers answer, e.g. "
          "tests/data/transfers_h100.json) in the Transfers tab.",
          "Measuring host and device transfers on the GPU…", "Transfer measurement cancelled.",
          "The probe's transfer results cannot be read: %1", "Host and device transfers measured.",
          "Transfers: %1",
          "This machine: no GPU to measure on (%1); the chart shows the notes' figures.",
          "This GPU: %1; press Measure transfers.",
          "The session's transfer results cannot be read (%1); they are left out."}},
        {"streams",
         {"Streams",
          "Show recorded streams-and-overlap results (a measure_streams answer, e.g. "
          "tests/data/streams_h100.json) in the Streams tab.",
          "Measuring streams and overlap on the GPU…", "Stream measurement cancelled.",
          "The probe's stream results cannot be read: %1", "Streams and overlap measured.",
          "Streams: %1", "This machine: no GPU to measure on (%1); the timeline is the model's.",
          "This GPU: %1; press Measure streams.",
          "The session's stream results cannot be read (%1); they are left out."}},
        {"l2-persistence",
         {"L2 persistence",
          "Show recorded L2 persistence results (a measure_l2_persistence answer, e.g. "
          "tests/data/l2_persistence_h100.json) in the L2 persistence tab.",
          "Measuring the L2 persistence window on the GPU…",
          "L2 persistence measurement cancelled.",
          "The probe's L2 persistence results cannot be read: %1",
          "The L2 persistence window measured.", "L2 persistence: %1",
          "This machine: no GPU to measure on (%1); the chart shows the model and the notes' "
          "statement.",
          "This GPU: %1; press Measure L2 persistence.",
          "The session's L2 persistence results cannot be read (%1); they are left out."}},
    }};
    for (const Expected& expected : table) {
        const ExperimentTexts texts = appExperiment(expected.key).texts();
        const std::array<QString, 10> made{
            texts.tabTitle,         texts.resultsOptionHelp, texts.running, texts.cancelled,
            texts.unreadableAnswer, texts.measured,          texts.failed,  texts.modelOnly,
            texts.pressMeasure,     texts.unreadableSession};
        for (std::size_t i = 0; i < made.size(); ++i) {
            EXPECT_EQ(made[i].toStdString(), expected.texts[i]) << expected.key << " " << i;
        }
    }
    EXPECT_STREQ(appExperiment("streams").noResults, "stream");
    EXPECT_EQ(appExperiment("l2-persistence").figureLayoutSize, QSizeF(960, 600));
    EXPECT_EQ(appExperiment("streams").measureTimeoutMs, 300000);
}

TEST(ExperimentRegistry, ReadersShowRecordedResultsAndRefuseOthersWithAReason) {
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        std::unique_ptr<ExperimentView> view(experiment.createView(nullptr));
        EXPECT_EQ(experiment.answer(view.get()), nullptr);
        EXPECT_FALSE(experiment.results(view.get()).has_value());
        QString error;
        ASSERT_TRUE(
            experiment.showRecorded(view.get(), readWholeFile(exampleFile(experiment)), &error))
            << qPrintable(error);
        ASSERT_NE(experiment.answer(view.get()), nullptr);
        // The results pass to another view of the same experiment whole (the lecture's slides).
        std::unique_ptr<ExperimentView> copy(experiment.createView(nullptr));
        experiment.setResults(copy.get(), experiment.results(view.get()));
        ASSERT_NE(experiment.answer(copy.get()), nullptr);
        EXPECT_EQ(*experiment.answer(copy.get()), *experiment.answer(view.get()));
        experiment.setResults(copy.get(), std::any());
        EXPECT_EQ(experiment.answer(copy.get()), nullptr);
        // The probe's result object reads as the file does.
        EXPECT_TRUE(experiment.showAnswer(copy.get(), *experiment.answer(view.get()), &error))
            << qPrintable(error);
        error.clear();
        EXPECT_FALSE(experiment.showRecorded(copy.get(), "[1, 2", &error));
        EXPECT_FALSE(error.isEmpty());
        EXPECT_NE(experiment.answer(copy.get()), nullptr) << "a refused file keeps the results";
    }
}

TEST(ExperimentCommandLine, EveryExperimentIsAViewAndTakesItsResultsOption) {
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        CommandLine options;
        const QString file = exampleFile(experiment);
        const auto error = CommandLine::parse(
            {QStringLiteral("warpscope"), QStringLiteral("--view"), experiment.key(),
             QStringLiteral("--") + experiment.resultsOption(), file},
            options);
        ASSERT_FALSE(error) << qPrintable(*error);
        EXPECT_EQ(options.view, experiment.key());
        EXPECT_EQ(options.experimentResults(experiment.key()), QStringList{file});
        for (const AppExperiment& other : appExperiments()) {
            if (&other != &experiment) {
                EXPECT_TRUE(options.experimentResults(other.key()).isEmpty());
            }
        }
    }
    CommandLine options;
    const auto error = CommandLine::parse(
        {QStringLiteral("warpscope"), QStringLiteral("--view"), QStringLiteral("transfer")},
        options);
    ASSERT_TRUE(error);
    EXPECT_TRUE(error->contains(QStringLiteral("l2-persistence"))) << qPrintable(*error);
}

TEST_F(WindowTest, ExperimentsOneTabEachFoundByKeyAndShownByItsPresetId) {
    ASSERT_EQ(window->experimentTabs().size(), appExperiments().size());
    for (const AppExperiment& experiment : appExperiments()) {
        ExperimentTab* tab = window->experimentTab(experiment.tableKey());
        ASSERT_NE(tab, nullptr);
        EXPECT_EQ(&tab->experiment(), &experiment);
        EXPECT_EQ(window->findExperimentTab(experiment.key()), tab);
        const int index = window->viewTabs()->indexOf(tab->view());
        ASSERT_GE(index, 0) << experiment.row->key;
        EXPECT_EQ(window->viewTabs()->tabText(index), experiment.texts().tabTitle);
        EXPECT_TRUE(window->loadPresetById(experiment.key()));
        EXPECT_EQ(window->viewTabs()->currentWidget(), tab->view());
    }
    EXPECT_EQ(window->findExperimentTab(QStringLiteral("grid")), nullptr);
}

// File > Export Figure on an experiment's tab: the dialog offers that tab's chart, chosen first,
// and draws it from the tab's results (the recorded GPU's name is in it); without them, the
// chart the view draws alone. Before, the dialog drew the warp view from an experiment's tab.
TEST_F(WindowTest, ExportFigureDialogOnAnExperimentTabDrawsItsResults) {
    const AppExperiment& transfers = appExperiment(experiments::TransfersExperiment::key);
    ASSERT_TRUE(window->experimentTab(transfers.tableKey())->loadResults(exampleFile(transfers)));
    ExperimentResultsByKey results;
    for (ExperimentTab* tab : window->experimentTabs()) {
        results[std::string(tab->experiment().tableKey())] = tab->results();
    }
    FigureExportDialog dialog(window->currentSession(), transfers.key(), false, nullptr, results);
    EXPECT_EQ(dialog.viewBox()->currentData().toString(), transfers.key());
    const FigureSpec spec = dialog.spec();
    EXPECT_EQ(spec.views, QStringList{transfers.key()});
    const FigureRenderer renderer(window->currentSession());
    QString error;
    const QByteArray drawn = renderer.render(spec, FigureFormat::Svg, &error);
    ASSERT_FALSE(drawn.isEmpty()) << qPrintable(error);
    EXPECT_TRUE(drawn.contains("NVIDIA H100 80GB HBM3"));
    FigureSpec without = spec;
    without.experimentResults.clear();
    const QByteArray alone = renderer.render(without, FigureFormat::Svg, &error);
    EXPECT_FALSE(alone.contains("NVIDIA H100 80GB HBM3"));
    EXPECT_TRUE(alone.contains("the course notes' figures"));
    // The pattern's dialog is unchanged: no experiment among its views.
    FigureExportDialog plain(window->currentSession(), QStringLiteral("warp"), false);
    EXPECT_EQ(plain.viewBox()->findData(transfers.key()), -1);
}

// `--export FILE --view KEY` draws the chart `--export FILE --preset KEY` draws, byte for byte;
// before the registry, --view named only the pattern's views and refused every experiment.
TEST(ExperimentExport, ViewKeyExportsWhatPresetKeyExports) {
    QTemporaryDir dir;
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        const QString byPreset = dir.filePath(experiment.key() + QStringLiteral("-preset.svg"));
        const QString byView = dir.filePath(experiment.key() + QStringLiteral("-view.svg"));
        const QString results = QStringLiteral("--") + experiment.resultsOption();
        runAppHeadless({QStringLiteral("--preset"), experiment.key(), results,
                        exampleFile(experiment), QStringLiteral("--export"), byPreset});
        runAppHeadless({QStringLiteral("--view"), experiment.key(), results,
                        exampleFile(experiment), QStringLiteral("--export"), byView});
        const QByteArray drawn = readWholeFile(byPreset);
        EXPECT_FALSE(drawn.isEmpty());
        EXPECT_EQ(readWholeFile(byView), drawn);
    }
    // A pattern beside an experiment's chart is refused, naming what to drop.
    const QByteArray error =
        runAppHeadless({QStringLiteral("--view"), QStringLiteral("transfers"),
                        QStringLiteral("--preset"), QStringLiteral("readsegment-offset-11"),
                        QStringLiteral("--export"), dir.filePath(QStringLiteral("mixed.svg"))},
                       2);
    EXPECT_TRUE(error.contains("drop --preset")) << error.toStdString();
}

} // namespace
} // namespace warpscope::app::test
